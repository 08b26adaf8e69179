//===- Executor.cpp - run the functions of a loaded program -----*- C++ -*-===//
//
// The sequential path walks the instructions in program order (registers are
// defined before use, so that order is a topological one). The parallel path
// starts every instruction whose operands are ready and counts down the
// pending operands of its users.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Executor.h"

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace tfrt_fallback::rt {

/// One register of a running function: a tensor, a ready chain (no tensor,
/// ok status) or an error.
struct Executor::Slot {
  Tensor tensor;
  absl::Status status;
};

std::string describeTensor(const Tensor &tensor) {
  std::string text = "tensor<";
  for (int64_t dim : tensor.shape().dims())
    absl::StrAppend(&text, dim, "x");
  absl::StrAppend(&text, dtypeName(tensor.dtype()), ">");
  return text;
}

namespace {

/// The kernel context of one kernel invocation: inputs borrowed from the
/// frame, outputs written straight into their (empty) result registers.
class ExecKernelContext final : public OpKernelContextInterface {
public:
  ExecKernelContext(const KernelEntry &kernel,
                    absl::Span<const Tensor *const> inputs,
                    uint64_t forwardable, absl::Span<Tensor *const> outputs,
                    const Eigen::ThreadPoolDevice &device)
      : kernel(kernel), inputs(inputs), forwardable(forwardable),
        device(device), outputs(outputs) {}

  absl::string_view opName() const override { return kernel.opName; }
  absl::string_view nodeName() const override { return kernel.location; }
  int numInputs() const override { return static_cast<int>(inputs.size()); }
  int numOutputs() const override { return static_cast<int>(outputs.size()); }
  const Tensor &input(int index) const override { return *inputs[index]; }
  DType expectedOutputDType(int index) const override {
    return kernel.outputDTypes[index];
  }

  absl::Status allocateOutput(int index, const TensorShape &shape,
                              Tensor **out) override {
    if (index < 0 || index >= numOutputs())
      return outputIndexError(index);
    absl::StatusOr<Tensor> tensor =
        Tensor::allocate(kernel.outputDTypes[index], shape);
    if (!tensor.ok())
      return makeOpError(
          tensor.status().code(), kernel.opName, kernel.location,
          absl::StrCat("output ", index, ": ", tensor.status().message()));
    *outputs[index] = *std::move(tensor);
    *out = outputs[index];
    return absl::OkStatus();
  }

  void setOutput(int index, Tensor tensor) override {
    if (index < 0 || index >= numOutputs()) {
      ctxFailure(outputIndexError(index));
      return;
    }
    *outputs[index] = std::move(tensor);
  }

  absl::Status forwardInputOrAllocateOutput(absl::Span<const int> candidates,
                                            int outputIndex,
                                            const TensorShape &shape,
                                            Tensor **out) override {
    if (outputIndex < 0 || outputIndex >= numOutputs())
      return outputIndexError(outputIndex);
    for (int candidate : candidates) {
      if (candidate < 0 || candidate >= numInputs() || candidate >= 64 ||
          !(forwardable >> candidate & 1))
        continue;
      // The register holding this input dies with this kernel: when it is
      // the buffer's only holder, the output may take the buffer over.
      const Tensor &input = *inputs[candidate];
      if (input.dtype() != kernel.outputDTypes[outputIndex] ||
          input.numElements() != shape.numElements() ||
          !input.isBufferUniquelyOwned())
        continue;
      forwardable &= ~(uint64_t(1) << candidate);
      *outputs[outputIndex] = input.reshaped(shape);
      *out = outputs[outputIndex];
      return absl::OkStatus();
    }
    return allocateOutput(outputIndex, shape, out);
  }

  const Eigen::ThreadPoolDevice &eigenDevice() const override { return device; }
  void ctxFailure(absl::Status failure) override {
    if (status_.ok())
      status_ = std::move(failure);
  }
  const absl::Status &status() const override { return status_; }

private:
  absl::Status outputIndexError(int index) const {
    return makeOpError(
        absl::StatusCode::kInvalidArgument, kernel.opName, kernel.location,
        absl::StrCat("output index ", index, " is out of range [0, ",
                     outputs.size(), ")"));
  }

  const KernelEntry &kernel;
  absl::Span<const Tensor *const> inputs;
  uint64_t forwardable;
  const Eigen::ThreadPoolDevice &device;
  absl::Span<Tensor *const> outputs;
  absl::Status status_;
};

} // namespace

absl::Status Executor::checkInputs(const Function &function,
                                   absl::Span<const Tensor> inputs) const {
  if (inputs.size() != function.argRegisters.size())
    return absl::InvalidArgumentError(absl::StrCat(
        "function '", function.name, "' takes ", function.argRegisters.size(),
        " inputs, got ", inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueType &type =
        program.types()[function.registerTypes[function.argRegisters[i]]];
    if (type.isChain())
      return absl::InvalidArgumentError(absl::StrCat(
          "function '", function.name, "' takes a chain as input #", i,
          "; only functions without chain arguments can be run"));
    if (!type.accepts(inputs[i].dtype(), inputs[i].shape()))
      return absl::InvalidArgumentError(
          absl::StrCat("input #", i, " of '", function.name, "': expected ",
                       type.toString(), ", got ", describeTensor(inputs[i])));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ResultValue>>
Executor::run(const Function &function, absl::Span<const Tensor> inputs) const {
  if (absl::Status status = checkInputs(function, inputs); !status.ok())
    return status;
  std::unique_ptr<Slot[]> slots(new Slot[function.registerTypes.size()]);
  for (size_t i = 0; i < inputs.size(); ++i)
    slots[function.argRegisters[i]].tensor = inputs[i];
  runFunction(function, slots.get());

  std::vector<ResultValue> results;
  results.reserve(function.resultRegisters.size());
  for (uint32_t reg : function.resultRegisters) {
    Slot &slot = slots[reg];
    if (!slot.status.ok())
      results.emplace_back(slot.status);
    else
      results.emplace_back(slot.tensor);
  }
  return results;
}

void Executor::runFunction(const Function &function, Slot *slots) const {
  for (auto [reg, constant] : function.constantBindings)
    slots[reg].tensor = program.constants()[constant].tensor;
  if (host.numThreads() >= 2 && function.instructions.size() >= 2)
    runParallel(function, slots);
  else
    runSequential(function, slots);
}

void Executor::runSequential(const Function &function, Slot *slots) const {
  for (uint32_t i = 0, e = function.instructions.size(); i < e; ++i)
    runInstruction(function, i, slots);
}

void Executor::runParallel(const Function &function, Slot *slots) const {
  const uint32_t numInstructions = function.instructions.size();
  struct State {
    std::unique_ptr<std::atomic<uint32_t>[]> pending;
    std::atomic<uint32_t> remaining;
    // std::mutex rather than absl::Mutex: ThreadSanitizer sees it even
    // though Debian's Abseil is not instrumented.
    std::mutex mutex;
    std::condition_variable doneCondition;
    bool done = false;
  };
  auto state = std::make_shared<State>();
  state->pending.reset(new std::atomic<uint32_t>[numInstructions]);
  for (uint32_t i = 0; i < numInstructions; ++i)
    state->pending[i].store(function.initialPending[i],
                            std::memory_order_relaxed);
  state->remaining.store(numInstructions, std::memory_order_relaxed);

  // Runs `index`, then keeps one newly ready user for this thread and hands
  // the others to the work queue.
  struct Worker {
    const Executor *executor;
    const Function *function;
    Slot *slots;
    std::shared_ptr<State> state;

    void operator()(uint32_t index) const {
      absl::InlinedVector<uint32_t, 8> ready;
      while (true) {
        executor->runInstruction(*function, index, slots);
        ready.clear();
        for (uint32_t reg : function->resultsOf(function->instructions[index]))
          for (uint32_t u = function->userBegin[reg];
               u < function->userBegin[reg + 1]; ++u) {
            uint32_t user = function->users[u];
            if (state->pending[user].fetch_sub(1, std::memory_order_acq_rel) ==
                1)
              ready.push_back(user);
          }
        for (size_t i = 1; i < ready.size(); ++i) {
          Worker worker = *this;
          uint32_t next = ready[i];
          executor->host.enqueueWork(
              [worker, next]() mutable { worker(next); });
        }
        if (state->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          std::lock_guard<std::mutex> lock(state->mutex);
          state->done = true;
          state->doneCondition.notify_all();
        }
        if (ready.empty())
          return;
        index = ready[0];
      }
    }
  };

  Worker worker{this, &function, slots, state};
  absl::InlinedVector<uint32_t, 8> roots;
  for (uint32_t i = 0; i < numInstructions; ++i)
    if (function.initialPending[i] == 0)
      roots.push_back(i);
  for (size_t i = 1; i < roots.size(); ++i) {
    uint32_t root = roots[i];
    host.enqueueWork([worker, root]() mutable { worker(root); });
  }
  if (!roots.empty())
    worker(roots[0]);
  std::unique_lock<std::mutex> lock(state->mutex);
  state->doneCondition.wait(lock, [&] { return state->done; });
}

void Executor::runInstruction(const Function &function, uint32_t index,
                              Slot *slots) const {
  const Instruction &inst = function.instructions[index];
  // Dependants of a failed instruction are skipped and pass the error on.
  for (uint32_t reg : function.operandsOf(inst)) {
    if (!slots[reg].status.ok()) {
      const absl::Status &error = slots[reg].status;
      for (uint32_t result : function.resultsOf(inst))
        slots[result].status = error;
      return;
    }
  }
  switch (inst.opcode) {
  case bef::Opcode::Kernel:
    runKernel(function, inst, slots);
    return;
  case bef::Opcode::Call:
    runCall(function, inst, slots);
    return;
  case bef::Opcode::NewChain:
  case bef::Opcode::MergeChains:
    // Chains carry no data: a ready chain is an ok slot.
    return;
  }
}

void Executor::runKernel(const Function &function, const Instruction &inst,
                         Slot *slots) const {
  const KernelEntry &kernel = program.kernels()[inst.index];
  const size_t numInputs = kernel.inputTypes.size();
  absl::Span<const uint32_t> operands = function.operandsOf(inst);
  absl::Span<const uint32_t> results = function.resultsOf(inst);

  // Inputs are read in place. A value at its last use may lend its buffer
  // to an output when nothing else holds it; its register is cleared after
  // the kernel, which also frees dead values early.
  absl::InlinedVector<const Tensor *, 4> inputs(numInputs);
  uint64_t forwardable = 0;
  for (size_t i = 0; i < numInputs; ++i) {
    inputs[i] = &slots[operands[i]].tensor;
    if (i < 64 && function.lastUse[inst.operandBegin + i])
      forwardable |= uint64_t(1) << i;
  }

  const size_t numOutputs = kernel.outputTypes.size();
  absl::InlinedVector<Tensor *, 4> outputs(numOutputs);
  for (size_t i = 0; i < numOutputs; ++i)
    outputs[i] = &slots[results[i]].tensor;

  ExecKernelContext context(kernel, inputs, forwardable, outputs,
                            host.eigenDevice());
  kernel.kernel->compute(&context);

  for (size_t i = 0; i < numInputs; ++i)
    if (forwardable >> i & 1)
      slots[operands[i]].tensor = Tensor();

  absl::Status status = context.status();
  for (size_t i = 0; status.ok() && i < numOutputs; ++i) {
    const Tensor &output = *outputs[i];
    const ValueType &type = program.types()[kernel.outputTypes[i]];
    if (!output.isValid())
      status = makeOpError(absl::StatusCode::kInternal, kernel.opName,
                           kernel.location,
                           absl::StrCat("the kernel set no output #", i));
    else if (!type.accepts(output.dtype(), output.shape()))
      status = makeOpError(
          absl::StatusCode::kInvalidArgument, kernel.opName, kernel.location,
          absl::StrCat("output #", i, " is ", describeTensor(output),
                       " but the program declares ", type.toString()));
  }
  if (!status.ok()) {
    for (uint32_t result : results) {
      slots[result].tensor = Tensor();
      slots[result].status = status;
    }
  }
  // Otherwise the outputs are in place, and an ordered kernel's output chain
  // (its last result) is ready now.
}

void Executor::runCall(const Function &function, const Instruction &inst,
                       Slot *slots) const {
  const Function &callee = program.functions()[inst.index];
  std::unique_ptr<Slot[]> frame(new Slot[callee.registerTypes.size()]);
  absl::Span<const uint32_t> operands = function.operandsOf(inst);
  for (size_t i = 0; i < operands.size(); ++i)
    frame[callee.argRegisters[i]] = slots[operands[i]];
  runFunction(callee, frame.get());
  absl::Span<const uint32_t> results = function.resultsOf(inst);
  for (size_t i = 0; i < results.size(); ++i)
    slots[results[i]] = frame[callee.resultRegisters[i]];
}

} // namespace tfrt_fallback::rt
