//===- ExecutorTest.cpp - AsyncValue execution, async kernels, stops ------===//
//
// Programs built with ProgramBuilder and run by the Executor on 0, 1 and 2
// threads: an async kernel that completes from another thread while
// independent kernels go on, results awaited one at a time (runAsync),
// errors of async kernels flowing to dependants, cancellation from another
// thread and deadlines, and the same program running normally afterwards.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using namespace tfrt_fallback::rt;
namespace bef = tfrt_fallback::bef;
using namespace std::chrono_literals;

namespace {

/// Identity that finishes later: a thread of its own sleeps `delay_ms`, then
/// sets the output (or fails when `fail` is set) and calls `done`.
class DelayedIdentityKernel final : public AsyncOpKernel {
public:
  explicit DelayedIdentityKernel(OpKernelConstructionInterface *ctx)
      : AsyncOpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("delay_ms", &delayMs));
    if (ctx->hasAttr("fail"))
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("fail", &fail));
  }

  void computeAsync(OpKernelContextInterface *ctx, DoneCallback done) override {
    std::thread([this, ctx, done = std::move(done)]() mutable {
      std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
      if (fail)
        ctx->ctxFailure(errorf("asked to fail"));
      else
        ctx->setOutput(0, ctx->input(0));
      std::move(done)();
    }).detach();
  }

private:
  int64_t delayMs = 0;
  bool fail = false;
};

/// Appends its i32 scalar input to a log: what a kernel with side effects
/// does, so a test can see the order chains give.
std::mutex recordMutex;
std::vector<int32_t> recorded;

class RecordKernel final : public OpKernel {
public:
  explicit RecordKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    std::lock_guard<std::mutex> lock(recordMutex);
    recorded.push_back(ctx->input(0).data<int32_t>()[0]);
  }
};

/// Reports which of its inputs are program constants: output i is 1 when
/// input i is one (OpKernelContextInterface::isInputConstant), else 0.
class ReportConstantsKernel final : public OpKernel {
public:
  using OpKernel::OpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{ctx->numInputs()}, &out));
    for (int i = 0; i < ctx->numInputs(); ++i)
      out->data<float>()[i] = ctx->isInputConstant(i) ? 1.0f : 0.0f;
  }
};

/// Reports what its construction saw of its inputs: output i is the first
/// element of OpKernelConstructionInterface::constantInput(i), or -1 when
/// there is none.
class ConstructionConstantsKernel final : public OpKernel {
public:
  explicit ConstructionConstantsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    for (int i = 0; i < ctx->numInputs(); ++i) {
      const Tensor *constant = ctx->constantInput(i);
      seen_.push_back(constant && constant->numElements() > 0
                          ? constant->data<float>()[0]
                          : -1.0f);
    }
  }
  void compute(OpKernelContextInterface *ctx) override {
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(
                 0, TensorShape{static_cast<int64_t>(seen_.size())}, &out));
    std::copy(seen_.begin(), seen_.end(), out->data<float>());
  }

private:
  std::vector<float> seen_;
};

const KernelRegistry &registry() {
  static const KernelRegistry *registry = [] {
    auto *r = new KernelRegistry();
    registerAllKernels(*r);
    registerKernel<DelayedIdentityKernel>(
        *r, KernelDefBuilder("TestDelayedIdentity"));
    r->setInputArity("TestDelayedIdentity", 1, 1);
    registerKernel<RecordKernel>(*r, KernelDefBuilder("TestRecord"));
    r->setInputArity("TestRecord", 1, 1);
    registerKernel<ReportConstantsKernel>(
        *r, KernelDefBuilder("TestReportConstants"));
    r->setInputArity("TestReportConstants", 1, 8);
    registerKernel<ConstructionConstantsKernel>(
        *r, KernelDefBuilder("TestConstructionConstants"));
    r->setInputArity("TestConstructionConstants", 1, 8);
    return r;
  }();
  return *registry;
}

Tensor i32(int32_t value) { return *Tensor::fromValues<int32_t>({}, {value}); }

Tensor f32(std::initializer_list<float> values) {
  return *Tensor::fromValues<float>(
      TensorShape{static_cast<int64_t>(values.size())}, values);
}

