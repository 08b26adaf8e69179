//===- TFRTFallbackFuse.cpp - fuse contraction epilogues --------*- C++ -*-===//
//
// The --tfrt-fallback-fuse pass: a tf.Conv2D, tf.DepthwiseConv2dNative or
// tf.MatMul followed by a bias (tf.BiasAdd, or tf.Add/tf.AddV2 of a 1-D
// value with one element per output channel) and an activation becomes one
// fused kernel (tf._FusedConv2D, tf._FusedDepthwiseConv2dNative,
// tf._FusedMatMul), as TensorFlow's grappler remapper and its MLIR
// tf-fused-kernel-matcher do. Fused ops that carry only a bias (TF.js's
// converter writes those) take a following activation too.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Runtime/OpTable.h"
#include "tfrt_fallback/Transforms/KernelManifest.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <cstring>
#include <optional>

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFRTFALLBACKFUSE
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
/// What a contraction op fuses into.
struct ContractionKind {
  StringRef name;      // "Conv2D"
  StringRef fusedName; // "_FusedConv2D"
};
} // namespace

static constexpr ContractionKind kContractions[] = {
    {"Conv2D", "_FusedConv2D"},
    {"DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative"},
    {"MatMul", "_FusedMatMul"},
};

/// Fused ops that may take an activation after their bias.
static constexpr StringRef kFusedOps[] = {
    "_FusedConv2D", "_FusedDepthwiseConv2dNative", "FusedDepthwiseConv2dNative",
    "_FusedMatMul"};

/// Fused convolutions: they also take a PReLU or a hard swish after their
/// bias, and a Relu6 after their Relu.
static constexpr StringRef kFusedConvolutions[] = {
    "_FusedConv2D", "_FusedDepthwiseConv2dNative",
    "FusedDepthwiseConv2dNative"};

/// Convolutions, fused or not, that a zero padding before them folds into.
static constexpr StringRef kPaddedConvolutions[] = {
    "Conv2D", "DepthwiseConv2dNative", "_FusedConv2D",
    "_FusedDepthwiseConv2dNative", "FusedDepthwiseConv2dNative"};

static constexpr StringRef kBatchNorms[] = {
    "FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"};

/// The op's name without "tf.", or "" for an op of another dialect.
static StringRef tfName(Operation *op) {
  // An op ordered by a control edge keeps its own kernel call.
  if (!op || op->getName().getDialectNamespace() != "tf" || tf::isOrdered(op))
    return "";
  return op->getName().stripDialect();
}

/// The only user of `value`, or null.
static Operation *soleUser(Value value) {
  if (!value.hasOneUse())
    return nullptr;
  return *value.getUsers().begin();
}

/// Whether the op's data_format is NHWC (TF's default when absent).
static bool isNHWC(Operation *op) {
  auto format = op->getAttrOfType<StringAttr>("data_format");
  return !format || format.getValue() == "NHWC";
}

/// The static size of dimension `dim` of `value`'s type, if known.
static std::optional<int64_t> staticDim(Value value, int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || dim >= type.getRank() || type.isDynamicDim(dim))
    return std::nullopt;
  return type.getDimSize(dim);
}

/// The output channels of contraction `op` (named `name`), from its filter
/// or right-hand operand's static shape.
static std::optional<int64_t> outputChannels(Operation *op, StringRef name) {
  if (op->getNumOperands() < 2)
    return std::nullopt;
  Value filter = op->getOperand(1);
  auto type = dyn_cast<RankedTensorType>(filter.getType());
  if (name == "MatMul") {
    if (!type || type.getRank() != 2)
      return std::nullopt;
    auto transposeB = op->getAttrOfType<BoolAttr>("transpose_b");
    return staticDim(filter, transposeB && transposeB.getValue() ? 0 : 1);
  }
  if (!type || type.getRank() != 4)
    return std::nullopt;
  if (name == "DepthwiseConv2dNative") {
    auto in = staticDim(filter, 2), multiplier = staticDim(filter, 3);
    if (!in || !multiplier)
      return std::nullopt;
    return *in * *multiplier;
  }
  // Conv2D and the fused forms of the convolutions: [h, w, in, out], or
  // [h, w, in, multiplier] for the depthwise ones.
  if (name.contains("Depthwise")) {
    auto in = staticDim(filter, 2), multiplier = staticDim(filter, 3);
    if (!in || !multiplier)
      return std::nullopt;
    return *in * *multiplier;
  }
  return staticDim(filter, 3);
}

/// The element type of the op's first result when it is one the fused
/// kernels compute in (f32, f64, and f16 and bf16: the runtime's fused
/// convolutions and matrix products take them, in f16 arithmetic where the
/// CPU has it, else through f32).
static Type fusableElementType(Operation *op) {
  if (op->getNumResults() != 1)
    return nullptr;
  auto type = dyn_cast<TensorType>(op->getResult(0).getType());
  if (!type)
    return nullptr;
  Type element = type.getElementType();
  if (!(element.isF32() || element.isF64() || element.isF16() ||
        element.isBF16()))
    return nullptr;
  return element;
}

/// The bias operand when `op` (the only user of `input`) adds a 1-D value
/// of `channels` elements of `elementType` to it per channel, else null.
static Value matchBias(Operation *op, Value input, int64_t channels,
                       Type elementType) {
  StringRef name = tfName(op);
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return nullptr;
  Value bias;
  if (name == "BiasAdd") {
    if (op->getOperand(0) != input || !isNHWC(op))
      return nullptr;
    bias = op->getOperand(1);
  } else if (name == "Add" || name == "AddV2") {
    if (op->getOperand(0) == op->getOperand(1))
      return nullptr;
    bias = op->getOperand(0) == input ? op->getOperand(1) : op->getOperand(0);
  } else {
    return nullptr;
  }
  auto type = dyn_cast<RankedTensorType>(bias.getType());
  if (!type || type.getRank() != 1 || type.isDynamicDim(0) ||
      type.getDimSize(0) != channels || type.getElementType() != elementType)
    return nullptr;
  return bias;
}

/// The elements of `value` when it is a tf.Const of f32 elements (inline or
/// a dense_resource blob), else nothing.
static std::optional<SmallVector<float>> constantF32Values(Value value) {
  Operation *def = value.getDefiningOp();
  if (tfName(def) != "Const")
    return std::nullopt;
  auto elements = def->getAttrOfType<ElementsAttr>("value");
  if (!elements || !elements.getElementType().isF32() ||
      !elements.getShapedType().hasStaticShape())
    return std::nullopt;
  const int64_t count = elements.getNumElements();
  if (auto dense = dyn_cast<DenseElementsAttr>(elements)) {
    auto values = dense.getValues<float>();
    return SmallVector<float>(values.begin(), values.end());
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(elements)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != count * sizeof(float))
      return std::nullopt;
    SmallVector<float> values(count);
    std::memcpy(values.data(), blob->getData().data(), count * sizeof(float));
    return values;
  }
  return std::nullopt;
}

/// The one value of a scalar f32 tf.Const, else nothing.
static std::optional<float> scalarF32(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  std::optional<SmallVector<float>> values = constantF32Values(value);
  if (!type || type.getRank() != 0 || !values || values->size() != 1)
    return std::nullopt;
  return (*values)[0];
}

