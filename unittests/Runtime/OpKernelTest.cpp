//===- OpKernelTest.cpp - Kernel interface tests ----------------*- C++ -*-===//
//
// SimpleOpKernelConstruction attribute getters and errors, and
// OpKernelContext outputs and input forwarding.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/HostContext.h"

#include "gtest/gtest.h"

using namespace tfrt_fallback::rt;

namespace {

constexpr const char *kLoc = "loc(\"a.mlir\":3:5)";

class ConstructionTest : public ::testing::Test {
protected:
  AttrMap attrs = {
      {"T", DType::F32},
      {"alpha", 0.25f},
      {"big", int64_t(1) << 40},
      {"data_format", "NHWC"},
      {"dilations", std::vector<int64_t>{1, 1, 1, 1}},
      {"empty", std::vector<std::string>{}},
      {"f", FuncAttr{"body"}},
      {"keep_dims", true},
      {"N", 3},
      {"shape", PartialShape{-1, 4}},
      {"shapes", std::vector<PartialShape>{PartialShape(), PartialShape{1}}},
      {"strides", "oops"},
      {"Tlist", std::vector<DType>{DType::F32, DType::I64}},
      {"weights", std::vector<float>{0.5f, 1.5f}},
      {"names", std::vector<std::string>{"a", "b"}},
  };
  SimpleOpKernelConstruction ctx{
      "Conv2D", kLoc, attrs, {DType::F32, DType::F32}, {DType::F32}};
};

TEST_F(ConstructionTest, Signature) {
  EXPECT_EQ(ctx.opName(), "Conv2D");
  EXPECT_EQ(ctx.nodeName(), kLoc);
  EXPECT_EQ(ctx.numInputs(), 2);
  EXPECT_EQ(ctx.numOutputs(), 1);
  EXPECT_EQ(ctx.inputDType(1), DType::F32);
  EXPECT_EQ(ctx.outputDType(0), DType::F32);
  EXPECT_EQ(ctx.outputDType(5), DType::Invalid);
  EXPECT_TRUE(ctx.hasAttr("T"));
  EXPECT_FALSE(ctx.hasAttr("U"));
}

TEST_F(ConstructionTest, TypedGetters) {
  int64_t i64;
  int32_t i32;
  float f;
  bool b;
  std::string s;
  DType dtype;
  PartialShape shape;
  ASSERT_TRUE(ctx.getAttr("N", &i64).ok());
  EXPECT_EQ(i64, 3);
  ASSERT_TRUE(ctx.getAttr("N", &i32).ok());
  EXPECT_EQ(i32, 3);
  ASSERT_TRUE(ctx.getAttr("alpha", &f).ok());
  EXPECT_EQ(f, 0.25f);
  ASSERT_TRUE(ctx.getAttr("keep_dims", &b).ok());
  EXPECT_TRUE(b);
  ASSERT_TRUE(ctx.getAttr("data_format", &s).ok());
  EXPECT_EQ(s, "NHWC");
  ASSERT_TRUE(ctx.getAttr("f", &s).ok());
  EXPECT_EQ(s, "body");
  ASSERT_TRUE(ctx.getAttr("T", &dtype).ok());
  EXPECT_EQ(dtype, DType::F32);
  ASSERT_TRUE(ctx.getAttr("shape", &shape).ok());
  EXPECT_EQ(shape, (PartialShape{-1, 4}));

  std::vector<int64_t> ints;
  std::vector<int32_t> ints32;
  std::vector<float> floats;
  std::vector<std::string> strings;
  std::vector<DType> dtypes;
  std::vector<PartialShape> shapes;
  ASSERT_TRUE(ctx.getAttr("dilations", &ints).ok());
  EXPECT_EQ(ints, (std::vector<int64_t>{1, 1, 1, 1}));
  ASSERT_TRUE(ctx.getAttr("dilations", &ints32).ok());
  EXPECT_EQ(ints32, (std::vector<int32_t>{1, 1, 1, 1}));
  ASSERT_TRUE(ctx.getAttr("weights", &floats).ok());
  EXPECT_EQ(floats, (std::vector<float>{0.5f, 1.5f}));
  ASSERT_TRUE(ctx.getAttr("names", &strings).ok());
  EXPECT_EQ(strings, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(ctx.getAttr("Tlist", &dtypes).ok());
  EXPECT_EQ(dtypes, (std::vector<DType>{DType::F32, DType::I64}));
  ASSERT_TRUE(ctx.getAttr("shapes", &shapes).ok());
  EXPECT_EQ(shapes.size(), 2u);
  EXPECT_FALSE(shapes[0].hasRank());

  // An empty list of any element kind reads as an empty list.
  ints = {7};
  ASSERT_TRUE(ctx.getAttr("empty", &ints).ok());
  EXPECT_TRUE(ints.empty());
}

TEST_F(ConstructionTest, GetterErrors) {
  std::vector<int64_t> ints;
  EXPECT_EQ(ctx.getAttr("strides", &ints),
            InvalidArgumentError(
                "attribute 'strides' of Conv2D 'loc(\"a.mlir\":3:5)' is a "
                "string, expected a list of ints"));
  float f;
  EXPECT_EQ(ctx.getAttr("padding", &f),
            InvalidArgumentError(
                "attribute 'padding' of Conv2D 'loc(\"a.mlir\":3:5)' is "
                "missing, expected a float"));
  DType dtype;
  EXPECT_EQ(ctx.getAttr("Tlist", &dtype),
            InvalidArgumentError(
                "attribute 'Tlist' of Conv2D 'loc(\"a.mlir\":3:5)' is a list "
                "of dtypes, expected a dtype"));
  int32_t i32;
  EXPECT_EQ(ctx.getAttr("big", &i32),
            InvalidArgumentError(
                "attribute 'big' of Conv2D 'loc(\"a.mlir\":3:5)' value "
                "1099511627776 does not fit in int32"));
  Tensor t;
  EXPECT_EQ(ctx.getAttr("N", &t).message(),
            "attribute 'N' of Conv2D 'loc(\"a.mlir\":3:5)' is an int, "
            "expected a tensor");
  bool b;
  EXPECT_EQ(ctx.getAttr("data_format", &b).code(),
            StatusCode::kInvalidArgument);
}

TEST_F(ConstructionTest, CtxFailureKeepsFirst) {
  EXPECT_TRUE(ctx.status().ok());
  ctx.ctxFailure(InvalidArgumentError("first"));
  ctx.ctxFailure(InvalidArgumentError("second"));
  EXPECT_EQ(ctx.status().message(), "first");
}

/// out = in0 * in1 elementwise, forwarding in0 when possible.
class MulKernel final : public OpKernel {
public:
  explicit MulKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, a.shape() == b.shape(),
                              errorf("shapes %s and %s differ",
                                     a.shape().toString(),
                                     b.shape().toString()));
    Tensor *out;
    const int candidates[] = {0, 1};
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput(candidates, 0, a.shape(), &out));
    out->flat<float>() = a.flat<float>() * b.flat<float>();
  }
};

