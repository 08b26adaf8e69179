//===- Executor.cpp - run the functions of a loaded program -----*- C++ -*-===//
//
// A run is a Frame: one AsyncValue per register, built in place (one
// allocation per run, none per instruction), plus the bookkeeping of the two
// schedules:
//
// - In order (one thread or none): the instructions run in program order,
//   which is topological. An instruction whose operands are not all
//   available yet is deferred with runWhenReady() and resumed when they are;
//   nothing else is counted on this path.
// - Dataflow (two threads or more): per instruction, a count of pending
//   operands; a finished instruction counts down its users, keeps one newly
//   ready user for its thread and hands the others to the work queue.
//
// `outstanding_` counts what may still finish: the schedule itself, deferred
// instructions and async kernels in flight (in order), or every instruction
// (dataflow). The frame's run is done when it drops to zero.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Executor.h"

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <new>
#include <utility>

namespace tfrt_fallback::rt {

std::string describeTensor(const Tensor &tensor) {
  std::string text = "tensor<";
  for (int64_t dim : tensor.shape().dims())
    absl::StrAppend(&text, dim, "x");
  absl::StrAppend(&text, dtypeName(tensor.dtype()), ">");
  return text;
}

namespace {
/// A register: an AsyncValue holding a tensor (a chain holds an empty one).
using TensorValue = ConcreteAsyncValue<Tensor>;
static_assert(alignof(TensorValue) <= alignof(std::max_align_t),
              "registers are allocated with operator new[]");

/// Copies an available register into a not yet available one.
void forwardValue(TensorValue &from, AsyncValue &to) {
  if (from.isError())
    to.setError(from.getError());
  else if (to.isConstructed()) {
    to.get<Tensor>() = from.payload();
    to.setStateConcrete();
  } else {
    to.emplace<Tensor>(from.payload());
  }
}

/// What executing an instruction did.
enum class Outcome {
  Done,     ///< results published
  Pending,  ///< an async kernel or a call publishes them later
  NotReady, ///< an operand is not available yet (in-order schedule only)
};
} // namespace

//===----------------------------------------------------------------------===//
// Frame
//===----------------------------------------------------------------------===//

class Executor::Frame {
public:
  /// An owning reference to a frame, for closures.
  class Ref {
  public:
    /// Takes over the reference of a new frame.
    static Ref adopt(Frame *frame) { return Ref(frame, /*addRef=*/false); }
    explicit Ref(Frame *frame) : Ref(frame, /*addRef=*/true) {}
    Ref(const Ref &other) : Ref(other.frame_, /*addRef=*/true) {}
    Ref(Ref &&other) noexcept : frame_(std::exchange(other.frame_, nullptr)) {}
    Ref &operator=(const Ref &) = delete;
    ~Ref() {
      if (frame_)
        frame_->dropRef();
    }
    Frame *operator->() const { return frame_; }
    Frame &operator*() const { return *frame_; }

  private:
    Ref(Frame *frame, bool addRef) : frame_(frame) {
      if (addRef)
        frame_->addRef();
    }
    Frame *frame_;
  };

  Frame(const Executor &executor, const Function &function,
        const RunOptions &options);
  ~Frame();
  Frame(const Frame &) = delete;
  Frame &operator=(const Frame &) = delete;

