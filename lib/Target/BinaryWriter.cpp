//===- BinaryWriter.cpp - serialize a module as a binary program -*- C++
//-*-===//
//
// Writes the binary program described in docs/BinaryFormat.md from a module
// in the tfrt_fallback dialect.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Target/BinaryProgram.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Runtime/BinaryFormat.h"
#include "tfrt_fallback/Runtime/DType.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <optional>

using namespace mlir;
using namespace tfrt_fallback;
namespace bef = tfrt_fallback::bef;
namespace rt = tfrt_fallback::rt;

//===----------------------------------------------------------------------===//
// Helpers shared with the reader
//===----------------------------------------------------------------------===//

namespace {

/// The dtype code (TensorFlow DataType number, DTypes.def) of an element
/// type the format can carry.
std::optional<uint8_t> getDTypeCode(Type type) {
  if (std::optional<rt::DType> dtype = tf::getDType(type))
    return static_cast<uint8_t>(*dtype);
  return std::nullopt;
}

/// A location as the runtime prints it in error messages: `file:line:col`,
/// or a node name with its file position, `name@file:line:col`; a file
/// without a position (line 0: a node of an imported graph) is `name@file`.
std::string formatLocation(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    if (fileLoc.getLine() == 0)
      return fileLoc.getFilename().getValue().str();
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
            ":" + Twine(fileLoc.getColumn()))
        .str();
  }
  if (auto nameLoc = dyn_cast<NameLoc>(loc)) {
    std::string child = formatLocation(nameLoc.getChildLoc());
    std::string name = nameLoc.getName().str();
    return child.empty() ? name : name + "@" + child;
  }
  if (auto callLoc = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(callLoc.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations()) {
      std::string text = formatLocation(inner);
      if (!text.empty())
        return text;
    }
  }
  return "";
}

/// Little-endian byte stream.
class ByteWriter {
public:
  explicit ByteWriter(std::vector<uint8_t> &bytes) : bytes(bytes) {}

  void u8(uint8_t value) { bytes.push_back(value); }
  void u16(uint16_t value) { raw(&value, sizeof(value)); }
  void u32(uint32_t value) { raw(&value, sizeof(value)); }
  void u64(uint64_t value) { raw(&value, sizeof(value)); }
  void i32(int32_t value) { u32(static_cast<uint32_t>(value)); }
  void i64(int64_t value) { u64(static_cast<uint64_t>(value)); }
  void f32(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    u32(bits);
  }
  void raw(const void *data, size_t size) {
    static_assert(llvm::endianness::native == llvm::endianness::little,
                  "the writer assumes a little-endian host");
    const auto *begin = static_cast<const uint8_t *>(data);
    bytes.insert(bytes.end(), begin, begin + size);
  }
  void alignTo(size_t alignment) {
    while (bytes.size() % alignment)
      bytes.push_back(0);
  }
  size_t size() const { return bytes.size(); }

private:
  std::vector<uint8_t> &bytes;
};

/// Builds the sections of one program.
class ProgramWriter {
public:
  explicit ProgramWriter(ModuleOp module)
      : module(module), program(programBytes) {}

  LogicalResult write(std::vector<uint8_t> &output);

private:
  void writeString(ByteWriter &out, StringRef text);
  FailureOr<uint32_t> getTypeIndex(Type type, Operation *user);
  FailureOr<uint32_t> getConstantIndex(ElementsAttr value, Operation *user);
  LogicalResult writeAttr(ByteWriter &out, Attribute value, Operation *user);
  LogicalResult writeKernel(KernelCallOp call, ByteWriter &out);
  LogicalResult writeFunction(func::FuncOp func, ByteWriter &out);
  /// Appends `func`'s memory plan, if it has one, to the memory-plan
  /// section; `registers` numbers its values.
  LogicalResult
  writeMemoryPlan(func::FuncOp func,
                  const llvm::DenseMap<Value, uint32_t> &registers);
  /// Appends the names of `func`'s arguments and results, if it has any, to
  /// the signatures section.
  void writeSignature(func::FuncOp func);

