//===- TFRTFallbackInferShapes.cpp - refine TF result types -----*- C++ -*-===//
//
// The --tfrt-fallback-infer-shapes pass: refines the result types of TF ops
// from unranked or dynamic tensor types to ranked (and, where the inputs
// allow, static) ones with per-op shape functions that follow TensorFlow's
// own (tensorflow/core/ops/*.cc, framework/common_shape_fns.cc), turns
// tf.Shape / tf.Size / tf.Rank of a value whose shape is known into a
// tf.Const, and updates function signatures and call sites to match.
//
// A rule never guesses: when an operand it needs is unknown, or the shapes
// are invalid (the kernel reports that at run time), the result keeps its
// type, or gets only what is certain (`tensor<?x7xf32>`).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Runtime/OpTable.h"
#include "tfrt_fallback/Runtime/Shape/Broadcast.h"
#include "tfrt_fallback/Runtime/Shape/Concat.h"
#include "tfrt_fallback/Runtime/Shape/Pad.h"
#include "tfrt_fallback/Runtime/Shape/Reshape.h"
#include "tfrt_fallback/Runtime/Shape/StridedSlice.h"
#include "tfrt_fallback/Runtime/Shape/Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstring>
#include <limits>
#include <optional>

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFRTFALLBACKINFERSHAPES
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

namespace {

constexpr int64_t kDynamic = ShapedType::kDynamic;

/// What is known of a shape: its dims (kDynamic where unknown), or nothing
/// (std::nullopt: the rank is unknown too).
using Dims = SmallVector<int64_t, 4>;
using Shape = std::optional<Dims>;

/// The values of a small integer tensor as far as they are known (kDynamic
/// where not), flattened; a scalar has one.
using PartialValues = SmallVector<int64_t, 4>;

bool isKnown(int64_t dim) { return dim != kDynamic; }

//===----------------------------------------------------------------------===//
// Reading operands and attributes
//===----------------------------------------------------------------------===//

/// The op's name without "tf.", or "" for an op of another dialect.
StringRef tfName(Operation *op) {
  if (!op || op->getName().getDialectNamespace() != "tf")
    return "";
  return op->getName().stripDialect();
}

/// A TF attribute of the op: an attribute, or a property of an
/// unregistered op (TensorFlow prints inherent attributes as properties).
Attribute getTFAttr(Operation *op, StringRef name) {
  if (Attribute value = op->getAttr(name))
    return value;
  if (auto properties =
          dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
    return properties.get(name);
  return {};
}

std::optional<int64_t> getIntAttr(Operation *op, StringRef name) {
  if (auto value = dyn_cast_or_null<IntegerAttr>(getTFAttr(op, name)))
    return value.getInt();
  return std::nullopt;
}

std::optional<bool> getBoolAttr(Operation *op, StringRef name) {
  Attribute value = getTFAttr(op, name);
  if (auto flag = dyn_cast_or_null<BoolAttr>(value))
    return flag.getValue();
  if (auto integer = dyn_cast_or_null<IntegerAttr>(value))
    return integer.getInt() != 0;
  return std::nullopt;
}

std::optional<StringRef> getStringAttr(Operation *op, StringRef name) {
  if (auto value = dyn_cast_or_null<StringAttr>(getTFAttr(op, name)))
    return value.getValue();
  return std::nullopt;
}

/// An integer list attribute (`[1, 2]` or `array<i64: 1, 2>`).
std::optional<SmallVector<int64_t>> getIntListAttr(Operation *op,
                                                   StringRef name) {
  Attribute value = getTFAttr(op, name);
  if (!value)
    return std::nullopt;
  SmallVector<int64_t> result;
  if (auto list = dyn_cast<ArrayAttr>(value)) {
    for (Attribute element : list) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer)
        return std::nullopt;
      result.push_back(integer.getInt());
    }
    return result;
  }
  if (auto array = dyn_cast<DenseI64ArrayAttr>(value))
    return SmallVector<int64_t>(array.asArrayRef());
  if (auto array = dyn_cast<DenseI32ArrayAttr>(value))
    return SmallVector<int64_t>(array.asArrayRef().begin(),
                                array.asArrayRef().end());
  return std::nullopt;
}

/// The shape of a value's type: its dims when ranked.
Shape shapeOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return std::nullopt;
  return Dims(type.getShape());
}

/// The elements of a constant of integers (tf.Const or arith.constant; a
/// dense or resource attribute of i32 or i64), flattened.
std::optional<SmallVector<int64_t>> constantInts(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  ElementsAttr elements;
  if (tfName(def) == "Const")
    elements = dyn_cast_or_null<ElementsAttr>(getTFAttr(def, "value"));
  else if (auto constant = dyn_cast<arith::ConstantOp>(def))
    elements = dyn_cast<ElementsAttr>(constant.getValue());
  if (!elements || !elements.getShapedType().hasStaticShape())
    return std::nullopt;
  auto intType = dyn_cast<IntegerType>(elements.getElementType());
  if (!intType || (intType.getWidth() != 32 && intType.getWidth() != 64))
    return std::nullopt;
  const int64_t count = elements.getNumElements();
  if (count > 1024)
    return std::nullopt;
  SmallVector<int64_t> result;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(elements)) {
    for (const APInt &element : dense.getValues<APInt>())
      result.push_back(intType.isUnsigned() ? element.getZExtValue()
                                            : element.getSExtValue());
    return result;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(elements)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    const size_t width = intType.getWidth() / 8;
    if (!blob || blob->getData().size() != count * width)
      return std::nullopt;
    const char *data = blob->getData().data();
    for (int64_t i = 0; i < count; ++i) {
      if (width == 4) {
        int32_t element;
        std::memcpy(&element, data + i * 4, 4);
        result.push_back(element);
      } else {
        int64_t element;
        std::memcpy(&element, data + i * 8, 8);
        result.push_back(element);
      }
    }
    return result;
  }
  return std::nullopt;
}

/// A constant scalar (or one-element) integer operand.
std::optional<int64_t> constantInt(Value value) {
  auto values = constantInts(value);
  if (!values || values->size() != 1)
    return std::nullopt;
  return values->front();
}

//===----------------------------------------------------------------------===//
// Shape arithmetic
//===----------------------------------------------------------------------===//

/// `shape` for the shape layer (lib/Runtime/Shape), whose unknown dims are
/// -1.
rt::PartialShape toPartialShape(const Shape &shape) {
  if (!shape)
    return rt::PartialShape::unknownRank();
  Dims dims;
  for (int64_t dim : *shape)
    dims.push_back(isKnown(dim) ? dim : -1);
  return rt::PartialShape(absl::MakeConstSpan(dims.data(), dims.size()));
}

/// A shape of the shape layer as ours.
Shape fromPartialShape(const rt::PartialShape &shape) {
  if (!shape.hasRank())
    return std::nullopt;
  Dims dims;
  for (int64_t dim : shape.dims())
    dims.push_back(dim < 0 ? kDynamic : dim);
  return dims;
}

/// The result of a shape-layer rule: nothing known when it reports an error
/// (the kernel reports it at run time).
Shape fromPartialShape(const rt::StatusOr<rt::PartialShape> &shape) {
  if (!shape.ok())
    return std::nullopt;
  return fromPartialShape(*shape);
}

