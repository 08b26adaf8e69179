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

#include "../Features.h"

#include "tfrt_fallback/Runtime/Denormal.h"
#include "tfrt_fallback/Runtime/FunctionRunner.h"

#include "absl/base/optimization.h"
#include "absl/container/inlined_vector.h"
#include "tfrt_fallback/Runtime/StrFormat.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <new>
#include <utility>

namespace tfrt_fallback::rt {

std::string describeTensor(const Tensor &tensor) {
  std::string text = "tensor<";
  for (int64_t dim : tensor.shape().dims())
    strAppendFormat(&text, "%lldx", static_cast<long long>(dim));
  std::string_view name = dtypeTypeName(tensor.dtype());
  text.append(name.data(), name.size());
  text += '>';
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

/// PartialShape::isCompatibleWith, inline for the executor's output check
/// (most declared types are unranked or of rank <= 4).
[[gnu::always_inline]] inline bool fitsShape(const PartialShape &declared,
                                             const TensorShape &shape) {
  if (!declared.hasRank())
    return true;
  absl::Span<const int64_t> want = declared.dims(), have = shape.dims();
  if (want.size() != have.size())
    return false;
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i] >= 0 && want[i] != have[i])
      return false;
  return true;
}

/// The bit of operand `moved` (OpKernelContext::finish()), or 0 for none.
[[gnu::always_inline]] inline uint64_t movedBit(int moved) {
  return moved >= 0 ? uint64_t(1) << moved : 0;
}

/// What executing an instruction did.
enum class Outcome {
  Done,     ///< results published
  Pending,  ///< an async kernel publishes them later
  NotReady, ///< an operand is not available yet (in-order schedule only)
};
} // namespace

//===----------------------------------------------------------------------===//
// Frame
//===----------------------------------------------------------------------===//

/// A run of a function, and the FunctionRunner of its kernels: a kernel
/// that calls functions (control flow) runs each in a frame of its own.
class Executor::Frame : public FunctionRunner {
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

  /// A frame of `function` for a run with `options`; its kernels charge
  /// their tensors to `budget` (the run's, shared by its callees; null
  /// without memory limits).
  Frame(const Executor &executor, const Function &function,
        const RunOptions &options, RCReference<MemoryBudget> budget);
  ~Frame();
  Frame(const Frame &) = delete;
  Frame &operator=(const Frame &) = delete;

