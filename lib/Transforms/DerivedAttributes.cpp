//===- DerivedAttributes.cpp - TF attributes implied by types ---*- C++ -*-===//
//
// Derives an op's type and number attributes from its operand and result
// types and its OpDef signature in the op table.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/DerivedAttributes.h"

#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Runtime/OpTable.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>
#include <optional>
#include <string>

using namespace mlir;
using namespace tfrt_fallback;

namespace {

StringRef toStringRef(std::string_view text) {
  return StringRef(text.data(), text.size());
}

/// The dtype a type attribute gets from a tensor of `type`: its element
/// type, without the subtypes of a resource or variant (TF's DT_RESOURCE
/// and DT_VARIANT carry none) and without reference (a TF1 variable's
/// `!tf_type.f32ref` types `T` as f32, as TensorFlow's DropRefType has it:
/// an OpDef's type attribute never holds a reference dtype).
Type dtypeOf(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (auto ref = dyn_cast<tf::RefType>(element))
    if (Type referent = ref.getReferentType())
      element = referent;
  if (isa<tf::ResourceType>(element))
    return tf::ResourceType::get(type.getContext(), {});
  if (isa<tf::VariantType>(element))
    return tf::VariantType::get(type.getContext(), {});
  return element;
}

/// Whether an explicit attribute value says the same as a derived one: the
/// same dtypes (subtypes aside), the same number whatever its integer type.
bool sameValue(Attribute explicitValue, Attribute derived) {
  if (auto type = dyn_cast<TypeAttr>(explicitValue)) {
    auto derivedType = dyn_cast<TypeAttr>(derived);
    return derivedType &&
           dtypeOf(type.getValue()) == dtypeOf(derivedType.getValue());
  }
  if (auto number = dyn_cast<IntegerAttr>(explicitValue)) {
    auto derivedNumber = dyn_cast<IntegerAttr>(derived);
    return derivedNumber && !isa<BoolAttr>(explicitValue) &&
           APInt::isSameValue(number.getValue(), derivedNumber.getValue());
  }
  if (auto list = dyn_cast<ArrayAttr>(explicitValue)) {
    auto derivedList = dyn_cast<ArrayAttr>(derived);
    return derivedList && list.size() == derivedList.size() &&
           llvm::all_of(llvm::zip(list, derivedList), [](auto pair) {
             return sameValue(std::get<0>(pair), std::get<1>(pair));
           });
  }
  return false;
}

/// A segment-sizes attribute's entries: `array<i32: 2, 1>`, or the older
/// `dense<[2, 1]> : vector<2xi32>`.
std::optional<SmallVector<int64_t>> segmentSizes(Attribute attr) {
  if (auto array = dyn_cast_or_null<DenseI32ArrayAttr>(attr))
    return SmallVector<int64_t>(array.asArrayRef().begin(),
                                array.asArrayRef().end());
  auto elements = dyn_cast_or_null<DenseIntElementsAttr>(attr);
  auto elementType =
      elements ? dyn_cast<IntegerType>(elements.getElementType()) : nullptr;
  if (elementType && elementType.getWidth() <= 32) {
    SmallVector<int64_t> sizes;
    for (const APInt &size : elements.getValues<APInt>())
      sizes.push_back(size.getSExtValue());
    return sizes;
  }
  return std::nullopt;
}

bool isVariadic(const rt::OpArg &arg) {
  return arg.kind == rt::OpArg::Kind::TypeListAttr || !arg.count.empty();
}

/// The signature as OpTable.def writes it, for messages: "N*T, Tidx".
std::string describeArgs(ArrayRef<rt::OpArg> args) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(args, os, [&](const rt::OpArg &arg) {
    if (arg.kind == rt::OpArg::Kind::TypeListAttr) {
      os << '[' << toStringRef(arg.type) << ']';
      return;
    }
    if (!arg.count.empty())
      os << toStringRef(arg.count) << '*';
    os << toStringRef(arg.type);
  });
  return text;
}

/// Derives the attributes of one op, one side (operands, then results) at a
/// time.
class Deriver {
public:
  Deriver(Operation *op, ArrayRef<NamedAttribute> attrs)
      : op(op), attrs(attrs), builder(op->getContext()) {}

  /// Places the tensors of one side on `args` and derives what they say.
  LogicalResult deriveSide(StringRef kind, ArrayRef<rt::OpArg> args,
                           TypeRange types, Attribute segmentsAttr);