/// main(x: f32[2]) -> (AddV2(TestDelayedIdentity(x), x), Neg(x)): the
/// first result waits for the async kernel, the second does not.
std::unique_ptr<Program> buildAsyncProgram(int64_t delayMs, bool fail) {
  ProgramBuilder b;
  uint32_t vec = b.addTensorType(DType::F32, PartialShape({2}));
  uint32_t main = b.addFunction("main");
  uint32_t x = b.addArgument(main, vec);
  AttrMap delayAttrs{{"T", DType::F32}, {"delay_ms", delayMs}};
  if (fail)
    delayAttrs.set("fail", true);
  uint32_t delayed =
      b.addKernel("TestDelayedIdentity", "delayed", delayAttrs, {vec}, {vec});
  uint32_t add = b.addKernel("AddV2", "add", AttrMap{{"T", DType::F32}},
                             {vec, vec}, {vec});
  uint32_t neg =
      b.addKernel("Neg", "neg", AttrMap{{"T", DType::F32}}, {vec}, {vec});
  uint32_t a = b.addKernelCall(main, delayed, {x})[0];
  uint32_t sum = b.addKernelCall(main, add, {a, x})[0];
  uint32_t negated = b.addKernelCall(main, neg, {x})[0];
  b.setResults(main, {sum, negated});
  auto program = b.build(registry());
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : nullptr;
}

/// main(x: f32[256x256]) -> a chain of `length` Sqrt(Mul(x, x)) pairs:
/// long enough to stop in the middle.
std::unique_ptr<Program> buildLongProgram(int length) {
  ProgramBuilder b;
  uint32_t type = b.addTensorType(DType::F32, PartialShape({256, 256}));
  uint32_t main = b.addFunction("main");
  uint32_t value = b.addArgument(main, type);
  AttrMap attrs{{"T", DType::F32}};
  for (int i = 0; i < length; ++i) {
    std::string at = "step" + std::to_string(i);
    uint32_t mul = b.addKernel("Mul", at, attrs, {type, type}, {type});
    uint32_t sqrt = b.addKernel("Sqrt", at, attrs, {type}, {type});
    value = b.addKernelCall(main, mul, {value, value})[0];
    value = b.addKernelCall(main, sqrt, {value})[0];
  }
  b.setResults(main, {value});
  auto program = b.build(registry());
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : nullptr;
}

Tensor ones256() {
  Tensor t = *Tensor::allocate(DType::F32, TensorShape{256, 256});
  t.flat<float>().setConstant(1.0f);
  return t;
}

class ExecutorThreadsTest : public ::testing::TestWithParam<int> {};

TEST_P(ExecutorThreadsTest, AsyncKernelWhileIndependentWorkRuns) {
  std::unique_ptr<Program> program = buildAsyncProgram(300, /*fail=*/false);
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  auto run = executor.runAsync(program->functions()[0], {f32({1, 2})});
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->results.size(), 2u);
  // The independent result is there while the async kernel still sleeps.
  host.await({run->results[1].copyRef()});
  EXPECT_FALSE(run->results[0].isAvailable());
  EXPECT_FALSE(run->done.isAvailable());
  ASSERT_TRUE(run->results[1].isConcrete());
  EXPECT_EQ(run->results[1]->debugString(), "[-1., -2.]");

  host.await({run->results[0].copyRef(), run->done.copyRef()});
  ASSERT_TRUE(run->results[0].isConcrete()) << run->results[0].getError();
  EXPECT_EQ(run->results[0]->debugString(), "[2., 4.]");
}

TEST_P(ExecutorThreadsTest, SyncRunWaitsForAsyncKernels) {
  std::unique_ptr<Program> program = buildAsyncProgram(20, /*fail=*/false);
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  for (int i = 0; i < 3; ++i) {
    auto results = executor.run(program->functions()[0], {f32({3, 4})});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_TRUE((*results)[0].ok()) << (*results)[0].status();
    EXPECT_EQ((*results)[0]->debugString(), "[6., 8.]");
    EXPECT_EQ((*results)[1]->debugString(), "[-3., -4.]");
  }
}