  void addRef() { refCount_.fetch_add(1, std::memory_order_relaxed); }
  void dropRef() {
    if (refCount_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }

  TensorValue &reg(uint32_t index) { return regs_[index]; }
  const PlannedArena *arena() const { return arena_.get(); }
  /// Whether this is the only reference, so the frame may be reused.
  bool isUnique() const {
    return refCount_.load(std::memory_order_acquire) == 1;
  }
  /// Prepares a finished frame for another run: every register back to
  /// Constructed with an empty tensor.
  void reuse(const RunOptions &options, RCReference<MemoryBudget> budget);
  /// Binds arguments (moved from, the vector kept for the caller to
  /// refill) and constants. (Out of line: once per run.)
  [[gnu::noinline]] void bindInputs(std::vector<Tensor> &inputs);
  /// Runs the function; `onDone` runs once every instruction has finished.
  void start(absl::AnyInvocable<void()> onDone);

  // FunctionRunner (its members forward to these).
  const Program &program() const { return program_; }
  /// Runs `call` of function `index` in a frame of its own (`*reuse`'s
  /// when nothing else holds it; `reuse` may be null).
  void runFunction(uint32_t index, FunctionRunner::Call *call, void **reuse,
                   std::string_view op, std::string_view location);
  /// Why the run must stop before `op` at `location`, if it must.
  Status stopBefore(std::string_view op, std::string_view location) const;
  uint64_t maxLoopIterations() const { return maxLoopIterations_; }

private:
  using ReadyList = absl::InlinedVector<uint32_t, 8>;

  void runInOrder();
  void runDataflow();
  /// The kernel contexts of this frame: one per kernel call, its pointers
  /// to the registers set once.
  /// (Out of line: once per frame, and it keeps the inlined run short.)
  [[gnu::noinline]] void buildContexts();
  /// Points the contexts at `arena`, the memory plan of this run (null for
  /// none: a run with a budget charges what its kernels allocate).
  void planContexts(PlannedArena *arena);
  /// Every value with several readers back to its count of reads.
  void resetReaders();
  /// The arena of the function's memory plan, made for the first run
  /// without a budget (a budgeted run charges what its kernels allocate).
  void prepareArena();
  /// After a kernel read them: releases the values with several readers
  /// whose last read this was (`mask`: the operands that are such values).
  [[gnu::noinline]] void releaseShared(const Instruction &inst, uint64_t mask);
  /// Runs `index` and then the users it makes ready (dataflow schedule).
  void process(uint32_t index);
  /// Defers `index` until its operands are available (in-order schedule).
  void defer(uint32_t index);
  void resume(uint32_t index);

  Outcome execute(uint32_t index);
  /// The one synchronous kernel call (operands available): runs the kernel
  /// on its context and publishes what it did (finishCall).
  [[gnu::always_inline]] inline void callKernel(const KernelSite &site,
                                                const Instruction &inst,
                                                OpKernelContext &context);
  /// The one asynchronous kernel call: starts the kernel; finishCall runs
  /// when it is done, on the thread that finishes it.
  Outcome callAsyncKernel(uint32_t index, const KernelSite &site,
                          OpKernelContext &context);
  /// The kernel call of instruction `index` (operands available): one of
  /// the two above.
  Outcome call(uint32_t index);
  /// call() in a run that is observed or has a memory budget: inside the
  /// budget's scope, its start time noted for the observer.
  [[gnu::noinline]] Outcome observedCall(uint32_t index);
  /// A new frame for `callee` (or `reuse`, when nothing else holds it),
  /// with this run's options and `args` bound.
  Frame *calleeFrame(const Function &callee, std::vector<Tensor> &args,
                     Frame *reuse);
  /// A callee's run has finished: its results to `call`, then its `done`.
  void returnTo(FunctionRunner::Call &call);
  /// After either call's kernel: completes its context (finish(): the
  /// input forwarded in place moves into its output), tells the observer,
  /// releases the last-use operands (but the moved one), checks the
  /// outputs and publishes the results, or the kernel's error. Inline in
  /// the synchronous call; the asynchronous call, and both in the build
  /// for size (kFrameworkForSize), call its one out-of-line copy.
  [[gnu::always_inline]] inline void finishCall(const KernelSite &site,
                                                const Instruction &inst,
                                                OpKernelContext &context);
  [[gnu::noinline]] void finishCallOutOfLine(const KernelSite &site,
                                             const Instruction &inst,
                                             OpKernelContext &context);
  /// finishCall's report to the run's observer.
  [[gnu::noinline, gnu::cold]] void observe(const KernelSite &site,
                                            const Instruction &inst,
                                            const OpKernelContext &context);
  /// finishCall's parts: releasing the last-use operands but the moved
  /// one (`movedBit`: its bit, or 0), and checking and publishing the
  /// outputs of a kernel that succeeded.
  [[gnu::always_inline]] inline void releaseOperands(const KernelSite &site,
                                                     const Instruction &inst,
                                                     uint64_t movedBit);
  [[gnu::always_inline]] inline void publishResults(const KernelSite &site,
                                                    const Instruction &inst,
                                                    uint64_t movedBit);
  /// finishCall's error paths: the kernel failed, or its output #i is
  /// missing or not of its declared type.
  [[gnu::noinline, gnu::cold]] void failKernel(const KernelEntry &kernel,
                                               const Instruction &inst,
                                               const Status &kernelStatus);
  /// failOutput returns false for what is not an error after all: an
  /// empty chain-typed output (a call's chain result).
  [[gnu::noinline, gnu::cold]] bool
  failOutput(const KernelEntry &kernel, const Instruction &inst, size_t i);
  void publishError(const Instruction &inst, const Status &error);
  /// Whether the run must stop (cancelled, or past its deadline), and
  /// then the code and text of why.
  [[gnu::always_inline]] inline bool mustStop(StatusCode *code,
                                              const char **what) const;
  /// Why the run must stop before `inst`, if it must.
  Status checkStop(const Instruction &inst) const;
  /// The options of this run, for the frames of its callees.
  RunOptions calleeOptions() const;

  /// An instruction that returned Pending has published its results.
  void complete(uint32_t index, ReadyList *ready);
  /// One fewer thing may still finish.
  void release();

  const Executor &executor_;
  const Program &program_;
  const Function &function_;
  const CancellationToken *cancellation_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  KernelObserver *observer_;
  RCReference<MemoryBudget> budget_;
  uint64_t maxLoopIterations_;
  /// observer_ || budget_: a kernel call needs more than compute().
  bool instrumented_;
  bool watched_;
  const bool dataflow_;
  std::atomic<uint32_t> refCount_{1};
  std::atomic<uint32_t> outstanding_{0};
  /// In-order schedule of a run that is not observed, budgeted or
  /// watched: every instruction so far has finished and none failed, so
  /// every operand of the next one is available (each register is defined
  /// before its uses) and its check can be skipped. Cleared by an
  /// instruction that finishes later and by an error; relaxed, as deferred
  /// work only runs after it was cleared on the thread that deferred it.
  std::atomic<bool> clean_{false};
  const uint32_t numRegisters_;
  TensorValue *regs_;
  /// The memory of the function's plan (null without one), kept across
  /// runs; kernels take their planned outputs from it in runs without a
  /// memory budget.
  RCReference<PlannedArena> arena_;
  /// Per value with several readers (Function::sharedIndex), the reads
  /// still to finish in this run.
  std::unique_ptr<std::atomic<uint32_t>[]> readersLeft_;
  std::unique_ptr<std::atomic<uint32_t>[]> pending_;
  /// buildContexts(): per instruction, its context or null (not a kernel
  /// call); the contexts, and the operand and result pointer lists they
  /// read (indexed like Function::operands and results).
  std::unique_ptr<OpKernelContext *[]> contexts_;
  OpKernelContext *contextStorage_ = nullptr;
  uint32_t numContexts_ = 0;
  std::unique_ptr<const Tensor *[]> inputPointers_;
  std::unique_ptr<Tensor *[]> outputPointers_;
  /// The arena the contexts take planned outputs from (planContexts).
  PlannedArena *contextPlan_ = nullptr;
  /// Per instruction, when its kernel started (observed runs only).
  std::unique_ptr<std::chrono::steady_clock::time_point[]> starts_;
  absl::AnyInvocable<void()> onDone_;
};

Executor::Frame::Frame(const Executor &executor, const Function &function,
                       const RunOptions &options,
                       RCReference<MemoryBudget> budget)
    : executor_(executor), program_(executor.program), function_(function),
      cancellation_(options.cancellation), deadline_(options.deadline),
      observer_(options.observer), budget_(std::move(budget)),
      maxLoopIterations_(options.limits.maxLoopIterations),
      instrumented_(observer_ || budget_),
      watched_(options.cancellation || options.deadline),
      dataflow_(executor.host.numThreads() >= 2 &&
                function.instructions.size() >= 2),
      numRegisters_(static_cast<uint32_t>(function.registerTypes.size())) {
  regs_ = static_cast<TensorValue *>(
      ::operator new[](sizeof(TensorValue) * numRegisters_));
  for (uint32_t i = 0; i < numRegisters_; ++i)
    new (&regs_[i]) TensorValue(TensorValue::ConstructedTag{});
  prepareArena();
  if (kHasMemoryPlan && !function.sharedReaders.empty()) {
    readersLeft_.reset(
        new std::atomic<uint32_t>[function.sharedReaders.size()]);
    resetReaders();
  }
}

void Executor::Frame::prepareArena() {
  if (kHasMemoryPlan && !budget_ && !arena_ && !function_.memoryPlan.empty())
    arena_ = PlannedArena::create(function_.memoryPlan);
}

void Executor::Frame::resetReaders() {
  for (size_t i = 0, e = function_.sharedReaders.size(); i < e; ++i)
    readersLeft_[i].store(function_.sharedReaders[i],
                          std::memory_order_relaxed);
}

void Executor::Frame::reuse(const RunOptions &options,
                            RCReference<MemoryBudget> budget) {
  cancellation_ = options.cancellation;
  deadline_ = options.deadline;
  observer_ = options.observer;
  budget_ = std::move(budget);
  maxLoopIterations_ = options.limits.maxLoopIterations;
  instrumented_ = observer_ || budget_;
  watched_ = options.cancellation || options.deadline;
  // Values are released at their last use: only results, arguments,
  // constants and values nothing reads still hold a tensor here.
  // (Locals: the stores below would otherwise reload regs_ per register.)
  TensorValue *regs = regs_;
  for (uint32_t i = 0, e = numRegisters_; i < e; ++i) {
    regs[i].reuse();
    if (regs[i].payload().isValid())
      regs[i].payload().reset();
  }
  if (kHasMemoryPlan && readersLeft_)
    resetReaders();
  prepareArena();
}

Executor::Frame::~Frame() {
  for (uint32_t i = 0; i < numContexts_; ++i)
    contextStorage_[i].~OpKernelContext();
  ::operator delete(contextStorage_);
  for (uint32_t i = 0; i < numRegisters_; ++i)
    regs_[i].~TensorValue();
  ::operator delete[](regs_);
}

void Executor::Frame::bindInputs(std::vector<Tensor> &inputs) {
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

void Executor::Frame::buildContexts() {
  const size_t numInstructions = function_.instructions.size();
  contexts_.reset(new OpKernelContext *[numInstructions]());
  inputPointers_.reset(new const Tensor *[function_.operands.size()]);
  outputPointers_.reset(new Tensor *[function_.results.size()]);
  for (size_t i = 0, e = function_.operands.size(); i < e; ++i)
    inputPointers_[i] = &regs_[function_.operands[i]].payload();
  for (size_t i = 0, e = function_.results.size(); i < e; ++i)
    outputPointers_[i] = &regs_[function_.results[i]].payload();
  uint32_t count = 0;
  for (size_t i = 0; i < numInstructions; ++i)
    count += function_.instructions[i].opcode == bef::Opcode::Kernel;
  contextStorage_ = static_cast<OpKernelContext *>(
      ::operator new(sizeof(OpKernelContext) * count));
  for (size_t i = 0; i < numInstructions; ++i) {
    const Instruction &inst = function_.instructions[i];
    const KernelSite &site = function_.kernelSites[i];
    if (inst.opcode != bef::Opcode::Kernel)
      continue;
    auto *context = new (&contextStorage_[numContexts_++]) OpKernelContext(
        *site.entry->kernel,
        absl::MakeConstSpan(inputPointers_.get() + inst.operandBegin,
                            site.numInputs),
        site.lastUse,
        absl::MakeConstSpan(outputPointers_.get() + inst.resultBegin,
                            site.numOutputs),
        executor_.host, function_.constantOperands[i]);
    context->setResourceManager(&executor_.resources);
    if (kHasControlFlow)
      context->setFunctionRunner(this);
    contexts_[i] = context;
  }
}

void Executor::Frame::planContexts(PlannedArena *arena) {
  contextPlan_ = arena;
  for (size_t i = 0, e = function_.instructions.size(); i < e; ++i)
    if (OpKernelContext *context = contexts_[i])
      context->setMemoryPlan(arena,
                             arena ? function_.plannedBuffers.data() +
                                         function_.instructions[i].resultBegin
                                   : nullptr);
}

void Executor::Frame::start(absl::AnyInvocable<void()> onDone) {
  onDone_ = std::move(onDone);
  if (!contexts_)
    buildContexts();
  // A run with a budget charges what its kernels allocate: no plan.
  PlannedArena *plan = kHasMemoryPlan && !budget_ ? arena_.get() : nullptr;
  if (plan != contextPlan_)
    planContexts(plan);
  if (observer_ && !starts_)
    starts_.reset(
        new std::chrono::steady_clock::time_point[function_.instructions
                                                      .size()]);
  clean_.store(!dataflow_ && !watched_ && !instrumented_,
               std::memory_order_relaxed);
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
  const Instruction *instructions = function_.instructions.data();
  const KernelSite *sites = function_.kernelSites.data();
  OpKernelContext *const *contexts = contexts_.get();
  for (uint32_t i = 0, e = function_.instructions.size(); i < e; ++i) {
    // While the run is clean, a synchronous kernel call runs from here,
    // with nothing to check first.
    if (sites[i].syncKernel && clean_.load(std::memory_order_relaxed)) {
      callKernel(sites[i], instructions[i], *contexts[i]);
      continue;
    }
    Outcome outcome = execute(i);
    if (outcome == Outcome::Done)
      continue;
    clean_.store(false, std::memory_order_relaxed);
    if (outcome == Outcome::NotReady)
      defer(i);
  }
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
  // A vector consumed from the front, emptied whenever it drains (a deque
  // is 0.5 KB more of every runtime).
  thread_local std::vector<Resumption> *queue = nullptr;
  if (queue) {
    addRef();
    queue->push_back({this, index});
    return;
  }
  std::vector<Resumption> local;
  queue = &local;
  addRef();
  local.push_back({this, index});
  for (size_t head = 0; head < local.size();) {
    Resumption next = local[head++];
    if (head == local.size()) {
      local.clear();
      head = 0;
    }
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

bool Executor::Frame::mustStop(StatusCode *code, const char **what) const {
  if (cancellation_ && cancellation_->isCancelled()) {
    *code = StatusCode::kCancelled;
    *what = "the run was cancelled";
    return true;
  }
  if (deadline_ && std::chrono::steady_clock::now() >= *deadline_) {
    *code = StatusCode::kDeadlineExceeded;
    *what = "the run's deadline passed";
    return true;
  }
  return false;
}

Status Executor::Frame::checkStop(const Instruction &inst) const {
  StatusCode code;
  const char *what;
  if (!mustStop(&code, &what))
    return OkStatus();
  // "before Relu 'loc'", "before While 'loc'", "before 'loc'" (a chain op).
  const char *op = "";
  const std::string *location = &inst.location;
  if (inst.opcode == bef::Opcode::Kernel) {
    const KernelEntry &kernel = program_.kernels()[inst.index];
    op = kernel.opName.c_str();
    location = &kernel.location;
  }
  return makeError(code, "%s before %s%s'%s' in '%s'", what, op, *op ? " " : "",
                   location->c_str(), function_.name.c_str());
}

Status Executor::Frame::stopBefore(std::string_view op,
                                   std::string_view location) const {
  StatusCode code;
  const char *what;
  if (!mustStop(&code, &what))
    return OkStatus();
  return makeError(code, "%s before %.*s '%.*s' in '%s'", what,
                   TFRT_FALLBACK_SV(op), TFRT_FALLBACK_SV(location),
                   function_.name.c_str());
}

RunOptions Executor::Frame::calleeOptions() const {
  RunOptions options;
  options.cancellation = cancellation_;
  options.deadline = deadline_;
  options.observer = observer_;
  options.limits.maxLoopIterations = maxLoopIterations_;
  return options;
}

void Executor::Frame::publishError(const Instruction &inst,
                                   const Status &error) {
  clean_.store(false, std::memory_order_relaxed);
  for (uint32_t result : function_.resultsOf(inst))
    regs_[result].setError(error);
}

Outcome Executor::Frame::execute(uint32_t index) {
  const Instruction &inst = function_.instructions[index];
  // Dependants of a failed instruction are skipped and pass the error on.
  TFRT_FALLBACK_SCALAR_LOOP
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
  // The loader made every call, If, Case and While a kernel call
  // (ControlFlowKernels.h): a kernel or a chain op is all there is.
  if (ABSL_PREDICT_TRUE(inst.opcode == bef::Opcode::Kernel)) {
    if (ABSL_PREDICT_FALSE(instrumented_))
      return observedCall(index);
    return call(index);
  }
  // new_chain and merge_chains: chains carry no data, so a chain is ready
  // once its operands are.
  for (uint32_t result : function_.resultsOf(inst))
    regs_[result].setStateConcrete();
  return Outcome::Done;
}

//===----------------------------------------------------------------------===//
// Kernel calls
//===----------------------------------------------------------------------===//
//
// A kernel runs on its context (buildContexts), which reads the inputs in
// place and writes the outputs straight into the (constructed, empty)
// result registers; they are published after the kernel. A value at its
// last use may lend its buffer to an output when nothing else holds it; its
// register is cleared after the kernel, which also frees dead values early.

void Executor::Frame::callKernel(const KernelSite &site,
                                 const Instruction &inst,
                                 OpKernelContext &context) {
  site.syncKernel->compute(&context);
  if constexpr (kFrameworkForSize)
    finishCallOutOfLine(site, inst, context);
  else
    finishCall(site, inst, context);
}

Outcome Executor::Frame::callAsyncKernel(uint32_t index, const KernelSite &site,
                                         OpKernelContext &context) {
  if (!dataflow_)
    outstanding_.fetch_add(1, std::memory_order_relaxed);
  site.entry->asyncKernel->computeAsync(&context, [frame = Ref(this), index] {
    Frame &self = *frame;
    self.finishCallOutOfLine(self.function_.kernelSites[index],
                             self.function_.instructions[index],
                             *self.contexts_[index]);
    self.complete(index, nullptr);
  });
  return Outcome::Pending;
}

Outcome Executor::Frame::call(uint32_t index) {
  const KernelSite &site = function_.kernelSites[index];
  OpKernelContext &context = *contexts_[index];
  if (!site.syncKernel)
    return callAsyncKernel(index, site, context);
  callKernel(site, function_.instructions[index], context);
  return Outcome::Done;
}

Outcome Executor::Frame::observedCall(uint32_t index) {
  // What the kernel allocates on this thread is charged to the run.
  MemoryBudget::Scope budgetScope(budget_.get());
  if (observer_)
    starts_[index] = std::chrono::steady_clock::now();
  return call(index);
}

void Executor::Frame::finishCallOutOfLine(const KernelSite &site,
                                          const Instruction &inst,
                                          OpKernelContext &context) {
  finishCall(site, inst, context);
}

void Executor::Frame::finishCall(const KernelSite &site,
                                 const Instruction &inst,
                                 OpKernelContext &context) {
  const uint64_t moved = movedBit(context.finish());
  if (ABSL_PREDICT_FALSE(observer_ != nullptr))
    observe(site, inst, context);
  releaseOperands(site, inst, moved);
  if (ABSL_PREDICT_TRUE(context.status().ok())) {
    publishResults(site, inst, moved);
    return;
  }
  failKernel(*site.entry, inst, context.status());
  // The context serves this site's next call.
  context.clearStatus();
}

void Executor::Frame::observe(const KernelSite &site, const Instruction &inst,
                              const OpKernelContext &context) {
  const size_t index = &inst - function_.instructions.data();
  observer_->kernelDone(
      *site.entry,
      absl::MakeConstSpan(outputPointers_.get() + inst.resultBegin,
                          site.numOutputs),
      context.status(), starts_[index], std::chrono::steady_clock::now());
}

void Executor::Frame::releaseOperands(const KernelSite &site,
                                      const Instruction &inst,
                                      uint64_t movedBit) {
  // Operands at their last use (the set bits; inputs past 64 are released
  // with the frame), but the one moved into an output.
  const uint32_t *operands = function_.operands.data() + inst.operandBegin;
  for (uint64_t bits = site.lastUse & ~movedBit; bits != 0; bits &= bits - 1)
    regs_[operands[__builtin_ctzll(bits)]].payload().reset();
  if (kHasMemoryPlan && ABSL_PREDICT_FALSE(site.sharedUse != 0))
    releaseShared(inst, site.sharedUse);
}

void Executor::Frame::publishResults(const KernelSite &site,
                                     const Instruction &inst,
                                     uint64_t movedBit) {
  const uint32_t *results = function_.results.data() + inst.resultBegin;
  // Every register holds a value of its type (arguments are checked, and
  // so is every other way in): an input moved into an output of its own
  // type needs no check, as a call's value of the callee's type needs none.
  const bool proven = (site.uncheckedMoves & movedBit) != 0;
  const ValueType *types = program_.types().data();
  const KernelEntry &kernel = *site.entry;
  for (uint32_t i = 0; i < site.numOutputs && !proven; ++i) {
    const Tensor &output = regs_[results[i]].payload();
    const ValueType &type = types[kernel.outputTypes[i]];
    // ValueType::accepts, with the usual cases decided inline.
    if (ABSL_PREDICT_FALSE(!output.isValid() || type.isChain() ||
                           output.dtype() != type.dtype ||
                           !fitsShape(type.shape, output.shape())) &&
        failOutput(kernel, inst, i))
      return;
  }
  // The outputs are in place; an ordered kernel's output chain (its last
  // result) is ready now too.
  TensorValue *regs = regs_;
  for (const uint32_t *r = results, *end = results + inst.numResults; r != end;
       ++r)
    regs[*r].setStateConcrete();
}

void Executor::Frame::releaseShared(const Instruction &inst, uint64_t mask) {
  const uint32_t *operands = function_.operands.data() + inst.operandBegin;
  for (; mask != 0; mask &= mask - 1) {
    const uint32_t reg = operands[__builtin_ctzll(mask)];
    // The last read to finish releases the value (acq_rel: after the
    // other readers' reads).
    if (readersLeft_[function_.sharedIndex[reg]].fetch_sub(
            1, std::memory_order_acq_rel) == 1)
      regs_[reg].payload().reset();
  }
}

void Executor::Frame::failKernel(const KernelEntry &kernel,
                                 const Instruction &inst,
                                 const Status &kernelStatus) {
  // Every kernel error names the op and its node: a status a kernel passed
  // on from elsewhere (an allocation, a helper) gets the prefix.
  // A control-flow kernel passes on the errors of its callees, which name
  // their own op.
  std::string_view message = kernelStatus.message();
  const std::string &op = kernel.opName;
  if (kernel.passesErrorsOn ||
      (message.size() > op.size() + 2 && message.substr(0, op.size()) == op &&
       message.substr(op.size(), 2) == " '"))
    publishError(inst, kernelStatus);
  else
    publishError(
        inst, makeOpError(kernelStatus.code(), op, kernel.location, message));
}

bool Executor::Frame::failOutput(const KernelEntry &kernel,
                                 const Instruction &inst, size_t i) {
  const Tensor &output = regs_[function_.resultsOf(inst)[i]].payload();
  const ValueType &type = program_.types()[kernel.outputTypes[i]];
  if (kHasControlFlow && type.isChain() && !output.isValid())
    return false;
  if (!output.isValid()) {
    publishError(
        inst, makeOpError(StatusCode::kInternal, kernel.opName, kernel.location,
                          strFormat("the kernel set no output #%zu", i)));
    return true;
  }
  publishError(
      inst,
      makeOpError(StatusCode::kInvalidArgument, kernel.opName, kernel.location,
                  strFormat("output #%zu is %s but the program declares %s", i,
                            describeTensor(output).c_str(),
                            type.toString().c_str())));
  return true;
}

//===----------------------------------------------------------------------===//
// Function calls
//===----------------------------------------------------------------------===//
//
// The frame is the FunctionRunner of its kernels' contexts: a control-flow
// kernel (ControlFlowKernels.h) runs each callee in a frame of its own with
// this run's options and budget, on this thread's stack when it is
// synchronous, and gets its results when it has finished.

namespace {
/// Whether result #i of `callee` may be moved out of its register: the
/// last time the function returns that register (a function may return one
/// value twice: `return %x, %x`; the earlier results copy it).
bool isLastReturnOf(const Function &callee, size_t i) {
  const std::vector<uint32_t> &results = callee.resultRegisters;
  return std::find(results.begin() + i + 1, results.end(), results[i]) ==
         results.end();
}
} // namespace

Executor::Frame *Executor::Frame::calleeFrame(const Function &callee,
                                              std::vector<Tensor> &args,
                                              Frame *reuse) {
  Frame *frame;
  if (reuse && reuse->isUnique()) {
    reuse->reuse(calleeOptions(), budget_);
    frame = reuse;
  } else {
    if (reuse)
      reuse->dropRef();
    frame = new Frame(executor_, callee, calleeOptions(), budget_);
  }
  frame->bindInputs(args);
  return frame;
}

void Executor::Frame::runFunction(uint32_t index, FunctionRunner::Call *call,
                                  void **reuse, std::string_view op,
                                  std::string_view location) {
  const Function &callee = program_.functions()[index];
  std::vector<Tensor> &args = call->args;
  // The loader checked the callee's types against the caller's; a value
  // whose type the caller knows less precisely is checked here.
  Status mismatch;
  if (args.size() != callee.argRegisters.size())
    mismatch = makeOpError(StatusCode::kInvalidArgument, op, location,
                           strFormat("'%s' takes %zu arguments, not %zu",
                                     callee.name.c_str(),
                                     callee.argRegisters.size(), args.size()));
  for (size_t i = 0; mismatch.ok() && i < args.size(); ++i) {
    const ValueType &type =
        program_.types()[callee.registerTypes[callee.argRegisters[i]]];
    const Tensor &arg = args[i];
    if (type.isChain() ||
        (arg.isValid() && type.accepts(arg.dtype(), arg.shape())))
      continue;
    mismatch = makeOpError(
        StatusCode::kInvalidArgument, op, location,
        strFormat("argument #%zu is %s but '%s' declares %s", i,
                  arg.isValid() ? describeTensor(arg).c_str() : "missing",
                  callee.name.c_str(), type.toString().c_str()));
  }
  if (!mismatch.ok()) {
    // `done` may destroy `call`: it runs from here.
    absl::AnyInvocable<void(Status) &&> done = std::move(call->done);
    std::move(done)(std::move(mismatch));
    return;
  }
  Frame *frame =
      calleeFrame(callee, args, reuse ? static_cast<Frame *>(*reuse) : nullptr);
  if (reuse)
    *reuse = frame;
  frame->start([frame, call] { frame->returnTo(*call); });
  // Without reuse the frame is the callee's own: it lives on while it runs.
  if (!reuse)
    frame->dropRef();
}

void Executor::Frame::returnTo(FunctionRunner::Call &call) {
  std::vector<Tensor> &results = call.results;
  const std::vector<uint32_t> &registers = function_.resultRegisters;
  results.resize(registers.size());
  Status status;
  for (size_t i = 0; i < registers.size() && status.ok(); ++i) {
    TensorValue &value = regs_[registers[i]];
    if (value.isError())
      status = value.getError();
    else if (isLastReturnOf(function_, i))
      results[i] = std::move(value.payload());
    else
      results[i] = value.payload();
  }
  // Last: `done` may give this frame back or reuse it, and destroy `call`.
  absl::AnyInvocable<void(Status) &&> done = std::move(call.done);
  std::move(done)(std::move(status));
}

bool FunctionRunner::takesChain(uint32_t function) const {
  const Program &program =
      static_cast<const Executor::Frame *>(this)->program();
  return program.functions()[function].takesChain(program.types());
}

std::string_view FunctionRunner::functionName(uint32_t function) const {
  return static_cast<const Executor::Frame *>(this)
      ->program()
      .functions()[function]
      .name;
}

void FunctionRunner::call(uint32_t function, Call *call, Reuse *reuse,
                          std::string_view op, std::string_view location) {
  static_cast<Executor::Frame *>(this)->runFunction(
      function, call, reuse ? &reuse->frame_ : nullptr, op, location);
}

Status FunctionRunner::checkStop(std::string_view op,
                                 std::string_view location) const {
  return static_cast<const Executor::Frame *>(this)->stopBefore(op, location);
}

uint64_t FunctionRunner::maxLoopIterations() const {
  return static_cast<const Executor::Frame *>(this)->maxLoopIterations();
}

void FunctionRunner::releaseFrame(void *frame) {
  static_cast<Executor::Frame *>(frame)->dropRef();
}

FunctionRunner::Reuse::~Reuse() {
  if (frame_)
    releaseFrame(frame_);
}

//===----------------------------------------------------------------------===//
// Executor
//===----------------------------------------------------------------------===//

KernelObserver::~KernelObserver() = default;

namespace {
/// The budget of a run with `limits`, or null when they limit no memory.
RCReference<MemoryBudget> makeBudget(const RunLimits &limits) {
  if (!limits.limitsMemory())
    return {};
  return takeRef(new MemoryBudget(limits.maxTensorBytes, limits.maxRunBytes));
}
} // namespace

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

Executor::MemoryPlanCounts
Executor::memoryPlanCounts(const Function &function) const {
  MemoryPlanCounts counts;
  size_t index = &function - program.functions().data();
  if (index >= program.functions().size())
    return counts;
  // Borrow the idle frame (a run may take it meanwhile: then it has none).
  Frame *frame = idleFrames[index].exchange(nullptr, std::memory_order_acq_rel);
  if (!frame)
    return counts;
  if (const PlannedArena *arena = frame->arena()) {
    counts.hits = arena->hits();
    counts.misses = arena->misses();
  }
  Frame *expected = nullptr;
  if (!idleFrames[index].compare_exchange_strong(expected, frame,
                                                 std::memory_order_acq_rel))
    frame->dropRef();
  return counts;
}

Status Executor::checkInputs(const Function &function,
                             absl::Span<const Tensor> inputs) const {
  if (inputs.size() != function.argRegisters.size())
    return makeError(
        StatusCode::kInvalidArgument, "function '%s' takes %zu inputs, got %zu",
        function.name.c_str(), function.argRegisters.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueType &type =
        program.types()[function.registerTypes[function.argRegisters[i]]];
    if (type.isChain())
      return makeError(StatusCode::kInvalidArgument,
                       "function '%s' takes a chain as input #%zu; only "
                       "functions without chain arguments can be run",
                       function.name.c_str(), i);
    if (!type.accepts(inputs[i].dtype(), inputs[i].shape()))
      return makeError(StatusCode::kInvalidArgument,
                       "input #%zu of '%s': expected %s, got %s", i,
                       function.name.c_str(), type.toString().c_str(),
                       describeTensor(inputs[i]).c_str());
  }
  return OkStatus();
}

StatusOr<AsyncRun> Executor::runAsync(const Function &function,
                                      std::vector<Tensor> inputs,
                                      const RunOptions &options) const {
  if (Status status = checkInputs(function, inputs); !status.ok())
    return status;
  // Kernels that run on this thread flush denormals, as on the workers.
  ScopedFlushDenormal flush;
  Frame::Ref frame = Frame::Ref::adopt(
      new Frame(*this, function, options, makeBudget(options.limits)));
  frame->bindInputs(inputs);
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
  return runImpl(function, std::move(inputs), options, nullptr);
}

Status Executor::runForEffects(const Function &function,
                               std::vector<Tensor> inputs,
                               const RunOptions &options) const {
  Status effects;
  StatusOr<std::vector<ResultValue>> results =
      runImpl(function, std::move(inputs), options, &effects);
  if (!results.ok())
    return results.status();
  for (const ResultValue &result : *results)
    if (!result.ok())
      return result.status();
  return effects;
}

StatusOr<std::vector<ResultValue>> Executor::runImpl(const Function &function,
                                                     std::vector<Tensor> inputs,
                                                     const RunOptions &options,
                                                     Status *effects) const {
  if (Status status = checkInputs(function, inputs); !status.ok())
    return status;
  // Kernels that run on this thread flush denormals, as on the workers.
  ScopedFlushDenormal flush;
  // A finished run of this function leaves its frame for the next one.
  size_t index = &function - program.functions().data();
  std::atomic<Frame *> *idle =
      index < program.functions().size() ? &idleFrames[index] : nullptr;
  Frame *reused =
      idle ? idle->exchange(nullptr, std::memory_order_acq_rel) : nullptr;
  RCReference<MemoryBudget> budget = makeBudget(options.limits);
  if (reused)
    reused->reuse(options, budget);
  Frame::Ref frame = Frame::Ref::adopt(
      reused ? reused : new Frame(*this, function, options, budget));
  frame->bindInputs(inputs);
  AsyncValueRef<Chain> done = makeUnconstructedAsyncValueRef<Chain>();
  frame->start([done] { done.emplace(); });
  if (!done.isAvailable())
    host.await({done.copyRef()});

  std::vector<ResultValue> results;
  results.reserve(function.resultRegisters.size());
  for (uint32_t reg : function.resultRegisters) {
    TensorValue &value = frame->reg(reg);
    // One push_back: an emplace_back per alternative was two growth paths.
    results.push_back(value.isError() ? ResultValue(value.getError())
                                      : ResultValue(value.payload()));
  }
  // A stateful kernel that failed made its chain, and every chain after
  // it, an error: the first chain register in error (in program order)
  // names the first failed effect.
  if (effects)
    for (uint32_t reg = 0, e = function.registerTypes.size(); reg < e; ++reg)
      if (program.types()[function.registerTypes[reg]].isChain() &&
          frame->reg(reg).isError()) {
        *effects = frame->reg(reg).getError();
        break;
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