  void addRef() { refCount_.fetch_add(1, std::memory_order_relaxed); }
  void dropRef() {
    if (refCount_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }

  TensorValue &reg(uint32_t index) { return regs_[index]; }
  /// Whether this is the only reference, so the frame may be reused.
  bool isUnique() const {
    return refCount_.load(std::memory_order_acquire) == 1;
  }
  /// Prepares a finished frame for another run: every register back to
  /// Constructed with an empty tensor.
  void reuse(const RunOptions &options);
  /// Binds arguments (taken over) and constants.
  void bindInputs(std::vector<Tensor> inputs);
  /// Runs the function; `onDone` runs once every instruction has finished.
  void start(absl::AnyInvocable<void()> onDone);

private:
  using ReadyList = absl::InlinedVector<uint32_t, 8>;
  struct AsyncKernelCall;

  void runInOrder();
  void runDataflow();
  /// Runs `index` and then the users it makes ready (dataflow schedule).
  void process(uint32_t index);
  /// Defers `index` until its operands are available (in-order schedule).
  void defer(uint32_t index);
  void resume(uint32_t index);

  Outcome execute(uint32_t index);
  Outcome runKernel(uint32_t index, const Instruction &inst);
  Outcome runCall(uint32_t index, const Instruction &inst);
  /// After a kernel: releases its last-use operands, checks its outputs and
  /// publishes its results.
  void finishKernel(const KernelEntry &kernel, const Instruction &inst,
                    const Status &kernelStatus, uint64_t forwardable);
  void publishError(const Instruction &inst, const Status &error);
  /// Why the run must stop before `inst`, if it must.
  Status checkStop(const Instruction &inst) const;

  /// An instruction that returned Pending has published its results.
  void complete(uint32_t index, ReadyList *ready);
  /// One fewer thing may still finish.
  void release();

  const Executor &executor_;
  const Program &program_;
  const Function &function_;
  const CancellationToken *cancellation_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  bool watched_;
  const bool dataflow_;
  std::atomic<uint32_t> refCount_{1};
  std::atomic<uint32_t> outstanding_{0};
  const uint32_t numRegisters_;
  TensorValue *regs_;
  std::unique_ptr<std::atomic<uint32_t>[]> pending_;
  absl::AnyInvocable<void()> onDone_;
};

Executor::Frame::Frame(const Executor &executor, const Function &function,
                       const RunOptions &options)
    : executor_(executor), program_(executor.program), function_(function),
      cancellation_(options.cancellation), deadline_(options.deadline),
      watched_(options.cancellation || options.deadline),
      dataflow_(executor.host.numThreads() >= 2 &&
                function.instructions.size() >= 2),
      numRegisters_(static_cast<uint32_t>(function.registerTypes.size())) {
  regs_ = static_cast<TensorValue *>(
      ::operator new[](sizeof(TensorValue) * numRegisters_));
  for (uint32_t i = 0; i < numRegisters_; ++i)
    new (&regs_[i]) TensorValue(TensorValue::ConstructedTag{});
}

void Executor::Frame::reuse(const RunOptions &options) {
  cancellation_ = options.cancellation;
  deadline_ = options.deadline;
  watched_ = options.cancellation || options.deadline;
  // Values are released at their last use: only results, arguments,
  // constants and values nothing reads still hold a tensor here.
  for (uint32_t i = 0; i < numRegisters_; ++i) {
    regs_[i].reuse();
    if (regs_[i].payload().isValid())
      regs_[i].payload().reset();
  }
}

Executor::Frame::~Frame() {
  for (uint32_t i = 0; i < numRegisters_; ++i)
    regs_[i].~TensorValue();
  ::operator delete[](regs_);
}

void Executor::Frame::bindInputs(std::vector<Tensor> inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    TensorValue &value = regs_[function_.argRegisters[i]];
    value.payload() = std::move(inputs[i]);
    value.setStateConcrete();
  }
  for (auto [reg, constant] : function_.constantBindings) {
    regs_[reg].payload() = program_.constants()[constant].tensor;
    regs_[reg].setStateConcrete();
  }
}

void Executor::Frame::start(absl::AnyInvocable<void()> onDone) {
  onDone_ = std::move(onDone);
  if (dataflow_)
    runDataflow();
  else
    runInOrder();
}

void Executor::Frame::release() {
  if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    // The last thing this frame does for its run: whoever waits on it may
    // destroy the program right after.
    absl::AnyInvocable<void()> onDone = std::move(onDone_);
    std::move(onDone)();
  }
}

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

void Executor::Frame::runInOrder() {
  // Held by this loop until it has passed every instruction.
  outstanding_.store(1, std::memory_order_relaxed);
  for (uint32_t i = 0, e = function_.instructions.size(); i < e; ++i)
    if (execute(i) == Outcome::NotReady)
      defer(i);
  release();
}

