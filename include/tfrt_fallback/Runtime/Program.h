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
#include "tfrt_fallback/Runtime/MemoryPlan.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

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
  /// The kernel's errors name their op already (a control-flow kernel
  /// passes on its callees' errors): the executor does not prefix them.
  bool passesErrorsOn = false;
  std::unique_ptr<OpKernel> kernel;
  /// kernel->asAsync(), looked up once at load.
  AsyncOpKernel *asyncKernel = nullptr;
};

/// A constant: a tensor whose data lives in the program's buffer.
struct ConstantEntry {
  uint32_t type = 0;
  Tensor tensor;
};

/// One instruction of a function body.
struct Instruction {
  /// A loaded program has Kernel and chain instructions only: the loader
  /// turns calls, If, Case and While into kernel calls (a decoded one keeps
  /// them, for disassembly).
  bef::Opcode opcode = bef::Opcode::Kernel;
  /// Kernel index (Kernel) or function index (Call).
  uint32_t index = bef::kNone;
  std::string location;
  /// Operand and result registers, as ranges of Function::operands/results.
  uint32_t operandBegin = 0, numOperands = 0;
  uint32_t resultBegin = 0, numResults = 0;
  /// Control flow (If, Case, While): the callees, as a range of
  /// Function::callees, and whether the last operand and result are chains.
  uint32_t calleeBegin = 0, numCallees = 0;
  bool hasChain = false;
};

/// What the executor reads to call the kernel of one instruction, prepared
/// once the kernels exist (Program::prepareKernelSites), so the per-op path
/// reads one record instead of the kernel table's vectors.
struct KernelSite {
  const KernelEntry *entry = nullptr;
  /// The kernel when it is synchronous, else null (entry->asyncKernel).
  OpKernel *syncKernel = nullptr;
  /// Bit i set when input i (i < 64) is at its last use.
  uint64_t lastUse = 0;
  /// Bit i set when input i (i < 64) is a value with several readers that
  /// is released when the last of them finishes (Function::sharedIndex).
  uint64_t sharedUse = 0;
  /// Bit i set when the kernel has one output, of the type of input i
  /// (i < 64): an input moved into that output (OpKernelContext::finish)
  /// keeps its shape and dtype, so it fits the output's type already.
  uint64_t uncheckedMoves = 0;
  uint32_t numInputs = 0, numOutputs = 0;
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
  /// The arguments' and results' names (the model's input and output names:
  /// the binary program's signatures section), input_<i> and output_<i>
  /// where the program names none. Empty in a build without names (a
  /// selective build without `feature signatures`).
  std::vector<std::string> argNames;
  std::vector<std::string> resultNames;
  std::vector<std::pair<uint32_t, uint32_t>> constantBindings;
  std::vector<Instruction> instructions;
  std::vector<uint32_t> operands;
  std::vector<uint32_t> results;
  /// Function indices of the control-flow instructions' callees.
  std::vector<uint32_t> callees;
  /// Per operand slot: whether this is the register's only use, so the
  /// executor may move the value and let a kernel reuse its buffer.
  std::vector<uint8_t> lastUse;
  /// Values read by several kernel calls and nothing else (not results, not
  /// constants): per register, its index among them or kNone, and per
  /// index, how many reads. A run counts the reads down and releases the
  /// value after the last, in whatever order they run.
  std::vector<uint32_t> sharedIndex;
  std::vector<uint32_t> sharedReaders;
  /// Dataflow: per register, the instructions that use it (CSR form).
  std::vector<uint32_t> userBegin;
  std::vector<uint32_t> users;
  /// Per instruction, how many of its operands an instruction defines.
  std::vector<uint32_t> initialPending;
  /// Per instruction, bit i set when operand i (i < 64) is bound to a
  /// program constant (OpKernelContextInterface::isInputConstant).
  std::vector<uint64_t> constantOperands;
  /// Per instruction, its kernel call (empty for other opcodes).
  std::vector<KernelSite> kernelSites;
  /// The compiler's memory plan (empty without one) and, per result slot
  /// (parallel to `results`), the planned buffer of that result or
  /// OpKernelContext::kNotPlanned.
  MemoryPlan memoryPlan;
  std::vector<uint32_t> plannedBuffers;

  /// The index of the first argument named `name` (or named `name` with or
  /// without a final ":0", the tensor's node), or -1.
  int argIndex(std::string_view name) const;

  // The loader checked every instruction's ranges (finalizeFunction): no
  // bounds check on the per-op path.
  absl::Span<const uint32_t> operandsOf(const Instruction &inst) const {
    return {operands.data() + inst.operandBegin, inst.numOperands};
  }
  absl::Span<const uint32_t> resultsOf(const Instruction &inst) const {
    return {results.data() + inst.resultBegin, inst.numResults};
  }
  absl::Span<const uint32_t> calleesOf(const Instruction &inst) const {
    return {callees.data() + inst.calleeBegin, inst.numCallees};
  }
  /// Whether argument 0 is a chain: a control-flow instruction then passes
  /// its chain first and takes the callee's last result as its chain.
  bool takesChain(const std::vector<ValueType> &types) const {
    return !argRegisters.empty() &&
           types[registerTypes[argRegisters[0]]].isChain();
  }
};

/// Limits of a load (Limits.h has those of a run); a program past one is
/// refused with ResourceExhausted.
struct LoadOptions {
  /// The deepest nesting the default allows; see maxCallDepth.
  static constexpr uint32_t kDefaultMaxCallDepth = 256;

