//===- LimitsTest.cpp - a run's memory limits (RunOptions::limits) --------===//
//
// Programs built with ProgramBuilder and run on 0, 1 and 2 threads with
// RunLimits: a tensor past the per-tensor limit, a run past its byte limit,
// buffers freed at their last use given back to the run's budget, host
// vectors checked before they are sized, and the same program running
// normally afterwards. The expected byte counts are worked out by hand from
// the shapes.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Limits.h"
#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <vector>

using namespace tfrt_fallback::rt;

namespace {

const KernelRegistry &registry() {
  static const KernelRegistry *registry = [] {
    auto *r = new KernelRegistry();
    registerAllKernels(*r);
    return r;
  }();
  return *registry;
}

Tensor dims1(int32_t n) { return *Tensor::fromValues<int32_t>({1}, {n}); }

/// main(dims: i32[1], x: f32[2]) -> (Fill(dims, 1), Fill(dims, 2), Neg(x)):
/// two tensors of dims[0] floats and one independent of them.
std::unique_ptr<Program> buildTwoFills() {
  ProgramBuilder b;
  uint32_t dimsType = b.addTensorType(DType::I32, PartialShape({1}));
  uint32_t vec = b.addTensorType(DType::F32, PartialShape({-1}));
  uint32_t pair = b.addTensorType(DType::F32, PartialShape({2}));
  uint32_t scalar = b.addTensorType(DType::F32, PartialShape({}));
  uint32_t main = b.addFunction("main");
  uint32_t dims = b.addArgument(main, dimsType);
  uint32_t x = b.addArgument(main, pair);
  AttrMap fillAttrs{{"T", DType::F32}, {"index_type", DType::I32}};
  uint32_t fillA =
      b.addKernel("Fill", "fill_a", fillAttrs, {dimsType, scalar}, {vec});
  uint32_t fillB =
      b.addKernel("Fill", "fill_b", fillAttrs, {dimsType, scalar}, {vec});
  uint32_t neg =
      b.addKernel("Neg", "neg", AttrMap{{"T", DType::F32}}, {pair}, {pair});
  uint32_t one = b.addConstant(main, *Tensor::fromValues<float>({}, {1.0f}));
  uint32_t two = b.addConstant(main, *Tensor::fromValues<float>({}, {2.0f}));
  uint32_t a = b.addKernelCall(main, fillA, {dims, one})[0];
  uint32_t c = b.addKernelCall(main, fillB, {dims, two})[0];
  uint32_t n = b.addKernelCall(main, neg, {x})[0];
  b.setResults(main, {a, c, n});
  auto program = b.build(registry());
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : nullptr;
}

/// main(dims: i32[1]) -> Fill(dims, Sum(Fill(dims, 1), [0])): the first
/// Fill's tensor dies at the Sum, before the second Fill allocates.
std::unique_ptr<Program> buildFillSumFill() {
  ProgramBuilder b;
  uint32_t dimsType = b.addTensorType(DType::I32, PartialShape({1}));
  uint32_t vec = b.addTensorType(DType::F32, PartialShape({-1}));
  uint32_t scalar = b.addTensorType(DType::F32, PartialShape({}));
  uint32_t main = b.addFunction("main");
  uint32_t dims = b.addArgument(main, dimsType);
  AttrMap fillAttrs{{"T", DType::F32}, {"index_type", DType::I32}};
  uint32_t fill1 =
      b.addKernel("Fill", "fill_1", fillAttrs, {dimsType, scalar}, {vec});
  uint32_t fill2 =
      b.addKernel("Fill", "fill_2", fillAttrs, {dimsType, scalar}, {vec});
  uint32_t sum = b.addKernel(
      "Sum", "sum",
      AttrMap{{"T", DType::F32}, {"Tidx", DType::I32}, {"keep_dims", false}},
      {vec, dimsType}, {scalar});
  uint32_t one = b.addConstant(main, *Tensor::fromValues<float>({}, {1.0f}));
  uint32_t zero = b.addConstant(main, *Tensor::fromValues<int32_t>({1}, {0}));
  uint32_t t = b.addKernelCall(main, fill1, {dims, one})[0];
  uint32_t s = b.addKernelCall(main, sum, {t, zero})[0];
  uint32_t u = b.addKernelCall(main, fill2, {dims, s})[0];
  b.setResults(main, {u});
  auto program = b.build(registry());
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : nullptr;
}

/// main(count: i32) -> TensorListReserve([-1], count): a list of `count`
/// empty slots, a host vector sized by an input.
std::unique_ptr<Program> buildListReserve() {
  ProgramBuilder b;
  uint32_t countType = b.addTensorType(DType::I32, PartialShape({}));
  uint32_t shapeType = b.addTensorType(DType::I32, PartialShape({1}));
  uint32_t listType = b.addTensorType(DType::Variant, PartialShape({}));
  uint32_t main = b.addFunction("main");
  uint32_t count = b.addArgument(main, countType);
  uint32_t shape = b.addConstant(main, *Tensor::fromValues<int32_t>({1}, {-1}));
  uint32_t reserve = b.addKernel(
      "TensorListReserve", "reserve",
      AttrMap{{"element_dtype", DType::F32}, {"shape_type", DType::I32}},
      {shapeType, countType}, {listType});
  uint32_t list = b.addKernelCall(main, reserve, {shape, count})[0];
  b.setResults(main, {list});
  auto program = b.build(registry());
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : nullptr;
}

RunOptions withLimits(uint64_t maxTensorBytes, uint64_t maxRunBytes) {
  RunOptions options;
  options.limits.maxTensorBytes = maxTensorBytes;
  options.limits.maxRunBytes = maxRunBytes;
  return options;
}

class LimitsTest : public ::testing::TestWithParam<int> {};

TEST_P(LimitsTest, ATensorPastTheLimitIsAnErrorOfItsOp) {
  std::unique_ptr<Program> program = buildTwoFills();
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  const Function &main = program->functions()[0];
  Tensor x = *Tensor::fromValues<float>({2}, {1.0f, -2.0f});

  // 1025 floats = 4100 bytes, past 4096: both Fills fail, Neg does not.
  auto results = executor.run(main, {dims1(1025), x}, withLimits(4096, 0));
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[0].status(),
            ResourceExhaustedError(
                "Fill 'fill_a': output 0: allocating 4100 bytes exceeds the "
                "run's limit of 4096 bytes per tensor"));
  EXPECT_EQ((*results)[1].status().code(), StatusCode::kResourceExhausted);
  ASSERT_TRUE((*results)[2].ok()) << (*results)[2].status();
  EXPECT_EQ((*results)[2]->debugString(), "[-1., 2.]");