/// True if `scale` broadcasts over the channels of a value of rank `rank`
/// with `channels` channels without changing its shape: a scalar, [C], [1],
/// or [1, ..., 1, C] of at most `rank` dimensions.
static bool scalesChannels(Value scale, int64_t rank, int64_t channels) {
  auto type = dyn_cast<RankedTensorType>(scale.getType());
  if (!type || !type.hasStaticShape() || type.getRank() > rank)
    return false;
  for (int64_t i = 0; i + 1 < type.getRank(); ++i)
    if (type.getDimSize(i) != 1)
      return false;
  return type.getRank() == 0 || type.getDimSize(type.getRank() - 1) == 1 ||
         type.getDimSize(type.getRank() - 1) == channels;
}

/// The integer elements of `value` when it is a tf.Const of integers.
static std::optional<SmallVector<int64_t>> constantInts(Value value) {
  Operation *def = value.getDefiningOp();
  if (tfName(def) != "Const")
    return std::nullopt;
  auto dense = def->getAttrOfType<DenseIntElementsAttr>("value");
  if (!dense)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

/// A new tf.Const of `type` holding `values`, at `builder`'s insertion point.
static Value makeF32Const(OpBuilder &builder, Location loc,
                          RankedTensorType type, ArrayRef<float> values) {
  OperationState state(loc, "tf.Const");
  state.addTypes(type);
  state.addAttribute("dtype", TypeAttr::get(type.getElementType()));
  state.addAttribute("value", DenseElementsAttr::get(type, values));
  return builder.create(state)->getResult(0);
}

/// Erases the tf.Const ops among `defs` (the definitions of operands of ops
/// a rewrite removed) that nothing uses any more.
static void eraseUnusedConstants(PatternRewriter &rewriter,
                                 ArrayRef<Operation *> defs) {
  for (Operation *def :
       llvm::SmallSetVector<Operation *, 4>(defs.begin(), defs.end()))
    if (def && tfName(def) == "Const" && def->use_empty())
      rewriter.eraseOp(def);
}

/// Gives convolution `conv` a new constant filter of `type` holding
/// `values`; the old one goes when nothing else uses it.
static void replaceFilter(PatternRewriter &rewriter, Operation *conv,
                          RankedTensorType type, ArrayRef<float> values) {
  rewriter.setInsertionPoint(conv);
  Value filter =
      makeF32Const(rewriter, conv->getOperand(1).getLoc(), type, values);
  Operation *oldFilter = conv->getOperand(1).getDefiningOp();
  rewriter.modifyOpInPlace(conv, [&] { conv->setOperand(1, filter); });
  eraseUnusedConstants(rewriter, oldFilter);
}

/// The operand of binary `op` that is not `value`, when exactly one is.
static Value otherOperand(Operation *op, Value value) {
  if (op->getNumOperands() != 2 || op->getOperand(0) == op->getOperand(1))
    return nullptr;
  if (op->getOperand(0) == value)
    return op->getOperand(1);
  if (op->getOperand(1) == value)
    return op->getOperand(0);
  return nullptr;
}

/// Whether the target runtime has `fusedName` for `elementType`.
static bool hasKernel(const KernelManifest &manifest, StringRef fusedName,
                      Type elementType) {
  MLIRContext *context = elementType.getContext();
  auto attrs = DictionaryAttr::get(
      context, {NamedAttribute(StringAttr::get(context, "T"),
                               TypeAttr::get(elementType))});
  return manifest.supports(fusedName, attrs);
}

/// The fused_ops of `op` when they are one to `maxSize` names starting with
/// "BiasAdd", else null.
static ArrayAttr biasFusedOps(Operation *op, size_t maxSize) {
  auto fusedOps = op->getAttrOfType<ArrayAttr>("fused_ops");
  if (!fusedOps || fusedOps.empty() || fusedOps.size() > maxSize)
    return nullptr;
  auto first = dyn_cast<StringAttr>(fusedOps[0]);
  return first && first.getValue() == "BiasAdd" ? fusedOps : nullptr;
}

/// The last of `op`'s fused_ops, or "".
static StringRef lastFusedOp(Operation *op) {
  auto fusedOps = op->getAttrOfType<ArrayAttr>("fused_ops");
  if (!fusedOps || fusedOps.empty())
    return "";
  auto last = dyn_cast<StringAttr>(fusedOps[fusedOps.size() - 1]);
  return last ? last.getValue() : "";
}

//===----------------------------------------------------------------------===//
// Matchers shared by patterns
//===----------------------------------------------------------------------===//

namespace {
/// A clip to [0, 6], `outer(inner(x, innerBound), outerBound)` with
/// Maximum/Minimum or Minimum/Maximum, rooted at `outer`.
struct Clip {
  Operation *inner;
  Value x;
  Value outerBound, innerBound;
};
} // namespace

/// The clip to [0, 6] that ends in `outer`, if any.
static std::optional<Clip> matchClip(Operation *outer) {
  StringRef outerName = tfName(outer);
  if ((outerName != "Maximum" && outerName != "Minimum") ||
      outer->getNumOperands() != 2 || outer->getNumResults() != 1)
    return std::nullopt;
  StringRef innerName = outerName == "Maximum" ? "Minimum" : "Maximum";
  float innerBound = innerName == "Minimum" ? 6.0f : 0.0f;
  float outerBound = outerName == "Minimum" ? 6.0f : 0.0f;
  for (unsigned i = 0; i < 2; ++i) {
    Operation *inner = outer->getOperand(i).getDefiningOp();
    std::optional<float> bound = scalarF32(outer->getOperand(1 - i));
    if (tfName(inner) != innerName || !bound || *bound != outerBound ||
        inner->getNumOperands() != 2 || !inner->getResult(0).hasOneUse() ||
        inner->getBlock() != outer->getBlock())
      continue;
    for (unsigned j = 0; j < 2; ++j) {
      Value x = inner->getOperand(j);
      std::optional<float> innerValue = scalarF32(inner->getOperand(1 - j));
      auto type = dyn_cast<TensorType>(x.getType());
      if (!innerValue || *innerValue != innerBound || !type ||
          !type.getElementType().isF32() ||
          x.getType() != outer->getResult(0).getType())
        continue;
      return Clip{inner, x, outer->getOperand(1 - i), inner->getOperand(1 - j)};
    }
  }
  return std::nullopt;
}

/// The clip that ClipToRelu6 rewrites at `outer`: one whose inner op ends
/// no clip itself. Where clips share an op, the first one written is
/// rewritten first, and the one after it is then no clip any more.
static std::optional<Clip> matchClipToRelu6(Operation *outer) {
  std::optional<Clip> clip = matchClip(outer);
  if (!clip || matchClip(clip->inner))
    return std::nullopt;
  return clip;
}

namespace {
/// An inference-mode batch norm after a convolution with a constant filter
/// (and optionally a constant tf.BiasAdd between them), with constant scale,
/// offset, mean and variance.
struct BatchNormFold {
  Operation *conv = nullptr;
  Operation *biasAdd = nullptr;
  RankedTensorType filterType;
  int64_t channels = 0;
  double epsilon = 0;
  SmallVector<float> filter, scale, offset, mean, variance;
  std::optional<SmallVector<float>> bias;
};
} // namespace

/// The fold of batch norm `bn` into the convolution before it, if it folds.
static std::optional<BatchNormFold> matchBatchNormFold(Operation *bn) {
  if (!llvm::is_contained(kBatchNorms, tfName(bn)))
    return std::nullopt;
  // Inference mode, NHWC, only y used.
  auto training = bn->getAttrOfType<BoolAttr>("is_training");
  if ((training && training.getValue()) || !isNHWC(bn) ||
      bn->getNumOperands() != 5 || bn->getNumResults() < 1)
    return std::nullopt;
  for (OpResult result : bn->getResults().drop_front())
    if (!result.use_empty())
      return std::nullopt;
  BatchNormFold fold;
  auto epsilonAttr = bn->getAttrOfType<FloatAttr>("epsilon");
  fold.epsilon = epsilonAttr ? epsilonAttr.getValueAsDouble() : 1e-4;
  // x = conv(...) or BiasAdd(conv(...), bias).
  Value x = bn->getOperand(0);
  Operation *conv = x.getDefiningOp();
  if (tfName(conv) == "BiasAdd" && isNHWC(conv) && x.hasOneUse()) {
    fold.biasAdd = conv;
    conv = fold.biasAdd->getOperand(0).getDefiningOp();
    x = fold.biasAdd->getOperand(0);
  }
  StringRef convName = tfName(conv);
  if ((convName != "Conv2D" && convName != "DepthwiseConv2dNative") ||
      !x.hasOneUse() || !isNHWC(conv) || conv->getNumResults() != 1)
    return std::nullopt;
  fold.conv = conv;
  std::optional<int64_t> channels = outputChannels(conv, convName);
  fold.filterType = dyn_cast<RankedTensorType>(conv->getOperand(1).getType());
  if (!channels || !fold.filterType || !fold.filterType.hasStaticShape() ||
      !fold.filterType.getElementType().isF32() || *channels <= 0)
    return std::nullopt;
  fold.channels = *channels;
  std::optional<SmallVector<float>> filter =
      constantF32Values(conv->getOperand(1));
  SmallVector<float> *params[] = {&fold.scale, &fold.offset, &fold.mean,
                                  &fold.variance};
  for (int i = 1; i < 5; ++i) {
    std::optional<SmallVector<float>> values =
        constantF32Values(bn->getOperand(i));
    if (!values || static_cast<int64_t>(values->size()) != *channels)
      return std::nullopt;
    *params[i - 1] = std::move(*values);
  }
  if (fold.biasAdd) {
    fold.bias = constantF32Values(fold.biasAdd->getOperand(1));
    if (!fold.bias || static_cast<int64_t>(fold.bias->size()) != *channels)
      return std::nullopt;
  }
  if (!filter)
    return std::nullopt;
  fold.filter = std::move(*filter);
  return fold;
}

namespace {
/// A tf.Mul of a convolution with a constant f32 filter (its only user) by
/// a constant of one or C elements.
struct ScaleFold {
  Operation *conv = nullptr;
  Value scale;
  RankedTensorType filterType;
  int64_t channels = 0;
  SmallVector<float> filter, factor;
};
} // namespace

/// The fold of `mul` into the convolution it scales, if it folds.
static std::optional<ScaleFold> matchScaleFold(Operation *mul) {
  if (tfName(mul) != "Mul" || mul->getNumOperands() != 2 ||
      mul->getNumResults() != 1)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    Value x = mul->getOperand(i);
    Value scale = mul->getOperand(1 - i);
    Operation *conv = x.getDefiningOp();
    StringRef convName = tfName(conv);
    if ((convName != "Conv2D" && convName != "DepthwiseConv2dNative") ||
        !x.hasOneUse() || !isNHWC(conv) || conv->getNumResults() != 1 ||
        conv->getBlock() != mul->getBlock() ||
        mul->getResult(0).getType() != x.getType())
      continue;
    std::optional<int64_t> channels = outputChannels(conv, convName);
    auto filterType = dyn_cast<RankedTensorType>(conv->getOperand(1).getType());
    std::optional<SmallVector<float>> filter =
        constantF32Values(conv->getOperand(1));
    std::optional<SmallVector<float>> factor = constantF32Values(scale);
    if (!channels || *channels <= 0 || !filterType || !filter || !factor ||
        !filterType.getElementType().isF32() ||
        (static_cast<int64_t>(factor->size()) != *channels &&
         factor->size() != 1) ||
        !scalesChannels(scale, /*rank=*/4, *channels))
      continue;
    ScaleFold fold;
    fold.conv = conv;
    fold.scale = scale;
    fold.filterType = filterType;
    fold.channels = *channels;
    fold.filter = std::move(*filter);
    fold.factor = std::move(*factor);
    return fold;
  }
  return std::nullopt;
}

