//===- Program.cpp - load and validate a binary program ---------*- C++ -*-===//
//
// Every read is bounds-checked and every index validated: a corrupt or
// hostile file yields an error status, never a crash or an out-of-bounds
// read.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Program.h"

#include "ControlFlowKernels.h"

#include "../Features.h"

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstring>
#include <utility>

namespace tfrt_fallback::rt {

namespace {

constexpr std::string_view kInvalidProgram = "invalid binary program: ";

Status formatError(const char *format, ...) TFRT_FALLBACK_PRINTF(1, 2);
Status formatError(const char *format, ...) {
  va_list args;
  va_start(args, format);
  Status status = makeErrorV(StatusCode::kInvalidArgument,
                             std::string(kInvalidProgram), format, args);
  va_end(args);
  return status;
}

Status tooLarge(uint64_t size, uint64_t limit) {
  return makeError(StatusCode::kResourceExhausted,
                   "the program has %" PRIu64
                   " bytes, past the limit of %" PRIu64,
                   size, limit);
}

/// `status`'s message as an invalid program's.
Status formatError(const Status &status) {
  std::string message(kInvalidProgram);
  message.append(status.message().data(), status.message().size());
  return InvalidArgumentError(message);
}

#define RETURN_IF_ERROR(expr)                                                  \
  do {                                                                         \
    Status _status = (expr);                                                   \
    if (!_status.ok())                                                         \
      return _status;                                                          \
  } while (false)

/// Bounds-checked little-endian reader over a byte range.
class ByteReader {
public:
  ByteReader(const uint8_t *begin, size_t size, const char *what)
      : pos(begin), end(begin + size), what(what) {}

  size_t remaining() const { return static_cast<size_t>(end - pos); }

  Status bytes(void *out, size_t size) {
    if (size > remaining())
      return formatError("%s is truncated", what);
    std::memcpy(out, pos, size);
    pos += size;
    return OkStatus();
  }
  template <typename T> Status read(T &out) { return bytes(&out, sizeof(T)); }
  /// Reads a count and checks that `count * minRecordSize` bytes remain, so
  /// a forged count cannot make the loader allocate without bound.
  Status count(uint32_t &out, size_t minRecordSize, const char *of) {
    RETURN_IF_ERROR(read(out));
    if (minRecordSize && out > remaining() / minRecordSize)
      return formatError("%s: %u %s do not fit in %zu bytes", what, out, of,
                         remaining());
    return OkStatus();
  }

private:
  const uint8_t *pos;
  const uint8_t *end;
  const char *what;
};

} // namespace

bool ValueType::accepts(DType actual, const TensorShape &actualShape) const {
  return !isChain() && actual == dtype && shape.isCompatibleWith(actualShape);
}

std::string ValueType::toString() const {
  if (isChain())
    return "!tfrt_fallback.chain";
  std::string text = "tensor<";
  if (!shape.hasRank()) {
    text += "*x";
  } else {
    for (int64_t dim : shape.dims()) {
      if (dim < 0)
        text += "?x";
      else
        strAppendFormat(&text, "%" PRId64 "x", dim);
    }
  }
  std::string_view name = dtypeTypeName(dtype);
  text.append(name.data(), name.size());
  text += '>';
  return text;
}

const Function *Program::lookupFunction(std::string_view name) const {
  for (const Function &function : functions_)
    if (function.name == name)
      return &function;
  return nullptr;
}

/// Decodes one program; see docs/BinaryFormat.md.
class ProgramLoader {
public:
  ProgramLoader(Program &program, const KernelRegistry *registry,
                const LoadOptions &options)
      : program(program), registry(registry), options(options) {}

  Status load();

private:
  Status readString(ByteReader &in, std::string &out);
  Status readIndex(ByteReader &in, size_t limit, const char *of, uint32_t &out);
  Status readDType(ByteReader &in, DType &out);
  Status readShape(ByteReader &in, PartialShape &out);
  Status readTypes(ByteReader &in);
  Status readConstants(ByteReader &in);
  Status checkConstantData(uint64_t offset, uint64_t size) const;
  Status readStringConstant(const ValueType &type, uint64_t offset,
                            uint64_t size, ConstantEntry &constant);
  Status readAttr(ByteReader &in, AttrValue &out);
  Status readKernels(ByteReader &in);
  Status readFunctions(ByteReader &in);
  Status readFunction(ByteReader &in, uint32_t numFunctions,
                      Function &function);
  Status readMemoryPlans(ByteReader &in);
  Status readSignatures(ByteReader &in);

