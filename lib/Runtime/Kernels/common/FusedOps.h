//===- FusedOps.h - Fused epilogues of contractions -------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. The fused-op grammar (_FusedConv2D,
// _FusedDepthwiseConv2dNative, _FusedMatMul's fused_ops) and the epilogue it
// applies to each output row.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_FUSEDOPS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_FUSEDOPS_H

#include "common/Checks.h"
#include "common/Elements.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Status.h"

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <unsupported/Eigen/CXX11/Tensor>
#include <vector>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Fused epilogues (_FusedConv2D, _FusedDepthwiseConv2dNative, _FusedMatMul)
//===----------------------------------------------------------------------===//

enum class FusedActivation {
  None,
  Relu,
  Relu6,
  Elu,
  LeakyRelu,
  Sigmoid,
  Tanh,
  Prelu,
  /// x * scale * Relu6(x + 3) (hard swish, scale 1/6), in the order
  /// TF.js's converter spells it out: (scale * x) * Relu6(x + 3). Not a TF
  /// fused op: tfrt-fallback-fuse makes it, with `hard_swish_scale`.
  HardSwish
};

/// The parsed `fused_ops` list: an optional "BiasAdd" (1 argument) or
/// "FusedBatchNorm" (4 arguments: scale, offset, mean, variance), after
/// "BiasAdd" an optional "Add" (1 argument: a tensor added to the output, a
/// residual connection, as TF's oneDNN _FusedConv2D takes it), then at most
/// one activation; "Prelu" takes one more argument (alpha).
struct FusedOpsSpec {
  bool biasAdd = false;
  bool batchNorm = false;
  bool add = false;
  FusedActivation activation = FusedActivation::None;
  int numArgs = 0;
  /// HardSwish's scale (`hard_swish_scale`).
  float hardSwishScale = 1.0f / 6.0f;
};

/// Parses `ops`; fails with TF's "Fusion is not implemented: [..]", naming
/// `kernel`, for an unsupported list.
inline Status parseFusedOps(const OpKernel &kernel,
                            const std::vector<std::string> &ops,
                            FusedOpsSpec *spec) {
  *spec = FusedOpsSpec();
  size_t i = 0;
  if (i < ops.size() && ops[i] == "BiasAdd") {
    spec->biasAdd = true;
    spec->numArgs = 1;
    ++i;
  } else if (i < ops.size() && ops[i] == "FusedBatchNorm") {
    spec->batchNorm = true;
    spec->numArgs = 4;
    ++i;
  }
  if (spec->biasAdd && i < ops.size() && ops[i] == "Add") {
    spec->add = true;
    ++spec->numArgs;
    ++i;
  }
  if (i < ops.size()) {
    static constexpr std::pair<const char *, FusedActivation> kActs[] = {
        {"Relu", FusedActivation::Relu},
        {"Relu6", FusedActivation::Relu6},
        {"Elu", FusedActivation::Elu},
        {"LeakyRelu", FusedActivation::LeakyRelu},
        {"Sigmoid", FusedActivation::Sigmoid},
        {"Tanh", FusedActivation::Tanh},
        {"Prelu", FusedActivation::Prelu},
        {"HardSwish", FusedActivation::HardSwish}};
    for (const auto &[name, act] : kActs)
      if (ops[i] == name) {
        spec->activation = act;
        ++i;
        break;
      }
    if (spec->activation == FusedActivation::Prelu)
      ++spec->numArgs;
  }
  if (ops.empty() || i != ops.size())
    return kernel.errorf("Fusion is not implemented: [%s]", strJoin(ops, ","));
  return OkStatus();
}

/// Reads fused_ops / num_args / epsilon / leakyrelu_alpha /
/// hard_swish_scale for `kernel` from `ctx`, its construction context.
inline Status readFusedAttrs(const OpKernel &kernel,
                             OpKernelConstructionInterface *ctx,
                             FusedOpsSpec *spec, float *epsilon,
                             float *leakyAlpha) {
  std::vector<std::string> ops;
  if (Status status = ctx->getAttr("fused_ops", &ops); !status.ok())
    return status;
  int64_t numArgs = 0;
  if (Status status = ctx->getAttr("num_args", &numArgs); !status.ok())
    return status;
  if (Status status = getOptionalAttr(ctx, "epsilon", epsilon); !status.ok())
    return status;
  if (Status status = getOptionalAttr(ctx, "leakyrelu_alpha", leakyAlpha);
      !status.ok())
    return status;
  if (Status status = parseFusedOps(kernel, ops, spec); !status.ok())
    return status;
  if (Status status =
          getOptionalAttr(ctx, "hard_swish_scale", &spec->hardSwishScale);
      !status.ok())
    return status;
  if (numArgs != spec->numArgs)
    return kernel.errorf("fused_ops [%s] need %d extra arguments, num_args is "
                         "%d",
                         strJoin(ops, ","), spec->numArgs, numArgs);
  return OkStatus();
}