  ModuleOp module;

  std::vector<uint8_t> stringBytes;
  llvm::StringMap<uint32_t> stringOffsets;

  std::vector<uint8_t> typeBytes;
  ByteWriter typesOut{typeBytes};
  llvm::DenseMap<Type, uint32_t> typeIndices;

  std::vector<uint8_t> constantTableBytes;
  ByteWriter constantTableOut{constantTableBytes};
  std::vector<uint8_t> constantBytes;
  llvm::DenseMap<Attribute, uint32_t> constantIndices;

  std::vector<uint8_t> kernelBytes;
  ByteWriter kernelsOut{kernelBytes};
  uint32_t numKernels = 0;

  std::vector<uint8_t> planBytes;
  ByteWriter plansOut{planBytes};
  uint32_t numPlans = 0;

  std::vector<uint8_t> signatureBytes;
  ByteWriter signaturesOut{signatureBytes};
  uint32_t numSignatures = 0;

  llvm::DenseMap<Operation *, uint32_t> functionIndices;

  std::vector<uint8_t> programBytes;
  ByteWriter program;
};

} // namespace

void ProgramWriter::writeString(ByteWriter &out, StringRef text) {
  auto [it, inserted] = stringOffsets.try_emplace(
      text, static_cast<uint32_t>(stringBytes.size()));
  if (inserted)
    stringBytes.insert(stringBytes.end(), text.begin(), text.end());
  out.u32(it->second);
  out.u32(static_cast<uint32_t>(text.size()));
}

FailureOr<uint32_t> ProgramWriter::getTypeIndex(Type type, Operation *user) {
  auto it = typeIndices.find(type);
  if (it != typeIndices.end())
    return it->second;
  if (isa<ChainType>(type)) {
    typesOut.u8(static_cast<uint8_t>(bef::ValueKind::Chain));
  } else if (auto tensor = dyn_cast<TensorType>(type)) {
    std::optional<uint8_t> dtype = getDTypeCode(tensor.getElementType());
    if (!dtype)
      return user->emitOpError("uses the element type ")
             << tensor.getElementType()
             << ", which the binary program format cannot carry";
    typesOut.u8(static_cast<uint8_t>(bef::ValueKind::Tensor));
    typesOut.u8(*dtype);
    if (!tensor.hasRank()) {
      typesOut.i32(-1);
    } else {
      typesOut.i32(static_cast<int32_t>(tensor.getRank()));
      for (int64_t dim : tensor.getShape())
        typesOut.i64(ShapedType::isDynamic(dim) ? -1 : dim);
    }
  } else {
    return user->emitOpError("uses the type ")
           << type << ", which the binary program format cannot carry";
  }
  uint32_t index = static_cast<uint32_t>(typeIndices.size());
  typeIndices[type] = index;
  return index;
}

/// Bytes per element of a numeric element type (1 for bool; both parts of a
/// complex number), or std::nullopt for another type.
static std::optional<size_t> getNumericElementSize(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<size_t> part =
        getNumericElementSize(complex.getElementType());
    return part ? std::optional<size_t>(2 * *part) : std::nullopt;
  }
  if (!type.isIntOrFloat())
    return std::nullopt;
  return type.isInteger(1) ? 1 : type.getIntOrFloatBitWidth() / 8;
}