  Program &program;
  const KernelRegistry *registry;
  const LoadOptions &options;
  absl::Span<const uint8_t> strings;
  absl::Span<const uint8_t> constantData;
};

Status ProgramLoader::readString(ByteReader &in, std::string &out) {
  uint32_t offset = 0, size = 0;
  RETURN_IF_ERROR(in.read(offset));
  RETURN_IF_ERROR(in.read(size));
  if (offset > strings.size() || size > strings.size() - offset)
    return formatError("string at %u+%u is outside the string section of %zu "
                       "bytes",
                       offset, size, strings.size());
  out.assign(reinterpret_cast<const char *>(strings.data()) + offset, size);
  return OkStatus();
}

Status ProgramLoader::readIndex(ByteReader &in, size_t limit, const char *of,
                                uint32_t &out) {
  RETURN_IF_ERROR(in.read(out));
  if (out >= limit)
    return formatError("%s index %u is out of range [0, %zu)", of, out, limit);
  return OkStatus();
}

Status ProgramLoader::readDType(ByteReader &in, DType &out) {
  uint8_t code = 0;
  RETURN_IF_ERROR(in.read(code));
  // Only the dtypes DTypes.def lists: any other code would reach kernels and
  // tools as a dtype without a size or a name.
  if (!dtypeFromDataType(code).ok())
    return formatError("unknown dtype code %u", code);
  out = static_cast<DType>(code);
  return OkStatus();
}

Status ProgramLoader::readShape(ByteReader &in, PartialShape &out) {
  int32_t rank = 0;
  RETURN_IF_ERROR(in.read(rank));
  if (rank == -1) {
    out = PartialShape::unknownRank();
    return OkStatus();
  }
  if (rank < 0 || rank > 64)
    return formatError("shape rank %d is invalid", rank);
  std::vector<int64_t> dims(rank);
  for (int64_t &dim : dims) {
    RETURN_IF_ERROR(in.read(dim));
    if (dim < -1)
      return formatError("shape dimension %" PRId64 " is invalid", dim);
  }
  out = PartialShape(dims);
  return OkStatus();
}

// The loader sizes its (empty) tables with `v = decltype(v)(n)` rather
// than `v.resize(n)`: resize's growth path (moving the old elements) is
// code a shipped runtime would carry for nothing.

Status ProgramLoader::readTypes(ByteReader &in) {
  uint32_t count = 0;
  RETURN_IF_ERROR(in.count(count, 1, "types"));
  program.types_ = decltype(program.types_)(count);
  for (ValueType &type : program.types_) {
    uint8_t kind = 0;
    RETURN_IF_ERROR(in.read(kind));
    type.kind = static_cast<bef::ValueKind>(kind);
    if (type.kind == bef::ValueKind::Chain)
      continue;
    if (type.kind != bef::ValueKind::Tensor)
      return formatError("unknown value kind %u", kind);
    RETURN_IF_ERROR(readDType(in, type.dtype));
    if (!kHasStrings && type.dtype == DType::String)
      return makeError(
          StatusCode::kUnimplemented,
          "the program has string tensors, " TFRT_FALLBACK_LEFT_OUT("strings"));
    RETURN_IF_ERROR(readShape(in, type.shape));
  }
  return OkStatus();
}

Status ProgramLoader::readConstants(ByteReader &in) {
  uint32_t count = 0;
  RETURN_IF_ERROR(in.count(count, 20, "constants"));
  program.constants_ = decltype(program.constants_)(count);
  // Constants are views of the program's buffer.
  size_t constantBase =
      static_cast<size_t>(constantData.data() -
                          static_cast<const uint8_t *>(program.file_->data()));
  for (ConstantEntry &constant : program.constants_) {
    uint64_t offset = 0, size = 0;
    RETURN_IF_ERROR(
        readIndex(in, program.types_.size(), "constant type", constant.type));
    RETURN_IF_ERROR(in.read(offset));
    RETURN_IF_ERROR(in.read(size));
    const ValueType &type = program.types_[constant.type];
    if (type.isChain() || !type.shape.isFullyDefined())
      return formatError("a constant must be a tensor of static shape");
    // (readTypes refused string types when the build has no strings: the
    // condition lets the compiler drop readStringConstant then.)
    if (kHasStrings && type.dtype == DType::String) {
      RETURN_IF_ERROR(readStringConstant(type, offset, size, constant));
      continue;
    }
    if (!isBufferDType(type.dtype))
      return formatError("constants of dtype %s are not supported",
                         std::string(dtypeName(type.dtype)).c_str());
    StatusOr<TensorShape> shape = TensorShape::create(type.shape.dims());
    if (!shape.ok())
      return formatError(shape.status());
    uint64_t expected;
    if (!bytesOf(*shape, type.dtype, &expected))
      return formatError("constant of type %s is too large",
                         type.toString().c_str());
    if (size != expected)
      return formatError("constant of type %s has %" PRIu64
                         " bytes, expected %" PRIu64,
                         type.toString().c_str(), size, expected);
    RETURN_IF_ERROR(checkConstantData(offset, size));
    StatusOr<Tensor> tensor = Tensor::fromBuffer(
        type.dtype, *std::move(shape), program.file_, constantBase + offset);
    if (!tensor.ok())
      return formatError(tensor.status());
    // Kernels read bool elements as C++ bool: any byte but 0 and 1 would be
    // undefined behaviour (found by fuzz/BefLoaderFuzzer.cpp).
    if (type.dtype == DType::Bool) {
      const uint8_t *bytes = static_cast<const uint8_t *>(tensor->rawData());
      for (uint64_t i = 0; i < size; ++i)
        if (bytes[i] > 1)
          return formatError("a bool constant element is neither 0 nor 1");
    }
    constant.tensor = *std::move(tensor);
  }
  return OkStatus();
}

/// The constant section holds [offset, offset + size), 64-byte aligned.
Status ProgramLoader::checkConstantData(uint64_t offset, uint64_t size) const {
  if (offset > constantData.size() || size > constantData.size() - offset)
    return formatError("constant data at %" PRIu64 "+%" PRIu64
                       " is outside the constant section",
                       offset, size);
  if (offset % bef::kConstantAlignment)
    return formatError("constant data at %" PRIu64 " is not 64-byte aligned",
                       offset);
  return OkStatus();
}

Status ProgramLoader::readStringConstant(const ValueType &type, uint64_t offset,
                                         uint64_t size,
                                         ConstantEntry &constant) {
  // u64 ends[n + 1] then the bytes; ends[0] = 0, element i is bytes
  // [ends[i], ends[i + 1]) (format 1.2).
  StatusOr<TensorShape> shape = TensorShape::create(type.shape.dims());
  if (!shape.ok())
    return formatError(shape.status());
  RETURN_IF_ERROR(checkConstantData(offset, size));
  const uint64_t count = static_cast<uint64_t>(shape->numElements());
  if (count >= size / 8)
    return formatError("string constant of type %s has %" PRIu64
                       " bytes, fewer than its %" PRIu64 " offsets",
                       type.toString().c_str(), size, count + 1);
  const uint8_t *data = constantData.data() + offset;
  const uint64_t tableBytes = (count + 1) * 8;
  const uint64_t byteCount = size - tableBytes;
  const char *chars = reinterpret_cast<const char *>(data + tableBytes);
  std::vector<std::string_view> views(count);
  uint64_t previous = 0;
  for (uint64_t i = 0; i <= count; ++i) {
    uint64_t end = 0;
    std::memcpy(&end, data + 8 * i, 8);
    if ((i == 0 && end != 0) || end < previous || end > byteCount ||
        (i == count && end != byteCount))
      return formatError("string constant of type %s: offset %" PRIu64
                         " (%" PRIu64 ") is not in order within its %" PRIu64
                         " bytes",
                         type.toString().c_str(), i, end, byteCount);
    if (i > 0)
      views[i - 1] = std::string_view(chars + previous, end - previous);
    previous = end;
  }
  constant.tensor =
      makeStringTensorView(*shape, std::move(views), program.file_);
  return OkStatus();
}

Status ProgramLoader::readAttr(ByteReader &in, AttrValue &out) {
  uint8_t tag = 0;
  RETURN_IF_ERROR(in.read(tag));
  bool isList = tag & bef::kListBit;
  auto kind = static_cast<bef::AttrKind>(tag & ~bef::kListBit);
  auto readScalar = [&](auto &value) -> Status {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, int64_t>) {
      return in.read(value);
    } else if constexpr (std::is_same_v<T, float>) {
      return in.read(value);
    } else if constexpr (std::is_same_v<T, bool>) {
      uint8_t byte = 0;
      RETURN_IF_ERROR(in.read(byte));
      if (byte > 1)
        return formatError("a bool attribute is neither 0 nor 1");
      value = byte;
      return OkStatus();
    } else if constexpr (std::is_same_v<T, std::string>) {
      return readString(in, value);
    } else if constexpr (std::is_same_v<T, DType>) {
      return readDType(in, value);
    } else if constexpr (std::is_same_v<T, PartialShape>) {
      return readShape(in, value);
    }
  };
  auto readList = [&](auto element) -> Status {
    using T = decltype(element);
    uint32_t count = 0;
    RETURN_IF_ERROR(in.count(count, 1, "list elements"));
    std::vector<T> values(count);
    if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, float>) {
      // Little-endian elements of a fixed size, as the host has them: one
      // read for the list.
      if (count)
        RETURN_IF_ERROR(in.bytes(values.data(), count * sizeof(T)));
    } else if constexpr (std::is_same_v<T, bool>) {
      for (uint32_t i = 0; i < count; ++i) {
        bool value = false;
        RETURN_IF_ERROR(readScalar(value));
        values[i] = value;
      }
    } else {
      for (T &value : values)
        RETURN_IF_ERROR(readScalar(value));
    }
    out = AttrValue(std::move(values));
    return OkStatus();
  };
  auto readOne = [&](auto element) -> Status {
    RETURN_IF_ERROR(readScalar(element));
    out = AttrValue(std::move(element));
    return OkStatus();
  };
  switch (kind) {
  case bef::AttrKind::Int:
    return isList ? readList(int64_t()) : readOne(int64_t());
  case bef::AttrKind::Float:
    return isList ? readList(float()) : readOne(float());
  case bef::AttrKind::Bool:
    return isList ? readList(bool()) : readOne(bool());
  case bef::AttrKind::String:
    return isList ? readList(std::string()) : readOne(std::string());
  case bef::AttrKind::Type:
    return isList ? readList(DType()) : readOne(DType());
  case bef::AttrKind::Shape:
    return isList ? readList(PartialShape()) : readOne(PartialShape());
  case bef::AttrKind::Tensor: {
    if (isList)
      return formatError("lists of tensor attributes are not supported");
    uint32_t index = 0;
    RETURN_IF_ERROR(
        readIndex(in, program.constants_.size(), "tensor attribute", index));
    out = AttrValue(program.constants_[index].tensor);
    return OkStatus();
  }
  case bef::AttrKind::Func: {
    if (isList)
      return formatError("lists of func attributes are not supported");
    FuncAttr func;
    RETURN_IF_ERROR(readString(in, func.name));
    out = AttrValue(std::move(func));
    return OkStatus();
  }
  }
  return formatError("unknown attribute kind %u", tag);
}

Status ProgramLoader::readKernels(ByteReader &in) {
  uint32_t count = 0;
  RETURN_IF_ERROR(in.count(count, 37, "kernels"));
  program.kernels_ = decltype(program.kernels_)(count);
  for (KernelEntry &entry : program.kernels_) {
    RETURN_IF_ERROR(readString(in, entry.opName));
    RETURN_IF_ERROR(readString(in, entry.location));
    RETURN_IF_ERROR(readString(in, entry.device));
    if (entry.opName.empty())
      return formatError("a kernel has an empty op name");
    uint32_t numAttrs = 0;
    RETURN_IF_ERROR(in.count(numAttrs, 9, "attributes"));
    std::vector<AttrMap::Entry> attrs(numAttrs);
    for (AttrMap::Entry &attr : attrs) {
      RETURN_IF_ERROR(readString(in, attr.first));
      RETURN_IF_ERROR(readAttr(in, attr.second));
    }
    StatusOr<AttrMap> map = AttrMap::fromEntries(std::move(attrs));
    if (!map.ok())
      return formatError("kernel '%s': %s", entry.opName.c_str(),
                         std::string(map.status().message()).c_str());
    entry.attrs = *std::move(map);
    for (std::vector<uint32_t> *types :
         {&entry.inputTypes, &entry.outputTypes}) {
      uint32_t numTypes = 0;
      RETURN_IF_ERROR(in.count(numTypes, 4, "kernel operands"));
      *types = std::vector<uint32_t>(numTypes);
      for (uint32_t &type : *types) {
        RETURN_IF_ERROR(readIndex(in, program.types_.size(), "type", type));
        if (program.types_[type].isChain())
          return formatError("a kernel operand or result is a chain");
      }
    }
    for (uint32_t type : entry.outputTypes)
      entry.outputDTypes.push_back(program.types_[type].dtype);
    uint8_t hasChain = 0;
    RETURN_IF_ERROR(in.read(hasChain));
    if (hasChain > 1)
      return formatError("a kernel's chain flag is neither 0 nor 1");
    entry.hasChain = hasChain;
  }
  return OkStatus();
}

