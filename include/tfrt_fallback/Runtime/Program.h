//===- Program.h - a loaded binary program ----------------------*- C++ -*-===//
//
// Loads a binary program (docs/BinaryFormat.md) with every offset, index,
// size and count checked, creates each kernel once, and keeps the functions
// in a form the executor runs directly. A loaded Program is immutable: many
// threads may execute it at once.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_PROGRAM_H
#define TFRT_FALLBACK_RUNTIME_PROGRAM_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/BinaryFormat.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/status/statusor.h"
#include "absl/types/span.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {

/// The static type of a program value: a chain, or a tensor of a dtype whose
/// shape may be partially known.
struct ValueType {
  bef::ValueKind kind = bef::ValueKind::Tensor;
  DType dtype = DType::Invalid;
  PartialShape shape;

  bool isChain() const { return kind == bef::ValueKind::Chain; }
  /// Whether a tensor of `dtype` and `shape` is a value of this type.
  bool accepts(DType dtype, const TensorShape &shape) const;
  /// "tensor<1x?xf32>", "tensor<*xi32>" or "!tfrt_fallback.chain".
  std::string toString() const;
};

/// One kernel_call site: the op, its attributes and its created kernel.
struct KernelEntry {
  std::string opName;
  std::string location;
  std::string device;
  AttrMap attrs;
  std::vector<uint32_t> inputTypes;
  std::vector<uint32_t> outputTypes;
  std::vector<DType> outputDTypes;
  bool hasChain = false;
  std::unique_ptr<OpKernel> kernel;
};

/// A constant: a tensor whose data lives in the program's buffer.
struct ConstantEntry {
  uint32_t type = 0;
  Tensor tensor;
};

/// One instruction of a function body.
struct Instruction {
  bef::Opcode opcode = bef::Opcode::Kernel;
  /// Kernel index (Kernel) or function index (Call).
  uint32_t index = bef::kNone;
  std::string location;
  /// Operand and result registers, as ranges of Function::operands/results.
  uint32_t operandBegin = 0, numOperands = 0;
  uint32_t resultBegin = 0, numResults = 0;
};

/// A function ready to execute. Registers are numbered per function; each is
/// defined once, by an argument, a constant binding or an instruction, before
/// any instruction that uses it.
struct Function {
  std::string name;
  std::string location;
  std::vector<uint32_t> registerTypes;
  std::vector<uint32_t> argRegisters;
  std::vector<uint32_t> resultRegisters;
  std::vector<std::pair<uint32_t, uint32_t>> constantBindings;
  std::vector<Instruction> instructions;
  std::vector<uint32_t> operands;
  std::vector<uint32_t> results;
  /// Per operand slot: whether this is the register's only use, so the
  /// executor may move the value and let a kernel reuse its buffer.
  std::vector<uint8_t> lastUse;
  /// Dataflow: per register, the instructions that use it (CSR form).
  std::vector<uint32_t> userBegin;
  std::vector<uint32_t> users;
  /// Per instruction, how many of its operands an instruction defines.
  std::vector<uint32_t> initialPending;

  absl::Span<const uint32_t> operandsOf(const Instruction &inst) const {
    return absl::MakeConstSpan(operands).subspan(inst.operandBegin,
                                                 inst.numOperands);
  }
  absl::Span<const uint32_t> resultsOf(const Instruction &inst) const {
    return absl::MakeConstSpan(results).subspan(inst.resultBegin,
                                                inst.numResults);
  }
};

class Program {
public:
  /// Validates and loads the program in `file` (64-byte aligned, e.g. from
  /// TensorBuffer::allocate or a mapped file), creating every kernel from
  /// `registry`. Constants are used in place: the program keeps `file`.
  static absl::StatusOr<std::unique_ptr<Program>>
  load(RCReference<TensorBuffer> file, const KernelRegistry &registry);
  /// Copies `bytes` into an aligned buffer and loads it.
  static absl::StatusOr<std::unique_ptr<Program>>
  load(absl::Span<const uint8_t> bytes, const KernelRegistry &registry);

  /// Validates and decodes without creating kernels (for disassembly).
  static absl::StatusOr<std::unique_ptr<Program>>
  decode(absl::Span<const uint8_t> bytes);

  const std::vector<ValueType> &types() const { return types_; }
  const std::vector<ConstantEntry> &constants() const { return constants_; }
  const std::vector<KernelEntry> &kernels() const { return kernels_; }
  const std::vector<Function> &functions() const { return functions_; }

  /// The function named `name`, or nullptr.
  const Function *lookupFunction(absl::string_view name) const;

private:
  friend class ProgramLoader;
  Program() = default;

  RCReference<TensorBuffer> file_;
  std::vector<ValueType> types_;
  std::vector<ConstantEntry> constants_;
  std::vector<KernelEntry> kernels_;
  std::vector<Function> functions_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_PROGRAM_H