/// Appends the raw little-endian bytes of `value` to `bytes`.
static LogicalResult appendElementsBytes(ElementsAttr value,
                                         std::vector<uint8_t> &bytes,
                                         Operation *user) {
  auto type = cast<ShapedType>(value.getType());
  Type elementType = type.getElementType();
  // A splat of a few bytes can stand for any number of elements: refuse a
  // constant the writer could not hold rather than run out of memory.
  constexpr int64_t kMaxConstantBytes = int64_t(1) << 32;
  int64_t numElements = 1;
  bool overflow = false;
  for (int64_t dim : type.getShape())
    overflow |= llvm::MulOverflow(numElements, dim, numElements);
  std::optional<size_t> numericSize = getNumericElementSize(elementType);
  int64_t perElement = numericSize ? static_cast<int64_t>(*numericSize) : 8;
  if (overflow || numElements > kMaxConstantBytes / perElement)
    return user->emitOpError("has a constant of type ")
           << type << ", larger than a binary program holds ("
           << kMaxConstantBytes << " bytes)";
  if (isa<tf::StringType>(elementType)) {
    // u64 ends[n + 1] (ends[0] = 0), then the bytes (format 1.2).
    auto strings = dyn_cast<DenseStringElementsAttr>(value);
    if (!strings)
      return user->emitOpError("has a string constant the writer cannot read");
    ArrayRef<StringRef> values = strings.getRawStringData();
    auto element = [&](int64_t i) {
      return strings.isSplat() ? values.front() : values[i];
    };
    auto append64 = [&](uint64_t v) {
      for (int k = 0; k < 8; ++k)
        bytes.push_back(static_cast<uint8_t>(v >> (8 * k)));
    };
    uint64_t end = 0;
    append64(end);
    for (int64_t i = 0; i < numElements; ++i)
      append64(end += element(i).size());
    for (int64_t i = 0; i < numElements; ++i)
      bytes.insert(bytes.end(), element(i).begin(), element(i).end());
    return success();
  }
  if (!numericSize)
    return user->emitOpError("has a constant of element type ")
           << elementType << ", which the binary program format cannot carry";
  bool isBool = elementType.isInteger(1);
  size_t elementSize = *numericSize;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return user->emitOpError("refers to the resource '")
             << resource.getRawHandle().getKey() << "', which has no data";
    ArrayRef<char> data = blob->getData();
    if (data.size() != elementSize * numElements)
      return user->emitOpError("has a resource of ")
             << data.size() << " bytes, expected " << elementSize * numElements;
    if (isBool) {
      for (char byte : data)
        bytes.push_back(byte != 0);
      return success();
    }
    bytes.insert(bytes.end(), data.begin(), data.end());
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return user->emitOpError("has a constant the writer cannot read");
  if (isBool) {
    for (bool element : dense.getValues<bool>())
      bytes.push_back(element ? 1 : 0);
    return success();
  }
  ArrayRef<char> data = dense.getRawData();
  if (dense.isSplat()) {
    for (int64_t i = 0; i < numElements; ++i)
      bytes.insert(bytes.end(), data.begin(), data.begin() + elementSize);
    return success();
  }
  bytes.insert(bytes.end(), data.begin(), data.end());
  return success();
}

FailureOr<uint32_t> ProgramWriter::getConstantIndex(ElementsAttr value,
                                                    Operation *user) {
  auto it = constantIndices.find(value);
  if (it != constantIndices.end())
    return it->second;
  auto type = cast<ShapedType>(value.getType());
  if (!type.hasStaticShape())
    return user->emitOpError("has a constant without a static shape");
  FailureOr<uint32_t> typeIndex = getTypeIndex(type, user);
  if (failed(typeIndex))
    return failure();
  while (constantBytes.size() % bef::kConstantAlignment)
    constantBytes.push_back(0);
  uint64_t offset = constantBytes.size();
  if (failed(appendElementsBytes(value, constantBytes, user)))
    return failure();
  constantTableOut.u32(*typeIndex);
  constantTableOut.u64(offset);
  constantTableOut.u64(constantBytes.size() - offset);
  uint32_t index = static_cast<uint32_t>(constantIndices.size());
  constantIndices[value] = index;
  return index;
}

/// The encoded kind of a non-list attribute value.
static std::optional<bef::AttrKind> getAttrKind(Attribute value) {
  if (isa<BoolAttr>(value))
    return bef::AttrKind::Bool;
  if (isa<IntegerAttr>(value))
    return bef::AttrKind::Int;
  if (isa<FloatAttr>(value))
    return bef::AttrKind::Float;
  if (isa<StringAttr>(value))
    return bef::AttrKind::String;
  if (isa<TypeAttr>(value))
    return bef::AttrKind::Type;
  if (isa<ShapeAttr>(value))
    return bef::AttrKind::Shape;
  if (isa<ElementsAttr>(value))
    return bef::AttrKind::Tensor;
  if (isa<FlatSymbolRefAttr>(value))
    return bef::AttrKind::Func;
  return std::nullopt;
}