Status ProgramLoader::readFunction(ByteReader &in, uint32_t numFunctions,
                                   Function &function) {
  RETURN_IF_ERROR(readString(in, function.name));
  RETURN_IF_ERROR(readString(in, function.location));
  uint32_t numRegisters = 0;
  RETURN_IF_ERROR(in.count(numRegisters, 4, "registers"));
  function.registerTypes = decltype(function.registerTypes)(numRegisters);
  for (uint32_t &type : function.registerTypes)
    RETURN_IF_ERROR(readIndex(in, program.types_.size(), "type", type));

  // Each register is defined exactly once, before its first use.
  std::vector<uint8_t> defined(numRegisters, 0);
  auto define = [&](uint32_t reg) -> Status {
    if (defined[reg])
      return formatError("register %u of '%s' is defined twice", reg,
                         function.name.c_str());
    defined[reg] = 1;
    return OkStatus();
  };
  auto use = [&](uint32_t reg) -> Status {
    if (!defined[reg])
      return formatError("register %u of '%s' is used before it is defined",
                         reg, function.name.c_str());
    return OkStatus();
  };

  uint32_t numArgs = 0;
  RETURN_IF_ERROR(in.count(numArgs, 4, "arguments"));
  function.argRegisters = decltype(function.argRegisters)(numArgs);
  for (uint32_t &reg : function.argRegisters) {
    RETURN_IF_ERROR(readIndex(in, numRegisters, "register", reg));
    RETURN_IF_ERROR(define(reg));
  }
  uint32_t numResults = 0;
  RETURN_IF_ERROR(in.count(numResults, 4, "results"));
  function.resultRegisters = decltype(function.resultRegisters)(numResults);
  for (uint32_t &reg : function.resultRegisters)
    RETURN_IF_ERROR(readIndex(in, numRegisters, "register", reg));

  uint32_t numBindings = 0;
  RETURN_IF_ERROR(in.count(numBindings, 8, "constant bindings"));
  function.constantBindings = decltype(function.constantBindings)(numBindings);
  for (auto &[reg, constant] : function.constantBindings) {
    RETURN_IF_ERROR(readIndex(in, numRegisters, "register", reg));
    RETURN_IF_ERROR(
        readIndex(in, program.constants_.size(), "constant", constant));
    RETURN_IF_ERROR(define(reg));
    const ConstantEntry &entry = program.constants_[constant];
    const ValueType &regType = program.types_[function.registerTypes[reg]];
    if (function.registerTypes[reg] != entry.type && regType.isChain())
      return formatError("a constant is bound to a chain register");
    // The executor trusts a register's type: a kernel declared for i32 must
    // not get an f64 constant (found by fuzz/BefLoaderFuzzer.cpp).
    if (function.registerTypes[reg] != entry.type &&
        !regType.accepts(entry.tensor.dtype(), entry.tensor.shape()))
      return formatError("a constant of type %s is bound to a register of "
                         "type %s",
                         program.types_[entry.type].toString().c_str(),
                         regType.toString().c_str());
  }

  uint32_t numInstructions = 0;
  RETURN_IF_ERROR(in.count(numInstructions, 21, "instructions"));
  function.instructions = decltype(function.instructions)(numInstructions);
  for (Instruction &inst : function.instructions) {
    uint8_t opcode = 0;
    RETURN_IF_ERROR(in.read(opcode));
    inst.opcode = static_cast<bef::Opcode>(opcode);
    RETURN_IF_ERROR(in.read(inst.index));
    RETURN_IF_ERROR(readString(in, inst.location));
    uint32_t count = 0;
    RETURN_IF_ERROR(in.count(count, 4, "operands"));
    inst.operandBegin = static_cast<uint32_t>(function.operands.size());
    inst.numOperands = count;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t reg = 0;
      RETURN_IF_ERROR(readIndex(in, numRegisters, "register", reg));
      RETURN_IF_ERROR(use(reg));
      function.operands.push_back(reg);
    }
    RETURN_IF_ERROR(in.count(count, 4, "results"));
    inst.resultBegin = static_cast<uint32_t>(function.results.size());
    inst.numResults = count;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t reg = 0;
      RETURN_IF_ERROR(readIndex(in, numRegisters, "register", reg));
      RETURN_IF_ERROR(define(reg));
      function.results.push_back(reg);
    }

    // Operand and result types must agree with what the instruction does.
    auto typeOf = [&](uint32_t reg) -> const ValueType & {
      return program.types_[function.registerTypes[reg]];
    };
    absl::Span<const uint32_t> operands = function.operandsOf(inst);
    absl::Span<const uint32_t> results = function.resultsOf(inst);
    auto mismatch = [&](const char *what) {
      return formatError("instruction at '%s' in '%s': %s",
                         inst.location.c_str(), function.name.c_str(), what);
    };
    if (opcode < static_cast<uint8_t>(bef::Opcode::Kernel) ||
        opcode > static_cast<uint8_t>(bef::Opcode::While))
      return mismatch(strFormat("unknown opcode %u", opcode).c_str());
    if (!kHasControlFlow &&
        (inst.opcode == bef::Opcode::Call || bef::hasCallees(inst.opcode)))
      return makeError(
          StatusCode::kUnimplemented,
          "the %s at '%s' in '%s' needs control flow, " TFRT_FALLBACK_LEFT_OUT(
              "control-flow"),
          inst.opcode == bef::Opcode::Call   ? "call"
          : inst.opcode == bef::Opcode::If   ? "if"
          : inst.opcode == bef::Opcode::Case ? "case"
                                             : "while",
          inst.location.c_str(), function.name.c_str());
    if (bef::hasCallees(inst.opcode)) {
      RETURN_IF_ERROR(in.count(count, 4, "callees"));
      inst.calleeBegin = static_cast<uint32_t>(function.callees.size());
      inst.numCallees = count;
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t callee = 0;
        RETURN_IF_ERROR(readIndex(in, numFunctions, "function", callee));
        function.callees.push_back(callee);
      }
    }
    switch (inst.opcode) {
    case bef::Opcode::Kernel: {
      if (inst.index >= program.kernels_.size())
        return mismatch("kernel index out of range");
      const KernelEntry &kernel = program.kernels_[inst.index];
      size_t chains = kernel.hasChain ? 1 : 0;
      if (operands.size() != kernel.inputTypes.size() + chains ||
          results.size() != kernel.outputTypes.size() + chains)
        return mismatch("operand or result count differs from its kernel");
      for (size_t i = 0; i < kernel.inputTypes.size(); ++i)
        if (function.registerTypes[operands[i]] != kernel.inputTypes[i])
          return mismatch("operand type differs from its kernel");
      for (size_t i = 0; i < kernel.outputTypes.size(); ++i)
        if (function.registerTypes[results[i]] != kernel.outputTypes[i])
          return mismatch("result type differs from its kernel");
      if (chains && (!typeOf(operands.back()).isChain() ||
                     !typeOf(results.back()).isChain()))
        return mismatch("an ordered kernel needs a chain operand and result");
      break;
    }
    case bef::Opcode::Call:
      if (inst.index >= numFunctions)
        return mismatch("function index out of range");
      // Signatures are checked once every function is read.
      break;
    case bef::Opcode::NewChain:
    case bef::Opcode::MergeChains:
      if (results.size() != 1 || !typeOf(results[0]).isChain())
        return mismatch("a chain op produces one chain");
      if ((inst.opcode == bef::Opcode::NewChain) != operands.empty())
        return mismatch("wrong number of chain operands");
      for (uint32_t reg : operands)
        if (!typeOf(reg).isChain())
          return mismatch("merge_chains takes chains");
      break;
    case bef::Opcode::If:
    case bef::Opcode::Case:
    case bef::Opcode::While: {
      // Signatures are checked once every function is read.
      if (inst.index != bef::kNone)
        return mismatch("a control-flow instruction has a kernel index");
      size_t expected = inst.opcode == bef::Opcode::Case ? 0 : 2;
      if (expected ? inst.numCallees != expected : inst.numCallees == 0)
        return mismatch(
            strFormat("wrong number of callees: %u", inst.numCallees).c_str());
      inst.hasChain = !operands.empty() && typeOf(operands.back()).isChain();
      size_t lead = inst.opcode == bef::Opcode::While ? 0 : 1;
      size_t chains = inst.hasChain ? 1 : 0;
      if (operands.size() < lead + chains)
        return mismatch("a branch needs a predicate or branch index");
      if (inst.hasChain &&
          (results.empty() || !typeOf(results.back()).isChain()))
        return mismatch("an ordered control-flow instruction needs a chain "
                        "operand and result");
      for (size_t i = 0; i + chains < operands.size(); ++i)
        if (typeOf(operands[i]).isChain())
          return mismatch("only the last operand may be a chain");
      for (size_t i = 0; i + chains < results.size(); ++i)
        if (typeOf(results[i]).isChain())
          return mismatch("only the last result may be a chain");
      if (inst.opcode == bef::Opcode::Case &&
          typeOf(operands[0]).dtype != DType::I32)
        return mismatch("a case's branch index is not an i32 tensor");
      break;
    }
    }
  }
  for (uint32_t reg : function.resultRegisters)
    RETURN_IF_ERROR(use(reg));

  Program::finalizeFunction(function);
  return OkStatus();
}

