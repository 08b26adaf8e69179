//===- GemmEpilogue.h - A fused epilogue in the GEMM's form -----*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the GEMM's form (compute/Gemm.h; f32 and
// f16) of a fused op's epilogue (common/FusedOps.h), for the kernels that
// run their products through the GEMM (linalg/MatMulKernels.cpp,
// nn/ConvKernels.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMEPILOGUE_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMEPILOGUE_H

#include "common/FusedOps.h"
#include "compute/Gemm.h"

#include <Eigen/Core>

#include <cstdint>
#include <type_traits>

namespace tfrt_fallback::rt::kernels {

/// The GEMM's element for T: float for float, the half's bits (uint16_t)
/// for Eigen::half (hgemm).
template <typename T> struct GemmElement {
  using type = float;
};
template <> struct GemmElement<Eigen::half> {
  using type = uint16_t;
};

/// Whether T's products run in gemm::hgemm: f16 on AArch64, whose kernels
/// for Eigen::half exist only where the CPU has the half arithmetic
/// (InF16OrF32, ComputeInF16.h).
#if defined(__aarch64__)
template <typename T>
inline constexpr bool kHalfGemm = std::is_same_v<T, Eigen::half>;
/// What packs a kernel's constant B: gemm::PackedBCache for f32,
/// gemm::PackedHalfB for f16 (kHalfGemm).
template <typename T>
using PackedConstantB =
    std::conditional_t<kHalfGemm<T>, gemm::PackedHalfB, gemm::PackedBCache>;
#else
template <typename T> inline constexpr bool kHalfGemm = false;
template <typename T> using PackedConstantB = gemm::PackedBCache;
#endif

/// The GEMM's form of `epilogue` (T float for sgemm, Eigen::half for
/// hgemm): bias or batch norm and the Relu-like activations run in the
/// microkernel's registers; the others (Elu, Sigmoid, Tanh, HardSwish)
/// through `epilogue.applyActivation` on each finished row segment, still
/// in L1. `epilogue` must outlive the GEMM call.
template <typename T>
gemm::GemmEpilogueOf<typename GemmElement<T>::type>
gemmEpilogue(const Epilogue<T> &epilogue) {
  using gemm::detail::TileActivation;
  using E = typename GemmElement<T>::type;
  auto elements = [](const T *p) { return reinterpret_cast<const E *>(p); };
  gemm::GemmEpilogueOf<E> out;
  out.tile.bias = elements(epilogue.bias);
  if (!epilogue.bnMean.empty()) {
    out.tile.bnMean = elements(epilogue.bnMean.data());
    out.tile.bnFactor = elements(epilogue.bnFactor.data());
    out.tile.bnOffset = elements(epilogue.bnOffset.data());
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
    out.tile.alpha = static_cast<float>(epilogue.leakyAlpha);
    break;
  case FusedActivation::Prelu:
    if (epilogue.preluScalar) {
      out.tile.activation = TileActivation::LeakyRelu;
      out.tile.alpha = static_cast<float>(epilogue.prelu[0]);
    } else {
      out.tile.activation = TileActivation::Prelu;
      out.tile.prelu = elements(epilogue.prelu);
    }
    break;
  case FusedActivation::Elu:
  case FusedActivation::Sigmoid:
  case FusedActivation::Tanh:
  case FusedActivation::HardSwish:
    out.rowFn = [](const void *ctx, E *row, int64_t col0, int64_t count) {
      static_cast<const Epilogue<T> *>(ctx)->applyActivation(
          reinterpret_cast<T *>(row), col0, count);
    };
    out.rowCtx = &epilogue;
    break;
  }
  return out;
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMEPILOGUE_H
