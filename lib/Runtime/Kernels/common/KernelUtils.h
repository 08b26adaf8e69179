//===- KernelUtils.h - Helpers shared by the kernel families ----*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: how built-in kernels register (by OpId,
// subject to the build's kernel selection), the dtype list and index helpers of
// the kernels that move raw elements, optional attribute readers, Eigen array
// maps over raw row pointers, the unary elementwise kernel used by both the
// math (Exp, Neg) and the activation (Relu, Sigmoid, ...) families, window
// geometry and fused epilogues.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_KERNELUTILS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_KERNELUTILS_H

#include "common/KernelSelection.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Limits.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Shape/Window.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "tfrt_fallback/Runtime/StrCat.h"

#include "absl/functional/function_ref.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Registering built-in kernels
//===----------------------------------------------------------------------===//
//
// Built-in kernels register under an OpId (an op of OpTable.def) with these
// two forms, never with a runtime op name, so that a selective build
// (KernelSelection.h) drops each (op, dtype) it does not keep at compile
// time:
//
//   // One class per dtype: a def, and an instantiation, per (op, dtype).
//   registerKernel<OpId::kRelu, ReluKernel, float, double>(registry);
//   // One class for every dtype of the op (it dispatches on its operands),
//   // with optional type constraints:
//   registerKernel<OpId::kIdentity, IdentityKernel>(registry);
//   registerKernel<OpId::kReshape, ReshapeKernel>(
//       registry, {{"Tshape", {DType::I32, DType::I64}}});

template <typename T> struct TypeTag {
  using type = T;
};

/// A type constraint of registerKernel's second form.
struct TypeConstraintSpec {
  std::string_view attrName;
  absl::Span<const DType> allowed;
};

/// The shape rule a kernel class computes its output by, when it declares
/// one (`static constexpr OpShapeRule kShapeRule`, as the elementwise
/// kernel templates do); Custom when it does not.
template <typename KernelClass, typename = void>
inline constexpr OpShapeRule kKernelShapeRule = OpShapeRule::Custom;
template <typename KernelClass>
inline constexpr OpShapeRule kKernelShapeRule<
    KernelClass, std::void_t<decltype(KernelClass::kShapeRule)>> =
    KernelClass::kShapeRule;

/// Whether op `Op`'s row of OpTable.def has the shape rule `KernelClass`
/// declares: the compiler infers shapes and plans buffers from the row, the
/// kernel computes them by its rule, so the two must agree.
template <OpId Op, typename KernelClass> constexpr bool rowMatchesKernel() {
  return kKernelShapeRule<KernelClass> == OpShapeRule::Custom ||
         kKernelShapeRule<KernelClass> == kOpRow<Op>.shapeRule;
}

/// Every registration below checks rowMatchesKernel at compile time.
template <OpId Op, typename KernelClass>
constexpr void checkRowMatchesKernel() {
  static_assert(rowMatchesKernel<Op, KernelClass>(),
                "the op's row in OpTable.def must have the Shape rule of the "
                "kernel template that registers it (SameAsInput for the unary "
                "elementwise kernels, Broadcast for BinaryOpKernel)");
}

/// Registers `Kernel<T>` for op `Op` and each T of Ts, in that order, each
/// under a def of its own (type attribute "T" equal to T's dtype), unless
/// the build's kernel selection leaves (Op, T) out.
template <OpId Op, template <typename> class Kernel, typename... Ts>
void registerKernel(KernelRegistry &registry) {
  static_assert(sizeof...(Ts) > 0, "name the dtypes to register for");
  auto registerOne = [&](auto tag) {
    using T = typename decltype(tag)::type;
    checkRowMatchesKernel<Op, Kernel<T>>();
    if constexpr (isKernelSelected(Op, dtypeOf<T>()))
      rt::registerKernel<Kernel<T>>(
          registry, KernelDefBuilder(kOpRow<Op>).typeConstraint<T>("T"));
  };
  (registerOne(TypeTag<Ts>{}), ...);
}