LogicalResult ProgramWriter::writeAttr(ByteWriter &out, Attribute value,
                                       Operation *user) {
  auto writeScalar = [&](Attribute element,
                         bef::AttrKind kind) -> LogicalResult {
    switch (kind) {
    case bef::AttrKind::Bool:
      out.u8(cast<BoolAttr>(element).getValue() ? 1 : 0);
      return success();
    case bef::AttrKind::Int:
      out.i64(cast<IntegerAttr>(element).getValue().getSExtValue());
      return success();
    case bef::AttrKind::Float:
      out.f32(static_cast<float>(
          cast<FloatAttr>(element).getValue().convertToDouble()));
      return success();
    case bef::AttrKind::String:
      writeString(out, cast<StringAttr>(element).getValue());
      return success();
    case bef::AttrKind::Type: {
      Type type = cast<TypeAttr>(element).getValue();
      std::optional<uint8_t> dtype = getDTypeCode(type);
      if (!dtype)
        return user->emitOpError("has a type attribute ")
               << type << " the binary program format cannot carry";
      out.u8(*dtype);
      return success();
    }
    case bef::AttrKind::Shape: {
      auto shape = cast<ShapeAttr>(element);
      if (!shape.getRanked()) {
        out.i32(-1);
        return success();
      }
      out.i32(static_cast<int32_t>(shape.getDims().size()));
      for (int64_t dim : shape.getDims())
        out.i64(ShapedType::isDynamic(dim) ? -1 : dim);
      return success();
    }
    case bef::AttrKind::Tensor: {
      FailureOr<uint32_t> index =
          getConstantIndex(cast<ElementsAttr>(element), user);
      if (failed(index))
        return failure();
      out.u32(*index);
      return success();
    }
    case bef::AttrKind::Func:
      writeString(out, cast<FlatSymbolRefAttr>(element).getValue());
      return success();
    }
    return failure();
  };

  if (auto list = dyn_cast<ArrayAttr>(value)) {
    // An empty list has no element kind; it is written as a list of ints,
    // which every typed getAttr of a list accepts when empty.
    bef::AttrKind kind = bef::AttrKind::Int;
    if (!list.empty()) {
      std::optional<bef::AttrKind> elementKind = getAttrKind(list[0]);
      if (!elementKind)
        return user->emitOpError("has a list attribute of an unsupported kind");
      // The format has no list of functions (the loader refuses one).
      if (*elementKind == bef::AttrKind::Func)
        return user->emitOpError("has a list of function attributes, which "
                                 "the binary program format cannot carry");
      kind = *elementKind;
    }
    out.u8(bef::kListBit | static_cast<uint8_t>(kind));
    out.u32(static_cast<uint32_t>(list.size()));
    for (Attribute element : list) {
      if (getAttrKind(element) != kind)
        return user->emitOpError("has a list attribute that mixes kinds");
      if (failed(writeScalar(element, kind)))
        return failure();
    }
    return success();
  }
  std::optional<bef::AttrKind> kind = getAttrKind(value);
  if (!kind)
    return user->emitOpError("has the attribute ")
           << value << ", which the binary program format cannot carry";
  out.u8(static_cast<uint8_t>(*kind));
  return writeScalar(value, *kind);
}