/// Whether `user`, the only user of the last value of a chain that could
/// still take an activation, is one that another pattern rewrites into
/// something the chain may take: a batch norm that folds into the
/// convolution (a tf.BiasAdd then follows it), or the inner op of a clip
/// that becomes a tf.Relu6. The fusion waits for that rewrite, so that what
/// it fuses does not depend on the order the driver visits ops in.
static bool isRewrittenFirst(Operation *user) {
  if (!user)
    return false;
  if (matchBatchNormFold(user))
    return true;
  if (user->getNumResults() != 1)
    return false;
  Operation *outer = soleUser(user->getResult(0));
  std::optional<Clip> clip = outer ? matchClipToRelu6(outer) : std::nullopt;
  return clip && clip->inner == user;
}

/// The activation op after `value` (its only user), if it is one the fused
/// kernels apply.
static Operation *matchActivation(Value value) {
  Operation *user = soleUser(value);
  StringRef name = tfName(user);
  if (name.empty() || user->getNumOperands() != 1 ||
      user->getNumResults() != 1 || user->getBlock() != value.getParentBlock())
    return nullptr;
  const rt::OpInfo *row =
      rt::lookupOp(std::string_view(name.data(), name.size()));
  return row && row->fusion == rt::OpFusion::Activation ? user : nullptr;
}

/// The residual tf.Add/tf.AddV2 (or a tf.AddN of two) after `value` (a
/// convolution's output, its only user) of a 4-D (or unranked) tensor of
/// `elementType`, and that tensor, if any.
static Operation *matchResidualAdd(Value value, Type elementType,
                                   Value *residual) {
  Operation *user = soleUser(value);
  StringRef name = tfName(user);
  if ((name != "Add" && name != "AddV2" && name != "AddN") ||
      user->getNumOperands() != 2 || user->getNumResults() != 1 ||
      user->getBlock() != value.getParentBlock() ||
      user->getOperand(0) == user->getOperand(1))
    return nullptr;
  Value other =
      user->getOperand(0) == value ? user->getOperand(1) : user->getOperand(0);
  // A residual connection adds another feature map; a lower-rank addend
  // (a constant, `x + 3` in hard-swish) stays a separate broadcasting Add.
  auto type = dyn_cast<TensorType>(other.getType());
  if (!type || type.getElementType() != elementType ||
      (type.hasRank() && type.getRank() != 4))
    return nullptr;
  *residual = other;
  return user;
}

/// The attributes an activation op carries into the fused op.
static SmallVector<NamedAttribute> activationAttrs(Operation *activation) {
  SmallVector<NamedAttribute> attrs;
  if (tfName(activation) == "LeakyRelu") {
    Builder builder(activation->getContext());
    float alpha = 0.2f; // TF's default
    if (auto attr = activation->getAttrOfType<FloatAttr>("alpha"))
      alpha = static_cast<float>(attr.getValueAsDouble());
    attrs.push_back(builder.getNamedAttr("leakyrelu_alpha",
                                         builder.getF32FloatAttr(alpha)));
  }
  return attrs;
}