TEST_P(ExecutorThreadsTest, AsyncKernelErrorFlowsToDependants) {
  std::unique_ptr<Program> program = buildAsyncProgram(10, /*fail=*/true);
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  auto results = executor.run(program->functions()[0], {f32({1, 2})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(
      (*results)[0].status(),
      InvalidArgumentError("TestDelayedIdentity 'delayed': asked to fail"));
  ASSERT_TRUE((*results)[1].ok());
  EXPECT_EQ((*results)[1]->debugString(), "[-1., -2.]");
}

TEST_P(ExecutorThreadsTest, CancelFromAnotherThread) {
  std::unique_ptr<Program> program = buildLongProgram(20000);
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  CancellationToken token;
  RunOptions options;
  options.cancellation = &token;
  std::thread canceller([&] {
    std::this_thread::sleep_for(30ms);
    token.cancel();
  });
  auto start = std::chrono::steady_clock::now();
  auto results = executor.run(program->functions()[0], {ones256()}, options);
  auto elapsed = std::chrono::steady_clock::now() - start;
  canceller.join();
  ASSERT_TRUE(results.ok()) << results.status();
  const Status &status = (*results)[0].status();
  EXPECT_EQ(status.code(), StatusCode::kCancelled) << status;
  EXPECT_NE(status.message().find("the run was cancelled before "),
            std::string_view::npos)
      << status;
  EXPECT_NE(status.message().find("'step"), std::string_view::npos) << status;
  // 20,000 steps take seconds; the run stopped soon after the cancel.
  EXPECT_LT(elapsed, 2s);

  // The same program runs normally afterwards, with the token reset too.
  std::unique_ptr<Program> shortProgram = buildLongProgram(3);
  Executor shortExecutor(*shortProgram, host);
  token.reset();
  auto again =
      shortExecutor.run(shortProgram->functions()[0], {ones256()}, options);
  ASSERT_TRUE(again.ok() && (*again)[0].ok());
  EXPECT_EQ((*again)[0]->data<float>()[0], 1.0f);
  auto cancelledBefore = [&] {
    token.cancel();
    return executor.run(program->functions()[0], {ones256()}, options);
  }();
  ASSERT_TRUE(cancelledBefore.ok());
  EXPECT_EQ((*cancelledBefore)[0].status().code(), StatusCode::kCancelled);
}

TEST_P(ExecutorThreadsTest, DeadlineStopsALongRun) {
  std::unique_ptr<Program> program = buildLongProgram(20000);
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  auto start = std::chrono::steady_clock::now();
  auto results = executor.run(program->functions()[0], {ones256()},
                              RunOptions::withTimeout(50ms));
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].status().code(), StatusCode::kDeadlineExceeded)
      << (*results)[0].status();
  EXPECT_NE((*results)[0].status().message().find("deadline passed before"),
            std::string_view::npos);
  EXPECT_LT(elapsed, 2s);

  // Without a deadline the same loaded program completes.
  std::unique_ptr<Program> shortProgram = buildLongProgram(2);
  Executor shortExecutor(*shortProgram, host);
  auto again = shortExecutor.run(shortProgram->functions()[0], {ones256()},
                                 RunOptions::withTimeout(10s));
  ASSERT_TRUE(again.ok() && (*again)[0].ok());
}

TEST_P(ExecutorThreadsTest, DeadlineStopsDeferredWork) {
  // The async kernel outlives the deadline; what waits on it is skipped.
  std::unique_ptr<Program> program = buildAsyncProgram(200, /*fail=*/false);
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  auto results = executor.run(program->functions()[0], {f32({1, 2})},
                              RunOptions::withTimeout(50ms));
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE((*results)[0].status().message().find("AddV2 'add'"),
            std::string_view::npos)
      << (*results)[0].status();
  EXPECT_TRUE((*results)[1].ok());
}

TEST_P(ExecutorThreadsTest, CallOfAFunctionWithAnAsyncKernel) {
  // inner(x) = TestDelayedIdentity(x) + [1, 1];
  // main(x) = (inner(x), merge_chains(new_chain)).
  ProgramBuilder b;
  uint32_t vec = b.addTensorType(DType::F32, PartialShape({2}));
  uint32_t inner = b.addFunction("inner");
  uint32_t x = b.addArgument(inner, vec);
  uint32_t one = b.addConstant(inner, f32({1, 1}));
  uint32_t delayed = b.addKernel(
      "TestDelayedIdentity", "delayed",
      AttrMap{{"T", DType::F32}, {"delay_ms", int64_t(20)}}, {vec}, {vec});
  uint32_t add = b.addKernel("AddV2", "add", AttrMap{{"T", DType::F32}},
                             {vec, vec}, {vec});
  uint32_t d = b.addKernelCall(inner, delayed, {x})[0];
  b.setResults(inner, b.addKernelCall(inner, add, {d, one}));
  uint32_t main = b.addFunction("main");
  uint32_t y = b.addArgument(main, vec);
  uint32_t called = b.addCall(main, inner, {y})[0];
  uint32_t chain = b.addChainOp(main, {b.addChainOp(main, {})});
  b.setResults(main, {called, chain});
  auto program = b.build(registry());
  ASSERT_TRUE(program.ok()) << program.status();

  HostContext host(GetParam());
  Executor executor(**program, host);
  const Function &mainFunction = (*program)->functions()[main];
  // Twice: the second run reuses the frame.
  for (int i = 0; i < 2; ++i) {
    auto results = executor.run(mainFunction, {f32({3, 4})});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_TRUE((*results)[0].ok()) << (*results)[0].status();
    EXPECT_EQ((*results)[0]->debugString(), "[4., 5.]");
    EXPECT_TRUE((*results)[1].ok());
  }
}