LogicalResult ProgramWriter::writeKernel(KernelCallOp call, ByteWriter &out) {
  writeString(out, call.getOpName());
  writeString(out, formatLocation(call.getLoc()));
  writeString(out, call.getDevice().value_or(""));
  DictionaryAttr attrs = call.getOpAttrs();
  out.u32(static_cast<uint32_t>(attrs.size()));
  for (NamedAttribute attr : attrs) {
    writeString(out, attr.getName().getValue());
    if (failed(writeAttr(out, attr.getValue(), call)))
      return failure();
  }
  out.u32(static_cast<uint32_t>(call.getArgs().size()));
  for (Value arg : call.getArgs()) {
    FailureOr<uint32_t> type = getTypeIndex(arg.getType(), call);
    if (failed(type))
      return failure();
    out.u32(*type);
  }
  out.u32(static_cast<uint32_t>(call.getResults().size()));
  for (Value result : call.getResults()) {
    FailureOr<uint32_t> type = getTypeIndex(result.getType(), call);
    if (failed(type))
      return failure();
    out.u32(*type);
  }
  out.u8(call.hasChain() ? 1 : 0);
  return success();
}

LogicalResult ProgramWriter::writeFunction(func::FuncOp func, ByteWriter &out) {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("must have a body of one block to be serialized");
  Block &body = func.getBody().front();

  // Registers: the arguments, then every result in program order.
  llvm::DenseMap<Value, uint32_t> registers;
  SmallVector<uint32_t> registerTypes;
  auto define = [&](Value value, Operation *user) -> LogicalResult {
    FailureOr<uint32_t> type = getTypeIndex(value.getType(), user);
    if (failed(type))
      return failure();
    registers[value] = static_cast<uint32_t>(registerTypes.size());
    registerTypes.push_back(*type);
    return success();
  };
  for (BlockArgument arg : body.getArguments())
    if (failed(define(arg, func)))
      return failure();

  SmallVector<std::pair<uint32_t, uint32_t>> constantBindings;
  std::vector<uint8_t> instructionBytes;
  ByteWriter instructions(instructionBytes);
  uint32_t numInstructions = 0;
  func::ReturnOp returnOp;

  auto writeOperandsAndResults = [&](Operation *op) -> LogicalResult {
    instructions.u32(op->getNumOperands());
    for (Value operand : op->getOperands())
      instructions.u32(registers.lookup(operand));
    for (Value result : op->getResults())
      if (failed(define(result, op)))
        return failure();
    instructions.u32(op->getNumResults());
    for (Value result : op->getResults())
      instructions.u32(registers.lookup(result));
    return success();
  };

  for (Operation &op : body) {
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      FailureOr<uint32_t> index = getConstantIndex(constant.getValue(), &op);
      if (failed(index) || failed(define(constant.getResult(), &op)))
        return failure();
      constantBindings.emplace_back(registers.lookup(constant.getResult()),
                                    *index);
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      returnOp = ret;
      continue;
    }
    uint8_t opcode;
    uint32_t index = bef::kNone;
    // The callees of a control-flow op, written after its results.
    SmallVector<FlatSymbolRefAttr> callees;
    if (auto branch = dyn_cast<IfOp>(op)) {
      opcode = static_cast<uint8_t>(bef::Opcode::If);
      callees = {branch.getThenBranchAttr(), branch.getElseBranchAttr()};
    } else if (auto branch = dyn_cast<CaseOp>(op)) {
      opcode = static_cast<uint8_t>(bef::Opcode::Case);
      for (Attribute callee : branch.getBranches())
        callees.push_back(cast<FlatSymbolRefAttr>(callee));
    } else if (auto loop = dyn_cast<WhileOp>(op)) {
      opcode = static_cast<uint8_t>(bef::Opcode::While);
      callees = {loop.getCondAttr(), loop.getBodyAttr()};
    } else if (auto call = dyn_cast<KernelCallOp>(op)) {
      opcode = static_cast<uint8_t>(bef::Opcode::Kernel);
      index = numKernels++;
      if (failed(writeKernel(call, kernelsOut)))
        return failure();
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      opcode = static_cast<uint8_t>(bef::Opcode::Call);
      Operation *callee =
          SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
      auto it = functionIndices.find(callee);
      if (!callee || it == functionIndices.end())
        return call.emitOpError("calls '")
               << call.getCallee() << "', which is not a function with a body";
      index = it->second;
    } else if (isa<NewChainOp>(op)) {
      opcode = static_cast<uint8_t>(bef::Opcode::NewChain);
    } else if (isa<MergeChainsOp>(op)) {
      opcode = static_cast<uint8_t>(bef::Opcode::MergeChains);
    } else if (op.getName().getDialectNamespace() == "tf") {
      return op.emitOpError("has not been lowered to tfrt_fallback; run "
                            "--tfrt-fallback-pipeline first");
    } else {
      return op.emitOpError("cannot be serialized into a binary program");
    }
    instructions.u8(opcode);
    instructions.u32(index);
    writeString(instructions, formatLocation(op.getLoc()));
    if (failed(writeOperandsAndResults(&op)))
      return failure();
    if (bef::hasCallees(static_cast<bef::Opcode>(opcode))) {
      instructions.u32(static_cast<uint32_t>(callees.size()));
      for (FlatSymbolRefAttr name : callees) {
        Operation *callee = SymbolTable::lookupNearestSymbolFrom(&op, name);
        auto it = functionIndices.find(callee);
        if (!callee || it == functionIndices.end())
          return op.emitOpError("calls '")
                 << name.getValue() << "', which is not a function with a body";
        instructions.u32(it->second);
      }
    }
    ++numInstructions;
  }
  if (!returnOp)
    return func.emitOpError("has no func.return");
  if (failed(writeMemoryPlan(func, registers)))
    return failure();
  writeSignature(func);

  writeString(out, func.getSymName());
  writeString(out, formatLocation(func.getLoc()));
  out.u32(static_cast<uint32_t>(registerTypes.size()));
  for (uint32_t type : registerTypes)
    out.u32(type);
  out.u32(body.getNumArguments());
  for (BlockArgument arg : body.getArguments())
    out.u32(registers.lookup(arg));
  out.u32(returnOp.getNumOperands());
  for (Value result : returnOp.getOperands())
    out.u32(registers.lookup(result));
  out.u32(static_cast<uint32_t>(constantBindings.size()));
  for (auto [reg, constant] : constantBindings) {
    out.u32(reg);
    out.u32(constant);
  }
  out.u32(numInstructions);
  out.raw(instructionBytes.data(), instructionBytes.size());
  return success();
}