namespace {
/// A contraction (or fused op) and the ops after it that fuse into it.
struct Epilogue {
  /// The contraction first, each op the only user of the one before.
  SmallVector<Operation *, 4> chain;
  /// The fused op: its name (without "tf."), T, fused_ops, operands and
  /// activation attributes.
  StringRef fusedName;
  Type elementType;
  SmallVector<StringRef, 3> fusedOps;
  SmallVector<Value, 4> operands;
  SmallVector<NamedAttribute> extraAttrs;
  /// The residual Add of the chain, if any, and the feature map it adds.
  Operation *residualAdd = nullptr;
  Value residual;
  bool hasActivation = false;
};
} // namespace

/// Appends to `epilogue` (whose last op computes the bias) a residual Add
/// (when `residual`), then an activation.
static void extendChain(Epilogue &epilogue, bool residual) {
  Value last = epilogue.chain.back()->getResult(0);
  Value addend;
  if (residual)
    if (Operation *add =
            matchResidualAdd(last, epilogue.elementType, &addend)) {
      epilogue.chain.push_back(add);
      epilogue.fusedOps.push_back("Add");
      epilogue.operands.push_back(addend);
      epilogue.residualAdd = add;
      epilogue.residual = addend;
      last = add->getResult(0);
    }
  if (Operation *activation = matchActivation(last)) {
    epilogue.chain.push_back(activation);
    epilogue.fusedOps.push_back(tfName(activation));
    epilogue.extraAttrs = activationAttrs(activation);
    epilogue.hasActivation = true;
  }
}

/// The bias, residual Add and activation after contraction `op`, if the
/// target runtime has its fused kernel.
static std::optional<Epilogue>
matchContractionEpilogue(Operation *op, const ContractionKind &kind,
                         const KernelManifest &manifest) {
  Epilogue epilogue;
  epilogue.fusedName = kind.fusedName;
  epilogue.elementType = fusableElementType(op);
  Type elementType = epilogue.elementType;
  if (!elementType || !isNHWC(op) ||
      !hasKernel(manifest, kind.fusedName, elementType))
    return std::nullopt;
  std::optional<int64_t> channels = outputChannels(op, kind.name);
  if (!channels)
    return std::nullopt;
  Value result = op->getResult(0);
  Operation *biasOp = soleUser(result);
  if (!biasOp || tfName(biasOp).empty() || biasOp->getBlock() != op->getBlock())
    return std::nullopt;
  if (Value bias = matchBias(biasOp, result, *channels, elementType)) {
    epilogue.chain = {op, biasOp};
    epilogue.fusedOps = {"BiasAdd"};
    epilogue.operands = {op->getOperand(0), op->getOperand(1), bias};
    extendChain(epilogue, /*residual=*/kind.name != "MatMul");
    return epilogue;
  }
  // The residual first, then the bias: grappler's AddOpsRewrite writes a
  // convolution's bias after a residual AddN (MediaPipe's models). Fused,
  // the bias is added before the residual, a different rounding within
  // float32's.
  Value residual;
  Operation *add = kind.name == "MatMul"
                       ? nullptr
                       : matchResidualAdd(result, elementType, &residual);
  Operation *after = add ? soleUser(add->getResult(0)) : nullptr;
  if (!after || after->getBlock() != op->getBlock())
    return std::nullopt;
  Value bias = matchBias(after, add->getResult(0), *channels, elementType);
  if (!bias)
    return std::nullopt;
  epilogue.chain = {op, add, after};
  epilogue.fusedOps = {"BiasAdd", "Add"};
  epilogue.operands = {op->getOperand(0), op->getOperand(1), bias, residual};
  epilogue.residualAdd = add;
  epilogue.residual = residual;
  extendChain(epilogue, /*residual=*/false);
  return epilogue;
}

/// The residual Add and activation after fused op `op` (fused_ops
/// ["BiasAdd"]), if any.
static std::optional<Epilogue> matchFusedOpEpilogue(Operation *op) {
  if (!biasFusedOps(op, /*maxSize=*/1) || op->getNumResults() != 1)
    return std::nullopt;
  Epilogue epilogue;
  epilogue.fusedName = tfName(op);
  epilogue.elementType = fusableElementType(op);
  auto numArgs = op->getAttrOfType<IntegerAttr>("num_args");
  if (!epilogue.elementType || op->getNumOperands() != 3 || !numArgs ||
      numArgs.getInt() != 1)
    return std::nullopt;
  epilogue.chain = {op};
  epilogue.fusedOps = {"BiasAdd"};
  epilogue.operands.assign(op->operand_begin(), op->operand_end());
  extendChain(epilogue, /*residual=*/epilogue.fusedName != "_FusedMatMul");
  if (epilogue.chain.size() == 1)
    return std::nullopt;
  // TF.js's converter writes LeakyRelu's alpha onto the fused op itself; a
  // fused op that has one already keeps its own.
  if (epilogue.fusedOps.back() == "LeakyRelu" && op->getAttr("leakyrelu_alpha"))
    return std::nullopt;
  return epilogue;
}

/// The epilogue that fuses into `op`, a contraction or a fused op.
static std::optional<Epilogue> matchEpilogue(Operation *op,
                                             const KernelManifest &manifest) {
  StringRef name = tfName(op);
  for (const ContractionKind &kind : kContractions)
    if (name == kind.name)
      return matchContractionEpilogue(op, kind, manifest);
  if (llvm::is_contained(kFusedOps, name))
    return matchFusedOpEpilogue(op);
  return std::nullopt;
}

/// Whether the fusion of `epilogue` (into its first op) waits for another
/// rewrite, so that what is fused does not depend on the order the driver
/// visits ops in:
/// - a fold after a chain without activation (isRewrittenFirst);
/// - a fold of what computes the residual (a batch norm or a scale that
///   folds into a convolution, which may then take the Add itself);
/// - the fusion of an op before this one whose chain takes the same residual
///   Add: the first one written takes it.
static bool waitsForOtherRewrite(const Epilogue &epilogue,
                                 const KernelManifest &manifest) {
  if (!epilogue.hasActivation &&
      isRewrittenFirst(soleUser(epilogue.chain.back()->getResult(0))))
    return true;
  Operation *def =
      epilogue.residualAdd ? epilogue.residual.getDefiningOp() : nullptr;
  if (!def)
    return false;
  if (matchBatchNormFold(def) || matchScaleFold(def))
    return true;
  // The other chain starts at the residual's definition (a contraction or
  // fused op) or at the op before its bias.
  Operation *head = epilogue.chain.front();
  SmallVector<Operation *, 3> others = {def};
  for (Value operand : def->getOperands())
    others.push_back(operand.getDefiningOp());
  return llvm::any_of(others, [&](Operation *other) {
    if (!other || other == head || other->getBlock() != head->getBlock() ||
        !other->isBeforeInBlock(head))
      return false;
    std::optional<Epilogue> earlier = matchEpilogue(other, manifest);
    return earlier && llvm::is_contained(earlier->chain, epilogue.residualAdd);
  });
}