class ContextTest : public ::testing::Test {
protected:
  /// A context for one compute() of `kernel`, writing into `output`.
  OpKernelContext makeContext(absl::Span<const Tensor *const> inputs,
                              uint64_t forwardable = 0) {
    output = Tensor();
    return OpKernelContext(kernel, inputs, forwardable, outputs, host);
  }

  HostContext host{0};
  AttrMap attrs = {{"T", DType::F32}};
  SimpleOpKernelConstruction construction{"Mul",
                                          "loc(\"m.mlir\":1:1)",
                                          attrs,
                                          {DType::F32, DType::F32},
                                          {DType::F32}};
  MulKernel kernel{&construction};
  Tensor output;
  Tensor *const outputs[1] = {&output};
};

TEST_F(ContextTest, ComputeAllocates) {
  Tensor a = *Tensor::fromValues<float>(TensorShape{3}, {1, 2, 3});
  Tensor b = *Tensor::fromValues<float>(TensorShape{3}, {4, 5, 6});
  const Tensor *inputs[] = {&a, &b};
  OpKernelContext ctx = makeContext(inputs); // Nothing forwardable.
  kernel.compute(&ctx);
  ASSERT_TRUE(ctx.status().ok()) << ctx.status();
  EXPECT_EQ(output.debugString(), "[4., 10., 18.]");
  EXPECT_NE(output.rawData(), a.rawData());
  EXPECT_EQ(a.debugString(), "[1., 2., 3.]");
}