  /// Adds the derived attributes to `out`, checking the explicit ones.
  LogicalResult merge(SmallVectorImpl<NamedAttribute> &out);

private:
  struct Derived {
    Attribute value;
    /// What the value comes from, for messages: "operand #1", "3 results".
    std::string source;
  };

  Attribute lookupExplicit(StringRef name) const {
    for (const NamedAttribute &attr : attrs)
      if (attr.getName() == name)
        return attr.getValue();
    return {};
  }

  /// How many tensors `arg` stands for, as far as the attributes (explicit
  /// or derived from the other side) say.
  std::optional<int64_t> knownCount(const rt::OpArg &arg) const;

  LogicalResult bind(StringRef name, Attribute value, std::string source);

  Operation *op;
  ArrayRef<NamedAttribute> attrs;
  Builder builder;
  llvm::MapVector<StringRef, Derived> derived;
};

std::optional<int64_t> Deriver::knownCount(const rt::OpArg &arg) const {
  if (!isVariadic(arg))
    return 1;
  StringRef name = toStringRef(
      arg.kind == rt::OpArg::Kind::TypeListAttr ? arg.type : arg.count);
  Attribute value = lookupExplicit(name);
  if (!value)
    if (auto it = derived.find(name); it != derived.end())
      value = it->second.value;
  if (arg.kind == rt::OpArg::Kind::TypeListAttr) {
    if (auto list = dyn_cast_or_null<ArrayAttr>(value))
      return list.size();
    return std::nullopt;
  }
  auto number = dyn_cast_or_null<IntegerAttr>(value);
  // A count no op could have (negative, or beyond 64 bits) sizes nothing;
  // the derived one then contradicts it.
  if (!number || isa<BoolAttr>(value) || number.getValue().isNegative() ||
      number.getValue().getActiveBits() > 62)
    return std::nullopt;
  return number.getValue().getSExtValue();
}

LogicalResult Deriver::bind(StringRef name, Attribute value,
                            std::string source) {
  auto it = derived.find(name);
  if (it == derived.end()) {
    derived.insert({name, Derived{value, std::move(source)}});
    return success();
  }
  if (it->second.value == value)
    return success();
  return op->emitOpError("attribute '")
         << name << "' is " << it->second.value << " by " << it->second.source
         << " but " << value << " by " << source;
}