void Executor::Frame::defer(uint32_t index) {
  outstanding_.fetch_add(1, std::memory_order_relaxed);
  absl::InlinedVector<AsyncValue *, 4> waitOn;
  for (uint32_t reg : function_.operandsOf(function_.instructions[index]))
    if (!regs_[reg].isAvailable())
      waitOn.push_back(&regs_[reg]);
  runWhenReady(waitOn, [frame = Ref(this), index]() mutable {
    if (frame->executor_.host.numThreads() > 0) {
      Executor::Frame &f = *frame;
      f.executor_.host.enqueueWork(
          [frame = std::move(frame), index] { frame->resume(index); });
    } else {
      frame->resume(index);
    }
  });
}

void Executor::Frame::resume(uint32_t index) {
  // Running a deferred instruction publishes values other deferred
  // instructions wait on, which resumes them from inside this call. Queue
  // those on this thread instead of nesting, so a long chain of deferred
  // instructions cannot overflow the stack.
  struct Resumption {
    Frame *frame;
    uint32_t index;
  };
  thread_local std::deque<Resumption> *queue = nullptr;
  if (queue) {
    addRef();
    queue->push_back({this, index});
    return;
  }
  std::deque<Resumption> local;
  queue = &local;
  addRef();
  local.push_back({this, index});
  while (!local.empty()) {
    Resumption next = local.front();
    local.pop_front();
    // Deferred only once: the operands it waited on are available now, and
    // all others were when it was deferred.
    Outcome outcome = next.frame->execute(next.index);
    (void)outcome;
    assert(outcome != Outcome::NotReady && "resumed before its operands");
    next.frame->release();
    next.frame->dropRef();
  }
  queue = nullptr;
}

void Executor::Frame::runDataflow() {
  const uint32_t numInstructions = function_.instructions.size();
  pending_.reset(new std::atomic<uint32_t>[numInstructions]);
  for (uint32_t i = 0; i < numInstructions; ++i)
    pending_[i].store(function_.initialPending[i], std::memory_order_relaxed);
  // Every instruction, plus this launcher until it has started the roots.
  outstanding_.store(numInstructions + 1, std::memory_order_relaxed);
  absl::InlinedVector<uint32_t, 8> roots;
  for (uint32_t i = 0; i < numInstructions; ++i)
    if (function_.initialPending[i] == 0)
      roots.push_back(i);
  for (size_t i = 1; i < roots.size(); ++i)
    executor_.host.enqueueWork(
        [frame = Ref(this), root = roots[i]] { frame->process(root); });
  if (!roots.empty()) {
    Ref keepAlive(this);
    process(roots[0]);
  }
  release();
}

void Executor::Frame::process(uint32_t index) {
  ReadyList ready;
  while (true) {
    ready.clear();
    if (execute(index) == Outcome::Done)
      complete(index, &ready);
    if (ready.empty())
      return;
    for (size_t i = 1; i < ready.size(); ++i)
      executor_.host.enqueueWork(
          [frame = Ref(this), next = ready[i]] { frame->process(next); });
    index = ready[0];
  }
}