TEST_F(ContextTest, ComputeForwardsUniquelyOwnedInput) {
  Tensor a = *Tensor::fromValues<float>(TensorShape{3}, {1, 2, 3});
  Tensor b = *Tensor::fromValues<float>(TensorShape{3}, {4, 5, 6});
  const Tensor *inputs[] = {&a, &b};
  OpKernelContext ctx = makeContext(inputs, /*forwardable=*/0b01);
  const void *data = a.rawData();
  kernel.compute(&ctx);
  ASSERT_TRUE(ctx.status().ok());
  // The kernel wrote through input 0's tensor; finish() moves it into the
  // output and leaves the input empty.
  EXPECT_EQ(a.debugString(), "[4., 10., 18.]");
  EXPECT_FALSE(output.isValid());
  EXPECT_EQ(ctx.finish(), 0);
  EXPECT_FALSE(a.isValid());
  EXPECT_EQ(a.buffer(), nullptr);
  EXPECT_EQ(output.rawData(), data);
  EXPECT_EQ(output.shape(), TensorShape{3});
  EXPECT_EQ(output.buffer()->refCount(), 1u);
  EXPECT_EQ(output.debugString(), "[4., 10., 18.]");
  EXPECT_EQ(ctx.finish(), -1) << "finish() moves once";

  // A shared input is not forwarded, nor is input 1 (not forwardable).
  Tensor c = *Tensor::fromValues<float>(TensorShape{3}, {1, 1, 1});
  Tensor cAlias = c;
  const Tensor *inputs2[] = {&c, &b};
  OpKernelContext ctx2 = makeContext(inputs2, 0b01);
  kernel.compute(&ctx2);
  ASSERT_TRUE(ctx2.status().ok());
  EXPECT_NE(output.rawData(), c.rawData());
  EXPECT_NE(output.rawData(), b.rawData());
  EXPECT_EQ(c.debugString(), "[1., 1., 1.]");
}

TEST_F(ContextTest, AnInputMovesToOneOutputOnly) {
  Tensor a = *Tensor::fromValues<float>(TensorShape{3}, {1, 2, 3});
  const Tensor *inputs[] = {&a};
  OpKernelContext ctx = makeContext(inputs, /*forwardable=*/0b1);
  Tensor *first, *second;
  const int candidates[] = {0};
  ASSERT_TRUE(
      ctx.forwardInputOrAllocateOutput(candidates, 0, TensorShape{3}, &first)
          .ok());
  EXPECT_EQ(first, &a) << "written through the input's tensor";
  // Taken already: a second request allocates, and as the kernel then set
  // the output itself, finish() leaves the input where it is.
  ASSERT_TRUE(
      ctx.forwardInputOrAllocateOutput(candidates, 0, TensorShape{3}, &second)
          .ok());
  EXPECT_EQ(second, &output);
  EXPECT_NE(output.rawData(), a.rawData());
  EXPECT_EQ(ctx.finish(), -1);
  EXPECT_EQ(a.debugString(), "[1., 2., 3.]");
  EXPECT_EQ(a.buffer()->refCount(), 1u);
}

TEST_F(ContextTest, ALaterCandidateMovesWhenTheFirstCannot) {
  Tensor a = *Tensor::fromValues<float>(TensorShape{3}, {1, 2, 3});
  Tensor b = *Tensor::fromValues<float>(TensorShape{3}, {4, 5, 6});
  const Tensor *inputs[] = {&a, &b};
  // Input 0 is not forwardable: input 1, the second candidate, moves.
  OpKernelContext ctx = makeContext(inputs, /*forwardable=*/0b10);
  Tensor *out;
  const int candidates[] = {0, 1};
  ASSERT_TRUE(
      ctx.forwardInputOrAllocateOutput(candidates, 0, TensorShape{3}, &out)
          .ok());
  EXPECT_EQ(out, &b);
  EXPECT_EQ(ctx.finish(), 1);
  EXPECT_FALSE(b.isValid());
  EXPECT_EQ(output.debugString(), "[4., 5., 6.]");
  EXPECT_EQ(a.debugString(), "[1., 2., 3.]");
}