TEST_P(ExecutorThreadsTest, ACallHandsItsLastUseOperandsToTheCallee) {
  // inner(x) = Neg(x); main(y) = inner(y). The run owns y and the call is
  // its last use, so the call kernel moves it into the callee, where Neg
  // overwrites it in place as it would without the call: the result is
  // the input's buffer. (A copy would leave the buffer shared, and Neg
  // would allocate.)
  ProgramBuilder b;
  uint32_t vec = b.addTensorType(DType::F32, PartialShape({2}));
  uint32_t inner = b.addFunction("inner");
  uint32_t x = b.addArgument(inner, vec);
  uint32_t neg =
      b.addKernel("Neg", "neg", AttrMap{{"T", DType::F32}}, {vec}, {vec});
  b.setResults(inner, b.addKernelCall(inner, neg, {x}));
  uint32_t main = b.addFunction("main");
  uint32_t y = b.addArgument(main, vec);
  b.setResults(main, b.addCall(main, inner, {y}));
  auto program = b.build(registry());
  ASSERT_TRUE(program.ok()) << program.status();

  HostContext host(GetParam());
  Executor executor(**program, host);
  Tensor input = f32({3, 4});
  const float *buffer = input.data<float>();
  // (Not `{std::move(input)}`: an initializer list holds a copy.)
  std::vector<Tensor> inputs;
  inputs.push_back(std::move(input));
  auto results = executor.run((*program)->functions()[main], std::move(inputs));
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_TRUE((*results)[0].ok()) << (*results)[0].status();
  EXPECT_EQ((*results)[0]->debugString(), "[-3., -4.]");
  EXPECT_EQ((*results)[0]->data<float>(), buffer);
}

/// main(n: i32) -> while (i < n) { i = TestDelayedIdentity(i) + 1 }: every
/// iteration waits for an async kernel, so the loop goes on from the
/// kernel's thread.
std::unique_ptr<Program> buildAsyncLoop(bool fail) {
  ProgramBuilder b;
  uint32_t scalar = b.addTensorType(DType::I32, PartialShape({}));
  uint32_t pred = b.addTensorType(DType::Bool, PartialShape({}));
  AttrMap attrs{{"T", DType::I32}};
  uint32_t less = b.addKernel("Less", "less", attrs, {scalar, scalar}, {pred});
  uint32_t cond = b.addFunction("cond");
  uint32_t ci = b.addArgument(cond, scalar);
  uint32_t cn = b.addArgument(cond, scalar);
  b.setResults(cond, b.addKernelCall(cond, less, {ci, cn}));

  AttrMap delayAttrs{{"T", DType::I32}, {"delay_ms", int64_t(2)}};
  if (fail)
    delayAttrs.set("fail", true);
  uint32_t delayed = b.addKernel("TestDelayedIdentity", "delayed", delayAttrs,
                                 {scalar}, {scalar});
  uint32_t add = b.addKernel("AddV2", "add", attrs, {scalar, scalar}, {scalar});
  uint32_t body = b.addFunction("body");
  uint32_t bi = b.addArgument(body, scalar);
  uint32_t bn = b.addArgument(body, scalar);
  uint32_t one = b.addConstant(body, i32(1));
  uint32_t d = b.addKernelCall(body, delayed, {bi})[0];
  b.setResults(body, {b.addKernelCall(body, add, {d, one})[0], bn});

  uint32_t main = b.addFunction("main");
  uint32_t n = b.addArgument(main, scalar);
  uint32_t zero = b.addConstant(main, i32(0));
  std::vector<uint32_t> loop =
      b.addControlFlow(main, bef::Opcode::While, {cond, body}, {zero, n});
  b.setResults(main, {loop[0]});
  auto program = b.build(registry());
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : nullptr;
}

TEST_P(ExecutorThreadsTest, LoopWithAnAsyncBody) {
  std::unique_ptr<Program> program = buildAsyncLoop(/*fail=*/false);
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  const Function &main = *program->lookupFunction("main");
  for (int32_t n : {0, 1, 5, 20}) {
    auto results = executor.run(main, {i32(n)});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_TRUE((*results)[0].ok()) << (*results)[0].status();
    EXPECT_EQ((*results)[0]->data<int32_t>()[0], n);
  }
}