/// Registers `KernelClass` for op `Op` under `constraints` (none: every
/// dtype), unless the build's kernel selection leaves `Op` out.
template <OpId Op, typename KernelClass>
void registerKernel(
    KernelRegistry &registry,
    std::initializer_list<TypeConstraintSpec> constraints = {}) {
  checkRowMatchesKernel<Op, KernelClass>();
  if constexpr (isOpSelected(Op)) {
    KernelDefBuilder builder(kOpRow<Op>);
    for (const TypeConstraintSpec &constraint : constraints)
      builder.typeConstraint(constraint.attrName, constraint.allowed);
    rt::registerKernel<KernelClass>(registry, builder);
  }
}

/// Registers `KernelClass`, a kernel's string form, for op `Op` with type
/// attribute `attrName` equal to string, unless the build's kernel
/// selection leaves (Op, string) out. String kernels are classes of their
/// own (e.g. the `Strings = true` instantiation of a data-movement kernel),
/// so the numeric ones never carry string code.
template <OpId Op, typename KernelClass>
void registerStringKernel(KernelRegistry &registry,
                          std::string_view attrName = "T") {
  if constexpr (isKernelSelected(Op, DType::String))
    rt::registerKernel<KernelClass>(
        registry,
        KernelDefBuilder(opName(Op)).typeConstraint(attrName, {DType::String}));
}

/// How many items of [0, n) go in one block when each costs `cyclesPerItem`
/// and `threads` threads may share them: blocks of at least ~20,000 cycles,
/// about four per thread for balance; n when one thread should do it all
/// (ParallelFor.cpp).
Eigen::Index parallelBlockSize(int threads, Eigen::Index n,
                               double cyclesPerItem);

/// Runs `f(first, last)` on blocks of at most `blockSize` items covering
/// [0, n): the calling thread and the device's pool threads each own an
/// equal contiguous share of the items (the caller the first), run it in
/// blocks, then what is left of the others', and the call returns once
/// every block has run (ParallelFor.cpp). A block never crosses a share's
/// end, so calls over the same rows split them at the same rows whatever
/// their block sizes. Safe to nest: the caller never waits for a block
/// nobody has started.
void parallelForBlocks(const Eigen::ThreadPoolDevice &device, Eigen::Index n,
                       Eigen::Index blockSize,
                       absl::FunctionRef<void(Eigen::Index, Eigen::Index)> f);

/// Runs `f(first, last)` over [0, n) on `device`, like
/// Eigen::ThreadPoolDevice::parallelFor with its cost model, but the calling
/// thread runs blocks too (Eigen's hands them all to the pool and sleeps
/// when there are more blocks than threads) and no block waits for a thread
/// to wake up (the pool's threads spin briefly between tasks); `f` is called
/// directly when the device has one thread, there is one item, or the work
/// is too small to share. `args` are the optional block-align function
/// (then Eigen's parallelFor runs) followed by `f`.
template <typename... Args>
void parallelFor(const Eigen::ThreadPoolDevice &device, Eigen::Index n,
                 const Eigen::TensorOpCost &cost, Args &&...args) {
  if (n <= 0)
    return;
  auto &&f = std::get<sizeof...(Args) - 1>(std::forward_as_tuple(args...));
  if (n == 1 || device.numThreads() <= 1) {
    f(Eigen::Index(0), n);
    return;
  }
  if constexpr (sizeof...(Args) == 1) {
    const Eigen::Index blockSize = parallelBlockSize(
        device.numThreads(), n,
        Eigen::TensorCostModel<Eigen::ThreadPoolDevice>::totalCost(1, cost));
    if (blockSize >= n) {
      f(Eigen::Index(0), n);
      return;
    }
    parallelForBlocks(device, n, blockSize, f);
  } else {
    device.parallelFor(n, cost, std::forward<Args>(args)...);
  }
}

//===----------------------------------------------------------------------===//
// Dtypes and index tensors (shared by the data-movement and gather/scatter
// families)
//===----------------------------------------------------------------------===//