/// The product of the dims, or kDynamic when one is unknown.
int64_t numElements(ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t dim : dims) {
    if (!isKnown(dim) || dim < 0)
      return kDynamic;
    if (dim != 0 && count > std::numeric_limits<int64_t>::max() / dim)
      return kDynamic;
    count *= dim;
  }
  return count;
}

/// Merges two shapes that must be equal (TF's InferenceContext::Merge):
/// what either knows; nullopt in `ok` when they contradict.
Shape mergeShapes(const Shape &a, const Shape &b, bool &ok) {
  if (!a)
    return b;
  if (!b)
    return a;
  if (a->size() != b->size()) {
    ok = false;
    return std::nullopt;
  }
  Dims result;
  for (auto [x, y] : llvm::zip(*a, *b)) {
    if (isKnown(x) && isKnown(y) && x != y) {
      ok = false;
      return std::nullopt;
    }
    result.push_back(isKnown(x) ? x : y);
  }
  return result;
}

/// NumPy broadcasting of shapes (rt::shape::broadcastShapes, the kernels'
/// rule); nullopt when a rank is unknown or the shapes cannot broadcast.
Shape broadcastShapes(ArrayRef<Shape> shapes) {
  SmallVector<rt::PartialShape> partial;
  for (const Shape &shape : shapes) {
    if (!shape)
      return std::nullopt;
    partial.push_back(toPartialShape(shape));
  }
  return fromPartialShape(rt::shape::broadcastShapes(partial));
}

/// An axis in [-rank, rank) as a dim index, or nullopt.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

/// The output size of one spatial dim (rt::shape::windowedOutputSize, the
/// kernels' rule); kDynamic when unknown or invalid.
int64_t windowedOutputSize(int64_t input, int64_t window, int64_t dilation,
                           int64_t stride, StringRef padding, int64_t padBefore,
                           int64_t padAfter) {
  auto parsed =
      rt::shape::parsePadding(std::string_view(padding.data(), padding.size()));
  if (!parsed.ok() || !isKnown(input))
    return kDynamic;
  auto dim = rt::shape::windowedOutputSize(input, window, dilation, stride,
                                           *parsed, padBefore, padAfter);
  return dim.ok() ? dim->out : kDynamic;
}

//===----------------------------------------------------------------------===//
// Strided slices (TF's ValidateStridedSliceOp, util/strided_slice_op.cc)
//===----------------------------------------------------------------------===//

/// The StridedSlice op's plan for an input of `shape`
/// (rt::shape::planStridedSlice, the kernels' rule; unknown dims of the
/// plan are -1), when its begin, end and strides are constants.
std::optional<rt::shape::StridedSlicePlan>
planStridedSliceOp(Operation *op, ArrayRef<int64_t> shape) {
  if (op->getNumOperands() != 4)
    return std::nullopt;
  auto begin = constantInts(op->getOperand(1));
  auto end = constantInts(op->getOperand(2));
  auto strides = constantInts(op->getOperand(3));
  if (!begin || !end || !strides)
    return std::nullopt;
  Dims dims;
  for (int64_t dim : shape)
    dims.push_back(isKnown(dim) ? dim : -1);
  rt::shape::StridedSliceMasks masks;
  masks.begin = getIntAttr(op, "begin_mask").value_or(0);
  masks.end = getIntAttr(op, "end_mask").value_or(0);
  masks.ellipsis = getIntAttr(op, "ellipsis_mask").value_or(0);
  masks.newAxis = getIntAttr(op, "new_axis_mask").value_or(0);
  masks.shrinkAxis = getIntAttr(op, "shrink_axis_mask").value_or(0);
  auto plan = rt::shape::planStridedSlice(
      absl::MakeConstSpan(dims.data(), dims.size()),
      absl::MakeConstSpan(begin->data(), begin->size()),
      absl::MakeConstSpan(end->data(), end->size()),
      absl::MakeConstSpan(strides->data(), strides->size()), masks);
  if (!plan.ok())
    return std::nullopt;
  return *std::move(plan);
}

//===----------------------------------------------------------------------===//
// Partial values of shape tensors
//===----------------------------------------------------------------------===//

/// The values of a small integer tensor of at most one dim, as far as they
/// are known, as TensorFlow's shape refiner evaluates a shape operand
/// (ConstantPartialShape): constants, tf.Shape of a value of known rank,
/// tf.Pack of scalars, tf.ConcatV2, tf.Cast, tf.Identity, tf.StridedSlice,
/// tf.GatherV2 of those; any other value of a static shape gives unknown
/// elements.
std::optional<PartialValues> partialValues(Value value, int depth = 0) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && (type.getRank() > 1 || !type.hasStaticShape()))
    return std::nullopt;
  if (auto constant = constantInts(value))
    return PartialValues(constant->begin(), constant->end());
  auto unknown = [&]() -> std::optional<PartialValues> {
    if (!type)
      return std::nullopt;
    return PartialValues(type.getNumElements(), kDynamic);
  };
  Operation *def = value.getDefiningOp();
  StringRef name = tfName(def);
  if (name.empty() || depth > 8)
    return unknown();
  auto operand = [&](unsigned i) -> std::optional<PartialValues> {
    if (i >= def->getNumOperands())
      return std::nullopt;
    return partialValues(def->getOperand(i), depth + 1);
  };
  if (name == "Shape" && def->getNumOperands() == 1) {
    if (Shape shape = shapeOf(def->getOperand(0)))
      return PartialValues(shape->begin(), shape->end());
    return unknown();
  }
  if ((name == "Identity" || name == "Cast") && def->getNumOperands() == 1) {
    auto element = getElementTypeOrSelf(def->getOperand(0).getType());
    if (!element.isInteger(32) && !element.isInteger(64))
      return unknown();
    if (auto values = operand(0))
      return values;
    return unknown();
  }
  if (name == "Pack" && getIntAttr(def, "axis").value_or(0) == 0) {
    PartialValues result;
    for (Value input : def->getOperands()) {
      auto inputType = dyn_cast<RankedTensorType>(input.getType());
      if (inputType && inputType.getRank() != 0)
        return unknown();
      auto values = partialValues(input, depth + 1);
      result.push_back(values && values->size() == 1 ? values->front()
                                                     : kDynamic);
    }
    return result;
  }
  if (name == "ConcatV2" && def->getNumOperands() >= 2) {
    PartialValues result;
    for (Value input : def->getOperands().drop_back()) {
      auto values = partialValues(input, depth + 1);
      if (!values)
        return unknown();
      result.append(values->begin(), values->end());
    }
    return result;
  }
  if (name == "StridedSlice" && def->getNumOperands() == 4) {
    auto input = operand(0);
    auto inputType = dyn_cast<RankedTensorType>(def->getOperand(0).getType());
    if (!input || (inputType && inputType.getRank() != 1))
      return unknown();
    int64_t length = input->size();
    auto plan = planStridedSliceOp(def, {length});
    // (The input's one dim is known: so are the slice's begin and size.)
    if (!plan || plan->finalDims.size() > 1)
      return unknown();
    PartialValues result;
    for (int64_t i = 0; i < plan->processingDims[0]; ++i)
      result.push_back((*input)[plan->begin[0] + i * plan->stride[0]]);
    return result;
  }
  if (name == "GatherV2" && def->getNumOperands() == 3) {
    auto params = operand(0);
    auto indices = constantInts(def->getOperand(1));
    auto axis = constantInt(def->getOperand(2));
    auto paramsType = dyn_cast<RankedTensorType>(def->getOperand(0).getType());
    if (!params || !indices || !axis || *axis != 0 ||
        (paramsType && paramsType.getRank() != 1))
      return unknown();
    PartialValues result;
    for (int64_t index : *indices) {
      if (index < 0 || index >= static_cast<int64_t>(params->size()))
        return unknown();
      result.push_back((*params)[index]);
    }
    return result;
  }
  return unknown();
}