  /// The largest program accepted, in bytes; 0: no limit.
  uint64_t maxProgramBytes = 0;
  /// The deepest nesting of functions through calls, branches and loops
  /// (a function that calls nothing is 1 deep): a callee that finishes at
  /// once runs on its caller's stack. 0: no limit.
  uint32_t maxCallDepth = kDefaultMaxCallDepth;
};

class Program {
public:
  /// Validates and loads the program in `file` (64-byte aligned, e.g. from
  /// TensorBuffer::allocate or a mapped file), creating every kernel from
  /// `registry`. Constants are used in place: the program keeps `file`.
  static StatusOr<std::unique_ptr<Program>>
  load(RCReference<TensorBuffer> file, const KernelRegistry &registry,
       const LoadOptions &options = {});
  /// Copies `bytes` into an aligned buffer and loads it.
  static StatusOr<std::unique_ptr<Program>>
  load(absl::Span<const uint8_t> bytes, const KernelRegistry &registry,
       const LoadOptions &options = {});

  /// Validates and decodes without creating kernels (for disassembly).
  static StatusOr<std::unique_ptr<Program>>
  decode(absl::Span<const uint8_t> bytes);

  const std::vector<ValueType> &types() const { return types_; }
  const std::vector<ConstantEntry> &constants() const { return constants_; }
  const std::vector<KernelEntry> &kernels() const { return kernels_; }
  const std::vector<Function> &functions() const { return functions_; }

  /// The function named `name`, or nullptr.
  const Function *lookupFunction(std::string_view name) const;

private:
  friend class ProgramLoader;
  friend class ProgramBuilder;
  Program() = default;

  /// Fills the dataflow tables of `function` (last uses, users, pending
  /// operand counts) from its instructions.
  static void finalizeFunction(Function &function);
  /// Creates the kernel of `entry` through registry.createKernel().
  Status
  createKernel(KernelEntry &entry, const KernelRegistry &registry,
               absl::Span<const Tensor *const> constantInputs = {}) const;
  /// Creates every kernel. A kernel the registry lacks does not stop the
  /// others: when several are missing, one NotFound error names them all.
  Status createKernels(const KernelRegistry &registry);
  /// Turns every call, If, Case and While instruction into a call of a
  /// control-flow kernel (ControlFlowKernels.h) made for it.
  void makeControlFlowKernels();
  /// Fills every function's kernelSites from the created kernels.
  void prepareKernelSites();

  RCReference<TensorBuffer> file_;
  std::vector<ValueType> types_;
  std::vector<ConstantEntry> constants_;
  std::vector<KernelEntry> kernels_;
  std::vector<Function> functions_;
};

/// Builds a Program in memory instead of loading a binary one: single-op
/// programs for kernel tests (as TFLite's SingleOpModel) and small graphs for
/// executor tests and embedders. Kernels are created exactly as the loader
/// creates them (KernelRegistry::createKernel) and the result runs on the
/// same Executor. Registers are numbered in the order they are made, so a
/// function built here is always in a valid, topological order.
class ProgramBuilder {
public:
  ProgramBuilder();
  ~ProgramBuilder();

  /// Adds a value type; returns its index.
  uint32_t addType(ValueType type);
  uint32_t addTensorType(DType dtype, PartialShape shape) {
    return addType(ValueType{bef::ValueKind::Tensor, dtype, std::move(shape)});
  }
  uint32_t addChainType() {
    return addType(ValueType{bef::ValueKind::Chain, DType::Invalid, {}});
  }

  /// Adds a kernel_call site (an entry of the kernel table); returns its
  /// index. An ordered kernel (`hasChain`) takes and returns a chain after
  /// its tensors.
  uint32_t addKernel(std::string opName, std::string location, AttrMap attrs,
                     std::vector<uint32_t> inputTypes,
                     std::vector<uint32_t> outputTypes, bool hasChain = false);

  /// Starts a function; returns its index.
  uint32_t addFunction(std::string name);
  /// A new argument register of `function`.
  uint32_t addArgument(uint32_t function, uint32_t type);
  /// A new register of `function` bound to a constant; its type is an equal
  /// type already made, if any, so it can feed kernels declared with it.
  uint32_t addConstant(uint32_t function, Tensor tensor);
  /// Appends a call of `kernel` on `operands`; returns its result registers.
  std::vector<uint32_t> addKernelCall(uint32_t function, uint32_t kernel,
                                      std::vector<uint32_t> operands);
  /// Appends a call of an earlier function (so there is no recursion).
  std::vector<uint32_t> addCall(uint32_t function, uint32_t callee,
                                std::vector<uint32_t> operands);
  /// Appends new_chain (no operands) or merge_chains.
  uint32_t addChainOp(uint32_t function, std::vector<uint32_t> chains);
  /// Appends an If, Case or While of earlier functions (docs/BinaryFormat.md
  /// gives the operands each takes; a chain, if any, comes last). The result
  /// types are the operand types (While) or the first callee's results.
  std::vector<uint32_t> addControlFlow(uint32_t function, bef::Opcode opcode,
                                       std::vector<uint32_t> callees,
                                       std::vector<uint32_t> operands);
  void setResults(uint32_t function, std::vector<uint32_t> registers);

  /// Checks the operand types, finalizes the functions and creates every
  /// kernel. The builder is left empty.
  StatusOr<std::unique_ptr<Program>> build(const KernelRegistry &registry);

private:
  uint32_t newRegister(Function &function, uint32_t type);
  std::vector<uint32_t> addInstruction(Function &function, bef::Opcode opcode,
                                       uint32_t index,
                                       std::vector<uint32_t> operands,
                                       absl::Span<const uint32_t> resultTypes);

  std::unique_ptr<Program> program_;
  Status error_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_PROGRAM_H