void Executor::Frame::complete(uint32_t index, ReadyList *ready) {
  if (dataflow_) {
    for (uint32_t reg : function_.resultsOf(function_.instructions[index])) {
      for (uint32_t u = function_.userBegin[reg];
           u < function_.userBegin[reg + 1]; ++u) {
        uint32_t user = function_.users[u];
        if (pending_[user].fetch_sub(1, std::memory_order_acq_rel) != 1)
          continue;
        if (ready)
          ready->push_back(user);
        else
          executor_.host.enqueueWork(
              [frame = Ref(this), user] { frame->process(user); });
      }
    }
  }
  release();
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

Status Executor::Frame::checkStop(const Instruction &inst) const {
  auto where = [&] {
    if (inst.opcode == bef::Opcode::Kernel) {
      const KernelEntry &kernel = program_.kernels()[inst.index];
      return absl::StrCat(kernel.opName, " '", kernel.location, "'");
    }
    return absl::StrCat("'", inst.location, "'");
  };
  if (cancellation_ && cancellation_->isCancelled())
    return CancelledError(absl::StrCat("the run was cancelled before ", where(),
                                       " in '", function_.name, "'"));
  if (deadline_ && std::chrono::steady_clock::now() >= *deadline_)
    return DeadlineExceededError(
        absl::StrCat("the run's deadline passed before ", where(), " in '",
                     function_.name, "'"));
  return OkStatus();
}

void Executor::Frame::publishError(const Instruction &inst,
                                   const Status &error) {
  for (uint32_t result : function_.resultsOf(inst))
    regs_[result].setError(error);
}

Outcome Executor::Frame::execute(uint32_t index) {
  const Instruction &inst = function_.instructions[index];
  // Dependants of a failed instruction are skipped and pass the error on.
  for (uint32_t reg : function_.operandsOf(inst)) {
    AsyncValue::State state = regs_[reg].state();
    if (state == AsyncValue::State::Concrete)
      continue;
    if (state != AsyncValue::State::Error)
      return Outcome::NotReady;
    publishError(inst, regs_[reg].getError());
    return Outcome::Done;
  }
  if (watched_) {
    if (Status stop = checkStop(inst); !stop.ok()) {
      publishError(inst, stop);
      return Outcome::Done;
    }
  }
  switch (inst.opcode) {
  case bef::Opcode::Kernel:
    return runKernel(index, inst);
  case bef::Opcode::Call:
    return runCall(index, inst);
  case bef::Opcode::NewChain:
  case bef::Opcode::MergeChains:
    // Chains carry no data: a chain is ready once its operands are.
    for (uint32_t result : function_.resultsOf(inst))
      regs_[result].setStateConcrete();
    return Outcome::Done;
  }
  return Outcome::Done;
}

/// The state of an async kernel in flight: the context and the pointer
/// arrays it borrows, and the frame they point into.
struct Executor::Frame::AsyncKernelCall {
  AsyncKernelCall(Frame *frame, const KernelEntry &kernel,
                  absl::Span<const Tensor *const> inputs, uint64_t forwardable,
                  absl::Span<Tensor *const> outputs, HostContext &host,
                  uint64_t constants)
      : frame(frame), inputs(inputs.begin(), inputs.end()),
        outputs(outputs.begin(), outputs.end()), forwardable(forwardable),
        context(*kernel.kernel, this->inputs, forwardable, this->outputs, host,
                constants) {}

  Ref frame;
  absl::InlinedVector<const Tensor *, 4> inputs;
  absl::InlinedVector<Tensor *, 4> outputs;
  uint64_t forwardable;
  OpKernelContext context;
};

Outcome Executor::Frame::runKernel(uint32_t index, const Instruction &inst) {
  const KernelEntry &kernel = program_.kernels()[inst.index];
  const size_t numInputs = kernel.inputTypes.size();
  absl::Span<const uint32_t> operands = function_.operandsOf(inst);
  absl::Span<const uint32_t> results = function_.resultsOf(inst);

  // Inputs are read in place. A value at its last use may lend its buffer
  // to an output when nothing else holds it; its register is cleared after
  // the kernel, which also frees dead values early.
  // The pointer lists live on the stack for the usual few operands.
  constexpr size_t kOnStack = 8;
  const Tensor *inputsOnStack[kOnStack];
  std::unique_ptr<const Tensor *[]> inputsOnHeap;
  const Tensor **inputs = inputsOnStack;
  if (numInputs > kOnStack) {
    inputsOnHeap.reset(new const Tensor *[numInputs]);
    inputs = inputsOnHeap.get();
  }
  uint64_t forwardable = 0;
  const uint8_t *lastUse = &function_.lastUse[inst.operandBegin];
  for (size_t i = 0; i < numInputs; ++i) {
    inputs[i] = &regs_[operands[i]].payload();
    if (i < 64 && lastUse[i])
      forwardable |= uint64_t(1) << i;
  }
  // Outputs are written straight into the (constructed, empty) result
  // registers and published after the kernel.
  const size_t numOutputs = kernel.outputTypes.size();
  Tensor *outputsOnStack[kOnStack];
  std::unique_ptr<Tensor *[]> outputsOnHeap;
  Tensor **outputs = outputsOnStack;
  if (numOutputs > kOnStack) {
    outputsOnHeap.reset(new Tensor *[numOutputs]);
    outputs = outputsOnHeap.get();
  }
  for (size_t i = 0; i < numOutputs; ++i)
    outputs[i] = &regs_[results[i]].payload();

  if (kernel.asyncKernel) {
    if (!dataflow_)
      outstanding_.fetch_add(1, std::memory_order_relaxed);
    auto *call = new AsyncKernelCall(
        this, kernel, absl::MakeConstSpan(inputs, numInputs), forwardable,
        absl::MakeConstSpan(outputs, numOutputs), executor_.host,
        function_.constantOperands[index]);
    kernel.asyncKernel->computeAsync(&call->context, [call, index] {
      Frame &frame = *call->frame;
      const Instruction &inst = frame.function_.instructions[index];
      frame.finishKernel(frame.program_.kernels()[inst.index], inst,
                         call->context.status(), call->forwardable);
      // The call holds a frame reference: release it only after complete().
      std::unique_ptr<AsyncKernelCall> owned(call);
      frame.complete(index, nullptr);
    });
    return Outcome::Pending;
  }

  OpKernelContext context(*kernel.kernel,
                          absl::MakeConstSpan(inputs, numInputs), forwardable,
                          absl::MakeConstSpan(outputs, numOutputs),
                          executor_.host, function_.constantOperands[index]);
  kernel.kernel->compute(&context);
  finishKernel(kernel, inst, context.status(), forwardable);
  return Outcome::Done;
}

inline void Executor::Frame::finishKernel(const KernelEntry &kernel,
                                          const Instruction &inst,
                                          const Status &kernelStatus,
                                          uint64_t forwardable) {
  absl::Span<const uint32_t> operands = function_.operandsOf(inst);
  absl::Span<const uint32_t> results = function_.resultsOf(inst);
  for (size_t i = 0, e = kernel.inputTypes.size(); i < e; ++i)
    if (forwardable >> i & 1)
      regs_[operands[i]].payload().reset();

  if (!kernelStatus.ok()) {
    publishError(inst, kernelStatus);
    return;
  }
  for (size_t i = 0, e = kernel.outputTypes.size(); i < e; ++i) {
    const Tensor &output = regs_[results[i]].payload();
    const ValueType &type = program_.types()[kernel.outputTypes[i]];
    if (!output.isValid()) {
      publishError(inst,
                   makeOpError(StatusCode::kInternal, kernel.opName,
                               kernel.location,
                               absl::StrCat("the kernel set no output #", i)));
      return;
    }
    if (!type.accepts(output.dtype(), output.shape())) {
      publishError(inst, makeOpError(StatusCode::kInvalidArgument,
                                     kernel.opName, kernel.location,
                                     absl::StrCat("output #", i, " is ",
                                                  describeTensor(output),
                                                  " but the program declares ",
                                                  type.toString())));
      return;
    }
  }
  // The outputs are in place; an ordered kernel's output chain (its last
  // result) is ready now too.
  for (uint32_t result : results)
    regs_[result].setStateConcrete();
}

Outcome Executor::Frame::runCall(uint32_t index, const Instruction &inst) {
  const Function &callee = program_.functions()[inst.index];
  // The callee runs in a frame of its own, on this thread's stack when it
  // is synchronous. Operands at their last use move into it.
  RunOptions options;
  options.cancellation = cancellation_;
  options.deadline = deadline_;
  auto *frame = new Frame(executor_, callee, options);
  absl::Span<const uint32_t> operands = function_.operandsOf(inst);
  std::vector<Tensor> args(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    Tensor &value = regs_[operands[i]].payload();
    args[i] =
        function_.lastUse[inst.operandBegin + i] ? std::move(value) : value;
  }
  frame->bindInputs(std::move(args));
  if (!dataflow_)
    outstanding_.fetch_add(1, std::memory_order_relaxed);
  frame->start([caller = Ref(this), callee = frame, index]() mutable {
    Frame &self = *caller;
    const Instruction &inst = self.function_.instructions[index];
    absl::Span<const uint32_t> results = self.function_.resultsOf(inst);
    for (size_t i = 0; i < results.size(); ++i)
      forwardValue(callee->reg(callee->function_.resultRegisters[i]),
                   self.regs_[results[i]]);
    self.complete(index, nullptr);
  });
  frame->dropRef();
  return Outcome::Pending;
}

//===----------------------------------------------------------------------===//
// Executor
//===----------------------------------------------------------------------===//

Executor::Executor(const Program &program, HostContext &host)
    : program(program), host(host),
      idleFrames(new std::atomic<Frame *>[program.functions().size()]) {
  for (size_t i = 0, e = program.functions().size(); i < e; ++i)
    idleFrames[i].store(nullptr, std::memory_order_relaxed);
}

Executor::~Executor() {
  for (size_t i = 0, e = program.functions().size(); i < e; ++i)
    if (Frame *frame = idleFrames[i].load(std::memory_order_acquire))
      frame->dropRef();
}

Status Executor::checkInputs(const Function &function,
                             absl::Span<const Tensor> inputs) const {
  if (inputs.size() != function.argRegisters.size())
    return InvalidArgumentError(absl::StrCat(
        "function '", function.name, "' takes ", function.argRegisters.size(),
        " inputs, got ", inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueType &type =
        program.types()[function.registerTypes[function.argRegisters[i]]];
    if (type.isChain())
      return InvalidArgumentError(absl::StrCat(
          "function '", function.name, "' takes a chain as input #", i,
          "; only functions without chain arguments can be run"));
    if (!type.accepts(inputs[i].dtype(), inputs[i].shape()))
      return InvalidArgumentError(
          absl::StrCat("input #", i, " of '", function.name, "': expected ",
                       type.toString(), ", got ", describeTensor(inputs[i])));
  }
  return OkStatus();
}

StatusOr<AsyncRun> Executor::runAsync(const Function &function,
                                      std::vector<Tensor> inputs,
                                      const RunOptions &options) const {
  if (Status status = checkInputs(function, inputs); !status.ok())
    return status;
  Frame::Ref frame = Frame::Ref::adopt(new Frame(*this, function, options));
  frame->bindInputs(std::move(inputs));
  AsyncRun run;
  run.done = makeUnconstructedAsyncValueRef<Chain>();
  // Each result is handed over as soon as its register is available; the
  // callback runs while the frame publishes it, so the frame is alive.
  for (uint32_t reg : function.resultRegisters) {
    AsyncValueRef<Tensor> result = makeUnconstructedAsyncValueRef<Tensor>();
    run.results.push_back(result);
    TensorValue &value = frame->reg(reg);
    value.andThen([&value, result = std::move(result)] {
      forwardValue(value, *result.getAsyncValue());
    });
  }
  frame->start([done = run.done] { done.emplace(); });
  return run;
}

StatusOr<std::vector<ResultValue>>
Executor::run(const Function &function, std::vector<Tensor> inputs,
              const RunOptions &options) const {
  if (Status status = checkInputs(function, inputs); !status.ok())
    return status;
  // A finished run of this function leaves its frame for the next one.
  size_t index = &function - program.functions().data();
  std::atomic<Frame *> *idle =
      index < program.functions().size() ? &idleFrames[index] : nullptr;
  Frame *reused =
      idle ? idle->exchange(nullptr, std::memory_order_acq_rel) : nullptr;
  if (reused)
    reused->reuse(options);
  Frame::Ref frame =
      Frame::Ref::adopt(reused ? reused : new Frame(*this, function, options));
  frame->bindInputs(std::move(inputs));
  AsyncValueRef<Chain> done = makeUnconstructedAsyncValueRef<Chain>();
  frame->start([done] { done.emplace(); });
  if (!done.isAvailable())
    host.await({done.copyRef()});

  std::vector<ResultValue> results;
  results.reserve(function.resultRegisters.size());
  for (uint32_t reg : function.resultRegisters) {
    TensorValue &value = frame->reg(reg);
    if (value.isError())
      results.emplace_back(value.getError());
    else
      results.emplace_back(value.payload());
  }
  // Keep the frame when no closure of the run holds it any more.
  if (idle && frame->isUnique()) {
    frame->addRef();
    if (Frame *displaced = idle->exchange(&*frame, std::memory_order_acq_rel))
      displaced->dropRef();
  }
  return results;
}

} // namespace tfrt_fallback::rt