LogicalResult Deriver::deriveSide(StringRef kind, ArrayRef<rt::OpArg> args,
                                  TypeRange types, Attribute segmentsAttr) {
  const int64_t numTensors = types.size();
  SmallVector<std::optional<int64_t>> counts;

  // MLIR's segment sizes, when they match the signature, place every tensor.
  std::optional<SmallVector<int64_t>> segments = segmentSizes(segmentsAttr);
  bool useSegments =
      segments && segments->size() == args.size() &&
      std::accumulate(segments->begin(), segments->end(), int64_t(0)) ==
          numTensors &&
      llvm::all_of(llvm::zip(args, *segments), [](auto pair) {
        int64_t size = std::get<1>(pair);
        return size >= 0 && (isVariadic(std::get<0>(pair)) || size == 1);
      });
  if (useSegments)
    counts.assign(segments->begin(), segments->end());
  else
    for (const rt::OpArg &arg : args)
      counts.push_back(knownCount(arg));

  // The attributes that size variadic arguments, for messages: "N = 3".
  SmallVector<std::string> sizes;
  for (const rt::OpArg &arg : useSegments ? ArrayRef<rt::OpArg>() : args) {
    if (!isVariadic(arg))
      continue;
    StringRef name = toStringRef(
        arg.kind == rt::OpArg::Kind::TypeListAttr ? arg.type : arg.count);
    std::string text;
    llvm::raw_string_ostream os(text);
    if (Attribute value = lookupExplicit(name))
      os << name << " = " << value;
    else if (auto it = derived.find(name); it != derived.end())
      os << name << " = " << it->second.value << " (by " << it->second.source
         << ")";
    if (!text.empty())
      sizes.push_back(std::move(text));
  }

  int64_t known = 0;
  SmallVector<size_t> unknown;
  for (auto [index, count] : llvm::enumerate(counts)) {
    if (count)
      known += *count;
    else
      unknown.push_back(index);
  }
  if (known > numTensors || (unknown.empty() && known != numTensors)) {
    // Without attributes that size the arguments, the op's arity is simply
    // not the signature's: nothing to derive here (the program loader
    // checks input counts).
    if (sizes.empty())
      return success();
    InFlightDiagnostic diag = op->emitOpError("has ")
                              << numTensors << " " << kind
                              << (numTensors == 1 ? "" : "s") << ", but ";
    diag << (sizes.size() == 1 ? "its attribute " : "its attributes ")
         << llvm::join(sizes, ", ")
         << (sizes.size() == 1 ? " makes " : " make ") << known
         << " for its signature '" << describeArgs(args) << "'";
    return failure();
  }
  if (unknown.size() == 1)
    counts[unknown.front()] = numTensors - known;

  // Each argument's first tensor: from the front up to the first argument
  // that cannot be placed, then from the back.
  SmallVector<std::optional<int64_t>> first(args.size());
  int64_t next = 0;
  for (size_t i = 0; i < args.size() && counts[i]; ++i) {
    first[i] = next;
    next += *counts[i];
  }
  next = numTensors;
  for (size_t i = args.size(); i-- > 0 && counts[i] && !first[i];) {
    next -= *counts[i];
    first[i] = next;
  }

  auto tensorName = [&](int64_t index) {
    return (kind + " #" + llvm::Twine(index)).str();
  };
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (!first[index])
      continue;
    int64_t begin = *first[index], count = *counts[index];
    std::string plural = (kind + (count == 1 ? "" : "s")).str();
    if (!arg.count.empty() &&
        failed(bind(toStringRef(arg.count), builder.getI64IntegerAttr(count),
                    (llvm::Twine(count) + " " + plural).str())))
      return failure();
    switch (arg.kind) {
    case rt::OpArg::Kind::Fixed:
      break;
    case rt::OpArg::Kind::TypeAttr:
      for (int64_t i = begin; i < begin + count; ++i)
        if (failed(bind(toStringRef(arg.type), TypeAttr::get(dtypeOf(types[i])),
                        tensorName(i))))
          return failure();
      break;
    case rt::OpArg::Kind::TypeListAttr: {
      SmallVector<Attribute> dtypes;
      for (int64_t i = begin; i < begin + count; ++i)
        dtypes.push_back(TypeAttr::get(dtypeOf(types[i])));
      std::string source = count == 0 ? "no " + (kind + "s").str()
                           : count == 1
                               ? tensorName(begin)
                               : (plural + " #" + llvm::Twine(begin) + " to #" +
                                  llvm::Twine(begin + count - 1))
                                     .str();
      if (failed(bind(toStringRef(arg.type), builder.getArrayAttr(dtypes),
                      std::move(source))))
        return failure();
      break;
    }
    }
  }
  return success();
}

LogicalResult Deriver::merge(SmallVectorImpl<NamedAttribute> &out) {
  for (auto &[name, value] : derived) {
    Attribute explicitValue = lookupExplicit(name);
    if (!explicitValue) {
      out.emplace_back(builder.getStringAttr(name), value.value);
      continue;
    }
    if (!sameValue(explicitValue, value.value))
      return op->emitOpError("attribute '")
             << name << "' is " << explicitValue << ", but the types make it "
             << value.value << " (by " << value.source << ")";
  }
  return success();
}

} // namespace

LogicalResult
tfrt_fallback::deriveTFAttributes(Operation *op, StringRef opName,
                                  SmallVectorImpl<NamedAttribute> &attrs) {
  const rt::OpInfo *info =
      rt::lookupOp(std::string_view(opName.data(), opName.size()));
  if (!info)
    return success();
  // The deriver reads the explicit attributes while `attrs` grows.
  SmallVector<NamedAttribute> explicitAttrs(attrs.begin(), attrs.end());
  Deriver deriver(op, explicitAttrs);
  auto segments = [&](StringRef name, StringRef oldName) {
    Attribute value = op->getAttr(name);
    return value ? value : op->getAttr(oldName);
  };
  if (failed(deriver.deriveSide(
          "operand", info->inputs, op->getOperandTypes(),
          segments("operandSegmentSizes", "operand_segment_sizes"))) ||
      failed(deriver.deriveSide(
          "result", info->outputs, op->getResultTypes(),
          segments("resultSegmentSizes", "result_segment_sizes"))))
    return failure();
  return deriver.merge(attrs);
}
