//===- ControlFlowKernels.cpp - If, Case, While and calls as kernels ------===//
//
// Each kernel calls the functions of its instruction through the context's
// FunctionRunner and finishes when they have: it is an AsyncOpKernel whose
// `done` may run before computeAsync() returns (a callee that finishes at
// once) or later, on the thread that finishes the callee. A callee's error
// becomes the error of every output; it already names the op and node that
// failed inside the callee, so the executor passes it on as it is
// (KernelEntry::passesErrorsOn).
//
//===----------------------------------------------------------------------===//

#include "ControlFlowKernels.h"

#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/FunctionRunner.h"
#include "tfrt_fallback/Runtime/StrFormat.h"

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tfrt_fallback::rt {

const char *controlFlowOpName(bef::Opcode opcode) {
  switch (opcode) {
  case bef::Opcode::If:
    return "If";
  case bef::Opcode::Case:
    return "Case";
  case bef::Opcode::While:
    return "While";
  default:
    return "Call";
  }
}

namespace {

using DoneCallback = AsyncOpKernel::DoneCallback;

/// TensorFlow's truth value of a predicate (tf.If's cond, the result of
/// tf.While's cond): a scalar is true when it is not zero, any other tensor
/// when it has elements.
StatusOr<bool> truthValue(const Tensor &pred) {
  if (pred.rank() != 0)
    return pred.numElements() > 0;
  bool truth = false;
  Status status = dispatchDType(pred.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::Type;
    truth = !(pred.data<T>()[0] == T(0));
  });
  if (!status.ok())
    return status;
  return truth;
}

/// The runner of `ctx`, or null after failing the call (a context outside
/// an executor has none).
FunctionRunner *runnerOf(OpKernelContextInterface *ctx) {
  FunctionRunner *runner = ctx->functionRunner();
  if (!runner)
    ctx->ctxFailure(makeOpError(StatusCode::kFailedPrecondition, ctx->opName(),
                                ctx->nodeName(),
                                "calls functions, which only a program run "
                                "by an executor has"));
  return runner;
}

/// A call of If, Case or Call in flight.
struct PendingCall {
  OpKernelContextInterface *ctx;
  DoneCallback done;
  FunctionRunner::Call call;
};

/// Calls `function` on `args`; its first results become the outputs of
/// `ctx` (a chain result, past them, is dropped), or its error the call's.
void callFunction(OpKernelContextInterface *ctx, FunctionRunner &runner,
                  uint32_t function, std::vector<Tensor> args,
                  DoneCallback done) {
  auto *pending = new PendingCall{ctx, std::move(done), {}};
  pending->call.args = std::move(args);
  pending->call.done = [pending](Status status) {
    std::unique_ptr<PendingCall> owned(pending);
    OpKernelContextInterface *ctx = owned->ctx;
    if (!status.ok()) {
      ctx->ctxFailure(std::move(status));
    } else {
      // The loader checked the callee's results against the instruction's.
      std::vector<Tensor> &values = owned->call.results;
      for (int i = 0;
           i < ctx->numOutputs() && static_cast<size_t>(i) < values.size(); ++i)
        ctx->setOutput(i, std::move(values[i]));
    }
    DoneCallback done = std::move(owned->done);
    owned.reset();
    std::move(done)();
  };
  runner.call(function, &pending->call, /*reuse=*/nullptr, ctx->opName(),
              ctx->nodeName());
}

/// A callee's arguments: inputs [first, numInputs) of `ctx`, after an
/// empty chain when `chainFirst` (the callee takes a chain the inputs do
/// not carry).
std::vector<Tensor> takeArguments(OpKernelContextInterface *ctx, int first,
                                  bool chainFirst) {
  std::vector<Tensor> args;
  args.reserve(ctx->numInputs() - first + 1);
  if (chainFirst)
    args.emplace_back();
  for (int i = first; i < ctx->numInputs(); ++i)
    args.push_back(ctx->takeInput(i));
  return args;
}

//===----------------------------------------------------------------------===//
// Call
//===----------------------------------------------------------------------===//

/// A call of a function of the program (func.call): its inputs are the
/// callee's arguments, chains included, and its outputs its results.
class CallKernel final : public AsyncOpKernel {
public:
  CallKernel(OpKernelConstructionInterface *ctx, uint32_t callee)
      : AsyncOpKernel(ctx), callee_(callee) {}

  void computeAsync(OpKernelContextInterface *ctx, DoneCallback done) override {
    FunctionRunner *runner = runnerOf(ctx);
    if (!runner) {
      std::move(done)();
      return;
    }
    // The inputs carry the callee's chain, if it takes one.
    callFunction(ctx, *runner, callee_,
                 takeArguments(ctx, /*first=*/0, /*chainFirst=*/false),
                 std::move(done));
  }

private:
  const uint32_t callee_;
};

//===----------------------------------------------------------------------===//
// If and Case
//===----------------------------------------------------------------------===//

/// If (two branches, by the truth value of input 0) or Case (by the i32
/// index of input 0; TensorFlow runs the last branch for an index out of
/// range).
class BranchKernel final : public AsyncOpKernel {
public:
  BranchKernel(OpKernelConstructionInterface *ctx, bool isIf,
               absl::Span<const uint32_t> branches)
      : AsyncOpKernel(ctx), isIf_(isIf),
        branches_(branches.begin(), branches.end()) {}

  void computeAsync(OpKernelContextInterface *ctx, DoneCallback done) override {
    FunctionRunner *runner = runnerOf(ctx);
    if (!runner) {
      std::move(done)();
      return;
    }
    StatusOr<size_t> branch = select(ctx->input(0));
    if (!branch.ok()) {
      ctx->ctxFailure(std::move(branch).status());
      std::move(done)();
      return;
    }
    const uint32_t callee = branches_[*branch];
    callFunction(ctx, *runner, callee,
                 takeArguments(ctx, /*first=*/1, runner->takesChain(callee)),
                 std::move(done));
  }

private:
  StatusOr<size_t> select(const Tensor &selector) const {
    if (isIf_) {
      StatusOr<bool> truth = truthValue(selector);
      if (!truth.ok())
        return errorf("cannot take the truth value of the predicate: %s",
                      truth.status().message());
      return *truth ? 0 : 1;
    }
    if (selector.rank() != 0)
      return errorf("the branch index must be a scalar, got %s",
                    describeTensor(selector));
    const int32_t index = selector.data<int32_t>()[0];
    return index >= 0 && static_cast<size_t>(index) < branches_.size()
               ? static_cast<size_t>(index)
               : branches_.size() - 1;
  }

  const bool isIf_;
  const std::vector<uint32_t> branches_;
};

//===----------------------------------------------------------------------===//
// While
//===----------------------------------------------------------------------===//

class WhileKernel;

/// One run of a While: the loop values between iterations and the frames
/// of the condition and the body, reused from one iteration to the next
/// when nothing else holds them. An iteration whose callee finishes at once
/// goes straight on to the next (a loop, not a recursion); one that
/// finishes later, on another thread, goes on from there.
class Loop {
public:
  Loop(const WhileKernel &kernel, OpKernelContextInterface *ctx,
       FunctionRunner &runner, DoneCallback done);

  /// Takes the inputs and runs until the loop ends or waits on a callee.
  void start() {
    values_.reserve(ctx_->numInputs());
    for (int i = 0; i < ctx_->numInputs(); ++i)
      values_.push_back(ctx_->takeInput(i));
    run();
  }

private:
  enum class Stage : uint8_t { Cond, Body };
  enum Sync : uint8_t { Starting, Waiting, Finished };

  /// Runs callees until one finishes later or the loop ends.
  void run();
  /// The current callee has finished (status_, results_): false once the
  /// loop has ended.
  bool step();
  /// Sets the outputs (or fails with `status`), ends the loop and returns
  /// false.
  bool finish(Status status);

  const WhileKernel &kernel_;
  OpKernelContextInterface *const ctx_;
  FunctionRunner &runner_;
  DoneCallback done_;
  const bool condChain_, bodyChain_;
  Stage stage_ = Stage::Cond;
  uint64_t iterations_ = 0;
  std::atomic<uint8_t> sync_{Starting};
  std::vector<Tensor> values_;
  /// The current call and its status, kept across iterations (with the
  /// frames) so that an iteration allocates nothing.
  FunctionRunner::Call call_;
  Status status_;
  FunctionRunner::Reuse condFrame_, bodyFrame_;
};

/// While: calls the condition on the loop values and, while its result is
/// true (TensorFlow's truth value), the body, whose results are the next
/// values. The run's deadline and cancellation are checked before each
/// iteration, and the run's limit on iterations (RunLimits) ends a loop
/// that would not end.
class WhileKernel final : public AsyncOpKernel {
public:
  WhileKernel(OpKernelConstructionInterface *ctx, uint32_t cond, uint32_t body)
      : AsyncOpKernel(ctx), cond_(cond), body_(body) {}

  void computeAsync(OpKernelContextInterface *ctx, DoneCallback done) override {
    FunctionRunner *runner = runnerOf(ctx);
    if (!runner) {
      std::move(done)();
      return;
    }
    (new Loop(*this, ctx, *runner, std::move(done)))->start();
  }

  uint32_t cond() const { return cond_; }
  uint32_t body() const { return body_; }

private:
  const uint32_t cond_, body_;
};

Loop::Loop(const WhileKernel &kernel, OpKernelContextInterface *ctx,
           FunctionRunner &runner, DoneCallback done)
    : kernel_(kernel), ctx_(ctx), runner_(runner), done_(std::move(done)),
      condChain_(runner.takesChain(kernel.cond())),
      bodyChain_(runner.takesChain(kernel.body())) {}

void Loop::run() {
  while (true) {
    const bool isCond = stage_ == Stage::Cond;
    if (isCond) {
      if (Status stop = runner_.checkStop(ctx_->opName(), ctx_->nodeName());
          !stop.ok()) {
        finish(std::move(stop));
        return;
      }
    }
    std::vector<Tensor> &args = call_.args;
    args.clear();
    if (isCond ? condChain_ : bodyChain_)
      args.emplace_back();
    // The body returns the next values: it may take these over.
    for (Tensor &value : values_)
      args.push_back(isCond ? value : std::move(value));
    sync_.store(Starting, std::memory_order_relaxed);
    call_.done = [this](Status status) {
      status_ = std::move(status);
      if (sync_.exchange(Finished, std::memory_order_acq_rel) == Waiting &&
          step())
        run();
    };
    runner_.call(isCond ? kernel_.cond() : kernel_.body(), &call_,
                 isCond ? &condFrame_ : &bodyFrame_, ctx_->opName(),
                 ctx_->nodeName());
    uint8_t expected = Starting;
    if (sync_.compare_exchange_strong(expected, Waiting,
                                      std::memory_order_acq_rel))
      return; // the callee finishes later and goes on from there
    if (!step())
      return;
  }
}

bool Loop::step() {
  if (!status_.ok())
    return finish(std::move(status_));
  std::vector<Tensor> &values = call_.results;
  if (stage_ == Stage::Cond) {
    StatusOr<bool> truth = truthValue(values[0]);
    if (!truth.ok())
      return finish(kernel_.errorf(
          "cannot take the truth value of what '%s' returned: %s",
          runner_.functionName(kernel_.cond()), truth.status().message()));
    if (!*truth)
      return finish(OkStatus());
    const uint64_t limit = runner_.maxLoopIterations();
    if (limit && iterations_ == limit)
      return finish(makeOpError(
          StatusCode::kResourceExhausted, ctx_->opName(), ctx_->nodeName(),
          strFormat("the loop's condition still holds after %llu "
                    "iterations, the run's limit",
                    static_cast<unsigned long long>(iterations_))));
    ++iterations_;
    stage_ = Stage::Body;
    return true;
  }
  // The body's results are the next values (its chain, if any, is last).
  for (size_t i = 0; i < values_.size(); ++i)
    values_[i] = std::move(values[i]);
  stage_ = Stage::Cond;
  return true;
}

bool Loop::finish(Status status) {
  if (!status.ok()) {
    ctx_->ctxFailure(std::move(status));
  } else {
    for (int i = 0; i < ctx_->numOutputs(); ++i)
      ctx_->setOutput(i, std::move(values_[i]));
  }
  DoneCallback done = std::move(done_);
  delete this; // gives the callee frames back
  std::move(done)();
  return false;
}

} // namespace

std::unique_ptr<OpKernel>
createControlFlowKernel(bef::Opcode opcode, absl::Span<const uint32_t> callees,
                        OpKernelConstructionInterface *construction) {
  switch (opcode) {
  case bef::Opcode::If:
  case bef::Opcode::Case:
    return std::make_unique<BranchKernel>(construction,
                                          opcode == bef::Opcode::If, callees);
  case bef::Opcode::While:
    return std::make_unique<WhileKernel>(construction, callees[0], callees[1]);
  default:
    return std::make_unique<CallKernel>(construction, callees[0]);
  }
}

} // namespace tfrt_fallback::rt