TEST_P(ExecutorThreadsTest, AsyncErrorEndsALoop) {
  std::unique_ptr<Program> program = buildAsyncLoop(/*fail=*/true);
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  auto results = executor.run(*program->lookupFunction("main"), {i32(5)});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].status(),
            InvalidArgumentError("TestDelayedIdentity 'delayed': asked to "
                                 "fail"));
}

/// main(p: i1) records -1, then 0..4 in a loop whose body records through
/// an If (then: record i, else: record -i), then 100: chains keep that
/// order even on the dataflow schedule, where nothing else orders them.
TEST_P(ExecutorThreadsTest, ChainsOrderEffectsThroughLoopsAndBranches) {
  ProgramBuilder b;
  uint32_t scalar = b.addTensorType(DType::I32, PartialShape({}));
  uint32_t pred = b.addTensorType(DType::Bool, PartialShape({}));
  uint32_t chainType = b.addChainType();
  AttrMap attrs{{"T", DType::I32}};
  uint32_t record =
      b.addKernel("TestRecord", "record", AttrMap(), {scalar}, {}, true);
  uint32_t less = b.addKernel("Less", "less", attrs, {scalar, scalar}, {pred});
  uint32_t add = b.addKernel("AddV2", "add", attrs, {scalar, scalar}, {scalar});
  uint32_t neg = b.addKernel("Neg", "neg", attrs, {scalar}, {scalar});

  // then(c, i) = record(i); else(c, i) = record(-i).
  uint32_t thenFn = b.addFunction("then");
  uint32_t tc = b.addArgument(thenFn, chainType);
  uint32_t ti = b.addArgument(thenFn, scalar);
  b.setResults(thenFn, b.addKernelCall(thenFn, record, {ti, tc}));
  uint32_t elseFn = b.addFunction("else");
  uint32_t ec = b.addArgument(elseFn, chainType);
  uint32_t ei = b.addArgument(elseFn, scalar);
  uint32_t negated = b.addKernelCall(elseFn, neg, {ei})[0];
  b.setResults(elseFn, b.addKernelCall(elseFn, record, {negated, ec}));

  // cond(i, p) = i < 5 (pure: takes no chain).
  uint32_t cond = b.addFunction("cond");
  uint32_t ci = b.addArgument(cond, scalar);
  b.addArgument(cond, pred);
  uint32_t five = b.addConstant(cond, i32(5));
  b.setResults(cond, b.addKernelCall(cond, less, {ci, five}));
  // body(c, i, p) = (i + 1, p, if p then(c, i) else else(c, i)).
  uint32_t body = b.addFunction("body");
  uint32_t bc = b.addArgument(body, chainType);
  uint32_t bi = b.addArgument(body, scalar);
  uint32_t bp = b.addArgument(body, pred);
  uint32_t one = b.addConstant(body, i32(1));
  uint32_t branched = b.addControlFlow(body, bef::Opcode::If, {thenFn, elseFn},
                                       {bp, bi, bc})[0];
  uint32_t next = b.addKernelCall(body, add, {bi, one})[0];
  b.setResults(body, {next, bp, branched});

  uint32_t main = b.addFunction("main");
  uint32_t p = b.addArgument(main, pred);
  uint32_t c0 = b.addChainOp(main, {});
  uint32_t first = b.addConstant(main, i32(-1));
  uint32_t last = b.addConstant(main, i32(100));
  uint32_t zero = b.addConstant(main, i32(0));
  uint32_t c1 = b.addKernelCall(main, record, {first, c0})[0];
  std::vector<uint32_t> loop =
      b.addControlFlow(main, bef::Opcode::While, {cond, body}, {zero, p, c1});
  uint32_t c2 = b.addKernelCall(main, record, {last, loop[2]})[0];
  b.setResults(main, {loop[0], c2});
  auto program = b.build(registry());
  ASSERT_TRUE(program.ok()) << program.status();

  HostContext host(GetParam());
  Executor executor(**program, host);
  for (bool branch : {true, false}) {
    {
      std::lock_guard<std::mutex> lock(recordMutex);
      recorded.clear();
    }
    Tensor p = *Tensor::fromValues<bool>({}, {branch});
    auto results = executor.run(*(*program)->lookupFunction("main"), {p});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_TRUE((*results)[0].ok()) << (*results)[0].status();
    EXPECT_EQ((*results)[0]->data<int32_t>()[0], 5);
    std::lock_guard<std::mutex> lock(recordMutex);
    if (branch)
      EXPECT_EQ(recorded, (std::vector<int32_t>{-1, 0, 1, 2, 3, 4, 100}));
    else
      EXPECT_EQ(recorded, (std::vector<int32_t>{-1, 0, -1, -2, -3, -4, 100}));
  }
}