/// A shape given by a 1-D shape operand (TF's MakeShapeFromShapeTensor):
/// its values as far as they are known (-1 for an unknown dim, as TF
/// writes it); the rank from its static size at least.
Shape shapeFromOperand(Value value) {
  auto values = partialValues(value);
  if (!values)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (type && type.getRank() != 1)
    return std::nullopt;
  Dims dims;
  for (int64_t v : *values) {
    if (isKnown(v) && v < -1)
      return std::nullopt;
    dims.push_back(isKnown(v) && v >= 0 ? v : kDynamic);
  }
  return dims;
}

//===----------------------------------------------------------------------===//
// Shape functions
//===----------------------------------------------------------------------===//

/// The shapes of an op's results as far as they are known (one per result;
/// nullopt where nothing is known).
using Results = SmallVector<Shape, 1>;

/// The shape rule of op `name` in the op table (OpTable.def's Shape column).
rt::OpShapeRule shapeRuleOf(StringRef name) {
  const rt::OpInfo *info =
      rt::lookupOp(std::string_view(name.data(), name.size()));
  return info ? info->shapeRule : rt::OpShapeRule::Custom;
}

/// The layout of a 4-D image op: the indices of N, H, W and C.
struct Layout {
  int n, h, w, c;
};

std::optional<Layout> getLayout(Operation *op) {
  StringRef format = getStringAttr(op, "data_format").value_or("NHWC");
  auto parsed = rt::shape::parseDataFormat(
      std::string_view(format.data(), format.size()));
  if (!parsed.ok())
    return std::nullopt;
  return Layout{parsed->batch(), parsed->height(), parsed->width(),
                parsed->channels()};
}

/// Conv2D, DepthwiseConv2dNative and their fused forms (Conv2DShapeImpl,
/// DepthwiseConv2DNativeShapeImpl).
Shape inferConvolution(Operation *op, bool depthwise) {
  if (op->getNumOperands() < 2)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  Shape filter = shapeOf(op->getOperand(1));
  auto layout = getLayout(op);
  auto strides = getIntListAttr(op, "strides");
  auto padding = getStringAttr(op, "padding");
  if (!layout || !strides || strides->size() != 4 || !padding)
    return std::nullopt;
  auto dilations = getIntListAttr(op, "dilations")
                       .value_or(SmallVector<int64_t>{1, 1, 1, 1});
  if (dilations.size() != 4)
    return std::nullopt;
  Dims result(4, kDynamic);
  if (filter && filter->size() == 4) {
    if (depthwise)
      result[layout->c] = isKnown((*filter)[2]) && isKnown((*filter)[3])
                              ? (*filter)[2] * (*filter)[3]
                              : kDynamic;
    else
      result[layout->c] = (*filter)[3];
  } else if (filter) {
    return std::nullopt;
  }
  if (!input) {
    return result;
  }
  if (input->size() != 4)
    return std::nullopt;
  result[layout->n] = (*input)[layout->n];
  SmallVector<int64_t> explicitPaddings(8, 0);
  if (*padding == "EXPLICIT") {
    auto paddings = getIntListAttr(op, "explicit_paddings");
    if (!paddings || paddings->size() != 8)
      return result;
    explicitPaddings = *paddings;
  }
  for (auto [spatial, filterDim] :
       {std::pair(layout->h, 0), std::pair(layout->w, 1)}) {
    int64_t window = filter ? (*filter)[filterDim] : kDynamic;
    if (!isKnown(window))
      continue;
    result[spatial] = windowedOutputSize(
        (*input)[spatial], window, dilations[spatial], (*strides)[spatial],
        *padding, explicitPaddings[2 * spatial],
        explicitPaddings[2 * spatial + 1]);
  }
  return result;
}

/// MaxPool and AvgPool (Pool2DShape).
Shape inferPool(Operation *op) {
  Shape input = shapeOf(op->getOperand(0));
  auto layout = getLayout(op);
  auto ksize = getIntListAttr(op, "ksize");
  auto strides = getIntListAttr(op, "strides");
  auto padding = getStringAttr(op, "padding");
  if (!input || input->size() != 4 || !layout || !ksize || ksize->size() != 4 ||
      !strides || strides->size() != 4 || !padding)
    return std::nullopt;
  // Pooling over the batch or channels is not supported by TF's CPU
  // kernels: leave it to them.
  if ((*ksize)[layout->n] != 1 || (*ksize)[layout->c] != 1 ||
      (*strides)[layout->n] != 1 || (*strides)[layout->c] != 1)
    return std::nullopt;
  SmallVector<int64_t> explicitPaddings(8, 0);
  if (*padding == "EXPLICIT") {
    auto paddings = getIntListAttr(op, "explicit_paddings");
    if (!paddings || paddings->size() != 8)
      return std::nullopt;
    explicitPaddings = *paddings;
  }
  Dims result = *input;
  for (int spatial : {layout->h, layout->w})
    result[spatial] = windowedOutputSize(
        (*input)[spatial], (*ksize)[spatial], 1, (*strides)[spatial], *padding,
        explicitPaddings[2 * spatial], explicitPaddings[2 * spatial + 1]);
  return result;
}

/// MatMul and _FusedMatMul.
Shape inferMatMul(Operation *op) {
  if (op->getNumOperands() < 2)
    return std::nullopt;
  Shape a = shapeOf(op->getOperand(0));
  Shape b = shapeOf(op->getOperand(1));
  if ((a && a->size() != 2) || (b && b->size() != 2))
    return std::nullopt;
  const bool transposeA = getBoolAttr(op, "transpose_a").value_or(false);
  const bool transposeB = getBoolAttr(op, "transpose_b").value_or(false);
  return Dims{a ? (*a)[transposeA ? 1 : 0] : kDynamic,
              b ? (*b)[transposeB ? 0 : 1] : kDynamic};
}

/// BatchMatMul (batch dims equal), BatchMatMulV2/V3 (broadcast).
Shape inferBatchMatMul(Operation *op, bool broadcast) {
  Shape a = shapeOf(op->getOperand(0));
  Shape b = shapeOf(op->getOperand(1));
  if (!a || !b || a->size() < 2 || b->size() < 2)
    return std::nullopt;
  const bool adjX = getBoolAttr(op, "adj_x").value_or(false);
  const bool adjY = getBoolAttr(op, "adj_y").value_or(false);
  Shape batchA = Dims(a->begin(), a->end() - 2);
  Shape batchB = Dims(b->begin(), b->end() - 2);
  Shape batch;
  if (broadcast) {
    batch = broadcastShapes({batchA, batchB});
  } else {
    bool ok = true;
    batch = mergeShapes(batchA, batchB, ok);
    if (!ok)
      return std::nullopt;
  }
  if (!batch)
    return std::nullopt;
  Dims result = *batch;
  result.push_back((*a)[a->size() - (adjX ? 1 : 2)]);
  result.push_back((*b)[b->size() - (adjY ? 2 : 1)]);
  return result;
}