/// Every dtype a tensor can hold (the buffer dtypes of DTypes.def, in its
/// order): what kernels that move raw elements (data movement, Gather,
/// ZerosLike, ...) and Cast are registered for, as TF registers them on CPU
/// for every type.
/// Complex and quantized dtypes opt in kernel by kernel (DTypes.def).
inline constexpr DType kAllDTypes[] = {
#define TFRT_FALLBACK_DTYPE(Enum, ...) DType::Enum,
#define TFRT_FALLBACK_DTYPE_OPT_IN(...)
#include "tfrt_fallback/Runtime/DTypes.def"
};

/// Element `i` of an int32 or int64 tensor as int64.
inline int64_t indexAt(const Tensor &t, int64_t i) {
  return t.dtype() == DType::I32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
}

inline bool isIndexTensor(const Tensor &t) {
  return t.dtype() == DType::I32 || t.dtype() == DType::I64;
}

/// Input `index` must have `dtype`: the loader checks the dtypes that type
/// attributes bind, a kernel those its OpDef fixes. InvalidArgument "input
/// 1 must be int32, got int64" naming `op` otherwise.
inline Status checkInputDType(const OpKernel &op, OpKernelContextInterface *ctx,
                              int index, DType dtype) {
  const DType got = ctx->input(index).dtype();
  if (got != dtype)
    return op.errorf("input %d must be %s, got %s", index, dtypeName(dtype),
                     dtypeName(got));
  return OkStatus();
}

/// Calls f(E{}) with an unsigned integer type E as wide as one element of
/// `dtype`.
template <typename F> void dispatchElementSize(DType dtype, F &&f) {
  switch (dtypeSize(dtype)) {
  case 1:
    return f(uint8_t{});
  case 2:
    return f(uint16_t{});
  case 4:
    return f(uint32_t{});
  default:
    return f(uint64_t{});
  }
}

/// TF's SliceDebugString: "" for rank 0, "[i]" for rank 1, "[i,j,...]" with
/// the coordinates of flat position `flat` in `dims` otherwise.
inline std::string sliceDebugString(absl::Span<const int64_t> dims,
                                    int64_t flat) {
  if (dims.empty())
    return "";
  std::vector<int64_t> coords(dims.size());
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    coords[d] = dims[d] == 0 ? 0 : flat % dims[d];
    flat = dims[d] == 0 ? 0 : flat / dims[d];
  }
  return strCat("[", strJoin(coords, ","), "]");
}

/// Validates [n, k] index tuples against dims[0:k] and returns the element
/// offsets (in units of `inner`-sized slices) into a row-major tensor of
/// `dims`. On error, returns the first bad tuple's row in *bad.
inline bool flattenIndexTuples(const Tensor &indices, int64_t n, int64_t k,
                               absl::Span<const int64_t> dims,
                               std::vector<int64_t> *offsets, int64_t *bad) {
  offsets->resize(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t v = indexAt(indices, i * k + j);
      if (v < 0 || v >= dims[j]) {
        *bad = i;
        return false;
      }
      offset = offset * dims[j] + v;
    }
    (*offsets)[i] = offset;
  }
  return true;
}

inline std::string tupleString(const Tensor &indices, int64_t row, int64_t k) {
  std::vector<int64_t> values;
  for (int64_t j = 0; j < k; ++j)
    values.push_back(indexAt(indices, row * k + j));
  return strJoin(values, ", ");
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// `status` (an error of the shape layer, lib/Runtime/Shape, which names
/// no op) as the error of `kernel`: "<op> '<node>': <message>", same code.
inline Status opError(const OpKernel &kernel, const Status &status) {
  return makeOpError(status.code(), kernel.opName(), kernel.nodeName(),
                     status.message());
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

/// Reads optional attribute `name` into `*value`, keeping the TF default
/// already stored there when the attribute is absent.
template <typename T>
Status getOptionalAttr(OpKernelConstructionInterface *ctx,
                       std::string_view name, T *value) {
  if (!ctx->hasAttr(name))
    return OkStatus();
  return ctx->getAttr(name, value);
}

//===----------------------------------------------------------------------===//
// Eigen views of raw rows
//===----------------------------------------------------------------------===//

/// Unaligned 1-D array views (see Tensor.h on alignment).
template <typename T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

/// Per-element cost for Eigen's parallelFor cost model: `loads` and
/// `stores` elements of T and `cycles` compute cycles.
template <typename T>
Eigen::TensorOpCost elementCost(int loads, int stores, double cycles) {
  return Eigen::TensorOpCost(loads * sizeof(T), stores * sizeof(T), cycles);
}

//===----------------------------------------------------------------------===//
// Unary elementwise kernels
//===----------------------------------------------------------------------===//

/// out = F::apply(in) elementwise, where F::apply maps a ConstArrayMap<T> to
/// an Eigen array expression and F::kCost estimates cycles per element. The
/// output forwards input 0 when the executor allows it; the computation is
/// split into contiguous chunks over the Eigen device's threads.
template <typename T, typename F> class UnaryOpKernel final : public OpKernel {
public:
  static constexpr OpShapeRule kShapeRule = OpShapeRule::SameAsInput;

  explicit UnaryOpKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), in.numElements(), elementCost<T>(1, 1, F::kCost),
        [src, dst](Eigen::Index first, Eigen::Index last) {
          ArrayMap<T>(dst + first, last - first) =
              F::apply(ConstArrayMap<T>(src + first, last - first));
        });
  }
};