/// main(x) = Neg(x), and an effect nothing reads: TestDelayedIdentity on
/// the chain, failing when asked. run() returns the result; runForEffects
/// also reports the failed effect (what an initializer needs).
TEST_P(ExecutorThreadsTest, RunForEffectsReportsAFailedEffect) {
  for (bool fail : {false, true}) {
    ProgramBuilder b;
    uint32_t vec = b.addTensorType(DType::F32, PartialShape({2}));
    uint32_t main = b.addFunction("main");
    uint32_t x = b.addArgument(main, vec);
    AttrMap delayAttrs{{"T", DType::F32}, {"delay_ms", int64_t(10)}};
    if (fail)
      delayAttrs.set("fail", true);
    uint32_t effect = b.addKernel("TestDelayedIdentity", "effect", delayAttrs,
                                  {vec}, {vec}, /*hasChain=*/true);
    uint32_t neg =
        b.addKernel("Neg", "neg", AttrMap{{"T", DType::F32}}, {vec}, {vec});
    uint32_t c0 = b.addChainOp(main, {});
    b.addKernelCall(main, effect, {x, c0});
    uint32_t negated = b.addKernelCall(main, neg, {x})[0];
    b.setResults(main, {negated});
    auto program = b.build(registry());
    ASSERT_TRUE(program.ok()) << program.status();
    HostContext host(GetParam());
    Executor executor(**program, host);
    const Function &function = *(*program)->lookupFunction("main");

    auto results = executor.run(function, {f32({1, -2})});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_TRUE((*results)[0].ok()) << (*results)[0].status();
    EXPECT_EQ((*results)[0]->data<float>()[1], 2.0f);

    Status effects = executor.runForEffects(function, {f32({1, -2})});
    if (!fail) {
      EXPECT_TRUE(effects.ok()) << effects;
      continue;
    }
    EXPECT_FALSE(effects.ok());
    EXPECT_NE(effects.message().find("asked to fail"), std::string_view::npos)
        << effects;
    EXPECT_NE(effects.message().find("effect"), std::string_view::npos)
        << effects;
  }
}

TEST_P(ExecutorThreadsTest, CancelAnEndlessLoop) {
  // while (true) { i = i + 1 }, with the predicate a constant.
  ProgramBuilder b;
  uint32_t scalar = b.addTensorType(DType::I32, PartialShape({}));
  uint32_t cond = b.addFunction("cond");
  b.addArgument(cond, scalar);
  b.setResults(cond,
               {b.addConstant(cond, *Tensor::fromValues<bool>({}, {true}))});
  uint32_t add = b.addKernel("AddV2", "add", AttrMap{{"T", DType::I32}},
                             {scalar, scalar}, {scalar});
  uint32_t body = b.addFunction("body");
  uint32_t i = b.addArgument(body, scalar);
  b.setResults(body, b.addKernelCall(body, add, {i, i}));
  uint32_t main = b.addFunction("main");
  uint32_t x = b.addArgument(main, scalar);
  b.setResults(main,
               b.addControlFlow(main, bef::Opcode::While, {cond, body}, {x}));
  auto program = b.build(registry());
  ASSERT_TRUE(program.ok()) << program.status();

  HostContext host(GetParam());
  Executor executor(**program, host);
  CancellationToken token;
  RunOptions options;
  options.cancellation = &token;
  std::thread canceller([&] {
    std::this_thread::sleep_for(30ms);
    token.cancel();
  });
  auto results =
      executor.run(*(*program)->lookupFunction("main"), {i32(0)}, options);
  canceller.join();
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].status().code(), StatusCode::kCancelled)
      << (*results)[0].status();
}