LogicalResult ProgramWriter::writeMemoryPlan(
    func::FuncOp func, const llvm::DenseMap<Value, uint32_t> &registers) {
  auto plan = func->getAttrOfType<DictionaryAttr>(kMemoryPlanAttrName);
  if (!plan) {
    if (func->hasAttr(kMemoryPlanAttrName))
      return func.emitOpError("'")
             << kMemoryPlanAttrName << "' must be a dictionary";
    return success();
  }
  auto arena = plan.getAs<IntegerAttr>("arena_bytes");
  auto offsets = plan.getAs<DenseI64ArrayAttr>("offsets");
  auto sizes = plan.getAs<DenseI64ArrayAttr>("sizes");
  if (!arena || !offsets || !sizes || arena.getInt() < 0 ||
      offsets.size() != sizes.size())
    return func.emitOpError("'")
           << kMemoryPlanAttrName
           << "' needs arena_bytes (i64 >= 0) and as many offsets as sizes "
              "(array<i64>)";
  const int64_t arenaBytes = arena.getInt();
  for (auto [offset, size] :
       llvm::zip(offsets.asArrayRef(), sizes.asArrayRef()))
    if (size <= 0 || offset < 0 || offset > arenaBytes ||
        size > arenaBytes - offset)
      return func.emitOpError("planned buffer of ")
             << size << " bytes at " << offset << " is not inside the arena of "
             << arenaBytes << " bytes";
  SmallVector<std::pair<uint32_t, uint32_t>> values;
  for (auto call : func.getBody().front().getOps<KernelCallOp>()) {
    Attribute attr = call->getAttr(kPlannedBuffersAttrName);
    if (!attr)
      continue;
    auto buffers = dyn_cast<DenseI32ArrayAttr>(attr);
    if (!buffers ||
        buffers.size() != static_cast<int64_t>(call.getResults().size()))
      return call.emitOpError("'")
             << kPlannedBuffersAttrName
             << "' needs one buffer (array<i32>) per tensor result";
    for (auto [result, buffer] :
         llvm::zip(call.getResults(), buffers.asArrayRef())) {
      if (buffer == -1)
        continue;
      if (buffer < 0 || buffer >= static_cast<int64_t>(offsets.size()))
        return call.emitOpError("names planned buffer ")
               << buffer << " of a plan of " << offsets.size();
      values.emplace_back(registers.lookup(result), buffer);
    }
  }
  plansOut.u32(functionIndices.lookup(func));
  plansOut.u64(static_cast<uint64_t>(arenaBytes));
  plansOut.u32(static_cast<uint32_t>(offsets.size()));
  for (auto [offset, size] :
       llvm::zip(offsets.asArrayRef(), sizes.asArrayRef())) {
    plansOut.u64(static_cast<uint64_t>(offset));
    plansOut.u64(static_cast<uint64_t>(size));
  }
  plansOut.u32(static_cast<uint32_t>(values.size()));
  for (auto [reg, buffer] : values) {
    plansOut.u32(reg);
    plansOut.u32(buffer);
  }
  ++numPlans;
  return success();
}