/// Reshape: the shape operand, with a -1 worked out from the element count
/// as the kernel does (rt::shape::reshapeOutputShape).
Shape inferReshape(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  auto values = partialValues(op->getOperand(1));
  auto shapeType = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  if (!values || (shapeType && shapeType.getRank() != 1))
    return std::nullopt;
  static_assert(rt::shape::kUnknownSize == kDynamic,
                "partialValues marks unknown values as the shape layer does");
  return fromPartialShape(rt::shape::reshapeOutputShape(
      toPartialShape(shapeOf(op->getOperand(0))),
      absl::MakeConstSpan(values->data(), values->size())));
}

/// ConcatV2 (axis last) and Concat (axis first): ConcatShapeHelper
/// (rt::shape::concatShape, the kernels' rule).
Shape inferConcat(Operation *op, bool axisFirst) {
  if (op->getNumOperands() < 2)
    return std::nullopt;
  Value axisOperand = axisFirst ? op->getOperand(0) : op->getOperands().back();
  ValueRange inputs = axisFirst ? op->getOperands().drop_front()
                                : op->getOperands().drop_back();
  std::optional<int64_t> rank;
  for (Value input : inputs)
    if (Shape shape = shapeOf(input)) {
      if (rank && *rank != static_cast<int64_t>(shape->size()))
        return std::nullopt;
      rank = shape->size();
    }
  if (!rank)
    return std::nullopt;
  auto axisValue = constantInt(axisOperand);
  if (!axisValue)
    return Dims(*rank, kDynamic);
  SmallVector<rt::PartialShape> shapes;
  for (Value input : inputs)
    shapes.push_back(toPartialShape(shapeOf(input)));
  return fromPartialShape(rt::shape::concatShape(shapes, *axisValue));
}

/// Pad, PadV2 and MirrorPad: the input grown by constant paddings
/// (rt::shape::paddedShape, the kernels' rule).
Shape inferPad(Operation *op) {
  if (op->getNumOperands() < 2)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  auto paddingsType = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  if (paddingsType &&
      (paddingsType.getRank() != 2 ||
       (!paddingsType.isDynamicDim(1) && paddingsType.getDimSize(1) != 2)))
    return std::nullopt;
  std::optional<int64_t> rank;
  if (input)
    rank = input->size();
  if (paddingsType && !paddingsType.isDynamicDim(0)) {
    if (rank && *rank != paddingsType.getDimSize(0))
      return std::nullopt;
    rank = paddingsType.getDimSize(0);
  }
  if (!rank)
    return std::nullopt;
  auto paddings = constantInts(op->getOperand(1));
  if (!paddings || !input) {
    return Dims(*rank, kDynamic);
  }
  if (paddings->size() != 2 * static_cast<size_t>(*rank))
    return std::nullopt;
  return fromPartialShape(
      rt::shape::paddedShape(toPartialShape(*input), *paddings));
}

/// Reductions (ReductionShape) with constant axes.
Shape inferReduction(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  const bool keepDims = getBoolAttr(op, "keep_dims").value_or(false);
  auto axes = constantInts(op->getOperand(1));
  if (!input) {
    return std::nullopt;
  }
  const int64_t rank = input->size();
  if (!axes) {
    if (keepDims)
      return Dims(rank, kDynamic);
    return std::nullopt;
  }
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : *axes) {
    auto index = normalizeAxis(axis, rank);
    if (!index)
      return std::nullopt;
    reduced[*index] = true;
  }
  Dims result;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      result.push_back((*input)[i]);
    else if (keepDims)
      result.push_back(1);
  }
  return result;
}

/// ArgMax and ArgMin: the input without the (constant) axis.
Shape inferArgReduction(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  auto axisValue = constantInt(op->getOperand(1));
  if (!input || !axisValue)
    return std::nullopt;
  auto axis = normalizeAxis(*axisValue, input->size());
  if (!axis)
    return std::nullopt;
  Dims result = *input;
  result.erase(result.begin() + *axis);
  return result;
}

Shape inferSqueeze(Operation *op) {
  Shape input = shapeOf(op->getOperand(0));
  if (!input)
    return std::nullopt;
  auto squeezeDims = getIntListAttr(op, "squeeze_dims");
  if (!squeezeDims)
    squeezeDims = getIntListAttr(op, "axis");
  const int64_t rank = input->size();
  SmallVector<bool> squeezed(rank, false);
  if (!squeezeDims || squeezeDims->empty()) {
    // Every dim of size 1: unknown when a dim is unknown.
    for (int64_t i = 0; i < rank; ++i) {
      if (!isKnown((*input)[i]))
        return std::nullopt;
      squeezed[i] = (*input)[i] == 1;
    }
  } else {
    for (int64_t axis : *squeezeDims) {
      auto index = normalizeAxis(axis, rank);
      if (!index || (isKnown((*input)[*index]) && (*input)[*index] != 1))
        return std::nullopt;
      squeezed[*index] = true;
    }
  }
  Dims result;
  for (int64_t i = 0; i < rank; ++i)
    if (!squeezed[i])
      result.push_back((*input)[i]);
  return result;
}

Shape inferExpandDims(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  auto dim = constantInt(op->getOperand(1));
  if (!input || !dim)
    return std::nullopt;
  const int64_t rank = input->size();
  if (*dim < -rank - 1 || *dim > rank)
    return std::nullopt;
  int64_t index = *dim < 0 ? *dim + rank + 1 : *dim;
  Dims result = *input;
  result.insert(result.begin() + index, 1);
  return result;
}

Shape inferStridedSlice(Operation *op) {
  if (op->getNumOperands() != 4)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  if (!input)
    return std::nullopt;
  auto plan = planStridedSliceOp(op, *input);
  if (!plan)
    return std::nullopt;
  Dims result;
  for (int64_t dim : plan->finalDims)
    result.push_back(dim < 0 ? kDynamic : dim);
  return result;
}

/// Slice with constant begin and size (a size of -1 takes the rest).
Shape inferSlice(Operation *op) {
  if (op->getNumOperands() != 3)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  auto sizes = partialValues(op->getOperand(2));
  if (!sizes)
    return input ? Shape(Dims(input->size(), kDynamic)) : std::nullopt;
  if (input && input->size() != sizes->size())
    return std::nullopt;
  auto begins = partialValues(op->getOperand(1));
  if (begins && begins->size() != sizes->size())
    return std::nullopt;
  Dims result;
  for (auto [i, size] : llvm::enumerate(*sizes)) {
    if (isKnown(size) && size >= 0) {
      if (input && isKnown((*input)[i]) && begins && isKnown((*begins)[i]) &&
          ((*begins)[i] < 0 || (*begins)[i] + size > (*input)[i]))
        return std::nullopt;
      result.push_back(size);
    } else if (size == -1 && input && isKnown((*input)[i]) && begins &&
               isKnown((*begins)[i])) {
      const int64_t begin = (*begins)[i];
      if (begin < 0 || begin > (*input)[i])
        return std::nullopt;
      result.push_back((*input)[i] - begin);
    } else if (isKnown(size) && size < -1) {
      return std::nullopt;
    } else {
      result.push_back(kDynamic);
    }
  }
  return result;
}

