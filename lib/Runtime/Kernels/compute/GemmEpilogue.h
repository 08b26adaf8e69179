//===- GemmEpilogue.h - A fused epilogue in the GEMM's form -----*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the f32 GEMM's form (compute/Gemm.h) of a
// fused op's epilogue (common/FusedOps.h), for the kernels that run
// their products through the GEMM (linalg/MatMulKernels.cpp,
// nn/ConvKernels.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMEPILOGUE_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMEPILOGUE_H

#include "common/FusedOps.h"
#include "compute/Gemm.h"

namespace tfrt_fallback::rt::kernels {

/// The f32 GEMM's form of `epilogue`: bias or batch norm and the Relu-like
/// activations run in the microkernel's registers; the others (Elu,
/// Sigmoid, Tanh) through `epilogue.applyActivation` on each finished row
/// segment, still in L1. `epilogue` must outlive the GEMM call.
inline gemm::GemmEpilogue gemmEpilogue(const Epilogue<float> &epilogue) {
  using gemm::detail::TileActivation;
  gemm::GemmEpilogue out;
  out.tile.bias = epilogue.bias;
  if (!epilogue.bnMean.empty()) {
    out.tile.bnMean = epilogue.bnMean.data();
    out.tile.bnFactor = epilogue.bnFactor.data();
    out.tile.bnOffset = epilogue.bnOffset.data();
  }
  out.tile.addend = epilogue.addend;
  out.tile.addendOffset = epilogue.addendOffset;
  switch (epilogue.activation) {
  case FusedActivation::None:
    break;
  case FusedActivation::Relu:
    out.tile.activation = TileActivation::Relu;
    break;
  case FusedActivation::Relu6:
    out.tile.activation = TileActivation::Relu6;
    break;
  case FusedActivation::LeakyRelu:
    out.tile.activation = TileActivation::LeakyRelu;
    out.tile.alpha = epilogue.leakyAlpha;
    break;
  case FusedActivation::Prelu:
    if (epilogue.preluScalar) {
      out.tile.activation = TileActivation::LeakyRelu;
      out.tile.alpha = epilogue.prelu[0];
    } else {
      out.tile.activation = TileActivation::Prelu;
      out.tile.prelu = epilogue.prelu;
    }
    break;
  case FusedActivation::Elu:
  case FusedActivation::Sigmoid:
  case FusedActivation::Tanh:
  case FusedActivation::HardSwish:
    out.rowFn = [](const void *ctx, float *row, int64_t col0, int64_t count) {
      static_cast<const Epilogue<float> *>(ctx)->applyActivation(row, col0,
                                                                 count);
    };
    out.rowCtx = &epilogue;
    break;
  }
  return out;
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMEPILOGUE_H