/// Dataflow tables for the executor: last uses for forwarding, users and
/// pending operand counts for dataflow order.
void Program::finalizeFunction(Function &function) {
  const uint32_t numRegisters = function.registerTypes.size();
  const uint32_t numInstructions = function.instructions.size();
  std::vector<uint32_t> useCount(numRegisters, 0);
  for (uint32_t reg : function.operands)
    ++useCount[reg];
  // Results and constants are never moved out nor released (kKept below).
  for (uint32_t reg : function.resultRegisters)
    useCount[reg] |= 1u << 31;
  // Arguments are the run's own (the executor takes its inputs by value):
  // one at its last use may lend its buffer to an output when the caller
  // kept no other reference.
  for (auto [reg, constant] : function.constantBindings)
    useCount[reg] |= 1u << 31; // Constants are shared by every call.
  function.lastUse = decltype(function.lastUse)(function.operands.size());
  for (size_t i = 0; i < function.operands.size(); ++i)
    function.lastUse[i] = useCount[function.operands[i]] == 1;
  // Values with several readers, all of them kernel calls: released after
  // the last (results, constants and what other instructions read are
  // kept). Part of the memory-plan feature (Features.h): without it they
  // live to the end of the run.
  function.sharedIndex.assign(kHasMemoryPlan ? numRegisters : 0, bef::kNone);
  function.sharedReaders.clear();
  if (kHasMemoryPlan) {
    constexpr uint32_t kKept = 1u << 31;
    for (const Instruction &inst : function.instructions)
      if (inst.opcode != bef::Opcode::Kernel)
        for (uint32_t reg : function.operandsOf(inst))
          useCount[reg] |= kKept;
    for (uint32_t reg = 0; reg < numRegisters; ++reg)
      if (useCount[reg] >= 2 && !(useCount[reg] & kKept)) {
        function.sharedIndex[reg] = function.sharedReaders.size();
        function.sharedReaders.push_back(useCount[reg]);
      }
  }

  std::vector<uint8_t> definedByInstruction(numRegisters, 0);
  for (uint32_t reg : function.results)
    definedByInstruction[reg] = 1;
  function.userBegin = decltype(function.userBegin)(numRegisters + 1);
  for (uint32_t reg : function.operands)
    ++function.userBegin[reg + 1];
  for (uint32_t r = 0; r < numRegisters; ++r)
    function.userBegin[r + 1] += function.userBegin[r];
  function.users = decltype(function.users)(function.operands.size());
  std::vector<uint32_t> fill(function.userBegin.begin(),
                             function.userBegin.end() - 1);
  std::vector<uint8_t> isConstant(numRegisters, 0);
  for (auto [reg, constant] : function.constantBindings)
    isConstant[reg] = 1;
  function.initialPending = decltype(function.initialPending)(numInstructions);
  function.constantOperands =
      decltype(function.constantOperands)(numInstructions);
  for (uint32_t i = 0; i < numInstructions; ++i) {
    absl::Span<const uint32_t> operands =
        function.operandsOf(function.instructions[i]);
    for (size_t o = 0; o < operands.size(); ++o) {
      const uint32_t reg = operands[o];
      function.users[fill[reg]++] = i;
      if (definedByInstruction[reg])
        ++function.initialPending[i];
      if (o < 64 && isConstant[reg])
        function.constantOperands[i] |= uint64_t(1) << o;
    }
  }
}

/// Whether values of type `a` may be passed where `b` is declared: the same
/// kind and dtype, and shapes that some tensor fits both (the executor checks
/// the actual shape when the two types differ).
static bool areCompatible(const ValueType &a, const ValueType &b) {
  if (a.kind != b.kind)
    return false;
  if (a.isChain())
    return true;
  if (a.dtype != b.dtype)
    return false;
  if (!a.shape.hasRank() || !b.shape.hasRank())
    return true;
  if (a.shape.rank() != b.shape.rank())
    return false;
  for (int i = 0; i < a.shape.rank(); ++i) {
    int64_t x = a.shape.dims()[i], y = b.shape.dims()[i];
    if (x >= 0 && y >= 0 && x != y)
      return false;
  }
  return true;
}

/// Checks that the callees of a control-flow instruction fit its operands
/// and results (docs/BinaryFormat.md).
static Status checkControlFlow(const std::vector<ValueType> &types,
                               const std::vector<Function> &functions,
                               const Function &function,
                               const Instruction &inst) {
  auto fail = [&](const Function &callee, const char *what,
                  const char *detail = "") {
    return formatError("instruction at '%s' in '%s': callee '%s' %s%s",
                       inst.location.c_str(), function.name.c_str(),
                       callee.name.c_str(), what, detail);
  };
  // The values passed to each callee and the results it defines, without
  // the predicate or branch index and without the chain.
  size_t chains = inst.hasChain ? 1 : 0;
  size_t lead = inst.opcode == bef::Opcode::While ? 0 : 1;
  absl::Span<const uint32_t> operands = function.operandsOf(inst);
  absl::Span<const uint32_t> results = function.resultsOf(inst);
  // Span::subspan's clamping, without its out-of-range throw (whose
  // object file would come with it).
  auto sub = [](absl::Span<const uint32_t> span, size_t pos, size_t len) {
    pos = std::min(pos, span.size());
    return absl::Span<const uint32_t>(span.data() + pos,
                                      std::min(len, span.size() - pos));
  };
  absl::Span<const uint32_t> passed =
      sub(operands, lead, operands.size() - lead - chains);
  absl::Span<const uint32_t> defined = sub(results, 0, results.size() - chains);
  auto typeIn = [&](const Function &f, uint32_t reg) -> const ValueType & {
    return types[f.registerTypes[reg]];
  };
  // `callee`'s arguments and results without its chain.
  auto check = [&](const Function &callee, absl::Span<const uint32_t> args,
                   absl::Span<const uint32_t> rets,
                   const char *what) -> Status {
    bool takesChain = callee.takesChain(types);
    if (takesChain && !inst.hasChain)
      return fail(callee, "takes a chain, but the instruction has none");
    absl::Span<const uint32_t> calleeArgs = callee.argRegisters;
    absl::Span<const uint32_t> calleeRets = callee.resultRegisters;
    if (takesChain) {
      if (calleeRets.empty() || !typeIn(callee, calleeRets.back()).isChain())
        return fail(callee, "takes a chain but does not return one last");
      calleeArgs.remove_prefix(1);
      calleeRets.remove_suffix(1);
    }
    bool ok = calleeArgs.size() == args.size();
    for (size_t i = 0; ok && i < args.size(); ++i)
      ok = areCompatible(typeIn(function, args[i]),
                         typeIn(callee, calleeArgs[i]));
    if (!ok)
      return fail(callee, "takes arguments that do not match the operands");
    ok = calleeRets.size() == rets.size();
    for (size_t i = 0; ok && i < rets.size(); ++i)
      ok = areCompatible(typeIn(callee, calleeRets[i]),
                         typeIn(function, rets[i]));
    if (!ok)
      return fail(callee, "does not return ", what);
    return OkStatus();
  };
  absl::Span<const uint32_t> callees = function.calleesOf(inst);
  if (inst.opcode != bef::Opcode::While) {
    for (uint32_t index : callees)
      RETURN_IF_ERROR(check(functions[index], passed, defined,
                            "the instruction's results"));
    return OkStatus();
  }
  // A loop's results are its carried values, which the operands start.
  bool ok = defined.size() == passed.size();
  for (size_t i = 0; ok && i < passed.size(); ++i)
    ok = areCompatible(typeIn(function, passed[i]),
                       typeIn(function, defined[i]));
  if (!ok)
    return formatError(
        "instruction at '%s' in '%s': a loop's operands must fit its results",
        inst.location.c_str(), function.name.c_str());
  const Function &cond = functions[callees[0]];
  const Function &body = functions[callees[1]];
  size_t condChain = cond.takesChain(types) ? 1 : 0;
  if (cond.resultRegisters.size() != 1 + condChain ||
      typeIn(cond, cond.resultRegisters[0]).isChain())
    return fail(cond, "must return one predicate tensor (and its chain)");
  RETURN_IF_ERROR(check(body, defined, defined, "the loop-carried values"));
  // The predicate may be a tensor of any dtype (TensorFlow's truth value).
  {
    absl::Span<const uint32_t> condArgs = cond.argRegisters;
    if (condChain)
      condArgs.remove_prefix(1);
    bool argsOk = condArgs.size() == defined.size();
    for (size_t i = 0; argsOk && i < defined.size(); ++i)
      argsOk = areCompatible(typeIn(function, defined[i]),
                             typeIn(cond, condArgs[i]));
    if (!argsOk)
      return fail(cond, "takes arguments that do not match the operands");
    if (condChain && !inst.hasChain)
      return fail(cond, "takes a chain, but the instruction has none");
    if (condChain && !typeIn(cond, cond.resultRegisters[1]).isChain())
      return fail(cond, "takes a chain but does not return one last");
  }
  return OkStatus();
}