/// The UnaryOpKernel of functor template F, as a class template over the
/// element type, to register for several dtypes.
template <template <typename> class F> struct UnaryFamily {
  template <typename T> using Kernel = UnaryOpKernel<T, F<T>>;
};

//===----------------------------------------------------------------------===//
// Convolution / pooling windows (shared by the Conv, Pooling and MatMul
// families)
//===----------------------------------------------------------------------===//

// The rules are the shape layer's (Shape/Window.h), which the compiler's
// shape inference uses too; these adapt them to the kernels' errors.
using WindowPadding = shape::Padding;
using WindowDim = shape::WindowDim;

/// Reads the node's "padding" attribute (TF's Padding): "SAME", "VALID"
/// and, when `allowExplicit`, "EXPLICIT". Any other value is the one error
/// every kernel gives, shape::parsePadding's ("Invalid padding 'FULL'"),
/// naming `kernel`.
inline Status readPadding(const OpKernel &kernel,
                          OpKernelConstructionInterface *ctx,
                          bool allowExplicit, WindowPadding *out) {
  std::string name;
  if (Status status = ctx->getAttr("padding", &name); !status.ok())
    return status;
  StatusOr<WindowPadding> padding = shape::parsePadding(name, allowExplicit);
  if (!padding.ok())
    return opError(kernel, padding.status());
  *out = *padding;
  return OkStatus();
}

/// shape::windowedOutputSize, its error naming `kernel`.
inline Status computeWindow(const OpKernel &kernel, int64_t in, int64_t k,
                            int64_t dilation, int64_t stride,
                            WindowPadding padding, int64_t explicitBefore,
                            int64_t explicitAfter, WindowDim *dim) {
  StatusOr<WindowDim> window = shape::windowedOutputSize(
      in, k, dilation, stride, padding, explicitBefore, explicitAfter);
  if (!window.ok())
    return opError(kernel, window.status());
  *dim = *window;
  return OkStatus();
}

/// Copies an NCHW tensor of `n` images, `c` channels and `hw` pixels to
/// NHWC (`toNhwc`) or back.
template <typename T>
void transposeChannels(const T *in, T *out, int64_t n, int64_t c, int64_t hw,
                       bool toNhwc) {
  for (int64_t b = 0; b < n; ++b) {
    const T *src = in + b * c * hw;
    T *dst = out + b * c * hw;
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t p = 0; p < hw; ++p) {
        if (toNhwc)
          dst[p * c + ch] = src[ch * hw + p];
        else
          dst[ch * hw + p] = src[p * c + ch];
      }
  }
}

/// A per-thread scratch buffer of at least `n` elements, reused across
/// calls (slot distinguishes buffers needed at the same time).
template <typename T, int Slot> T *threadScratch(size_t n) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < n)
    buffer.resize(n);
  return buffer.data();
}

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
      for (int64_t c = 0; c < channels; ++c)
        bnFactor[c] =
            scale[c] / std::sqrt(variance[c] + static_cast<T>(epsilon));
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

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_KERNELUTILS_H