void ProgramWriter::writeSignature(func::FuncOp func) {
  std::optional<FunctionSignatureNames> names = getSignatureNames(func);
  if (!names)
    return;
  signaturesOut.u32(functionIndices.lookup(func));
  signaturesOut.u32(static_cast<uint32_t>(names->args.size()));
  for (const std::string &name : names->args)
    writeString(signaturesOut, name);
  signaturesOut.u32(static_cast<uint32_t>(names->results.size()));
  for (const std::string &name : names->results)
    writeString(signaturesOut, name);
  ++numSignatures;
}

LogicalResult ProgramWriter::write(std::vector<uint8_t> &output) {
  SmallVector<func::FuncOp> functions;
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      if (func.isExternal())
        return func.emitOpError(
            "is a declaration; a binary program needs every function body");
      functionIndices[func] = static_cast<uint32_t>(functions.size());
      functions.push_back(func);
      continue;
    }
    return op.emitOpError("cannot be serialized into a binary program");
  }

  std::vector<uint8_t> functionBytes;
  ByteWriter functionsOut(functionBytes);
  for (func::FuncOp func : functions)
    if (failed(writeFunction(func, functionsOut)))
      return failure();

  // The program section: types, constants, kernels, functions.
  program.u32(static_cast<uint32_t>(typeIndices.size()));
  program.raw(typeBytes.data(), typeBytes.size());
  program.u32(static_cast<uint32_t>(constantIndices.size()));
  program.raw(constantTableBytes.data(), constantTableBytes.size());
  program.u32(numKernels);
  program.raw(kernelBytes.data(), kernelBytes.size());
  program.u32(static_cast<uint32_t>(functions.size()));
  program.raw(functionBytes.data(), functionBytes.size());

  // The file: header, section table, sections (constants 64-byte aligned).
  struct Section {
    bef::SectionKind kind;
    uint32_t alignment;
    const std::vector<uint8_t> *bytes;
  };
  // The memory plans, when a function has one: u32 count, then each.
  std::vector<uint8_t> memoryPlanBytes;
  if (numPlans) {
    ByteWriter plans(memoryPlanBytes);
    plans.u32(numPlans);
    plans.raw(planBytes.data(), planBytes.size());
  }
  // The names, when a function has some: u32 count, then each.
  std::vector<uint8_t> signatureSectionBytes;
  if (numSignatures) {
    ByteWriter signatures(signatureSectionBytes);
    signatures.u32(numSignatures);
    signatures.raw(signatureBytes.data(), signatureBytes.size());
  }
  // The optional sections are written only when they have something.
  SmallVector<Section> sections = {
      {bef::SectionKind::Strings, 1, &stringBytes},
      {bef::SectionKind::Constants, bef::kConstantAlignment, &constantBytes},
      {bef::SectionKind::Program, 8, &programBytes},
  };
  if (numPlans)
    sections.push_back({bef::SectionKind::MemoryPlan, 8, &memoryPlanBytes});
  if (numSignatures)
    sections.push_back(
        {bef::SectionKind::Signatures, 4, &signatureSectionBytes});
  const uint32_t numSections = sections.size();
  output.clear();
  ByteWriter file(output);
  file.u32(bef::kMagic);
  file.u16(bef::kVersionMajor);
  file.u16(bef::kVersionMinor);
  file.u32(0); // flags
  file.u32(numSections);
  uint64_t offset = bef::kHeaderSize + numSections * bef::kSectionEntrySize;
  for (const Section &section : sections) {
    offset = llvm::alignTo(offset, section.alignment);
    file.u32(static_cast<uint32_t>(section.kind));
    file.u32(section.alignment);
    file.u64(offset);
    file.u64(section.bytes->size());
    offset += section.bytes->size();
  }
  for (const Section &section : sections) {
    file.alignTo(section.alignment);
    file.raw(section.bytes->data(), section.bytes->size());
  }
  return success();
}