Status ProgramLoader::readFunctions(ByteReader &in) {
  uint32_t count = 0;
  RETURN_IF_ERROR(in.count(count, 36, "functions"));
  program.functions_ = decltype(program.functions_)(count);
  for (Function &function : program.functions_)
    RETURN_IF_ERROR(readFunction(in, count, function));

  // Without control flow (Features.h) no instruction calls a function.
  if (!kHasControlFlow)
    return OkStatus();
  // Call sites match their callees' signatures.
  for (const Function &function : program.functions_) {
    for (const Instruction &inst : function.instructions) {
      if (inst.opcode != bef::Opcode::Call)
        continue;
      const Function &callee = program.functions_[inst.index];
      absl::Span<const uint32_t> operands = function.operandsOf(inst);
      absl::Span<const uint32_t> results = function.resultsOf(inst);
      bool ok = operands.size() == callee.argRegisters.size() &&
                results.size() == callee.resultRegisters.size();
      for (size_t i = 0; ok && i < operands.size(); ++i)
        ok = function.registerTypes[operands[i]] ==
             callee.registerTypes[callee.argRegisters[i]];
      for (size_t i = 0; ok && i < results.size(); ++i)
        ok = function.registerTypes[results[i]] ==
             callee.registerTypes[callee.resultRegisters[i]];
      if (!ok)
        return formatError(
            "call at '%s' in '%s' does not match the signature of '%s'",
            inst.location.c_str(), function.name.c_str(), callee.name.c_str());
    }
  }
  for (const Function &function : program.functions_)
    for (const Instruction &inst : function.instructions)
      if (bef::hasCallees(inst.opcode))
        RETURN_IF_ERROR(checkControlFlow(program.types_, program.functions_,
                                         function, inst));

  // The executor runs calls on the caller's stack: no recursion, and
  // nesting no deeper than the limit. depth[f]: the frames a call of f
  // stacks up at most (1 for a function that calls nothing).
  std::vector<std::vector<uint32_t>> calls(count);
  std::vector<uint32_t> depth(count, 1);
  for (uint32_t f = 0; f < count; ++f) {
    const Function &function = program.functions_[f];
    for (const Instruction &inst : function.instructions) {
      if (inst.opcode == bef::Opcode::Call)
        calls[f].push_back(inst.index);
      for (uint32_t callee : function.calleesOf(inst))
        calls[f].push_back(callee);
    }
  }
  enum : uint8_t { Unvisited, Active, Done };
  std::vector<uint8_t> state(count, Unvisited);
  std::vector<std::pair<uint32_t, size_t>> stack;
  for (uint32_t root = 0; root < count; ++root) {
    if (state[root] != Unvisited)
      continue;
    stack.push_back({root, 0});
    state[root] = Active;
    while (!stack.empty()) {
      auto &[current, next] = stack.back();
      if (next == calls[current].size()) {
        for (uint32_t callee : calls[current])
          depth[current] = std::max(depth[current], depth[callee] + 1);
        if (options.maxCallDepth && depth[current] > options.maxCallDepth)
          return makeError(StatusCode::kResourceExhausted,
                           "function '%s' of the program nests calls %u "
                           "deep, past the limit of %u",
                           program.functions_[current].name.c_str(),
                           depth[current], options.maxCallDepth);
        state[current] = Done;
        stack.pop_back();
        continue;
      }
      uint32_t callee = calls[current][next++];
      if (state[callee] == Active)
        return formatError(
            "function '%s' calls itself (directly or through other functions)",
            program.functions_[callee].name.c_str());
      if (state[callee] == Unvisited) {
        state[callee] = Active;
        stack.push_back({callee, 0});
      }
    }
  }
  return OkStatus();
}

Status ProgramLoader::readMemoryPlans(ByteReader &in) {
  uint32_t count = 0;
  RETURN_IF_ERROR(in.count(count, 20, "memory plans"));
  std::vector<uint8_t> planned(program.functions_.size(), 0);
  for (uint32_t p = 0; p < count; ++p) {
    uint32_t index = 0, numBuffers = 0, numValues = 0;
    uint64_t arenaBytes = 0;
    RETURN_IF_ERROR(
        readIndex(in, program.functions_.size(), "function", index));
    Function &function = program.functions_[index];
    if (planned[index]++)
      return formatError("function '%s' has two memory plans",
                         function.name.c_str());
    RETURN_IF_ERROR(in.read(arenaBytes));
    if (arenaBytes > TensorBuffer::kMaxBytes)
      return formatError("the memory plan of '%s' needs an arena of %" PRIu64
                         " bytes",
                         function.name.c_str(), arenaBytes);
    MemoryPlan &plan = function.memoryPlan;
    plan.arenaBytes = arenaBytes;
    RETURN_IF_ERROR(in.count(numBuffers, 16, "planned buffers"));
    plan.buffers.resize(numBuffers);
    for (MemoryPlan::Buffer &buffer : plan.buffers) {
      RETURN_IF_ERROR(in.read(buffer.offset));
      RETURN_IF_ERROR(in.read(buffer.bytes));
      if (buffer.bytes == 0 || buffer.offset > arenaBytes ||
          buffer.bytes > arenaBytes - buffer.offset)
        return formatError(
            "a planned buffer of '%s' (%" PRIu64 " bytes at "
            "%" PRIu64 ") is not inside its arena of %" PRIu64 " bytes",
            function.name.c_str(), buffer.bytes, buffer.offset, arenaBytes);
    }
    // Only kernel results are planned: the result slot of each register a
    // kernel defines.
    std::vector<uint32_t> slotOf(function.registerTypes.size(), bef::kNone);
    for (const Instruction &inst : function.instructions)
      if (inst.opcode == bef::Opcode::Kernel)
        for (uint32_t i = 0; i < inst.numResults; ++i)
          slotOf[function.results[inst.resultBegin + i]] = inst.resultBegin + i;
    function.plannedBuffers.assign(function.results.size(),
                                   OpKernelContext::kNotPlanned);
    RETURN_IF_ERROR(in.count(numValues, 8, "planned values"));
    for (uint32_t v = 0; v < numValues; ++v) {
      uint32_t reg = 0, buffer = 0;
      RETURN_IF_ERROR(
          readIndex(in, function.registerTypes.size(), "register", reg));
      RETURN_IF_ERROR(readIndex(in, numBuffers, "planned buffer", buffer));
      const uint32_t slot = slotOf[reg];
      if (slot == bef::kNone ||
          program.types_[function.registerTypes[reg]].isChain() ||
          function.plannedBuffers[slot] != OpKernelContext::kNotPlanned)
        return formatError("the memory plan of '%s' places register %u, "
                           "which is not a kernel's tensor result or is "
                           "placed twice",
                           function.name.c_str(), reg);
      function.plannedBuffers[slot] = buffer;
    }
    plan.index();
  }
  if (in.remaining())
    return formatError("%zu bytes follow the last memory plan", in.remaining());
  return OkStatus();
}