/// The runtime epilogue applied to each output row of `channels` values:
/// bias add or batch norm ((x - mean) * scale * rsqrt(variance + epsilon)
/// + offset, in TF's order) then the activation.
template <typename T> struct Epilogue {
  FusedActivation activation = FusedActivation::None;
  const T *bias = nullptr;
  std::vector<T> bnMean, bnFactor, bnOffset;
  T leakyAlpha = T(0.2);
  T hardSwishScale = T(1) / T(6);
  const T *prelu = nullptr;
  bool preluScalar = false;
  /// Fused "Add": each output value also gets the value `addendOffset`
  /// bytes from it (an addend laid out like the output; setAddend()).
  bool addend = false;
  ptrdiff_t addendOffset = 0;

  bool empty() const {
    return !bias && bnMean.empty() && !addend &&
           activation == FusedActivation::None;
  }

  /// Adds `add` (shaped like the output at `out`) before the activation.
  void setAddend(const T *add, const T *out) {
    addend = true;
    addendOffset = reinterpret_cast<const char *>(add) -
                   reinterpret_cast<const char *>(out);
  }

  /// Prepares the epilogue of `kernel` from the extra arguments `args` (as
  /// many as spec.numArgs) for `channels` output channels.
  Status init(const OpKernel &kernel, const FusedOpsSpec &spec,
              absl::Span<const Tensor *> args, int64_t channels, float epsilon,
              float alpha) {
    activation = spec.activation;
    leakyAlpha = static_cast<T>(alpha);
    hardSwishScale = static_cast<T>(spec.hardSwishScale);
    size_t next = 0;
    auto vectorArg = [&](const char *what, const T **out) -> Status {
      const Tensor &t = *args[next++];
      if (t.dtype() != dtypeOf<T>() || t.numElements() != channels)
        return kernel.errorf(
            "%s must have %d elements of the output type, got shape %s", what,
            channels, t.shape().toString());
      *out = t.data<T>();
      return OkStatus();
    };
    if (spec.biasAdd) {
      if (Status status = vectorArg("bias", &bias); !status.ok())
        return status;
    } else if (spec.batchNorm) {
      const T *scale, *offset, *mean, *variance;
      for (auto [what, ptr] :
           {std::pair<const char *, const T **>{"scale", &scale},
            {"offset", &offset},
            {"mean", &mean},
            {"variance", &variance}}) {
        if (Status status = vectorArg(what, ptr); !status.ok())
          return status;
      }
      bnMean.assign(mean, mean + channels);
      bnOffset.assign(offset, offset + channels);
      bnFactor.resize(channels);
      // In float for the 16-bit types (rounded once), as is for f32 and f64.
      using Wide = std::conditional_t<std::is_same_v<T, double>, double, float>;
      for (int64_t c = 0; c < channels; ++c)
        bnFactor[c] = static_cast<T>(static_cast<Wide>(scale[c]) /
                                     std::sqrt(static_cast<Wide>(variance[c]) +
                                               static_cast<Wide>(epsilon)));
    }
    if (spec.add)
      ++next; // The addend: the kernel binds it with setAddend().
    if (activation == FusedActivation::Prelu) {
      const Tensor &t = *args[next++];
      if (t.dtype() != dtypeOf<T>() ||
          (t.numElements() != channels && t.numElements() != 1))
        return kernel.errorf("prelu alpha must have 1 or %d elements, got "
                             "shape %s",
                             channels, t.shape().toString());
      prelu = t.data<T>();
      preluScalar = t.numElements() == 1 && channels != 1;
    }
    return OkStatus();
  }

  /// Applies the epilogue to `n` values of channels [c0, c0 + n) at `row`.
  void apply(T *row, int64_t c0, int64_t n) const {
    ArrayMap<T> x(row, n);
    if (bias)
      x += ConstArrayMap<T>(bias + c0, n);
    else if (!bnMean.empty())
      x = (x - ConstArrayMap<T>(bnMean.data() + c0, n)) *
              ConstArrayMap<T>(bnFactor.data() + c0, n) +
          ConstArrayMap<T>(bnOffset.data() + c0, n);
    if (addend)
      x += ConstArrayMap<T>(
          reinterpret_cast<const T *>(reinterpret_cast<const char *>(row) +
                                      addendOffset),
          n);
    applyActivation(row, c0, n);
  }

  /// Applies the activation alone (no bias or batch norm) to `n` values of
  /// channels [c0, c0 + n) at `row`.
  void applyActivation(T *row, int64_t c0, int64_t n) const {
    ArrayMap<T> x(row, n);
    switch (activation) {
    case FusedActivation::None:
      break;
    case FusedActivation::Relu:
      x = x.max(T(0));
      break;
    case FusedActivation::Relu6:
      x = x.max(T(0)).min(T(6));
      break;
    case FusedActivation::Elu:
      x = (x < T(0)).select(x.exp() - T(1), x);
      break;
    case FusedActivation::LeakyRelu:
      x = (x > T(0)).select(x, x * leakyAlpha);
      break;
    case FusedActivation::Sigmoid:
      x = x.logistic();
      break;
    case FusedActivation::Tanh:
      x = x.tanh();
      break;
    case FusedActivation::Prelu:
      if (preluScalar)
        x = (x > T(0)).select(x, x * prelu[0]);
      else
        x = (x > T(0)).select(x, x * ConstArrayMap<T>(prelu + c0, n));
      break;
    case FusedActivation::HardSwish:
      // The spelled-out graph's rounding: (scale * x) * Relu6(x + 3).
      x = (x * hardSwishScale) * (x + T(3)).max(T(0)).min(T(6));
      break;
    }
  }
};

/// Eigen contraction output kernel applying an Epilogue to each finished
/// block. The output is row-major, so Eigen swaps the operands and a
/// block's rows are output channels [i, i + numRows) and its columns are
/// output rows (pixels).
template <typename T> struct EpilogueOutputKernel {
  const Epilogue<T> *epilogue = nullptr;

  template <typename Index, typename Scalar>
  EIGEN_ALWAYS_INLINE void
  operator()(const Eigen::internal::blas_data_mapper<Scalar, Index,
                                                     Eigen::ColMajor> &mapper,
             const Eigen::TensorContractionParams &, Index i, Index,
             Index numRows, Index numCols) const {
    if (!epilogue || epilogue->empty())
      return;
    for (Index col = 0; col < numCols; ++col)
      epilogue->apply(&mapper(0, col), i, numRows);
  }
};

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_FUSEDOPS_H