Shape inferTranspose(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  auto perm = constantInts(op->getOperand(1));
  if (!perm) {
    if (input)
      return Dims(input->size(), kDynamic);
    return std::nullopt;
  }
  const int64_t rank = perm->size();
  if (input && static_cast<int64_t>(input->size()) != rank)
    return std::nullopt;
  SmallVector<bool> seen(rank, false);
  Dims result;
  for (int64_t p : *perm) {
    if (p < 0 || p >= rank || seen[p])
      return std::nullopt;
    seen[p] = true;
    result.push_back(input ? (*input)[p] : kDynamic);
  }
  return result;
}

/// Pack: N inputs of one shape stacked along `axis`.
Shape inferPack(Operation *op) {
  bool ok = true;
  Shape merged;
  for (Value input : op->getOperands()) {
    merged = mergeShapes(merged, shapeOf(input), ok);
    if (!ok)
      return std::nullopt;
  }
  if (!merged || op->getNumOperands() == 0)
    return std::nullopt;
  const int64_t rank = merged->size() + 1;
  auto axis = normalizeAxis(getIntAttr(op, "axis").value_or(0), rank);
  if (!axis)
    return std::nullopt;
  Dims result = *merged;
  result.insert(result.begin() + *axis, op->getNumOperands());
  return result;
}

/// Unpack: each result the input without `axis`.
Results inferUnpack(Operation *op) {
  Results results(op->getNumResults());
  Shape input = shapeOf(op->getOperand(0));
  if (!input)
    return results;
  auto axis = normalizeAxis(getIntAttr(op, "axis").value_or(0), input->size());
  if (!axis || (isKnown((*input)[*axis]) &&
                (*input)[*axis] != static_cast<int64_t>(op->getNumResults())))
    return results;
  Dims result = *input;
  result.erase(result.begin() + *axis);
  for (Shape &shape : results)
    shape = result;
  return results;
}

/// Split (split_dim, value): num_split equal parts.
Results inferSplit(Operation *op) {
  Results results(op->getNumResults());
  if (op->getNumOperands() != 2 || op->getNumResults() == 0)
    return results;
  Shape input = shapeOf(op->getOperand(1));
  if (!input)
    return results;
  auto axisValue = constantInt(op->getOperand(0));
  if (!axisValue) {
    for (Shape &shape : results)
      shape = Dims(input->size(), kDynamic);
    return results;
  }
  auto axis = normalizeAxis(*axisValue, input->size());
  if (!axis)
    return results;
  const int64_t parts = op->getNumResults();
  Dims result = *input;
  int64_t dim = (*input)[*axis];
  if (isKnown(dim)) {
    if (dim % parts != 0)
      return results;
    result[*axis] = dim / parts;
  }
  for (Shape &shape : results)
    shape = result;
  return results;
}

/// SplitV (value, size_splits, split_dim): one size may be -1.
Results inferSplitV(Operation *op) {
  Results results(op->getNumResults());
  if (op->getNumOperands() != 3)
    return results;
  Shape input = shapeOf(op->getOperand(0));
  if (!input)
    return results;
  auto axisValue = constantInt(op->getOperand(2));
  auto sizes = constantInts(op->getOperand(1));
  if (!axisValue || !sizes || sizes->size() != op->getNumResults()) {
    for (Shape &shape : results)
      shape = Dims(input->size(), kDynamic);
    return results;
  }
  auto axis = normalizeAxis(*axisValue, input->size());
  if (!axis)
    return results;
  const int64_t dim = (*input)[*axis];
  int inferred = -1;
  int64_t total = 0;
  for (auto [i, size] : llvm::enumerate(*sizes)) {
    if (size == -1) {
      if (inferred >= 0)
        return results;
      inferred = i;
    } else if (size < 0) {
      return results;
    } else {
      total += size;
    }
  }
  Dims splits(sizes->begin(), sizes->end());
  if (isKnown(dim)) {
    if (inferred >= 0) {
      if (total > dim)
        return results;
      splits[inferred] = dim - total;
    } else if (total != dim) {
      return results;
    }
  } else if (inferred >= 0) {
    splits[inferred] = kDynamic;
  }
  for (auto [i, shape] : llvm::enumerate(results)) {
    Dims result = *input;
    result[*axis] = splits[i];
    shape = result;
  }
  return results;
}

/// Tile: each dim times its constant multiple.
Shape inferTile(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  auto multiples = partialValues(op->getOperand(1));
  if (!multiples)
    return input ? Shape(Dims(input->size(), kDynamic)) : std::nullopt;
  if (input && input->size() != multiples->size())
    return std::nullopt;
  Dims result;
  for (auto [i, multiple] : llvm::enumerate(*multiples)) {
    if (isKnown(multiple) && multiple < 0)
      return std::nullopt;
    int64_t dim = input ? (*input)[i] : kDynamic;
    result.push_back(isKnown(dim) && isKnown(multiple) ? dim * multiple
                     : multiple == 0                   ? 0
                                                       : kDynamic);
  }
  return result;
}

/// BroadcastTo: the shape operand, when the input broadcasts to it.
Shape inferBroadcastTo(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  Shape target = shapeFromOperand(op->getOperand(1));
  if (!target)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  if (!input)
    return target;
  if (input->size() > target->size())
    return std::nullopt;
  // TF's BroadcastTo shape function: the result is the target shape; an
  // unknown target dim is the input's when that is not 1.
  Dims result = *target;
  const size_t offset = target->size() - input->size();
  for (size_t i = 0; i < input->size(); ++i) {
    int64_t in = (*input)[i], &out = result[offset + i];
    if (isKnown(in) && isKnown(out) && in != out && in != 1)
      return std::nullopt;
    if (!isKnown(out) && isKnown(in) && in != 1)
      out = in;
  }
  return result;
}

/// Range with constant start, limit and delta (integers).
Shape inferRange(Operation *op) {
  if (op->getNumOperands() != 3)
    return std::nullopt;
  auto start = constantInt(op->getOperand(0));
  auto limit = constantInt(op->getOperand(1));
  auto delta = constantInt(op->getOperand(2));
  if (!start || !limit || !delta)
    return Dims{kDynamic};
  if (*delta == 0 || (*delta > 0 && *start > *limit) ||
      (*delta < 0 && *start < *limit))
    return std::nullopt;
  const int64_t distance = *limit - *start;
  const int64_t size = *delta > 0 ? (distance + *delta - 1) / *delta
                                  : (-distance + -*delta - 1) / -*delta;
  return Dims{size};
}

/// ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic, ResizeArea:
/// [batch, size[0], size[1], channels].
Shape inferResize(Operation *op) {
  if (op->getNumOperands() != 2)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  if (input && input->size() != 4)
    return std::nullopt;
  auto size = partialValues(op->getOperand(1));
  Dims result(4, kDynamic);
  if (input) {
    result[0] = (*input)[0];
    result[3] = (*input)[3];
  }
  if (size && size->size() == 2) {
    for (int i = 0; i < 2; ++i) {
      if (isKnown((*size)[i]) && (*size)[i] <= 0)
        return std::nullopt;
      result[1 + i] = (*size)[i];
    }
  }
  return result;
}

