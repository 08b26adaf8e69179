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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"
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

namespace {

/// What a contraction op fuses into.
struct ContractionKind {
  StringRef name;      // "Conv2D"
  StringRef fusedName; // "_FusedConv2D"
};

constexpr ContractionKind kContractions[] = {
    {"Conv2D", "_FusedConv2D"},
    {"DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative"},
    {"MatMul", "_FusedMatMul"},
};

/// Fused ops that may take an activation after their bias.
constexpr StringRef kFusedOps[] = {
    "_FusedConv2D", "_FusedDepthwiseConv2dNative", "FusedDepthwiseConv2dNative",
    "_FusedMatMul"};

/// The op's name without "tf.", or "" for an op of another dialect.
StringRef tfName(Operation *op) {
  // An op ordered by a control edge keeps its own kernel call.
  if (!op || op->getName().getDialectNamespace() != "tf" || tf::isOrdered(op))
    return "";
  return op->getName().stripDialect();
}

/// The only user of `value`, or null.
Operation *soleUser(Value value) {
  if (!value.hasOneUse())
    return nullptr;
  return *value.getUsers().begin();
}

/// Whether the op's data_format is NHWC (TF's default when absent).
bool isNHWC(Operation *op) {
  auto format = op->getAttrOfType<StringAttr>("data_format");
  return !format || format.getValue() == "NHWC";
}

/// The static size of dimension `dim` of `value`'s type, if known.
std::optional<int64_t> staticDim(Value value, int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || dim >= type.getRank() || type.isDynamicDim(dim))
    return std::nullopt;
  return type.getDimSize(dim);
}