  // 1024 floats fit exactly; and the same program runs without limits.
  for (const RunOptions &options : {withLimits(4096, 0), RunOptions()}) {
    results = executor.run(main, {dims1(1024), x}, options);
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_TRUE((*results)[0].ok()) << (*results)[0].status();
    ASSERT_TRUE((*results)[1].ok()) << (*results)[1].status();
    EXPECT_EQ((*results)[0]->numElements(), 1024);
    EXPECT_EQ((*results)[1]->data<float>()[1023], 2.0f);
  }
}

TEST_P(LimitsTest, ARunPastItsBytesFailsWhereItRunsOut) {
  std::unique_ptr<Program> program = buildTwoFills();
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  const Function &main = program->functions()[0];
  Tensor x = *Tensor::fromValues<float>({2}, {1.0f, -2.0f});

  // Two results of 4096 bytes held at once, a run limit of 6000: whichever
  // Fill runs second fails (either may, on the dataflow schedule).
  auto results = executor.run(main, {dims1(1024), x}, withLimits(0, 6000));
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_NE((*results)[0].ok(), (*results)[1].ok());
  const Status &failed =
      (*results)[0].ok() ? (*results)[1].status() : (*results)[0].status();
  EXPECT_EQ(failed.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(failed.message().find("allocating 4096 bytes while the run holds "),
            std::string::npos)
      << failed;
  EXPECT_NE(failed.message().find(" exceeds the run's limit of 6000 bytes"),
            std::string::npos)
      << failed;
  EXPECT_TRUE((*results)[2].ok());

  // Room for both.
  results = executor.run(main, {dims1(1024), x}, withLimits(0, 8192 + 8));
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_TRUE((*results)[0].ok()) << (*results)[0].status();
  EXPECT_TRUE((*results)[1].ok()) << (*results)[1].status();
}

TEST_P(LimitsTest, BuffersFreedAtTheirLastUseAreGivenBack) {
  std::unique_ptr<Program> program = buildFillSumFill();
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  const Function &main = program->functions()[0];
  // 4096 bytes each, never both alive: the first dies at the Sum (4 bytes).
  // Charged and never refunded, the second would need 8196.
  auto results = executor.run(main, {dims1(1024)}, withLimits(0, 6000));
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_TRUE((*results)[0].ok()) << (*results)[0].status();
  EXPECT_EQ((*results)[0]->numElements(), 1024);
  EXPECT_EQ((*results)[0]->data<float>()[0], 1024.0f);
}

TEST_P(LimitsTest, HostVectorsAreCheckedBeforeTheyAreSized) {
  std::unique_ptr<Program> program = buildListReserve();
  ASSERT_TRUE(program);
  HostContext host(GetParam());
  Executor executor(*program, host);
  const Function &main = program->functions()[0];
  Tensor count = *Tensor::fromValues<int32_t>({}, {1 << 30});
  auto results = executor.run(main, {count}, withLimits(1 << 20, 0));
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_FALSE((*results)[0].ok());
  EXPECT_EQ((*results)[0].status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE((*results)[0].status().message().find(
                "TensorListReserve 'reserve': allocating "),
            std::string::npos)
      << (*results)[0].status();
  // A small list is fine.
  results = executor.run(main, {*Tensor::fromValues<int32_t>({}, {4})},
                         withLimits(1 << 20, 0));
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_TRUE((*results)[0].ok()) << (*results)[0].status();
}

INSTANTIATE_TEST_SUITE_P(Threads, LimitsTest, ::testing::Values(0, 1, 2),
                         [](const auto &info) {
                           return "T" + std::to_string(info.param);
                         });

TEST(MemoryBudgetTest, ChargesRefundsAndKeepsThePeak) {
  MemoryBudget budget(100, 250);
  EXPECT_TRUE(budget.charge(100).ok());
  EXPECT_EQ(budget.charge(101),
            ResourceExhaustedError("allocating 101 bytes exceeds the run's "
                                   "limit of 100 bytes per tensor"));
  EXPECT_TRUE(budget.charge(100).ok());
  EXPECT_EQ(budget.charge(51),
            ResourceExhaustedError("allocating 51 bytes while the run holds "
                                   "200 exceeds the run's limit of 250 bytes"));
  EXPECT_TRUE(budget.check(50).ok());
  EXPECT_EQ(budget.liveBytes(), 200u);
  budget.refund(100);
  EXPECT_TRUE(budget.charge(50).ok());
  EXPECT_EQ(budget.liveBytes(), 150u);
  EXPECT_EQ(budget.peakBytes(), 200u);
}

TEST(MemoryBudgetTest, BuffersAreChargedWhileTheirBudgetIsCurrent) {
  RCReference<MemoryBudget> budget = takeRef(new MemoryBudget(0, 1000));
  EXPECT_EQ(MemoryBudget::current(), nullptr);
  Tensor kept;
  {
    MemoryBudget::Scope scope(budget.get());
    EXPECT_EQ(MemoryBudget::current(), budget.get());
    kept = *Tensor::allocate(DType::F32, TensorShape{200}); // 800 bytes
    EXPECT_EQ(budget->liveBytes(), 800u);
    StatusOr<Tensor> tooMuch =
        Tensor::allocate(DType::F32, TensorShape{60}); // 240 more
    EXPECT_EQ(tooMuch.status().code(), StatusCode::kResourceExhausted);
    EXPECT_EQ(checkHostAllocation(50, 4).code(), StatusCode::kOk);
    EXPECT_EQ(checkHostAllocation(51, 4).code(),
              StatusCode::kResourceExhausted);
  }
  EXPECT_EQ(MemoryBudget::current(), nullptr);
  // Outside the scope nothing is charged; the kept buffer still is, until
  // it is freed (after its budget's scope, as a run's results are).
  Tensor other = *Tensor::allocate(DType::F32, TensorShape{1000});
  EXPECT_EQ(budget->liveBytes(), 800u);
  kept = Tensor();
  EXPECT_EQ(budget->liveBytes(), 0u);
  EXPECT_EQ(budget->peakBytes(), 800u);
  // Without a budget only the overflow and kMaxBytes are checked.
  EXPECT_TRUE(checkHostAllocation(uint64_t(1) << 20, 8).ok());
  EXPECT_EQ(checkHostAllocation(uint64_t(1) << 62, 8).code(),
            StatusCode::kResourceExhausted);
}

} // namespace