/// GatherV2 (params, indices, axis): params[:axis] + indices[batch_dims:]
/// + params[axis + 1:].
Shape inferGather(Operation *op) {
  if (op->getNumOperands() != 3)
    return std::nullopt;
  Shape params = shapeOf(op->getOperand(0));
  Shape indices = shapeOf(op->getOperand(1));
  auto axisValue = constantInt(op->getOperand(2));
  if (!params || !indices || !axisValue)
    return std::nullopt;
  auto axis = normalizeAxis(*axisValue, params->size());
  int64_t batchDims = getIntAttr(op, "batch_dims").value_or(0);
  if (batchDims < 0)
    batchDims += indices->size();
  if (!axis || batchDims < 0 ||
      batchDims > static_cast<int64_t>(indices->size()) || batchDims > *axis)
    return std::nullopt;
  Dims result(params->begin(), params->begin() + *axis);
  result.append(indices->begin() + batchDims, indices->end());
  result.append(params->begin() + *axis + 1, params->end());
  return result;
}

/// Select (v1): the merged shape of t and e (the condition matches them or
/// their first dim).
Shape inferSelect(Operation *op) {
  if (op->getNumOperands() != 3)
    return std::nullopt;
  bool ok = true;
  Shape result =
      mergeShapes(shapeOf(op->getOperand(1)), shapeOf(op->getOperand(2)), ok);
  if (!ok)
    return std::nullopt;
  Shape condition = shapeOf(op->getOperand(0));
  if (result && condition && condition->size() == result->size()) {
    result = mergeShapes(result, condition, ok);
    if (!ok)
      return std::nullopt;
  }
  return result;
}

/// SpaceToBatchND and BatchToSpaceND with constant block shape and
/// paddings / crops.
Shape inferSpaceBatch(Operation *op, bool toBatch) {
  if (op->getNumOperands() != 3)
    return std::nullopt;
  Shape input = shapeOf(op->getOperand(0));
  auto block = constantInts(op->getOperand(1));
  auto pads = constantInts(op->getOperand(2));
  if (!input || !block || !pads || pads->size() != 2 * block->size() ||
      input->size() < block->size() + 1)
    return std::nullopt;
  int64_t blockCount = 1;
  for (int64_t b : *block) {
    if (b < 1)
      return std::nullopt;
    blockCount *= b;
  }
  Dims result = *input;
  int64_t batch = (*input)[0];
  if (toBatch) {
    result[0] = isKnown(batch) ? batch * blockCount : kDynamic;
  } else {
    if (isKnown(batch) && batch % blockCount != 0)
      return std::nullopt;
    result[0] = isKnown(batch) ? batch / blockCount : kDynamic;
  }
  for (size_t i = 0; i < block->size(); ++i) {
    const int64_t dim = (*input)[1 + i];
    const int64_t before = (*pads)[2 * i], after = (*pads)[2 * i + 1];
    if (before < 0 || after < 0)
      return std::nullopt;
    if (!isKnown(dim)) {
      result[1 + i] = kDynamic;
      continue;
    }
    if (toBatch) {
      const int64_t padded = dim + before + after;
      if (padded % (*block)[i] != 0)
        return std::nullopt;
      result[1 + i] = padded / (*block)[i];
    } else {
      const int64_t cropped = dim * (*block)[i] - before - after;
      if (cropped < 0)
        return std::nullopt;
      result[1 + i] = cropped;
    }
  }
  return result;
}

/// TopKV2: the input with its last dim k.
Results inferTopK(Operation *op) {
  Results results(op->getNumResults());
  if (op->getNumOperands() != 2)
    return results;
  Shape input = shapeOf(op->getOperand(0));
  if (!input || input->empty())
    return results;
  Dims result = *input;
  auto k = constantInt(op->getOperand(1));
  if (k && (*k < 0 || (isKnown(result.back()) && *k > result.back())))
    return results;
  result.back() = k ? *k : kDynamic;
  for (Shape &shape : results)
    shape = result;
  return results;
}

/// Conv2DBackpropInput: the shape its input_sizes operand names.
Shape inferConv2DBackpropInput(Operation *op) {
  if (op->getNumOperands() != 3)
    return std::nullopt;
  Shape result = shapeFromOperand(op->getOperand(0));
  if (!result || result->size() != 4)
    return std::nullopt;
  return result;
}

/// The shapes of a `tf.*` op's results as far as its rule knows them.
Results inferShapes(Operation *op, StringRef name) {
  const unsigned numResults = op->getNumResults();
  Results results(numResults);
  if (numResults == 0)
    return results;
  auto single = [&](Shape shape) {
    results[0] = std::move(shape);
    return results;
  };
  switch (shapeRuleOf(name)) {
  case rt::OpShapeRule::SameAsInput:
    if (op->getNumOperands() >= 1)
      return single(shapeOf(op->getOperand(0)));
    break;
  case rt::OpShapeRule::Broadcast: {
    if (op->getNumOperands() == 0)
      break;
    SmallVector<Shape> operands;
    for (Value operand : op->getOperands())
      operands.push_back(shapeOf(operand));
    return single(broadcastShapes(operands));
  }
  case rt::OpShapeRule::Reduction:
    return single(inferReduction(op));
  case rt::OpShapeRule::Custom:
    break;
  }
  if (name == "Conv2D" || name == "_FusedConv2D")
    return single(inferConvolution(op, /*depthwise=*/false));
  if (name == "DepthwiseConv2dNative" ||
      name == "_FusedDepthwiseConv2dNative" ||
      name == "FusedDepthwiseConv2dNative")
    return single(inferConvolution(op, /*depthwise=*/true));
  if (name == "MatMul" || name == "_FusedMatMul")
    return single(inferMatMul(op));
  if (name == "BatchMatMul")
    return single(inferBatchMatMul(op, /*broadcast=*/false));
  if (name == "BatchMatMulV2" || name == "BatchMatMulV3")
    return single(inferBatchMatMul(op, /*broadcast=*/true));
  if ((name == "MaxPool" || name == "AvgPool") && op->getNumOperands() == 1)
    return single(inferPool(op));
  if (name == "Reshape")
    return single(inferReshape(op));
  if (name == "Transpose")
    return single(inferTranspose(op));
  if (name == "ConcatV2")
    return single(inferConcat(op, /*axisFirst=*/false));
  if (name == "Concat")
    return single(inferConcat(op, /*axisFirst=*/true));
  if (name == "Pad" || name == "PadV2" || name == "MirrorPad")
    return single(inferPad(op));
  if (name == "ArgMax" || name == "ArgMin")
    return single(inferArgReduction(op));
  if (name == "Squeeze" && op->getNumOperands() == 1)
    return single(inferSqueeze(op));
  if (name == "ExpandDims")
    return single(inferExpandDims(op));
  if (name == "StridedSlice")
    return single(inferStridedSlice(op));
  if (name == "Slice")
    return single(inferSlice(op));
  if (name == "Pack")
    return single(inferPack(op));
  if (name == "Unpack" && op->getNumOperands() == 1)
    return inferUnpack(op);
  if (name == "Split")
    return inferSplit(op);
  if (name == "SplitV")
    return inferSplitV(op);
  if (name == "Shape" && op->getNumOperands() == 1) {
    if (Shape input = shapeOf(op->getOperand(0)))
      return single(Dims{static_cast<int64_t>(input->size())});
    return single(Dims{kDynamic});
  }
  if ((name == "Size" || name == "Rank") && op->getNumOperands() == 1)
    return single(Dims{});
  if (name == "AddN") {
    bool ok = true;
    Shape merged;
    for (Value input : op->getOperands())
      merged = mergeShapes(merged, shapeOf(input), ok);
    return single(ok ? merged : std::nullopt);
  }
  if (name == "IdentityN" && op->getNumOperands() == numResults) {
    for (unsigned i = 0; i < numResults; ++i)
      results[i] = shapeOf(op->getOperand(i));
    return results;
  }
  if (name == "Fill" && op->getNumOperands() == 2)
    return single(shapeFromOperand(op->getOperand(0)));
  if (name == "Tile")
    return single(inferTile(op));
  if (name == "Range")
    return single(inferRange(op));
  if (name == "BroadcastTo")
    return single(inferBroadcastTo(op));
  if (name == "ResizeBilinear" || name == "ResizeNearestNeighbor" ||
      name == "ResizeBicubic" || name == "ResizeArea")
    return single(inferResize(op));
  if (name == "GatherV2")
    return single(inferGather(op));
  if (name == "Select")
    return single(inferSelect(op));
  if (name == "SelectV2" && op->getNumOperands() == 3)
    return single(
        broadcastShapes({shapeOf(op->getOperand(1)), shapeOf(op->getOperand(2)),
                         shapeOf(op->getOperand(0))}));
  if (name == "SpaceToBatchND")
    return single(inferSpaceBatch(op, /*toBatch=*/true));
  if (name == "BatchToSpaceND")
    return single(inferSpaceBatch(op, /*toBatch=*/false));
  if (name == "TopKV2")
    return inferTopK(op);
  if (name == "Conv2DBackpropInput")
    return single(inferConv2DBackpropInput(op));
  if (name == "Where" && op->getNumOperands() == 1) {
    if (Shape input = shapeOf(op->getOperand(0)))
      return single(Dims{kDynamic, static_cast<int64_t>(input->size())});
    return results;
  }
  if ((name == "NonMaxSuppressionV3" || name == "NonMaxSuppressionV4" ||
       name == "NonMaxSuppressionV5") &&
      numResults >= 1) {
    // The selected indices (and scores): at most max_output_size of them.
    results[0] = Dims{kDynamic};
    if (name == "NonMaxSuppressionV5" && numResults == 3) {
      results[1] = Dims{kDynamic};
      results[2] = Dims{};
    } else if (name == "NonMaxSuppressionV4" && numResults == 2) {
      results[1] = Dims{};
    }
    return results;
  }
  return results;
}