Status ProgramLoader::readSignatures(ByteReader &in) {
  // A build without signatures (Features.h) has no names.
  if (!kHasSignatures)
    return OkStatus();
  // Names where the section gives none.
  for (Function &function : program.functions_) {
    function.argNames.resize(function.argRegisters.size());
    for (size_t i = 0; i < function.argNames.size(); ++i)
      function.argNames[i] = strFormat("input_%zu", i);
    function.resultNames.resize(function.resultRegisters.size());
    for (size_t i = 0; i < function.resultNames.size(); ++i)
      function.resultNames[i] = strFormat("output_%zu", i);
  }
  if (!in.remaining())
    return OkStatus();
  uint32_t count = 0;
  RETURN_IF_ERROR(in.count(count, 12, "signatures"));
  std::vector<uint8_t> named(program.functions_.size(), 0);
  for (uint32_t s = 0; s < count; ++s) {
    uint32_t index = 0;
    RETURN_IF_ERROR(
        readIndex(in, program.functions_.size(), "function", index));
    Function &function = program.functions_[index];
    if (named[index]++)
      return formatError("function '%s' has two signatures",
                         function.name.c_str());
    // A count, which must be the function's, then as many names.
    auto readNames = [&](const char *what,
                         std::vector<std::string> &names) -> Status {
      uint32_t n = 0;
      RETURN_IF_ERROR(in.read(n));
      if (n != names.size())
        return formatError("the signature of '%s' names %u %s, not %zu",
                           function.name.c_str(), n, what, names.size());
      for (std::string &name : names)
        RETURN_IF_ERROR(readString(in, name));
      return OkStatus();
    };
    RETURN_IF_ERROR(readNames("arguments", function.argNames));
    RETURN_IF_ERROR(readNames("results", function.resultNames));
  }
  if (in.remaining())
    return formatError("%zu bytes follow the last signature", in.remaining());
  return OkStatus();
}

int Function::argIndex(std::string_view name) const {
  for (size_t i = 0; i < argNames.size(); ++i)
    if (argNames[i] == name)
      return static_cast<int>(i);
  // A tensor's first output is also its node's name: "x" finds "x:0" and
  // "x:0" finds "x".
  auto node = [](std::string_view n) {
    return n.size() > 2 && n.substr(n.size() - 2) == ":0"
               ? n.substr(0, n.size() - 2)
               : n;
  };
  for (size_t i = 0; i < argNames.size(); ++i)
    if (node(argNames[i]) == node(name))
      return static_cast<int>(i);
  return -1;
}

Status
Program::createKernel(KernelEntry &entry, const KernelRegistry &registry,
                      absl::Span<const Tensor *const> constantInputs) const {
  std::vector<DType> inputDTypes;
  for (uint32_t type : entry.inputTypes)
    inputDTypes.push_back(types_[type].dtype);
  StatusOr<std::unique_ptr<OpKernel>> kernel =
      registry.createKernel(entry.opName, entry.location, entry.attrs,
                            inputDTypes, entry.outputDTypes, constantInputs);
  if (!kernel.ok())
    return kernel.status();
  entry.kernel = *std::move(kernel);
  entry.asyncKernel = entry.kernel->asAsync();
  return OkStatus();
}

Status Program::createKernels(const KernelRegistry &registry) {
  // A kernel the registry lacks is not the program's fault but the
  // runtime's (a selective build, a missing plugin): name every one, so
  // that one load tells the user all the kernels to add.
  std::vector<std::string> missing;
  Status firstMissing;
  // Per kernel and input, the constant every instruction calling the kernel
  // binds to it (kernels may prepare from it when built): kUnused before
  // the first call, kNone when calls disagree or it is not a constant.
  constexpr int64_t kUnused = -2, kNone = -1;
  std::vector<std::vector<int64_t>> bindings(kernels_.size());
  for (const Function &function : functions_) {
    std::vector<int64_t> bound(function.registerTypes.size(), kNone);
    for (auto [reg, constant] : function.constantBindings)
      bound[reg] = constant;
    for (const Instruction &inst : function.instructions) {
      if (inst.opcode != bef::Opcode::Kernel)
        continue;
      absl::Span<const uint32_t> operands = function.operandsOf(inst);
      std::vector<int64_t> &inputs = bindings[inst.index];
      const size_t numInputs = kernels_[inst.index].inputTypes.size();
      if (inputs.empty())
        inputs.assign(numInputs, kUnused);
      for (size_t i = 0; i < numInputs && i < operands.size(); ++i) {
        int64_t constant = bound[operands[i]];
        if (inputs[i] == kUnused)
          inputs[i] = constant;
        else if (inputs[i] != constant)
          inputs[i] = kNone;
      }
    }
  }
  std::vector<const Tensor *> constantInputs;
  for (size_t k = 0; k < kernels_.size(); ++k) {
    KernelEntry &entry = kernels_[k];
    constantInputs.clear();
    for (int64_t constant : bindings[k])
      constantInputs.push_back(constant >= 0 ? &constants_[constant].tensor
                                             : nullptr);
    Status status = createKernel(entry, registry, constantInputs);
    if (status.ok())
      continue;
    if (!IsNotFound(status))
      return status;
    if (firstMissing.ok())
      firstMissing = status;
    // One line per missing kernel (not per node), with its first node.
    std::string_view what = status.message();
    if (startsWith(what, entry.location) &&
        startsWith(what.substr(entry.location.size()), ": "))
      what.remove_prefix(entry.location.size() + 2);
    std::string line = "  ";
    line.append(what.data(), what.size());
    if (std::none_of(missing.begin(), missing.end(),
                     [&](const std::string &m) { return startsWith(m, line); }))
      missing.push_back(
          strFormat("%s (at %s)", line.c_str(), entry.location.c_str()));
  }
  if (firstMissing.ok()) {
    if (kHasControlFlow)
      makeControlFlowKernels();
    prepareKernelSites();
    return OkStatus();
  }
  if (missing.size() <= 1)
    return firstMissing;
  return makeError(StatusCode::kNotFound,
                   "this runtime lacks %zu kernels the program needs:\n%s",
                   missing.size(), strJoin(missing, "\n").c_str());
}

void Program::makeControlFlowKernels() {
  for (Function &function : functions_) {
    for (Instruction &inst : function.instructions) {
      if (inst.opcode != bef::Opcode::Call && !bef::hasCallees(inst.opcode))
        continue;
      // A call passes its chains like any value; If, Case and While have
      // their chain last, as an ordered kernel does.
      const size_t chains =
          inst.opcode != bef::Opcode::Call && inst.hasChain ? 1 : 0;
      KernelEntry entry;
      entry.opName = controlFlowOpName(inst.opcode);
      entry.location = inst.location;
      entry.hasChain = chains != 0;
      entry.passesErrorsOn = true;
      std::vector<DType> inputDTypes;
      absl::Span<const uint32_t> operands = function.operandsOf(inst);
      for (size_t i = 0; i + chains < operands.size(); ++i) {
        entry.inputTypes.push_back(function.registerTypes[operands[i]]);
        inputDTypes.push_back(types_[entry.inputTypes.back()].dtype);
      }
      absl::Span<const uint32_t> results = function.resultsOf(inst);
      for (size_t i = 0; i + chains < results.size(); ++i) {
        entry.outputTypes.push_back(function.registerTypes[results[i]]);
        entry.outputDTypes.push_back(types_[entry.outputTypes.back()].dtype);
      }
      const uint32_t callee = inst.index;
      absl::Span<const uint32_t> callees = inst.opcode == bef::Opcode::Call
                                               ? absl::MakeConstSpan(&callee, 1)
                                               : function.calleesOf(inst);
      SimpleOpKernelConstruction construction(entry.opName, entry.location,
                                              entry.attrs, inputDTypes,
                                              entry.outputDTypes);
      entry.kernel =
          createControlFlowKernel(inst.opcode, callees, &construction);
      entry.asyncKernel = entry.kernel->asAsync();
      inst.opcode = bef::Opcode::Kernel;
      inst.index = static_cast<uint32_t>(kernels_.size());
      kernels_.push_back(std::move(entry));
    }
  }
}