TEST_P(ExecutorThreadsTest, KernelsSeeWhichInputsAreConstants) {
  // main(x) = (report(x, c, x), inner(c)) with c a constant of main;
  // inner(y) = report(y, d) with d a constant of inner: inside the call,
  // c arrives as an argument, so only d is a constant there.
  ProgramBuilder b;
  uint32_t vec = b.addTensorType(DType::F32, PartialShape({2}));
  uint32_t out = b.addTensorType(DType::F32, PartialShape::unknownRank());
  uint32_t report3 = b.addKernel("TestReportConstants", "report3", AttrMap{},
                                 {vec, vec, vec}, {out});
  uint32_t report2 = b.addKernel("TestReportConstants", "report2", AttrMap{},
                                 {vec, vec}, {out});
  uint32_t inner = b.addFunction("inner");
  uint32_t y = b.addArgument(inner, vec);
  uint32_t d = b.addConstant(inner, f32({5, 6}));
  b.setResults(inner, b.addKernelCall(inner, report2, {y, d}));
  uint32_t main = b.addFunction("main");
  uint32_t x = b.addArgument(main, vec);
  uint32_t c = b.addConstant(main, f32({1, 2}));
  uint32_t r = b.addKernelCall(main, report3, {x, c, x})[0];
  uint32_t called = b.addCall(main, inner, {c})[0];
  b.setResults(main, {r, called});
  auto program = b.build(registry());
  ASSERT_TRUE(program.ok()) << program.status();
  HostContext host(GetParam());
  Executor executor(**program, host);
  auto results = executor.run((*program)->functions()[main], {f32({3, 4})});
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_TRUE((*results)[0].ok() && (*results)[1].ok());
  auto values = [](const Tensor &t) {
    return std::vector<float>(t.data<float>(),
                              t.data<float>() + t.numElements());
  };
  EXPECT_EQ(values(*(*results)[0]), std::vector<float>({0, 1, 0}));
  EXPECT_EQ(values(*(*results)[1]), std::vector<float>({0, 1}));
}

TEST(KernelConstructionTest, SeesTheConstantsEveryCallBinds) {
  // same(x, c) twice and differ(x, c) / differ(x, e): construction sees c
  // for `same` and no constant for `differ`'s second input, nor for x.
  ProgramBuilder b;
  uint32_t vec = b.addTensorType(DType::F32, PartialShape({2}));
  uint32_t out = b.addTensorType(DType::F32, PartialShape::unknownRank());
  uint32_t same = b.addKernel("TestConstructionConstants", "same", AttrMap{},
                              {vec, vec}, {out});
  uint32_t differ = b.addKernel("TestConstructionConstants", "differ",
                                AttrMap{}, {vec, vec}, {out});
  uint32_t main = b.addFunction("main");
  uint32_t x = b.addArgument(main, vec);
  uint32_t c = b.addConstant(main, f32({7, 8}));
  uint32_t e = b.addConstant(main, f32({9, 10}));
  uint32_t r0 = b.addKernelCall(main, same, {x, c})[0];
  uint32_t r1 = b.addKernelCall(main, same, {x, c})[0];
  uint32_t r2 = b.addKernelCall(main, differ, {x, c})[0];
  b.addKernelCall(main, differ, {x, e});
  b.setResults(main, {r0, r1, r2});
  auto program = b.build(registry());
  ASSERT_TRUE(program.ok()) << program.status();
  HostContext host(1);
  Executor executor(**program, host);
  auto results = executor.run((*program)->functions()[main], {f32({3, 4})});
  ASSERT_TRUE(results.ok()) << results.status();
  for (const ResultValue &result : *results)
    ASSERT_TRUE(result.ok()) << result.status();
  auto values = [](const Tensor &t) {
    return std::vector<float>(t.data<float>(),
                              t.data<float>() + t.numElements());
  };
  EXPECT_EQ(values(*(*results)[0]), std::vector<float>({-1, 7}));
  EXPECT_EQ(values(*(*results)[1]), std::vector<float>({-1, 7}));
  EXPECT_EQ(values(*(*results)[2]), std::vector<float>({-1, -1}));
}