//===----------------------------------------------------------------------===//
// Refining types
//===----------------------------------------------------------------------===//

/// `type` refined by what `shape` knows, or null when that adds nothing or
/// contradicts it (an invalid program: the kernel reports it at run time).
Type refineType(Type type, const Shape &shape) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor || !shape)
    return nullptr;
  Dims dims = *shape;
  if (auto ranked = dyn_cast<RankedTensorType>(tensor)) {
    if (ranked.getRank() != static_cast<int64_t>(dims.size()))
      return nullptr;
    for (auto [i, declared] : llvm::enumerate(ranked.getShape())) {
      if (!isKnown(declared))
        continue;
      if (isKnown(dims[i]) && dims[i] != declared)
        return nullptr;
      dims[i] = declared;
    }
    if (ranked.getEncoding())
      return nullptr;
  }
  for (int64_t dim : dims)
    if (isKnown(dim) && dim < 0)
      return nullptr;
  auto refined = RankedTensorType::get(dims, tensor.getElementType());
  return refined == type ? nullptr : refined;
}

/// The most refined type both `a` and `b` fit (TF's shape "join" of two
/// branches): their common dims; null when the element types differ.
Type joinTypes(Type a, Type b) {
  if (a == b)
    return a;
  auto tensorA = dyn_cast<TensorType>(a), tensorB = dyn_cast<TensorType>(b);
  if (!tensorA || !tensorB ||
      tensorA.getElementType() != tensorB.getElementType())
    return nullptr;
  auto rankedA = dyn_cast<RankedTensorType>(a);
  auto rankedB = dyn_cast<RankedTensorType>(b);
  if (!rankedA || !rankedB || rankedA.getRank() != rankedB.getRank() ||
      rankedA.getEncoding() || rankedB.getEncoding())
    return UnrankedTensorType::get(tensorA.getElementType());
  Dims dims;
  for (auto [x, y] : llvm::zip(rankedA.getShape(), rankedB.getShape()))
    dims.push_back(x == y ? x : kDynamic);
  return RankedTensorType::get(dims, tensorA.getElementType());
}

/// The function a function attribute names: a symbol, or TensorFlow's
/// `#tf_type.func<@f, {...}>`.
FlatSymbolRefAttr getFunctionName(Attribute value) {
  if (auto func = dyn_cast_or_null<tf::FuncAttr>(value))
    return dyn_cast<FlatSymbolRefAttr>(func.getName());
  return dyn_cast_or_null<FlatSymbolRefAttr>(value);
}

class InferShapes
    : public tfrt_fallback::impl::TFRTFallbackInferShapesBase<InferShapes> {
public:
  using TFRTFallbackInferShapesBase::TFRTFallbackInferShapesBase;

  void runOnOperation() override;

private:
  func::FuncOp lookupFunction(Operation *from, Attribute name) {
    FlatSymbolRefAttr symbol = getFunctionName(name);
    if (!symbol)
      return nullptr;
    return symbols_->lookupNearestSymbolFrom<func::FuncOp>(from, symbol);
  }

  /// The result types of a call or functional control-flow op from its
  /// callees' signatures; empty when it is none.
  SmallVector<Type> calleeResultTypes(Operation *op, StringRef name);

  /// Refines the results of `op`; true when something changed.
  bool refineOp(Operation *op);

  /// Replaces tf.Shape / tf.Size / tf.Rank of a known shape by a tf.Const.
  bool materialize(Operation *op, StringRef name);

  /// Refines the function's result types from what it returns, and its
  /// callers' results; true when something changed.
  bool refineSignature(func::FuncOp func);

  SymbolTableCollection *symbols_ = nullptr;
  /// The func.calls of each function.
  DenseMap<StringAttr, SmallVector<func::CallOp>> calls_;
};