/// Replaces the epilogue's chain with its fused op, which carries the first
/// op's attributes.
static void replaceChain(PatternRewriter &rewriter, const Epilogue &epilogue) {
  ArrayRef<Operation *> chain = epilogue.chain;
  Operation *first = chain.front(), *last = chain.back();
  SmallVector<Location> locs;
  for (Operation *op : chain)
    locs.push_back(op->getLoc());
  NamedAttrList attrs(first->getAttrDictionary());
  attrs.set("T", TypeAttr::get(epilogue.elementType));
  SmallVector<Attribute> opNames;
  for (StringRef name : epilogue.fusedOps)
    opNames.push_back(rewriter.getStringAttr(name));
  attrs.set("fused_ops", rewriter.getArrayAttr(opNames));
  attrs.set("num_args",
            rewriter.getI64IntegerAttr(
                static_cast<int64_t>(epilogue.operands.size()) - 2));
  if (!attrs.get("epsilon"))
    attrs.set("epsilon", rewriter.getF32FloatAttr(0.0f));
  for (const NamedAttribute &attr : epilogue.extraAttrs)
    attrs.set(attr.getName(), attr.getValue());
  OperationState state(rewriter.getFusedLoc(locs),
                       ("tf." + epilogue.fusedName).str());
  state.addOperands(epilogue.operands);
  state.addTypes(last->getResultTypes());
  state.addAttributes(attrs);
  rewriter.setInsertionPoint(last);
  rewriter.replaceOp(last, rewriter.create(state));
  for (Operation *op : llvm::reverse(chain.drop_back()))
    rewriter.eraseOp(op);
}

/// A new op like `op` (its name and attributes, replaced by `attrs`) on
/// `operands`, before `last`, which it replaces; `op` and `erased` (the ops
/// between them, users first) are erased.
static void replaceFusedOp(PatternRewriter &rewriter, Operation *op,
                           Operation *last, ArrayRef<Operation *> erased,
                           ValueRange operands, Location loc,
                           ArrayRef<NamedAttribute> attrs) {
  NamedAttrList newAttrs(op->getAttrDictionary());
  for (const NamedAttribute &attr : attrs)
    newAttrs.set(attr.getName(), attr.getValue());
  OperationState state(loc, op->getName().getStringRef());
  state.addOperands(operands);
  state.addTypes(last->getResultTypes());
  state.addAttributes(newAttrs);
  rewriter.setInsertionPoint(last);
  rewriter.replaceOp(last, rewriter.create(state));
  for (Operation *dead : erased)
    rewriter.eraseOp(dead);
  rewriter.eraseOp(op);
}