/// main(a: i32[?], b: i32[?], x: f32[?]) -> (Div(a, b), Abs(Div(a, b)),
/// GatherV2(x, a, 0), Neg(x)): what fails depends on the inputs' values.
std::unique_ptr<Program> buildFallibleProgram() {
  ProgramBuilder b;
  uint32_t ints = b.addTensorType(DType::I32, PartialShape({-1}));
  uint32_t floats = b.addTensorType(DType::F32, PartialShape({-1}));
  uint32_t scalar = b.addTensorType(DType::I32, PartialShape({}));
  uint32_t main = b.addFunction("main");
  uint32_t a = b.addArgument(main, ints);
  uint32_t d = b.addArgument(main, ints);
  uint32_t x = b.addArgument(main, floats);
  uint32_t div = b.addKernel("Div", "model/div", AttrMap{{"T", DType::I32}},
                             {ints, ints}, {ints});
  uint32_t abs = b.addKernel("Abs", "model/abs", AttrMap{{"T", DType::I32}},
                             {ints}, {ints});
  uint32_t gather = b.addKernel("GatherV2", "model/gather",
                                AttrMap{{"Tparams", DType::F32},
                                        {"Tindices", DType::I32},
                                        {"Taxis", DType::I32},
                                        {"batch_dims", int64_t(0)}},
                                {floats, ints, scalar}, {floats});
  uint32_t neg = b.addKernel("Neg", "model/neg", AttrMap{{"T", DType::F32}},
                             {floats}, {floats});
  uint32_t zero = b.addConstant(main, *Tensor::fromValues<int32_t>({}, {0}));
  uint32_t q = b.addKernelCall(main, div, {a, d})[0];
  uint32_t absQ = b.addKernelCall(main, abs, {q})[0];
  uint32_t picked = b.addKernelCall(main, gather, {x, a, zero})[0];
  uint32_t negX = b.addKernelCall(main, neg, {x})[0];
  b.setResults(main, {q, absQ, picked, negX});
  auto program = b.build(registry());
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : nullptr;
}

TEST_P(ExecutorThreadsTest, PartialFailureThenAGoodRun) {
  std::unique_ptr<Program> program = buildFallibleProgram();
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  const Function &main = program->functions()[0];
  auto ints = [](std::vector<int32_t> v) {
    return *Tensor::fromValues<int32_t>(
        TensorShape{static_cast<int64_t>(v.size())}, v);
  };
  Tensor x = f32({10, 20, 30});
  for (int round = 0; round < 2; ++round) {
    // A zero divisor and an index past x: the division, its dependant and
    // the gather fail; Neg(x) does not.
    auto results = executor.run(main, {ints({3, 2}), ints({1, 0}), x});
    ASSERT_TRUE(results.ok()) << results.status();
    EXPECT_EQ(
        (*results)[0].status(),
        InvalidArgumentError("Div 'model/div': Integer division by zero"));
    EXPECT_EQ((*results)[1].status(), (*results)[0].status());
    EXPECT_EQ((*results)[2].status(),
              InvalidArgumentError(
                  "GatherV2 'model/gather': indices[0] = 3 is not in [0, 3)"));
    ASSERT_TRUE((*results)[3].ok()) << (*results)[3].status();
    EXPECT_EQ((*results)[3]->debugString(), "[-10., -20., -30.]");

    // The same loaded program on good inputs: everything is computed.
    results = executor.run(main, {ints({2, 1}), ints({2, -2}), x});
    ASSERT_TRUE(results.ok()) << results.status();
    for (int i = 0; i < 4; ++i)
      ASSERT_TRUE((*results)[i].ok()) << i << ": " << (*results)[i].status();
    // TF's integer Div truncates toward zero: 1 / -2 = 0.
    EXPECT_EQ((*results)[0]->debugString(), "[1, 0]");
    EXPECT_EQ((*results)[1]->debugString(), "[1, 0]");
    EXPECT_EQ((*results)[2]->debugString(), "[30., 20.]");
    EXPECT_EQ((*results)[3]->debugString(), "[-10., -20., -30.]");
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, ExecutorThreadsTest,
                         ::testing::Values(0, 1, 2));

TEST(ProgramBuilderTest, ReportsMisuse) {
  ProgramBuilder b;
  uint32_t vec = b.addTensorType(DType::F32, PartialShape({2}));
  uint32_t other = b.addTensorType(DType::I32, PartialShape({2}));
  uint32_t main = b.addFunction("main");
  uint32_t x = b.addArgument(main, other);
  uint32_t neg =
      b.addKernel("Neg", "neg", AttrMap{{"T", DType::F32}}, {vec}, {vec});
  b.setResults(main, b.addKernelCall(main, neg, {x}));
  EXPECT_EQ(b.build(registry()).status(),
            InvalidArgumentError("the operands of 'Neg' in 'main' do "
                                 "not match its kernel's input types"));
  // A kernel the registry lacks is named with its location.
  ProgramBuilder b2;
  vec = b2.addTensorType(DType::F32, PartialShape({2}));
  uint32_t f = b2.addFunction("f");
  uint32_t y = b2.addArgument(f, vec);
  uint32_t nope = b2.addKernel("NoSuchOp", "here", AttrMap(), {vec}, {vec});
  b2.setResults(f, b2.addKernelCall(f, nope, {y}));
  EXPECT_EQ(b2.build(registry()).status(),
            NotFoundError("here: no kernel registered for op "
                          "'NoSuchOp'"));
}

} // namespace