TEST_F(ContextTest, SameRankOtherDimsSharesReshaped) {
  Tensor a = *Tensor::fromValues<float>(TensorShape{2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor *inputs[] = {&a};
  OpKernelContext ctx = makeContext(inputs, /*forwardable=*/0b1);
  Tensor *out;
  const int candidates[] = {0};
  // [2,3] and [3,2]: the rank and element count agree, a dim does not, so
  // the output shares the buffer with its own shape instead of taking the
  // input's tensor.
  ASSERT_TRUE(
      ctx.forwardInputOrAllocateOutput(candidates, 0, TensorShape{3, 2}, &out)
          .ok());
  EXPECT_EQ(out, &output);
  EXPECT_EQ(output.shape(), (TensorShape{3, 2}));
  EXPECT_EQ(output.rawData(), a.rawData());
  EXPECT_EQ(ctx.finish(), -1);
  EXPECT_TRUE(a.isValid());
}

TEST_F(ContextTest, ForwardRequiresSameDTypeAndSize) {
  Tensor i = *Tensor::fromValues<int32_t>(TensorShape{3}, {1, 2, 3});
  Tensor f = *Tensor::fromValues<float>(TensorShape{4}, {1, 2, 3, 4});
  const Tensor *inputs[] = {&i, &f};
  OpKernelContext ctx = makeContext(inputs, 0b11);
  Tensor *out;
  const int candidates[] = {0, 1};
  ASSERT_TRUE(
      ctx.forwardInputOrAllocateOutput(candidates, 0, TensorShape{3}, &out)
          .ok());
  EXPECT_NE(out->rawData(), i.rawData());
  EXPECT_NE(out->rawData(), f.rawData());
  // Same element count with another shape forwards, reshaped.
  ASSERT_TRUE(
      ctx.forwardInputOrAllocateOutput(candidates, 0, TensorShape{2, 2}, &out)
          .ok());
  EXPECT_EQ(out->rawData(), f.rawData());
  EXPECT_EQ(out->shape(), (TensorShape{2, 2}));
}

TEST_F(ContextTest, KernelErrorsNameOpAndNode) {
  Tensor a = *Tensor::fromValues<float>(TensorShape{3}, {1, 2, 3});
  Tensor b = *Tensor::fromValues<float>(TensorShape{2}, {4, 5});
  const Tensor *inputs[] = {&a, &b};
  OpKernelContext ctx = makeContext(inputs);
  kernel.compute(&ctx);
  EXPECT_EQ(ctx.status(),
            InvalidArgumentError(
                "Mul 'loc(\"m.mlir\":1:1)': shapes [3] and [2] differ"));
}

TEST_F(ContextTest, AllocateOutputErrors) {
  Tensor *out;
  OpKernelContext ctx = makeContext({});
  EXPECT_EQ(ctx.allocateOutput(1, TensorShape{1}, &out),
            InvalidArgumentError(
                "Mul 'loc(\"m.mlir\":1:1)': output index 1 is out of range "
                "[0, 1)"));
  EXPECT_EQ(ctx.allocateOutput(0, TensorShape{int64_t(1) << 39}, &out),
            ResourceExhaustedError(
                "Mul 'loc(\"m.mlir\":1:1)': output 0: tensor of shape "
                "[549755813888] and dtype f32 exceeds the limit of "
                "1099511627776 bytes"));
  ASSERT_TRUE(ctx.allocateOutput(0, TensorShape{2}, &out).ok());
  EXPECT_EQ(out->dtype(), DType::F32);
  ctx.setOutput(0, Tensor());
  EXPECT_FALSE(output.isValid());
  // An out-of-range setOutput is recorded as the kernel's failure.
  ctx.setOutput(3, Tensor());
  EXPECT_EQ(ctx.status().code(), StatusCode::kInvalidArgument);
}

} // namespace