void Program::prepareKernelSites() {
  for (Function &function : functions_) {
    function.kernelSites.assign(function.instructions.size(), KernelSite());
    for (size_t i = 0; i < function.instructions.size(); ++i) {
      const Instruction &inst = function.instructions[i];
      if (inst.opcode != bef::Opcode::Kernel)
        continue;
      const KernelEntry &entry = kernels_[inst.index];
      KernelSite &site = function.kernelSites[i];
      site.entry = &entry;
      site.syncKernel = entry.asyncKernel ? nullptr : entry.kernel.get();
      site.numInputs = entry.inputTypes.size();
      site.numOutputs = entry.outputTypes.size();
      const uint8_t *lastUse = function.lastUse.data() + inst.operandBegin;
      const uint32_t *operands = function.operands.data() + inst.operandBegin;
      for (uint32_t o = 0; o < inst.numOperands && o < 64; ++o) {
        if (o < site.numInputs && lastUse[o])
          site.lastUse |= uint64_t(1) << o;
        if (kHasMemoryPlan && function.sharedIndex[operands[o]] != bef::kNone)
          site.sharedUse |= uint64_t(1) << o;
        if (o < site.numInputs && site.numOutputs == 1 &&
            function.registerTypes[operands[o]] == entry.outputTypes[0])
          site.uncheckedMoves |= uint64_t(1) << o;
      }
    }
  }
}

Status ProgramLoader::load() {
  absl::Span<const uint8_t> bytes(
      static_cast<const uint8_t *>(program.file_->data()),
      program.file_->size());
  if (options.maxProgramBytes && bytes.size() > options.maxProgramBytes)
    return tooLarge(bytes.size(), options.maxProgramBytes);
  ByteReader header(bytes.data(), bytes.size(), "header");
  uint32_t magic = 0, flags = 0, numSections = 0;
  uint16_t major = 0, minor = 0;
  RETURN_IF_ERROR(header.read(magic));
  if (magic != bef::kMagic)
    return formatError("not a tfrt-fallback binary program (bad magic)");
  RETURN_IF_ERROR(header.read(major));
  RETURN_IF_ERROR(header.read(minor));
  if (major != bef::kVersionMajor)
    return formatError(
        "format version %d.%d is not supported (this runtime reads %d.x)",
        major, minor, bef::kVersionMajor);
  RETURN_IF_ERROR(header.read(flags));
  RETURN_IF_ERROR(
      header.count(numSections, bef::kSectionEntrySize, "sections"));
  absl::Span<const uint8_t> programSection, planSection, signatureSection;
  bool seen[6] = {false, false, false, false, false, false};
  for (uint32_t i = 0; i < numSections; ++i) {
    uint32_t kind = 0, alignment = 0;
    uint64_t offset = 0, size = 0;
    RETURN_IF_ERROR(header.read(kind));
    RETURN_IF_ERROR(header.read(alignment));
    RETURN_IF_ERROR(header.read(offset));
    RETURN_IF_ERROR(header.read(size));
    if (offset > bytes.size() || size > bytes.size() - offset)
      return formatError("section %u at %" PRIu64 "+%" PRIu64
                         " is outside the file of %zu bytes",
                         kind, offset, size, bytes.size());
    if (alignment == 0 || (alignment & (alignment - 1)) || offset % alignment)
      return formatError("section %u is misaligned", kind);
    absl::Span<const uint8_t> data(bytes.data() + offset, size);
    if (kind >= 1 && kind <= 5) {
      if (seen[kind])
        return formatError("section %u appears twice", kind);
      seen[kind] = true;
    }
    // Unknown sections are skipped: minor versions may add some.
    if (kind == static_cast<uint32_t>(bef::SectionKind::Strings)) {
      strings = data;
    } else if (kind == static_cast<uint32_t>(bef::SectionKind::Constants)) {
      if (reinterpret_cast<uintptr_t>(data.data()) % bef::kConstantAlignment)
        return formatError("the constant section is not 64-byte aligned in "
                           "memory");
      constantData = data;
    } else if (kind == static_cast<uint32_t>(bef::SectionKind::Program)) {
      programSection = data;
    } else if (kind == static_cast<uint32_t>(bef::SectionKind::MemoryPlan)) {
      planSection = data;
    } else if (kind == static_cast<uint32_t>(bef::SectionKind::Signatures)) {
      signatureSection = data;
    }
  }
  if (!seen[3])
    return formatError("the program section is missing");

  ByteReader in(programSection.data(), programSection.size(), "program");
  RETURN_IF_ERROR(readTypes(in));
  RETURN_IF_ERROR(readConstants(in));
  RETURN_IF_ERROR(readKernels(in));
  RETURN_IF_ERROR(readFunctions(in));
  if (in.remaining())
    return formatError("%zu bytes follow the last function", in.remaining());
  ByteReader signatures(signatureSection.data(), signatureSection.size(),
                        "signatures");
  RETURN_IF_ERROR(readSignatures(signatures));
  // A build without memory plans (Features.h) allocates every result.
  if (kHasMemoryPlan && seen[4]) {
    ByteReader plans(planSection.data(), planSection.size(), "memory plan");
    RETURN_IF_ERROR(readMemoryPlans(plans));
  }
  if (registry)
    RETURN_IF_ERROR(program.createKernels(*registry));
  return OkStatus();
}

/// Copies `bytes` into a 64-byte aligned buffer.
static StatusOr<RCReference<TensorBuffer>>
copyToAlignedBuffer(absl::Span<const uint8_t> bytes) {
  StatusOr<RCReference<TensorBuffer>> buffer =
      TensorBuffer::allocate(bytes.size());
  if (!buffer.ok())
    return buffer.status();
  if (!bytes.empty())
    std::memcpy((*buffer)->data(), bytes.data(), bytes.size());
  return buffer;
}

StatusOr<std::unique_ptr<Program>> Program::load(RCReference<TensorBuffer> file,
                                                 const KernelRegistry &registry,
                                                 const LoadOptions &options) {
  std::unique_ptr<Program> program(new Program());
  program->file_ = std::move(file);
  ProgramLoader loader(*program, &registry, options);
  RETURN_IF_ERROR(loader.load());
  return program;
}

StatusOr<std::unique_ptr<Program>>
Program::load(absl::Span<const uint8_t> bytes, const KernelRegistry &registry,
              const LoadOptions &options) {
  if (options.maxProgramBytes && bytes.size() > options.maxProgramBytes)
    return tooLarge(bytes.size(), options.maxProgramBytes);
  StatusOr<RCReference<TensorBuffer>> file = copyToAlignedBuffer(bytes);
  if (!file.ok())
    return file.status();
  return load(*std::move(file), registry, options);
}

StatusOr<std::unique_ptr<Program>>
Program::decode(absl::Span<const uint8_t> bytes) {
  StatusOr<RCReference<TensorBuffer>> file = copyToAlignedBuffer(bytes);
  if (!file.ok())
    return file.status();
  std::unique_ptr<Program> program(new Program());
  program->file_ = *std::move(file);
  const LoadOptions options;
  ProgramLoader loader(*program, nullptr, options);
  RETURN_IF_ERROR(loader.load());
  return program;
}

//===----------------------------------------------------------------------===//
// ProgramBuilder
//===----------------------------------------------------------------------===//

ProgramBuilder::ProgramBuilder() : program_(new Program()) {}
ProgramBuilder::~ProgramBuilder() = default;

uint32_t ProgramBuilder::addType(ValueType type) {
  program_->types_.push_back(std::move(type));
  return static_cast<uint32_t>(program_->types_.size() - 1);
}

uint32_t ProgramBuilder::addKernel(std::string opName, std::string location,
                                   AttrMap attrs,
                                   std::vector<uint32_t> inputTypes,
                                   std::vector<uint32_t> outputTypes,
                                   bool hasChain) {
  KernelEntry entry;
  entry.opName = std::move(opName);
  entry.location = std::move(location);
  entry.attrs = std::move(attrs);
  for (uint32_t type : outputTypes)
    entry.outputDTypes.push_back(type < program_->types_.size()
                                     ? program_->types_[type].dtype
                                     : DType::Invalid);
  for (uint32_t type : inputTypes)
    if (type >= program_->types_.size() && error_.ok())
      error_ = InvalidArgumentError(
          strCat("kernel '", entry.opName, "' has an unknown type"));
  if (entry.outputDTypes.end() != std::find(entry.outputDTypes.begin(),
                                            entry.outputDTypes.end(),
                                            DType::Invalid) &&
      error_.ok())
    error_ = InvalidArgumentError(strCat(
        "kernel '", entry.opName, "' has an output that is not a tensor"));
  entry.inputTypes = std::move(inputTypes);
  entry.outputTypes = std::move(outputTypes);
  entry.hasChain = hasChain;
  program_->kernels_.push_back(std::move(entry));
  return static_cast<uint32_t>(program_->kernels_.size() - 1);
}

uint32_t ProgramBuilder::addFunction(std::string name) {
  Function function;
  function.name = std::move(name);
  program_->functions_.push_back(std::move(function));
  return static_cast<uint32_t>(program_->functions_.size() - 1);
}