static constexpr llvm::StringLiteral kIndexPathAttrName =
    "tf_saved_model.index_path";
static constexpr llvm::StringLiteral kEntryFunctionAttrName =
    "tf.entry_function";

std::optional<FunctionSignatureNames>
tfrt_fallback::getSignatureNames(func::FuncOp func) {
  FunctionSignatureNames names;
  names.args.resize(func.getNumArguments());
  names.results.resize(func.getNumResults());
  bool any = false;
  // tf.entry_function's comma-separated lists, when they name every
  // argument (result).
  auto fromEntry = [&](StringRef key, std::vector<std::string> &out) {
    auto entry = func->getAttrOfType<DictionaryAttr>(kEntryFunctionAttrName);
    auto list = entry ? entry.getAs<StringAttr>(key) : StringAttr();
    if (!list || list.getValue().empty())
      return;
    SmallVector<StringRef> parts;
    list.getValue().split(parts, ',');
    if (parts.size() != out.size())
      return;
    for (auto [name, part] : llvm::zip(out, parts))
      name = part.trim().str();
    any = true;
  };
  fromEntry("inputs", names.args);
  fromEntry("outputs", names.results);
  auto fromIndexPath = [&](DictionaryAttr attrs, std::string &out) {
    auto path =
        attrs ? attrs.getAs<ArrayAttr>(kIndexPathAttrName) : ArrayAttr();
    auto first =
        path && !path.empty() ? dyn_cast<StringAttr>(path[0]) : StringAttr();
    if (!first)
      return;
    out = first.getValue().str();
    any = true;
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    fromIndexPath(func.getArgAttrDict(i), names.args[i]);
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    fromIndexPath(func.getResultAttrDict(i), names.results[i]);
  if (!any)
    return std::nullopt;
  for (auto [i, name] : llvm::enumerate(names.args))
    if (name.empty())
      name = ("input_" + Twine(i)).str();
  for (auto [i, name] : llvm::enumerate(names.results))
    if (name.empty())
      name = ("output_" + Twine(i)).str();
  return names;
}

void tfrt_fallback::setSignatureNames(func::FuncOp func,
                                      const FunctionSignatureNames &names) {
  Builder builder(func.getContext());
  auto path = [&](StringRef name) {
    return builder.getArrayAttr({builder.getStringAttr(name)});
  };
  for (auto [i, name] : llvm::enumerate(names.args))
    if (i < func.getNumArguments())
      func.setArgAttr(i, kIndexPathAttrName, path(name));
  for (auto [i, name] : llvm::enumerate(names.results))
    if (i < func.getNumResults())
      func.setResultAttr(i, kIndexPathAttrName, path(name));
}

LogicalResult tfrt_fallback::writeBinaryProgram(ModuleOp module,
                                                std::vector<uint8_t> &output) {
  ProgramWriter writer(module);
  return writer.write(output);
}