SmallVector<Type> InferShapes::calleeResultTypes(Operation *op,
                                                 StringRef name) {
  SmallVector<Type> types;
  auto calleeResults = [&](Attribute attr) -> std::optional<ArrayRef<Type>> {
    func::FuncOp callee = lookupFunction(op, attr);
    if (!callee || callee.getNumResults() != op->getNumResults())
      return std::nullopt;
    return callee.getFunctionType().getResults();
  };
  auto join = [&](ArrayRef<Type> callee) {
    if (types.empty()) {
      types.assign(callee.begin(), callee.end());
      return;
    }
    for (auto [type, other] : llvm::zip(types, callee))
      type = type ? joinTypes(type, other) : nullptr;
  };
  if (name == "PartitionedCall" || name == "StatefulPartitionedCall") {
    if (auto callee = calleeResults(getTFAttr(op, "f")))
      join(*callee);
  } else if (name == "If" || name == "StatelessIf") {
    auto thenTypes = calleeResults(getTFAttr(op, "then_branch"));
    auto elseTypes = calleeResults(getTFAttr(op, "else_branch"));
    if (thenTypes && elseTypes) {
      join(*thenTypes);
      join(*elseTypes);
    }
  } else if (name == "Case" || name == "StatelessCase") {
    auto branches = dyn_cast_or_null<ArrayAttr>(getTFAttr(op, "branches"));
    if (!branches || branches.empty())
      return {};
    for (Attribute branch : branches) {
      auto branchTypes = calleeResults(branch);
      if (!branchTypes)
        return {};
      join(*branchTypes);
    }
  } else if (name == "While" || name == "StatelessWhile") {
    // A loop's results are its operands (no iteration) or its body's
    // results.
    auto body = calleeResults(getTFAttr(op, "body"));
    if (!body || op->getNumOperands() != op->getNumResults())
      return {};
    join(SmallVector<Type>(op->getOperandTypes()));
    join(*body);
  }
  return types;
}

bool InferShapes::materialize(Operation *op, StringRef name) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
      tf::isOrdered(op))
    return false;
  auto resultType = dyn_cast<TensorType>(op->getResult(0).getType());
  auto elementType =
      resultType ? dyn_cast<IntegerType>(resultType.getElementType()) : nullptr;
  if (!elementType || elementType.isUnsigned() ||
      (elementType.getWidth() != 32 && elementType.getWidth() != 64))
    return false;
  Shape input = shapeOf(op->getOperand(0));
  if (!input)
    return false;
  SmallVector<int64_t> values;
  if (name == "Shape") {
    if (!isKnown(numElements(*input)))
      return false;
    values.assign(input->begin(), input->end());
  } else if (name == "Size") {
    const int64_t count = numElements(*input);
    if (!isKnown(count))
      return false;
    values.push_back(count);
  } else {
    values.push_back(input->size());
  }
  if (elementType.getWidth() == 32)
    for (int64_t v : values)
      if (v > std::numeric_limits<int32_t>::max())
        return false;
  Dims constantShape;
  if (name == "Shape")
    constantShape.push_back(values.size());
  auto constantType = RankedTensorType::get(constantShape, elementType);
  if (failed(verifyCompatibleShape(constantType, resultType)))
    return false;
  SmallVector<APInt> elements;
  for (int64_t v : values)
    elements.push_back(APInt(elementType.getWidth(), v, /*isSigned=*/true));
  OpBuilder builder(op);
  OperationState state(op->getLoc(), "tf.Const");
  state.addTypes(constantType);
  state.addAttribute("dtype", TypeAttr::get(elementType));
  state.addAttribute("value",
                     DenseIntElementsAttr::get(constantType, elements));
  Operation *constant = builder.create(state);
  op->getResult(0).replaceAllUsesWith(constant->getResult(0));
  op->erase();
  return true;
}

bool InferShapes::refineOp(Operation *op) {
  StringRef name = tfName(op);
  if (name.empty())
    return false;
  if ((name == "Shape" || name == "Size" || name == "Rank") &&
      materialize(op, name))
    return true;
  bool changed = false;
  SmallVector<Type> callTypes = calleeResultTypes(op, name);
  if (!callTypes.empty()) {
    for (auto [result, type] : llvm::zip(op->getResults(), callTypes)) {
      if (!type || result.getType() == type)
        continue;
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor ||
          tensor.getElementType() != getElementTypeOrSelf(result.getType()))
        continue;
      if (Type refined =
              refineType(result.getType(), Dims(tensor.getShape()))) {
        result.setType(refined);
        changed = true;
      }
    }
    return changed;
  }
  Results shapes = inferShapes(op, name);
  for (auto [result, shape] : llvm::zip(op->getResults(), shapes))
    if (Type refined = refineType(result.getType(), shape)) {
      result.setType(refined);
      changed = true;
    }
  return changed;
}

bool InferShapes::refineSignature(func::FuncOp func) {
  if (func.isExternal())
    return false;
  FunctionType type = func.getFunctionType();
  SmallVector<Type> results(type.getResults());
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp op) {
    if (op->getParentOp() == func)
      returns.push_back(op);
  });
  bool changed = false;
  for (unsigned i = 0; i < results.size(); ++i) {
    // Every return must agree on the refined type.
    Type returned;
    for (func::ReturnOp op : returns) {
      if (op.getNumOperands() != results.size()) {
        returned = nullptr;
        break;
      }
      Type t = op.getOperand(i).getType();
      if (returned && returned != t) {
        returned = nullptr;
        break;
      }
      returned = t;
    }
    if (returned && returned != results[i] &&
        succeeded(verifyCompatibleShape(returned, results[i])) &&
        getElementTypeOrSelf(returned) == getElementTypeOrSelf(results[i])) {
      results[i] = returned;
      changed = true;
    }
  }
  // A return whose operand was refined while the signature was not gets
  // the declared type back through a tf.Identity.
  for (func::ReturnOp op : returns) {
    if (op.getNumOperands() != results.size())
      continue;
    for (auto [i, operand] : llvm::enumerate(op->getOpOperands()))
      if (operand.get().getType() != results[i]) {
        OpBuilder builder(op);
        operand.set(tf::createIdentity(builder, op.getLoc(), operand.get(),
                                       results[i]));
      }
  }
  if (!changed)
    return false;
  func.setType(FunctionType::get(func.getContext(), type.getInputs(), results));
  // A func.call's results have its callee's result types.
  for (func::CallOp call : calls_.lookup(func.getSymNameAttr()))
    if (call.getNumResults() == results.size())
      for (auto [result, refined] : llvm::zip(call.getResults(), results))
        result.setType(refined);
  return true;
}

void InferShapes::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTableCollection symbols;
  symbols_ = &symbols;
  calls_.clear();
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  module.walk([&](func::CallOp call) {
    calls_[call.getCalleeAttr().getAttr()].push_back(call);
  });
  // Types only get more refined, so this ends; the bound keeps a long
  // chain of calls from taking long.
  constexpr int kMaxRounds = 8;
  for (int round = 0; round < kMaxRounds; ++round) {
    bool changed = false;
    for (func::FuncOp func : funcs) {
      // Ops of nested regions (tf.IfRegion branches, islands) yield to ops
      // whose types this pass does not refine: only the function's own.
      for (Block &block : func.getBody())
        for (Operation &op : llvm::make_early_inc_range(block))
          changed |= refineOp(&op);
    }
    for (func::FuncOp func : funcs)
      changed |= refineSignature(func);
    if (!changed)
      break;
  }
  // A func.call passes values of its callee's argument types: a refined
  // operand gets them back through a tf.Identity.
  module.walk([&](func::CallOp call) {
    auto callee = symbols_->lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.getNumArguments() != call.getNumOperands())
      return;
    for (auto [operand, type] :
         llvm::zip(call->getOpOperands(), callee.getArgumentTypes()))
      if (operand.get().getType() != type) {
        OpBuilder builder(call);
        operand.set(
            tf::createIdentity(builder, call.getLoc(), operand.get(), type));
      }
  });
}

} // namespace