uint32_t ProgramBuilder::newRegister(Function &function, uint32_t type) {
  function.registerTypes.push_back(type);
  return static_cast<uint32_t>(function.registerTypes.size() - 1);
}

uint32_t ProgramBuilder::addArgument(uint32_t function, uint32_t type) {
  Function &f = program_->functions_[function];
  uint32_t reg = newRegister(f, type);
  f.argRegisters.push_back(reg);
  return reg;
}

uint32_t ProgramBuilder::addConstant(uint32_t function, Tensor tensor) {
  // The constant's static type, shared with an equal type already made.
  absl::Span<const int64_t> dims = tensor.shape().dims();
  uint32_t type = 0;
  while (type < program_->types_.size()) {
    const ValueType &known = program_->types_[type];
    if (!known.isChain() && known.dtype == tensor.dtype() &&
        known.shape.hasRank() && known.shape.dims() == dims)
      break;
    ++type;
  }
  if (type == program_->types_.size())
    type = addTensorType(tensor.dtype(), PartialShape(dims));
  program_->constants_.push_back(ConstantEntry{type, std::move(tensor)});
  Function &f = program_->functions_[function];
  uint32_t reg = newRegister(f, type);
  f.constantBindings.push_back(
      {reg, static_cast<uint32_t>(program_->constants_.size() - 1)});
  return reg;
}

std::vector<uint32_t>
ProgramBuilder::addInstruction(Function &function, bef::Opcode opcode,
                               uint32_t index, std::vector<uint32_t> operands,
                               absl::Span<const uint32_t> resultTypes) {
  Instruction inst;
  inst.opcode = opcode;
  inst.index = index;
  inst.operandBegin = static_cast<uint32_t>(function.operands.size());
  inst.numOperands = static_cast<uint32_t>(operands.size());
  for (uint32_t reg : operands) {
    if (reg >= function.registerTypes.size() && error_.ok())
      error_ = InvalidArgumentError(strCat("an instruction of '", function.name,
                                           "' uses register ", reg,
                                           ", which is not defined"));
    function.operands.push_back(reg);
  }
  std::vector<uint32_t> results;
  inst.resultBegin = static_cast<uint32_t>(function.results.size());
  inst.numResults = static_cast<uint32_t>(resultTypes.size());
  for (uint32_t type : resultTypes) {
    results.push_back(newRegister(function, type));
    function.results.push_back(results.back());
  }
  function.instructions.push_back(inst);
  return results;
}

std::vector<uint32_t>
ProgramBuilder::addKernelCall(uint32_t function, uint32_t kernel,
                              std::vector<uint32_t> operands) {
  Function &f = program_->functions_[function];
  const KernelEntry &entry = program_->kernels_[kernel];
  std::vector<uint32_t> resultTypes = entry.outputTypes;
  std::vector<uint32_t> operandTypes = entry.inputTypes;
  if (entry.hasChain) {
    uint32_t chain = addChainType();
    resultTypes.push_back(chain);
    operandTypes.push_back(chain);
  }
  const size_t numTypes = program_->types_.size();
  bool typesMatch = operands.size() == operandTypes.size();
  for (size_t i = 0; typesMatch && i < operands.size(); ++i)
    typesMatch = operands[i] < f.registerTypes.size() &&
                 f.registerTypes[operands[i]] < numTypes &&
                 operandTypes[i] < numTypes &&
                 program_->types_[f.registerTypes[operands[i]]].isChain() ==
                     program_->types_[operandTypes[i]].isChain() &&
                 (program_->types_[operandTypes[i]].isChain() ||
                  f.registerTypes[operands[i]] == operandTypes[i]);
  if (!typesMatch && error_.ok())
    error_ = InvalidArgumentError(
        strCat("the operands of '", entry.opName, "' in '", f.name,
               "' do not match its kernel's input types"));
  return addInstruction(f, bef::Opcode::Kernel, kernel, std::move(operands),
                        resultTypes);
}

std::vector<uint32_t> ProgramBuilder::addCall(uint32_t function,
                                              uint32_t callee,
                                              std::vector<uint32_t> operands) {
  Function &f = program_->functions_[function];
  if (callee >= function && error_.ok())
    error_ = InvalidArgumentError(
        strCat("'", f.name, "' may only call functions made before it"));
  std::vector<uint32_t> resultTypes;
  if (callee < function) {
    const Function &target = program_->functions_[callee];
    for (uint32_t reg : target.resultRegisters)
      resultTypes.push_back(target.registerTypes[reg]);
    bool typesMatch = operands.size() == target.argRegisters.size();
    for (size_t i = 0; typesMatch && i < operands.size(); ++i)
      typesMatch = operands[i] < f.registerTypes.size() &&
                   f.registerTypes[operands[i]] ==
                       target.registerTypes[target.argRegisters[i]];
    if (!typesMatch && error_.ok())
      error_ = InvalidArgumentError(strCat("call of '", target.name, "' in '",
                                           f.name,
                                           "' does not match its signature"));
  }
  return addInstruction(f, bef::Opcode::Call, callee, std::move(operands),
                        resultTypes);
}

uint32_t ProgramBuilder::addChainOp(uint32_t function,
                                    std::vector<uint32_t> chains) {
  Function &f = program_->functions_[function];
  bef::Opcode opcode =
      chains.empty() ? bef::Opcode::NewChain : bef::Opcode::MergeChains;
  uint32_t chain = addChainType();
  return addInstruction(f, opcode, bef::kNone, std::move(chains),
                        absl::MakeConstSpan(&chain, 1))[0];
}

std::vector<uint32_t>
ProgramBuilder::addControlFlow(uint32_t function, bef::Opcode opcode,
                               std::vector<uint32_t> callees,
                               std::vector<uint32_t> operands) {
  Function &f = program_->functions_[function];
  auto fail = [&](std::string_view what) {
    if (error_.ok())
      error_ = InvalidArgumentError(
          strCat("control flow in '", f.name, "': ", what));
    return std::vector<uint32_t>();
  };
  if (!bef::hasCallees(opcode))
    return fail("not a control-flow opcode");
  if (callees.empty())
    return fail("no callees");
  for (uint32_t callee : callees)
    if (callee >= function)
      return fail("may only call functions made before it");
  for (uint32_t reg : operands)
    if (reg >= f.registerTypes.size() ||
        f.registerTypes[reg] >= program_->types_.size())
      return fail("an operand is not defined");
  bool hasChain = !operands.empty() &&
                  program_->types_[f.registerTypes[operands.back()]].isChain();
  std::vector<uint32_t> resultTypes;
  if (opcode == bef::Opcode::While) {
    for (uint32_t reg : operands)
      resultTypes.push_back(f.registerTypes[reg]);
  } else {
    const Function &first = program_->functions_[callees[0]];
    bool takesChain = first.takesChain(program_->types_);
    for (uint32_t reg : first.resultRegisters)
      resultTypes.push_back(first.registerTypes[reg]);
    if (takesChain && !resultTypes.empty())
      resultTypes.pop_back();
    if (hasChain)
      resultTypes.push_back(f.registerTypes[operands.back()]);
  }
  std::vector<uint32_t> results =
      addInstruction(f, opcode, bef::kNone, std::move(operands), resultTypes);
  Instruction &inst = f.instructions.back();
  inst.calleeBegin = static_cast<uint32_t>(f.callees.size());
  inst.numCallees = static_cast<uint32_t>(callees.size());
  inst.hasChain = hasChain;
  f.callees.insert(f.callees.end(), callees.begin(), callees.end());
  return results;
}

void ProgramBuilder::setResults(uint32_t function,
                                std::vector<uint32_t> registers) {
  Function &f = program_->functions_[function];
  for (uint32_t reg : registers)
    if (reg >= f.registerTypes.size() && error_.ok())
      error_ = InvalidArgumentError(strCat("'", f.name, "' returns register ",
                                           reg, ", which is not defined"));
  f.resultRegisters = std::move(registers);
}

StatusOr<std::unique_ptr<Program>>
ProgramBuilder::build(const KernelRegistry &registry) {
  std::unique_ptr<Program> program = std::move(program_);
  program_.reset(new Program());
  if (!error_.ok())
    return std::exchange(error_, OkStatus());
  for (Function &function : program->functions_) {
    for (const Instruction &inst : function.instructions)
      if (bef::hasCallees(inst.opcode))
        RETURN_IF_ERROR(checkControlFlow(program->types_, program->functions_,
                                         function, inst));
    Program::finalizeFunction(function);
  }
  RETURN_IF_ERROR(program->createKernels(registry));
  return program;
}

} // namespace tfrt_fallback::rt