/// True if `value` is a Relu's or Relu6's output: a tf.Relu, tf.Relu6 or a
/// fused op whose fused_ops end with one.
static bool isReluOutput(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  StringRef name = tfName(def);
  if (name == "Relu" || name == "Relu6")
    return true;
  StringRef last = lastFusedOp(def);
  return def->getNumResults() == 1 && (last == "Relu" || last == "Relu6");
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// A pattern rooted at the `tf` op `name` (without "tf."); ops ordered by a
/// control edge keep their own kernel calls and are not matched.
struct TFRewritePattern : public RewritePattern {
  TFRewritePattern(StringRef name, MLIRContext *context)
      : RewritePattern(("tf." + name).str(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const final {
    if (tfName(op).empty())
      return failure();
    return matchAndRewriteTF(op, rewriter);
  }

  virtual LogicalResult matchAndRewriteTF(Operation *op,
                                          PatternRewriter &rewriter) const = 0;
};

/// Folds a zero tf.Pad/tf.PadV2 of the rows and columns before a convolution
/// (its only user) into the convolution's EXPLICIT padding.
struct FoldPadIntoConvolution : public TFRewritePattern {
  using TFRewritePattern::TFRewritePattern;

  LogicalResult matchAndRewriteTF(Operation *conv,
                                  PatternRewriter &rewriter) const override {
    if (!isNHWC(conv) || conv->getNumOperands() < 2)
      return failure();
    auto padding = conv->getAttrOfType<StringAttr>("padding");
    if (!padding ||
        (padding.getValue() != "VALID" && padding.getValue() != "EXPLICIT"))
      return failure();
    Operation *pad = conv->getOperand(0).getDefiningOp();
    StringRef padName = tfName(pad);
    if ((padName != "Pad" && padName != "PadV2") ||
        !pad->getResult(0).hasOneUse())
      return failure();
    if (padName == "PadV2") {
      // Only zeros are a convolution's padding.
      std::optional<SmallVector<float>> value =
          constantF32Values(pad->getOperand(2));
      if (!value || value->size() != 1 || (*value)[0] != 0.0f)
        return failure();
    }
    auto inputType = dyn_cast<TensorType>(pad->getOperand(0).getType());
    std::optional<SmallVector<int64_t>> pads = constantInts(pad->getOperand(1));
    if (!inputType || !inputType.getElementType().isF32() || !pads ||
        pads->size() != 8 || (*pads)[0] != 0 || (*pads)[1] != 0 ||
        (*pads)[6] != 0 || (*pads)[7] != 0)
      return failure();
    for (int64_t p : *pads)
      if (p < 0)
        return failure();
    SmallVector<int64_t, 8> explicitPads(8, 0);
    if (padding.getValue() == "EXPLICIT") {
      auto old = conv->getAttrOfType<ArrayAttr>("explicit_paddings");
      if (!old || old.size() != 8)
        return failure();
      for (auto [i, attr] : llvm::enumerate(old)) {
        auto value = dyn_cast<IntegerAttr>(attr);
        if (!value)
          return failure();
        explicitPads[i] = value.getInt();
      }
    }
    for (int i = 2; i < 6; ++i)
      explicitPads[i] += (*pads)[i];
    rewriter.modifyOpInPlace(conv, [&] {
      conv->setAttr("padding", rewriter.getStringAttr("EXPLICIT"));
      conv->setAttr("explicit_paddings",
                    rewriter.getI64ArrayAttr(explicitPads));
      conv->setOperand(0, pad->getOperand(0));
      conv->setLoc(rewriter.getFusedLoc({pad->getLoc(), conv->getLoc()}));
    });
    SmallVector<Operation *, 2> padOperands;
    for (Value operand : pad->getOperands().drop_front())
      padOperands.push_back(operand.getDefiningOp());
    rewriter.eraseOp(pad);
    eraseUnusedConstants(rewriter, padOperands);
    return success();
  }
};

/// Folds an inference-mode tf.FusedBatchNorm{,V2,V3} after a convolution
/// with a constant filter (and optionally a constant tf.BiasAdd) into new
/// filter constants and a tf.BiasAdd.
struct FoldBatchNormIntoConvolution : public TFRewritePattern {
  using TFRewritePattern::TFRewritePattern;

  LogicalResult matchAndRewriteTF(Operation *bn,
                                  PatternRewriter &rewriter) const override {
    std::optional<BatchNormFold> fold = matchBatchNormFold(bn);
    if (!fold)
      return failure();
    const int64_t channels = fold->channels;
    // y = (x - mean) * scale / sqrt(variance + epsilon) + offset, with
    // x = conv(w) + b: y = conv(w * f) + (b - mean) * f + offset.
    SmallVector<double> factor(channels);
    SmallVector<float> newBias(channels);
    for (int64_t c = 0; c < channels; ++c) {
      factor[c] =
          fold->scale[c] /
          std::sqrt(static_cast<double>(fold->variance[c]) + fold->epsilon);
      const double b = fold->bias ? (*fold->bias)[c] : 0.0;
      newBias[c] =
          static_cast<float>((b - fold->mean[c]) * factor[c] + fold->offset[c]);
    }
    // The filter's last dimensions flatten to the output channel: [h, w, in,
    // out] and [h, w, in, multiplier] (channel c * multiplier + m).
    SmallVector<float> newFilter(fold->filter.size());
    for (size_t i = 0; i < fold->filter.size(); ++i)
      newFilter[i] = static_cast<float>(fold->filter[i] * factor[i % channels]);

    Operation *conv = fold->conv;
    Type elementType = fold->filterType.getElementType();
    replaceFilter(rewriter, conv, fold->filterType, newFilter);
    Value biasConst =
        makeF32Const(rewriter, bn->getLoc(),
                     RankedTensorType::get({channels}, elementType), newBias);
    OperationState state(bn->getLoc(), "tf.BiasAdd");
    state.addOperands({conv->getResult(0), biasConst});
    state.addTypes(bn->getResult(0).getType());
    state.addAttribute("T", TypeAttr::get(elementType));
    state.addAttribute("data_format", rewriter.getStringAttr("NHWC"));
    rewriter.setInsertionPoint(bn);
    Operation *biasAdd = rewriter.create(state);
    SmallVector<Operation *> consumed;
    for (Value operand : bn->getOperands().drop_front())
      consumed.push_back(operand.getDefiningOp());
    // Only y has users.
    rewriter.replaceAllUsesWith(bn->getResult(0), biasAdd->getResult(0));
    rewriter.eraseOp(bn);
    if (fold->biasAdd) {
      consumed.push_back(fold->biasAdd->getOperand(1).getDefiningOp());
      rewriter.eraseOp(fold->biasAdd);
    }
    eraseUnusedConstants(rewriter, consumed);
    return success();
  }
};

/// Folds a tf.Mul of a convolution with a constant f32 filter (its only
/// user) by a constant of one or C elements (a batch norm's scale that a
/// converter left as Mul and Add) into the filter.
struct FoldScaleIntoConvolution : public TFRewritePattern {
  using TFRewritePattern::TFRewritePattern;

  LogicalResult matchAndRewriteTF(Operation *mul,
                                  PatternRewriter &rewriter) const override {
    std::optional<ScaleFold> fold = matchScaleFold(mul);
    if (!fold)
      return failure();
    // The filter's last dimensions flatten to the output channel (as in
    // FoldBatchNormIntoConvolution): conv(w) * s = conv(w * s), rounded once
    // per weight.
    ArrayRef<float> filter = fold->filter, factor = fold->factor;
    SmallVector<float> newFilter(filter.size());
    for (size_t k = 0; k < filter.size(); ++k)
      newFilter[k] =
          filter[k] * factor[factor.size() == 1 ? 0 : k % fold->channels];
    Operation *conv = fold->conv;
    replaceFilter(rewriter, conv, fold->filterType, newFilter);
    rewriter.modifyOpInPlace(conv, [&] {
      conv->setLoc(rewriter.getFusedLoc({conv->getLoc(), mul->getLoc()}));
    });
    Operation *scaleDef = fold->scale.getDefiningOp();
    rewriter.replaceOp(mul, conv->getResults());
    eraseUnusedConstants(rewriter, scaleDef);
    return success();
  }
};

/// Replaces the clip to [0, 6] that converters spell out,
/// Maximum(Minimum(x, 6), 0) or Minimum(Maximum(x, 0), 6), with
/// tf.Relu6(x), which the fusions then take into a convolution.
struct ClipToRelu6 : public TFRewritePattern {
  using TFRewritePattern::TFRewritePattern;

  LogicalResult matchAndRewriteTF(Operation *outer,
                                  PatternRewriter &rewriter) const override {
    std::optional<Clip> clip = matchClipToRelu6(outer);
    if (!clip)
      return failure();
    Operation *inner = clip->inner;
    OperationState state(
        rewriter.getFusedLoc({inner->getLoc(), outer->getLoc()}), "tf.Relu6");
    state.addOperands(clip->x);
    state.addTypes(outer->getResultTypes());
    state.addAttribute(
        "T",
        TypeAttr::get(cast<TensorType>(clip->x.getType()).getElementType()));
    rewriter.setInsertionPoint(outer);
    Operation *relu6 = rewriter.create(state);
    SmallVector<Operation *, 2> bounds = {clip->outerBound.getDefiningOp(),
                                          clip->innerBound.getDefiningOp()};
    rewriter.replaceOp(outer, relu6);
    rewriter.eraseOp(inner);
    eraseUnusedConstants(rewriter, bounds);
    return success();
  }
};

/// Fuses a contraction with the bias after it, then a residual Add and an
/// activation: Conv2D + BiasAdd + Add + Relu becomes one _FusedConv2D.
/// Rooted at the contraction, so that it sees the whole chain.
struct FuseContraction : public TFRewritePattern {
  FuseContraction(StringRef name, MLIRContext *context,
                  const ContractionKind &kind, const KernelManifest &manifest)
      : TFRewritePattern(name, context), kind(kind), manifest(manifest) {}

  LogicalResult matchAndRewriteTF(Operation *op,
                                  PatternRewriter &rewriter) const override {
    std::optional<Epilogue> epilogue =
        matchContractionEpilogue(op, kind, manifest);
    if (!epilogue)
      return failure();
    if (waitsForOtherRewrite(*epilogue, manifest))
      return rewriter.notifyMatchFailure(op, "waits for another rewrite");
    replaceChain(rewriter, *epilogue);
    return success();
  }

  ContractionKind kind;
  const KernelManifest &manifest;
};

/// Appends a following residual Add and activation to a fused op whose
/// fused_ops are ["BiasAdd"] (as TF.js's converter writes them).
struct FuseActivation : public TFRewritePattern {
  FuseActivation(StringRef name, MLIRContext *context,
                 const KernelManifest &manifest)
      : TFRewritePattern(name, context), manifest(manifest) {}

  LogicalResult matchAndRewriteTF(Operation *op,
                                  PatternRewriter &rewriter) const override {
    std::optional<Epilogue> epilogue = matchFusedOpEpilogue(op);
    if (!epilogue)
      return failure();
    if (waitsForOtherRewrite(*epilogue, manifest))
      return rewriter.notifyMatchFailure(op, "waits for another rewrite");
    replaceChain(rewriter, *epilogue);
    return success();
  }

  const KernelManifest &manifest;
};

/// Removes the spelled-out PReLU, Add(x, Mul(Sub(x, Abs(x)), c)), after
/// `abs` when x is a Relu's or Relu6's output (TF.js's converter folds the
/// Relu of a PReLU into the convolution before it): x - |x| is 0 there, so
/// the sum is x.
struct DropPreluOfNonNegative : public TFRewritePattern {
  using TFRewritePattern::TFRewritePattern;

  LogicalResult matchAndRewriteTF(Operation *abs,
                                  PatternRewriter &rewriter) const override {
    if (abs->getNumOperands() != 1 || abs->getNumResults() != 1)
      return failure();
    Value x = abs->getOperand(0);
    if (!isReluOutput(x) || !abs->getResult(0).hasOneUse())
      return failure();
    Operation *sub = soleUser(abs->getResult(0));
    if (tfName(sub) != "Sub" || sub->getOperand(0) != x ||
        sub->getOperand(1) != abs->getResult(0) ||
        !sub->getResult(0).hasOneUse())
      return failure();
    Operation *mul = soleUser(sub->getResult(0));
    if (tfName(mul) != "Mul" || !otherOperand(mul, sub->getResult(0)) ||
        !mul->getResult(0).hasOneUse())
      return failure();
    Operation *add = soleUser(mul->getResult(0));
    if ((tfName(add) != "Add" && tfName(add) != "AddV2") ||
        otherOperand(add, mul->getResult(0)) != x)
      return failure();
    // The scale must not change x's shape by broadcasting.
    Value scale = otherOperand(mul, sub->getResult(0));
    Operation *def = x.getDefiningOp();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    std::optional<int64_t> channels, rank;
    if (xType && xType.getRank() > 0 &&
        !xType.isDynamicDim(xType.getRank() - 1)) {
      rank = xType.getRank();
      channels = xType.getDimSize(*rank - 1);
    } else if (def->hasAttr("fused_ops")) {
      channels = outputChannels(def, tfName(def));
      rank = tfName(def).contains("MatMul") ? 2 : 4;
    }
    if (!channels || !scalesChannels(scale, *rank, *channels))
      return failure();
    Operation *scaleDef = scale.getDefiningOp();
    rewriter.replaceOp(add, x);
    for (Operation *dead : {mul, sub, abs})
      rewriter.eraseOp(dead);
    eraseUnusedConstants(rewriter, scaleDef);
    return success();
  }
};

/// Replaces the PReLU that Keras's converters spell out after a fused
/// convolution (fused_ops ["BiasAdd"]),
///   Add(Relu(x), Mul(Sub(x, Abs(x)), c)) = x > 0 ? x : 2c * x,
/// with a fused "Prelu" of alpha 2c.
struct FuseSpelledOutPrelu : public TFRewritePattern {
  FuseSpelledOutPrelu(StringRef name, MLIRContext *context,
                      const KernelManifest &manifest)
      : TFRewritePattern(name, context), manifest(manifest) {}

  LogicalResult matchAndRewriteTF(Operation *op,
                                  PatternRewriter &rewriter) const override {
    auto numArgs = op->getAttrOfType<IntegerAttr>("num_args");
    Type elementType = fusableElementType(op);
    if (!biasFusedOps(op, /*maxSize=*/1) || !numArgs || numArgs.getInt() != 1 ||
        op->getNumOperands() != 3 || op->getNumResults() != 1 || !elementType ||
        !elementType.isF32())
      return failure();
    std::optional<int64_t> channels = outputChannels(op, tfName(op));
    Value x = op->getResult(0);
    // x's users: exactly Relu(x), Abs(x) and Sub(x, Abs(x)).
    Operation *relu = nullptr, *abs = nullptr, *sub = nullptr;
    for (Operation *user : x.getUsers()) {
      StringRef name = tfName(user);
      if (user->getBlock() != op->getBlock() || user->getNumResults() != 1)
        return failure();
      if (name == "Relu" && !relu)
        relu = user;
      else if (name == "Abs" && !abs)
        abs = user;
      else if (name == "Sub" && !sub)
        sub = user;
      else
        return failure();
    }
    if (!relu || !abs || !sub || !channels ||
        std::distance(x.getUsers().begin(), x.getUsers().end()) != 3 ||
        sub->getOperand(0) != x || sub->getOperand(1) != abs->getResult(0) ||
        !abs->getResult(0).hasOneUse() || !sub->getResult(0).hasOneUse() ||
        !relu->getResult(0).hasOneUse())
      return failure();
    Operation *mul = soleUser(sub->getResult(0));
    if (tfName(mul) != "Mul" || mul->getBlock() != op->getBlock() ||
        !mul->getResult(0).hasOneUse())
      return failure();
    Value scale = otherOperand(mul, sub->getResult(0));
    Operation *add = soleUser(mul->getResult(0));
    if (!scale || (tfName(add) != "Add" && tfName(add) != "AddV2") ||
        add->getBlock() != op->getBlock() ||
        otherOperand(add, mul->getResult(0)) != relu->getResult(0))
      return failure();
    std::optional<SmallVector<float>> c = constantF32Values(scale);
    if (!c || !scalesChannels(scale, /*rank=*/4, *channels) ||
        !hasKernel(manifest, tfName(op), elementType))
      return failure();

    // x - |x| is 2x below zero and 0 above, so the sum is x > 0 ? x : 2cx,
    // bit for bit (scaling by 2 is exact).
    SmallVector<float> alpha(c->begin(), c->end());
    for (float &a : alpha)
      a *= 2.0f;
    rewriter.setInsertionPoint(op);
    Value alphaConst =
        makeF32Const(rewriter, scale.getLoc(),
                     RankedTensorType::get({static_cast<int64_t>(alpha.size())},
                                           elementType),
                     alpha);
    SmallVector<Value, 4> operands(op->getOperands());
    operands.push_back(alphaConst);
    Location loc =
        rewriter.getFusedLoc({op->getLoc(), relu->getLoc(), abs->getLoc(),
                              sub->getLoc(), mul->getLoc(), add->getLoc()});
    Operation *scaleDef = scale.getDefiningOp();
    replaceFusedOp(
        rewriter, op, add, {relu, mul, sub, abs}, operands, loc,
        {rewriter.getNamedAttr("fused_ops",
                               rewriter.getStrArrayAttr({"BiasAdd", "Prelu"})),
         rewriter.getNamedAttr("num_args", rewriter.getI64IntegerAttr(2))});
    eraseUnusedConstants(rewriter, scaleDef);
    return success();
  }

  const KernelManifest &manifest;
};

/// Replaces the hard swish that TF.js's converter spells out after a fused
/// convolution (fused_ops ["BiasAdd"] or ["BiasAdd", "Add"], f32),
///   Mul(Mul(c, x), Relu6(Add(x, 3))) with a scalar constant c (1/6),
/// with a fused "HardSwish" of scale c, computed in the same order.
struct FuseHardSwish : public TFRewritePattern {
  FuseHardSwish(StringRef name, MLIRContext *context,
                const KernelManifest &manifest)
      : TFRewritePattern(name, context), manifest(manifest) {}

  LogicalResult matchAndRewriteTF(Operation *op,
                                  PatternRewriter &rewriter) const override {
    ArrayAttr fusedOps = biasFusedOps(op, /*maxSize=*/2);
    Type elementType = fusableElementType(op);
    if (!fusedOps || op->getNumResults() != 1 ||
        (fusedOps.size() == 2 && lastFusedOp(op) != "Add") || !elementType ||
        !elementType.isF32())
      return failure();
    Value x = op->getResult(0);
    // x's users: exactly Mul(c, x) and Add(x, 3), in any operand order.
    Operation *scaled = nullptr, *shifted = nullptr;
    for (Operation *user : x.getUsers()) {
      StringRef name = tfName(user);
      if (user->getBlock() != op->getBlock() || user->getNumResults() != 1 ||
          !user->getResult(0).hasOneUse())
        return failure();
      if (name == "Mul" && !scaled)
        scaled = user;
      else if ((name == "Add" || name == "AddV2") && !shifted)
        shifted = user;
      else
        return failure();
    }
    if (!scaled || !shifted ||
        std::distance(x.getUsers().begin(), x.getUsers().end()) != 2)
      return failure();
    Value scaleValue = otherOperand(scaled, x);
    Value shiftValue = otherOperand(shifted, x);
    std::optional<float> scale =
        scaleValue ? scalarF32(scaleValue) : std::nullopt;
    std::optional<float> shift =
        shiftValue ? scalarF32(shiftValue) : std::nullopt;
    if (!scale || !shift || *shift != 3.0f)
      return failure();
    Operation *relu6 = soleUser(shifted->getResult(0));
    if (tfName(relu6) != "Relu6" || relu6->getBlock() != op->getBlock() ||
        !relu6->getResult(0).hasOneUse())
      return failure();
    Operation *product = soleUser(relu6->getResult(0));
    if (tfName(product) != "Mul" || product->getBlock() != op->getBlock() ||
        otherOperand(product, relu6->getResult(0)) != scaled->getResult(0) ||
        !hasKernel(manifest, tfName(op), elementType))
      return failure();

    SmallVector<Attribute> names(fusedOps.begin(), fusedOps.end());
    names.push_back(rewriter.getStringAttr("HardSwish"));
    Location loc =
        rewriter.getFusedLoc({op->getLoc(), scaled->getLoc(), shifted->getLoc(),
                              relu6->getLoc(), product->getLoc()});
    SmallVector<Operation *, 2> constants = {scaleValue.getDefiningOp(),
                                             shiftValue.getDefiningOp()};
    replaceFusedOp(
        rewriter, op, product, {relu6, shifted, scaled}, op->getOperands(), loc,
        {rewriter.getNamedAttr("fused_ops", rewriter.getArrayAttr(names)),
         rewriter.getNamedAttr("hard_swish_scale",
                               rewriter.getF32FloatAttr(*scale))});
    eraseUnusedConstants(rewriter, constants);
    return success();
  }

  const KernelManifest &manifest;
};

/// Appends TF.js's tf.Prelu(x, alpha) (alpha a constant of one or C
/// elements), the only user of a fused convolution (fused_ops ["BiasAdd"]
/// or ["BiasAdd", "Add"]), as its fused "Prelu".
struct FusePrelu : public TFRewritePattern {
  using TFRewritePattern::TFRewritePattern;

  LogicalResult matchAndRewriteTF(Operation *op,
                                  PatternRewriter &rewriter) const override {
    ArrayAttr fusedOps = biasFusedOps(op, /*maxSize=*/2);
    auto numArgs = op->getAttrOfType<IntegerAttr>("num_args");
    if (!fusedOps || !numArgs || op->getNumResults() != 1 ||
        op->getNumOperands() != 2 + static_cast<unsigned>(numArgs.getInt()))
      return failure();
    Type elementType = fusableElementType(op);
    if ((fusedOps.size() == 2 && lastFusedOp(op) != "Add") || !elementType)
      return failure();
    Value x = op->getResult(0);
    Operation *prelu = soleUser(x);
    if (tfName(prelu) != "Prelu" || prelu->getNumOperands() != 2 ||
        prelu->getOperand(0) != x || prelu->getBlock() != op->getBlock())
      return failure();
    Value alpha = prelu->getOperand(1);
    std::optional<int64_t> channels = outputChannels(op, tfName(op));
    auto alphaType = dyn_cast<RankedTensorType>(alpha.getType());
    if (!channels || !alphaType || !alphaType.hasStaticShape() ||
        alphaType.getElementType() != elementType ||
        (alphaType.getNumElements() != *channels &&
         alphaType.getNumElements() != 1) ||
        !scalesChannels(alpha, /*rank=*/4, *channels))
      return failure();
    SmallVector<Attribute> names(fusedOps.begin(), fusedOps.end());
    names.push_back(rewriter.getStringAttr("Prelu"));
    SmallVector<Value, 5> operands(op->getOperands());
    operands.push_back(alpha);
    replaceFusedOp(
        rewriter, op, prelu, {}, operands,
        rewriter.getFusedLoc({op->getLoc(), prelu->getLoc()}),
        {rewriter.getNamedAttr("fused_ops", rewriter.getArrayAttr(names)),
         rewriter.getNamedAttr(
             "num_args", rewriter.getI64IntegerAttr(numArgs.getInt() + 1))});
    return success();
  }
};

/// Makes a fused op whose activation is Relu and whose only user is a Relu6
/// end in Relu6 (Relu6(Relu(x)) is Relu6(x)).
struct MergeReluIntoRelu6 : public TFRewritePattern {
  using TFRewritePattern::TFRewritePattern;

  LogicalResult matchAndRewriteTF(Operation *op,
                                  PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || lastFusedOp(op) != "Relu")
      return failure();
    Operation *relu6 = soleUser(op->getResult(0));
    if (tfName(relu6) != "Relu6" || relu6->getBlock() != op->getBlock() ||
        relu6->getResult(0).getType() != op->getResult(0).getType())
      return failure();
    auto fusedOps = op->getAttrOfType<ArrayAttr>("fused_ops");
    SmallVector<Attribute> names(fusedOps.begin(), fusedOps.end());
    names.back() = rewriter.getStringAttr("Relu6");
    rewriter.modifyOpInPlace(op, [&] {
      op->setAttr("fused_ops", rewriter.getArrayAttr(names));
      op->setLoc(rewriter.getFusedLoc({op->getLoc(), relu6->getLoc()}));
    });
    rewriter.replaceOp(relu6, op->getResults());
    return success();
  }
};

struct TFRTFallbackFusePass
    : public tfrt_fallback::impl::TFRTFallbackFuseBase<TFRTFallbackFusePass> {
  using Base::Base;

  void runOnOperation() override;
};

} // namespace

/// Adds a `PatternT` rooted at each of the tf ops `names`.
template <typename PatternT, typename... Args>
static void addForEach(RewritePatternSet &patterns, ArrayRef<StringRef> names,
                       Args &&...args) {
  for (StringRef name : names)
    patterns.add<PatternT>(name, patterns.getContext(), args...);
}

void tfrt_fallback::populateTFRTFallbackFusePatterns(
    RewritePatternSet &patterns, const KernelManifest &manifest) {
  // What comes before and after a convolution folds into it (a fusion
  // waits for the folds that change its chain: waitsForOtherRewrite).
  addForEach<FoldPadIntoConvolution>(patterns, kPaddedConvolutions);
  addForEach<FoldBatchNormIntoConvolution>(patterns, kBatchNorms);
  addForEach<FoldScaleIntoConvolution>(patterns, {"Mul"});
  addForEach<ClipToRelu6>(patterns, {"Maximum", "Minimum"});
  // Contractions and their bias, residual Add and activation.
  for (const ContractionKind &kind : kContractions)
    patterns.add<FuseContraction>(kind.name, patterns.getContext(), kind,
                                  manifest);
  addForEach<FuseActivation>(patterns, kFusedOps, manifest);
  // What the converters spell out after a fused convolution.
  addForEach<DropPreluOfNonNegative>(patterns, {"Abs"});
  addForEach<FuseSpelledOutPrelu>(patterns, kFusedConvolutions, manifest);
  addForEach<FuseHardSwish>(patterns, kFusedConvolutions, manifest);
  addForEach<FusePrelu>(patterns, kFusedConvolutions);
  addForEach<MergeReluIntoRelu6>(patterns, kFusedConvolutions);
}

void TFRTFallbackFusePass::runOnOperation() {
  std::optional<KernelManifest> parsedManifest;
  if (!kernelManifest.empty()) {
    auto parsed = KernelManifest::readFile(kernelManifest);
    if (!parsed) {
      getOperation().emitError(llvm::toString(parsed.takeError()));
      return signalPassFailure();
    }
    parsedManifest = std::move(*parsed);
  }
  RewritePatternSet patterns(&getContext());
  populateTFRTFallbackFusePatterns(
      patterns, parsedManifest ? *parsedManifest : getDefaultKernelManifest());
  // The patterns' rewrites only: no folding, no moving or merging of
  // constants, no region simplification. (The driver still erases
  // unreachable blocks and unused ops that MLIR knows to be pure; `tf` ops
  // are unregistered, never dead for it: the patterns erase the constants
  // they consume.)
  GreedyRewriteConfig config;
  config.enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  // Should the driver reach its iteration limit before no pattern applies,
  // the IR is still valid, only fused less: no failure.
  (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
}