/// The output channels of contraction `op` (named `name`), from its filter
/// or right-hand operand's static shape.
std::optional<int64_t> outputChannels(Operation *op, StringRef name) {
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
/// kernels compute in (f32 or f64).
Type fusableElementType(Operation *op) {
  if (op->getNumResults() != 1)
    return nullptr;
  auto type = dyn_cast<TensorType>(op->getResult(0).getType());
  if (!type ||
      !(type.getElementType().isF32() || type.getElementType().isF64()))
    return nullptr;
  return type.getElementType();
}

/// The bias operand when `op` (the only user of `input`) adds a 1-D value
/// of `channels` elements of `elementType` to it per channel, else null.
Value matchBias(Operation *op, Value input, int64_t channels,
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
std::optional<SmallVector<float>> constantF32Values(Value value) {
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

/// True if `scale` broadcasts over the channels of a value of rank `rank`
/// with `channels` channels without changing its shape: a scalar, [C], [1],
/// or [1, ..., 1, C] of at most `rank` dimensions.
bool scalesChannels(Value scale, int64_t rank, int64_t channels) {
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
std::optional<SmallVector<int64_t>> constantInts(Value value) {
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

/// A new tf.Const of `type` holding `values`, before `before`.
Value makeF32Const(OpBuilder &builder, Location loc, RankedTensorType type,
                   ArrayRef<float> values) {
  OperationState state(loc, "tf.Const");
  state.addTypes(type);
  state.addAttribute("dtype", TypeAttr::get(type.getElementType()));
  state.addAttribute("value", DenseElementsAttr::get(type, values));
  return builder.create(state)->getResult(0);
}

/// The operand of binary `op` that is not `value`, when exactly one is.
Value otherOperand(Operation *op, Value value) {
  if (op->getNumOperands() != 2 || op->getOperand(0) == op->getOperand(1))
    return nullptr;
  if (op->getOperand(0) == value)
    return op->getOperand(1);
  if (op->getOperand(1) == value)
    return op->getOperand(0);
  return nullptr;
}

struct TFRTFallbackFusePass
    : public tfrt_fallback::impl::TFRTFallbackFuseBase<TFRTFallbackFusePass> {
  using Base::Base;

  void runOnOperation() override;

  /// Whether the target runtime has `fusedName` for `elementType`.
  bool hasKernel(StringRef fusedName, Type elementType) {
    MLIRContext *context = &getContext();
    auto attrs = DictionaryAttr::get(
        context, {NamedAttribute(StringAttr::get(context, "T"),
                                 TypeAttr::get(elementType))});
    return manifest->supports(fusedName, attrs);
  }

  /// Fuses a bias and an activation into contraction `op`; true if it did.
  bool fuseContraction(Operation *op, const ContractionKind &kind);
  /// Appends a following residual Add and activation to fused op `op`
  /// (fused_ops ["BiasAdd"]); true if it did.
  bool fuseActivation(Operation *op);
  /// Replaces the PReLU that Keras's converters spell out after fused op
  /// `op` (fused_ops ["BiasAdd"]),
  ///   Add(Relu(x), Mul(Sub(x, Abs(x)), c)) = x > 0 ? x : 2c * x,
  /// with a fused "Prelu" of alpha 2c; true if it did.
  bool fusePrelu(Operation *op);
  /// Replaces the hard swish that TF.js's converter spells out after fused
  /// op `op` (fused_ops ["BiasAdd"] or ["BiasAdd", "Add"], f32),
  ///   Mul(Mul(c, x), Relu6(Add(x, 3))) with a scalar constant c (1/6),
  /// with a fused "HardSwish" of scale c, computed in the same order; true
  /// if it did.
  bool fuseHardSwish(Operation *op);
  /// Appends TF.js's tf.Prelu(x, alpha) (alpha a constant of one or C
  /// elements), the only user of fused op `op` (fused_ops ["BiasAdd"] or
  /// ["BiasAdd", "Add"]), as its fused "Prelu"; true if it did.
  bool fusePreluOp(Operation *op);
  /// Replaces the clip to [0, 6] that converters spell out,
  /// Maximum(Minimum(x, 6), 0) or Minimum(Maximum(x, 0), 6) (`outer` the
  /// last of the two), with tf.Relu6(x), which the fusion below then takes
  /// into a convolution; true if it did.
  bool clipToRelu6(Operation *outer);
  /// Makes a fused op whose activation is Relu and whose only user is a
  /// Relu6 end in Relu6 (Relu6(Relu(x)) is Relu6(x)); true if it did.
  bool mergeReluIntoRelu6(Operation *op);
  /// Removes the same spelled-out PReLU, Add(x, Mul(Sub(x, Abs(x)), c)),
  /// after `abs` when x is a Relu's or Relu6's output (TF.js's converter
  /// folds the Relu of a PReLU into the convolution before it): x - |x| is 0
  /// there, so the sum is x; true if it did.
  bool dropPreluOfNonNegative(Operation *abs);
  /// Folds a zero tf.Pad/tf.PadV2 of the rows and columns before
  /// convolution `conv` (its only user) into the convolution's EXPLICIT
  /// padding; true if it did.
  bool foldPad(Operation *conv);
  /// Folds inference-mode tf.FusedBatchNorm{,V2,V3} `bn` after a
  /// convolution with a constant filter (and optionally a constant
  /// BiasAdd) into new filter constants and a BiasAdd; true if it did.
  bool foldBatchNorm(Operation *bn);
  /// Folds a tf.Mul of a convolution with a constant f32 filter (its only
  /// user) by a constant of one or C elements (a batch norm's scale that a
  /// converter left as Mul and Add) into the filter; true if it did.
  bool foldScale(Operation *mul);
  /// Appends to `chain` (whose last op computes the bias) a residual Add
  /// (when `residual`), then an activation, with their fused_ops names and
  /// operands; returns the activation's extra attributes.
  SmallVector<NamedAttribute> extendChain(SmallVectorImpl<Operation *> &chain,
                                          SmallVectorImpl<StringRef> &fusedOps,
                                          SmallVectorImpl<Value> &operands,
                                          Type elementType, bool residual);

  const KernelManifest *manifest = nullptr;
  std::optional<KernelManifest> parsedManifest;
};

/// The activation op after `value` (its only user), if it is one the fused
/// kernels apply.
Operation *matchActivation(Value value) {
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
Operation *matchResidualAdd(Value value, Type elementType, Value *residual) {
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

/// Replaces `chain` (contraction first, each op the only user of the one
/// before) with `fusedName` on `operands`, carrying the first op's
/// attributes, `fusedOps` and `extraAttrs`.
void replaceChain(ArrayRef<Operation *> chain, StringRef fusedName,
                  ValueRange operands, Type elementType,
                  ArrayRef<StringRef> fusedOps,
                  ArrayRef<NamedAttribute> extraAttrs) {
  Operation *first = chain.front(), *last = chain.back();
  MLIRContext *context = first->getContext();
  OpBuilder builder(last);
  SmallVector<Location> locs;
  for (Operation *op : chain)
    locs.push_back(op->getLoc());
  NamedAttrList attrs(first->getAttrDictionary());
  attrs.set("T", TypeAttr::get(elementType));
  SmallVector<Attribute> opNames;
  for (StringRef name : fusedOps)
    opNames.push_back(StringAttr::get(context, name));
  attrs.set("fused_ops", builder.getArrayAttr(opNames));
  attrs.set("num_args", builder.getI64IntegerAttr(
                            static_cast<int64_t>(operands.size()) - 2));
  if (!attrs.get("epsilon"))
    attrs.set("epsilon", builder.getF32FloatAttr(0.0f));
  for (const NamedAttribute &attr : extraAttrs)
    attrs.set(attr.getName(), attr.getValue());
  OperationState state(builder.getFusedLoc(locs), ("tf." + fusedName).str());
  state.addOperands(operands);
  state.addTypes(last->getResultTypes());
  state.addAttributes(attrs);
  Operation *fused = builder.create(state);
  last->getResult(0).replaceAllUsesWith(fused->getResult(0));
  for (Operation *op : llvm::reverse(chain))
    op->erase();
}

/// The attributes an activation op carries into the fused op.
SmallVector<NamedAttribute> activationAttrs(Operation *activation) {
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

bool TFRTFallbackFusePass::fuseContraction(Operation *op,
                                           const ContractionKind &kind) {
  Type elementType = fusableElementType(op);
  if (!elementType || !isNHWC(op) || !hasKernel(kind.fusedName, elementType))
    return false;
  std::optional<int64_t> channels = outputChannels(op, kind.name);
  if (!channels)
    return false;
  Value result = op->getResult(0);
  Operation *biasOp = soleUser(result);
  if (!biasOp || tfName(biasOp).empty() || biasOp->getBlock() != op->getBlock())
    return false;
  Value bias = matchBias(biasOp, result, *channels, elementType);
  if (!bias) {
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
      return false;
    bias = matchBias(after, add->getResult(0), *channels, elementType);
    if (!bias)
      return false;
    SmallVector<Operation *, 4> chain = {op, add, after};
    SmallVector<StringRef, 3> fusedOps = {"BiasAdd", "Add"};
    SmallVector<Value, 4> operands = {op->getOperand(0), op->getOperand(1),
                                      bias, residual};
    SmallVector<NamedAttribute> extra =
        extendChain(chain, fusedOps, operands, elementType, /*residual=*/false);
    replaceChain(chain, kind.fusedName, operands, elementType, fusedOps, extra);
    return true;
  }
  SmallVector<Operation *, 4> chain = {op, biasOp};
  SmallVector<StringRef, 3> fusedOps = {"BiasAdd"};
  SmallVector<Value, 4> operands = {op->getOperand(0), op->getOperand(1), bias};
  SmallVector<NamedAttribute> extra =
      extendChain(chain, fusedOps, operands, elementType,
                  /*residual=*/kind.name != "MatMul");
  replaceChain(chain, kind.fusedName, operands, elementType, fusedOps, extra);
  return true;
}

SmallVector<NamedAttribute> TFRTFallbackFusePass::extendChain(
    SmallVectorImpl<Operation *> &chain, SmallVectorImpl<StringRef> &fusedOps,
    SmallVectorImpl<Value> &operands, Type elementType, bool residual) {
  Value last = chain.back()->getResult(0);
  Value addend;
  if (residual)
    if (Operation *add = matchResidualAdd(last, elementType, &addend)) {
      chain.push_back(add);
      fusedOps.push_back("Add");
      operands.push_back(addend);
      last = add->getResult(0);
    }
  if (Operation *activation = matchActivation(last)) {
    chain.push_back(activation);
    fusedOps.push_back(tfName(activation));
    return activationAttrs(activation);
  }
  return {};
}

bool TFRTFallbackFusePass::fuseActivation(Operation *op) {
  auto fusedOps = op->getAttrOfType<ArrayAttr>("fused_ops");
  if (!fusedOps || fusedOps.size() != 1 || op->getNumResults() != 1)
    return false;
  auto first = dyn_cast<StringAttr>(fusedOps[0]);
  if (!first || first.getValue() != "BiasAdd")
    return false;
  Type elementType = fusableElementType(op);
  auto numArgs = op->getAttrOfType<IntegerAttr>("num_args");
  if (!elementType || op->getNumOperands() != 3 || !numArgs ||
      numArgs.getInt() != 1)
    return false;
  SmallVector<Operation *, 3> chain = {op};
  SmallVector<StringRef, 3> names = {"BiasAdd"};
  SmallVector<Value, 4> operands(op->getOperands());
  SmallVector<NamedAttribute> extra =
      extendChain(chain, names, operands, elementType,
                  /*residual=*/tfName(op) != "_FusedMatMul");
  if (chain.size() == 1)
    return false;
  // TF.js's converter writes LeakyRelu's alpha onto the fused op itself; a
  // fused op that has one already keeps its own.
  if (names.back() == "LeakyRelu" && op->getAttr("leakyrelu_alpha"))
    return false;
  replaceChain(chain, tfName(op), operands, elementType, names, extra);
  return true;
}

bool TFRTFallbackFusePass::fusePrelu(Operation *op) {
  auto fusedOps = op->getAttrOfType<ArrayAttr>("fused_ops");
  auto numArgs = op->getAttrOfType<IntegerAttr>("num_args");
  if (!fusedOps || fusedOps.size() != 1 || !numArgs || numArgs.getInt() != 1 ||
      op->getNumOperands() != 3 || op->getNumResults() != 1)
    return false;
  auto first = dyn_cast<StringAttr>(fusedOps[0]);
  Type elementType = fusableElementType(op);
  if (!first || first.getValue() != "BiasAdd" || !elementType ||
      !elementType.isF32())
    return false;
  std::optional<int64_t> channels = outputChannels(op, tfName(op));
  Value x = op->getResult(0);
  // x's users: exactly Relu(x), Abs(x) and Sub(x, Abs(x)).
  Operation *relu = nullptr, *abs = nullptr, *sub = nullptr;
  for (Operation *user : x.getUsers()) {
    StringRef name = tfName(user);
    if (user->getBlock() != op->getBlock() || user->getNumResults() != 1)
      return false;
    if (name == "Relu" && !relu)
      relu = user;
    else if (name == "Abs" && !abs)
      abs = user;
    else if (name == "Sub" && !sub)
      sub = user;
    else
      return false;
  }
  if (!relu || !abs || !sub || !channels ||
      std::distance(x.getUsers().begin(), x.getUsers().end()) != 3 ||
      sub->getOperand(0) != x || sub->getOperand(1) != abs->getResult(0) ||
      !abs->getResult(0).hasOneUse() || !sub->getResult(0).hasOneUse() ||
      !relu->getResult(0).hasOneUse())
    return false;
  Operation *mul = soleUser(sub->getResult(0));
  if (tfName(mul) != "Mul" || mul->getBlock() != op->getBlock() ||
      !mul->getResult(0).hasOneUse())
    return false;
  Value scale = otherOperand(mul, sub->getResult(0));
  Operation *add = soleUser(mul->getResult(0));
  if (!scale || (tfName(add) != "Add" && tfName(add) != "AddV2") ||
      add->getBlock() != op->getBlock() ||
      otherOperand(add, mul->getResult(0)) != relu->getResult(0))
    return false;
  std::optional<SmallVector<float>> c = constantF32Values(scale);
  if (!c || !scalesChannels(scale, /*rank=*/4, *channels) ||
      !hasKernel(tfName(op), elementType))
    return false;

  // x - |x| is 2x below zero and 0 above, so the sum is x > 0 ? x : 2cx,
  // bit for bit (scaling by 2 is exact).
  SmallVector<float> alpha(c->begin(), c->end());
  for (float &a : alpha)
    a *= 2.0f;
  OpBuilder builder(op);
  auto alphaType =
      RankedTensorType::get({static_cast<int64_t>(alpha.size())}, elementType);
  OperationState constState(scale.getLoc(), "tf.Const");
  constState.addTypes(alphaType);
  constState.addAttribute("dtype", TypeAttr::get(elementType));
  constState.addAttribute(
      "value", DenseElementsAttr::get(alphaType, ArrayRef<float>(alpha)));
  Operation *alphaConst = builder.create(constState);

  SmallVector<Value, 4> operands(op->getOperands());
  operands.push_back(alphaConst->getResult(0));
  SmallVector<Location> locs = {op->getLoc(),  relu->getLoc(), abs->getLoc(),
                                sub->getLoc(), mul->getLoc(),  add->getLoc()};
  OpBuilder after(add);
  NamedAttrList attrs(op->getAttrDictionary());
  attrs.set("fused_ops", after.getStrArrayAttr({"BiasAdd", "Prelu"}));
  attrs.set("num_args", after.getI64IntegerAttr(2));
  OperationState state(after.getFusedLoc(locs), op->getName().getStringRef());
  state.addOperands(operands);
  state.addTypes(add->getResultTypes());
  state.addAttributes(attrs);
  Operation *fused = after.create(state);
  add->getResult(0).replaceAllUsesWith(fused->getResult(0));
  for (Operation *dead : {add, relu, mul, sub, abs, op})
    dead->erase();
  Operation *scaleDef = scale.getDefiningOp();
  if (scaleDef && scaleDef->use_empty())
    scaleDef->erase();
  return true;
}

/// The one value of a scalar f32 tf.Const, else nothing.
static std::optional<float> scalarF32(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  std::optional<SmallVector<float>> values = constantF32Values(value);
  if (!type || type.getRank() != 0 || !values || values->size() != 1)
    return std::nullopt;
  return (*values)[0];
}

bool TFRTFallbackFusePass::fusePreluOp(Operation *op) {
  auto fusedOps = op->getAttrOfType<ArrayAttr>("fused_ops");
  auto numArgs = op->getAttrOfType<IntegerAttr>("num_args");
  if (!fusedOps || fusedOps.empty() || fusedOps.size() > 2 || !numArgs ||
      op->getNumResults() != 1 ||
      op->getNumOperands() != 2 + static_cast<unsigned>(numArgs.getInt()))
    return false;
  auto first = dyn_cast<StringAttr>(fusedOps[0]);
  auto last = dyn_cast<StringAttr>(fusedOps[fusedOps.size() - 1]);
  Type elementType = fusableElementType(op);
  if (!first || first.getValue() != "BiasAdd" || !last ||
      (fusedOps.size() == 2 && last.getValue() != "Add") || !elementType)
    return false;
  Value x = op->getResult(0);
  Operation *prelu = soleUser(x);
  if (tfName(prelu) != "Prelu" || prelu->getNumOperands() != 2 ||
      prelu->getOperand(0) != x || prelu->getBlock() != op->getBlock())
    return false;
  Value alpha = prelu->getOperand(1);
  std::optional<int64_t> channels = outputChannels(op, tfName(op));
  auto alphaType = dyn_cast<RankedTensorType>(alpha.getType());
  if (!channels || !alphaType || !alphaType.hasStaticShape() ||
      alphaType.getElementType() != elementType ||
      (alphaType.getNumElements() != *channels &&
       alphaType.getNumElements() != 1) ||
      !scalesChannels(alpha, /*rank=*/4, *channels))
    return false;
  SmallVector<Attribute> names(fusedOps.begin(), fusedOps.end());
  OpBuilder after(prelu);
  names.push_back(after.getStringAttr("Prelu"));
  NamedAttrList attrs(op->getAttrDictionary());
  attrs.set("fused_ops", after.getArrayAttr(names));
  attrs.set("num_args", after.getI64IntegerAttr(numArgs.getInt() + 1));
  SmallVector<Value, 5> operands(op->getOperands());
  operands.push_back(alpha);
  OperationState state(after.getFusedLoc({op->getLoc(), prelu->getLoc()}),
                       op->getName().getStringRef());
  state.addOperands(operands);
  state.addTypes(prelu->getResultTypes());
  state.addAttributes(attrs);
  Operation *fused = after.create(state);
  prelu->getResult(0).replaceAllUsesWith(fused->getResult(0));
  prelu->erase();
  op->erase();
  return true;
}

bool TFRTFallbackFusePass::clipToRelu6(Operation *outer) {
  StringRef outerName = tfName(outer);
  if ((outerName != "Maximum" && outerName != "Minimum") ||
      outer->getNumOperands() != 2 || outer->getNumResults() != 1)
    return false;
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
      OpBuilder builder(outer);
      OperationState state(
          builder.getFusedLoc({inner->getLoc(), outer->getLoc()}), "tf.Relu6");
      state.addOperands(x);
      state.addTypes(outer->getResultTypes());
      state.addAttribute("T", TypeAttr::get(type.getElementType()));
      Operation *relu6 = builder.create(state);
      SmallVector<Operation *, 2> bounds = {
          outer->getOperand(1 - i).getDefiningOp(),
          inner->getOperand(1 - j).getDefiningOp()};
      outer->getResult(0).replaceAllUsesWith(relu6->getResult(0));
      outer->erase();
      inner->erase();
      for (Operation *def : bounds)
        if (def && def->use_empty())
          def->erase();
      return true;
    }
  }
  return false;
}

bool TFRTFallbackFusePass::mergeReluIntoRelu6(Operation *op) {
  auto fusedOps = op->getAttrOfType<ArrayAttr>("fused_ops");
  if (!fusedOps || fusedOps.empty() || op->getNumResults() != 1)
    return false;
  auto last = dyn_cast<StringAttr>(fusedOps[fusedOps.size() - 1]);
  Operation *relu6 = soleUser(op->getResult(0));
  if (!last || last.getValue() != "Relu" || tfName(relu6) != "Relu6" ||
      relu6->getBlock() != op->getBlock() ||
      relu6->getResult(0).getType() != op->getResult(0).getType())
    return false;
  SmallVector<Attribute> names(fusedOps.begin(), fusedOps.end());
  Builder builder(op->getContext());
  names.back() = builder.getStringAttr("Relu6");
  op->setAttr("fused_ops", builder.getArrayAttr(names));
  op->setLoc(builder.getFusedLoc({op->getLoc(), relu6->getLoc()}));
  relu6->getResult(0).replaceAllUsesWith(op->getResult(0));
  relu6->erase();
  return true;
}

bool TFRTFallbackFusePass::fuseHardSwish(Operation *op) {
  auto fusedOps = op->getAttrOfType<ArrayAttr>("fused_ops");
  if (!fusedOps || fusedOps.empty() || fusedOps.size() > 2 ||
      op->getNumResults() != 1)
    return false;
  auto first = dyn_cast<StringAttr>(fusedOps[0]);
  auto last = dyn_cast<StringAttr>(fusedOps[fusedOps.size() - 1]);
  Type elementType = fusableElementType(op);
  if (!first || first.getValue() != "BiasAdd" || !last ||
      (fusedOps.size() == 2 && last.getValue() != "Add") || !elementType ||
      !elementType.isF32())
    return false;
  Value x = op->getResult(0);
  // x's users: exactly Mul(c, x) and Add(x, 3), in any operand order.
  Operation *scaled = nullptr, *shifted = nullptr;
  for (Operation *user : x.getUsers()) {
    StringRef name = tfName(user);
    if (user->getBlock() != op->getBlock() || user->getNumResults() != 1 ||
        !user->getResult(0).hasOneUse())
      return false;
    if (name == "Mul" && !scaled)
      scaled = user;
    else if ((name == "Add" || name == "AddV2") && !shifted)
      shifted = user;
    else
      return false;
  }
  if (!scaled || !shifted ||
      std::distance(x.getUsers().begin(), x.getUsers().end()) != 2)
    return false;
  Value scaleValue = otherOperand(scaled, x);
  Value shiftValue = otherOperand(shifted, x);
  std::optional<float> scale =
      scaleValue ? scalarF32(scaleValue) : std::nullopt;
  std::optional<float> shift =
      shiftValue ? scalarF32(shiftValue) : std::nullopt;
  if (!scale || !shift || *shift != 3.0f)
    return false;
  Operation *relu6 = soleUser(shifted->getResult(0));
  if (tfName(relu6) != "Relu6" || relu6->getBlock() != op->getBlock() ||
      !relu6->getResult(0).hasOneUse())
    return false;
  Operation *product = soleUser(relu6->getResult(0));
  if (tfName(product) != "Mul" || product->getBlock() != op->getBlock() ||
      otherOperand(product, relu6->getResult(0)) != scaled->getResult(0) ||
      !hasKernel(tfName(op), elementType))
    return false;

  SmallVector<Attribute> names(fusedOps.begin(), fusedOps.end());
  OpBuilder after(product);
  names.push_back(after.getStringAttr("HardSwish"));
  SmallVector<Location> locs = {op->getLoc(), scaled->getLoc(),
                                shifted->getLoc(), relu6->getLoc(),
                                product->getLoc()};
  NamedAttrList attrs(op->getAttrDictionary());
  attrs.set("fused_ops", after.getArrayAttr(names));
  attrs.set("hard_swish_scale", after.getF32FloatAttr(*scale));
  OperationState state(after.getFusedLoc(locs), op->getName().getStringRef());
  state.addOperands(op->getOperands());
  state.addTypes(product->getResultTypes());
  state.addAttributes(attrs);
  Operation *fused = after.create(state);
  product->getResult(0).replaceAllUsesWith(fused->getResult(0));
  for (Operation *dead : {product, relu6, shifted, scaled, op})
    dead->erase();
  for (Value constant : {scaleValue, shiftValue})
    if (Operation *def = constant.getDefiningOp(); def && def->use_empty())
      def->erase();
  return true;
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
  auto fusedOps = def->getAttrOfType<ArrayAttr>("fused_ops");
  if (!fusedOps || fusedOps.empty() || def->getNumResults() != 1)
    return false;
  auto last = dyn_cast<StringAttr>(fusedOps[fusedOps.size() - 1]);
  return last && (last.getValue() == "Relu" || last.getValue() == "Relu6");
}

bool TFRTFallbackFusePass::dropPreluOfNonNegative(Operation *abs) {
  if (abs->getNumOperands() != 1 || abs->getNumResults() != 1)
    return false;
  Value x = abs->getOperand(0);
  if (!isReluOutput(x) || !abs->getResult(0).hasOneUse())
    return false;
  Operation *sub = soleUser(abs->getResult(0));
  if (tfName(sub) != "Sub" || sub->getOperand(0) != x ||
      sub->getOperand(1) != abs->getResult(0) || !sub->getResult(0).hasOneUse())
    return false;
  Operation *mul = soleUser(sub->getResult(0));
  if (tfName(mul) != "Mul" || !otherOperand(mul, sub->getResult(0)) ||
      !mul->getResult(0).hasOneUse())
    return false;
  Operation *add = soleUser(mul->getResult(0));
  if ((tfName(add) != "Add" && tfName(add) != "AddV2") ||
      otherOperand(add, mul->getResult(0)) != x)
    return false;
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
    return false;
  add->getResult(0).replaceAllUsesWith(x);
  for (Operation *dead : {add, mul, sub, abs})
    dead->erase();
  Operation *scaleDef = scale.getDefiningOp();
  if (scaleDef && tfName(scaleDef) == "Const" && scaleDef->use_empty())
    scaleDef->erase();
  return true;
}

bool TFRTFallbackFusePass::foldPad(Operation *conv) {
  if (!isNHWC(conv) || conv->getNumOperands() < 2)
    return false;
  auto padding = conv->getAttrOfType<StringAttr>("padding");
  if (!padding ||
      (padding.getValue() != "VALID" && padding.getValue() != "EXPLICIT"))
    return false;
  Operation *pad = conv->getOperand(0).getDefiningOp();
  StringRef padName = tfName(pad);
  if ((padName != "Pad" && padName != "PadV2") ||
      !pad->getResult(0).hasOneUse())
    return false;
  if (padName == "PadV2") {
    // Only zeros are a convolution's padding.
    std::optional<SmallVector<float>> value =
        constantF32Values(pad->getOperand(2));
    if (!value || value->size() != 1 || (*value)[0] != 0.0f)
      return false;
  }
  auto inputType = dyn_cast<TensorType>(pad->getOperand(0).getType());
  std::optional<SmallVector<int64_t>> pads = constantInts(pad->getOperand(1));
  if (!inputType || !inputType.getElementType().isF32() || !pads ||
      pads->size() != 8 || (*pads)[0] != 0 || (*pads)[1] != 0 ||
      (*pads)[6] != 0 || (*pads)[7] != 0)
    return false;
  for (int64_t p : *pads)
    if (p < 0)
      return false;
  SmallVector<int64_t, 8> explicitPads(8, 0);
  if (padding.getValue() == "EXPLICIT") {
    auto old = conv->getAttrOfType<ArrayAttr>("explicit_paddings");
    if (!old || old.size() != 8)
      return false;
    for (auto [i, attr] : llvm::enumerate(old)) {
      auto value = dyn_cast<IntegerAttr>(attr);
      if (!value)
        return false;
      explicitPads[i] = value.getInt();
    }
  }
  for (int i = 2; i < 6; ++i)
    explicitPads[i] += (*pads)[i];
  Builder builder(conv->getContext());
  conv->setAttr("padding", builder.getStringAttr("EXPLICIT"));
  conv->setAttr("explicit_paddings", builder.getI64ArrayAttr(explicitPads));
  conv->setOperand(0, pad->getOperand(0));
  conv->setLoc(builder.getFusedLoc({pad->getLoc(), conv->getLoc()}));
  SmallVector<Operation *, 2> padOperands;
  for (Value operand : pad->getOperands().drop_front())
    padOperands.push_back(operand.getDefiningOp());
  pad->erase();
  for (Operation *op : padOperands)
    if (op && tfName(op) == "Const" && op->use_empty())
      op->erase();
  return true;
}

bool TFRTFallbackFusePass::foldScale(Operation *mul) {
  if (tfName(mul) != "Mul" || mul->getNumOperands() != 2 ||
      mul->getNumResults() != 1)
    return false;
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
    // The filter's last dimensions flatten to the output channel (as in
    // foldBatchNorm): conv(w) * s = conv(w * s), rounded once per weight.
    SmallVector<float> newFilter(filter->size());
    for (size_t k = 0; k < filter->size(); ++k)
      newFilter[k] =
          (*filter)[k] * (*factor)[factor->size() == 1 ? 0 : k % *channels];
    OpBuilder builder(conv);
    Value filterConst = makeF32Const(builder, conv->getOperand(1).getLoc(),
                                     filterType, newFilter);
    Operation *oldFilter = conv->getOperand(1).getDefiningOp();
    conv->setOperand(1, filterConst);
    if (oldFilter->use_empty())
      oldFilter->erase();
    conv->setLoc(builder.getFusedLoc({conv->getLoc(), mul->getLoc()}));
    mul->getResult(0).replaceAllUsesWith(conv->getResult(0));
    Operation *scaleDef = scale.getDefiningOp();
    mul->erase();
    if (scaleDef && tfName(scaleDef) == "Const" && scaleDef->use_empty())
      scaleDef->erase();
    return true;
  }
  return false;
}

bool TFRTFallbackFusePass::foldBatchNorm(Operation *bn) {
  // Inference mode, NHWC, only y used.
  auto training = bn->getAttrOfType<BoolAttr>("is_training");
  if ((training && training.getValue()) || !isNHWC(bn) ||
      bn->getNumOperands() != 5 || bn->getNumResults() < 1)
    return false;
  for (OpResult result : bn->getResults().drop_front())
    if (!result.use_empty())
      return false;
  auto epsilonAttr = bn->getAttrOfType<FloatAttr>("epsilon");
  const double epsilon = epsilonAttr ? epsilonAttr.getValueAsDouble() : 1e-4;
  // x = conv(...) or BiasAdd(conv(...), bias).
  Value x = bn->getOperand(0);
  Operation *biasAdd = nullptr;
  Operation *conv = x.getDefiningOp();
  if (tfName(conv) == "BiasAdd" && isNHWC(conv) && x.hasOneUse()) {
    biasAdd = conv;
    conv = biasAdd->getOperand(0).getDefiningOp();
    x = biasAdd->getOperand(0);
  }
  StringRef convName = tfName(conv);
  if ((convName != "Conv2D" && convName != "DepthwiseConv2dNative") ||
      !x.hasOneUse() || !isNHWC(conv) || conv->getNumResults() != 1)
    return false;
  std::optional<int64_t> channels = outputChannels(conv, convName);
  auto filterType = dyn_cast<RankedTensorType>(conv->getOperand(1).getType());
  if (!channels || !filterType || !filterType.hasStaticShape() ||
      !filterType.getElementType().isF32() || *channels <= 0)
    return false;
  std::optional<SmallVector<float>> filter =
      constantF32Values(conv->getOperand(1));
  SmallVector<SmallVector<float>, 4> params;
  for (int i = 1; i < 5; ++i) {
    std::optional<SmallVector<float>> values =
        constantF32Values(bn->getOperand(i));
    if (!values || static_cast<int64_t>(values->size()) != *channels)
      return false;
    params.push_back(std::move(*values));
  }
  std::optional<SmallVector<float>> bias;
  if (biasAdd) {
    bias = constantF32Values(biasAdd->getOperand(1));
    if (!bias || static_cast<int64_t>(bias->size()) != *channels)
      return false;
  }
  if (!filter)
    return false;
  const SmallVector<float> &scale = params[0], &offset = params[1],
                           &mean = params[2], &variance = params[3];
  // y = (x - mean) * scale / sqrt(variance + epsilon) + offset, with
  // x = conv(w) + b: y = conv(w * f) + (b - mean) * f + offset.
  SmallVector<double> factor(*channels);
  SmallVector<float> newBias(*channels);
  for (int64_t c = 0; c < *channels; ++c) {
    factor[c] =
        scale[c] / std::sqrt(static_cast<double>(variance[c]) + epsilon);
    const double b = bias ? (*bias)[c] : 0.0;
    newBias[c] = static_cast<float>((b - mean[c]) * factor[c] + offset[c]);
  }
  // The filter's last dimensions flatten to the output channel: [h, w, in,
  // out] and [h, w, in, multiplier] (channel c * multiplier + m).
  SmallVector<float> newFilter(filter->size());
  for (size_t i = 0; i < filter->size(); ++i)
    newFilter[i] = static_cast<float>((*filter)[i] * factor[i % *channels]);

  OpBuilder builder(conv);
  Value filterConst = makeF32Const(builder, conv->getOperand(1).getLoc(),
                                   filterType, newFilter);
  Value biasConst = makeF32Const(
      builder, bn->getLoc(),
      RankedTensorType::get({*channels}, filterType.getElementType()), newBias);
  Operation *oldFilter = conv->getOperand(1).getDefiningOp();
  conv->setOperand(1, filterConst);
  if (oldFilter->use_empty())
    oldFilter->erase();
  builder.setInsertionPoint(bn);
  OperationState state(bn->getLoc(), "tf.BiasAdd");
  state.addOperands({conv->getResult(0), biasConst});
  state.addTypes(bn->getResult(0).getType());
  state.addAttribute("T", TypeAttr::get(filterType.getElementType()));
  state.addAttribute("data_format", builder.getStringAttr("NHWC"));
  Operation *add = builder.create(state);
  bn->getResult(0).replaceAllUsesWith(add->getResult(0));
  SmallVector<Operation *> maybeDead;
  for (Value operand : bn->getOperands().drop_front())
    maybeDead.push_back(operand.getDefiningOp());
  bn->erase();
  if (biasAdd) {
    maybeDead.push_back(biasAdd->getOperand(1).getDefiningOp());
    biasAdd->erase();
  }
  for (Operation *op : maybeDead)
    if (op && tfName(op) == "Const" && op->use_empty())
      op->erase();
  return true;
}

void TFRTFallbackFusePass::runOnOperation() {
  if (!kernelManifest.empty()) {
    auto parsed = KernelManifest::readFile(kernelManifest);
    if (!parsed) {
      getOperation().emitError(llvm::toString(parsed.takeError()));
      return signalPassFailure();
    }
    parsedManifest = std::move(*parsed);
    manifest = &*parsedManifest;
  } else {
    manifest = &getDefaultKernelManifest();
  }

  // Zero padding and batch norms into the convolutions first, so that the
  // fusion below sees a convolution and its bias.
  SmallVector<Operation *> convs, batchNorms, muls;
  getOperation().walk([&](Operation *op) {
    StringRef name = tfName(op);
    if (name == "Mul")
      muls.push_back(op);
    if (name == "Conv2D" || name == "DepthwiseConv2dNative" ||
        name == "_FusedConv2D" || name == "_FusedDepthwiseConv2dNative" ||
        name == "FusedDepthwiseConv2dNative")
      convs.push_back(op);
    else if (name == "FusedBatchNorm" || name == "FusedBatchNormV2" ||
             name == "FusedBatchNormV3")
      batchNorms.push_back(op);
  });
  for (Operation *op : convs)
    foldPad(op);
  for (Operation *op : batchNorms)
    foldBatchNorm(op);
  for (Operation *op : muls)
    foldScale(op);
  SmallVector<Operation *> clips;
  getOperation().walk([&](Operation *op) {
    StringRef name = tfName(op);
    if (name == "Maximum" || name == "Minimum")
      clips.push_back(op);
  });
  // An inner op of one clip may be the outer op of no other: erased ops
  // are skipped by checking that they are still in the list's order.
  llvm::DenseSet<Operation *> erased;
  for (Operation *op : clips) {
    if (erased.contains(op))
      continue;
    Operation *inner0 =
        op->getNumOperands() == 2 ? op->getOperand(0).getDefiningOp() : nullptr;
    Operation *inner1 =
        op->getNumOperands() == 2 ? op->getOperand(1).getDefiningOp() : nullptr;
    if (clipToRelu6(op)) {
      erased.insert(inner0);
      erased.insert(inner1);
    }
  }

  // Candidates first: fusing erases the ops after each one.
  SmallVector<Operation *> candidates;
  getOperation().walk([&](Operation *op) {
    StringRef name = tfName(op);
    if (name.empty())
      return;
    for (const ContractionKind &kind : kContractions)
      if (name == kind.name)
        candidates.push_back(op);
    for (StringRef fused : kFusedOps)
      if (name == fused)
        candidates.push_back(op);
  });
  for (Operation *op : candidates) {
    StringRef name = tfName(op);
    bool done = false;
    for (const ContractionKind &kind : kContractions)
      if (name == kind.name)
        done = fuseContraction(op, kind);
    if (!done)
      fuseActivation(op);
  }
  // PReLU spelled out after a fused convolution (the loop above leaves such
  // ops alone: their output has three users).
  SmallVector<Operation *> fused, absOps;
  getOperation().walk([&](Operation *op) {
    if (tfName(op) == "Abs")
      absOps.push_back(op);
  });
  for (Operation *op : absOps)
    dropPreluOfNonNegative(op);
  getOperation().walk([&](Operation *op) {
    StringRef name = tfName(op);
    if (name == "_FusedConv2D" || name == "_FusedDepthwiseConv2dNative" ||
        name == "FusedDepthwiseConv2dNative")
      fused.push_back(op);
  });
  for (Operation *op : fused)
    if (!fusePrelu(op) && !fuseHardSwish(op) && !fusePreluOp(op))
      mergeReluIntoRelu6(op);
}

} // namespace
