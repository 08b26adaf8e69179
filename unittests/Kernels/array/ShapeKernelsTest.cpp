//===- ShapeKernelsTest.cpp - Reshape and Identity tests --------*- C++ -*-===//
//
// Reshape (shape inference, -1, zero-sized dims, every error) and Identity,
// both checked to share the input buffer.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <optional>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// Reshapes a tensor of `inShape` (f32 values 0, 1, 2, ...) with int32 or
/// int64 `sizes`; checks the output shares the input buffer when it
/// succeeds.
template <typename Tshape>
StatusOr<Tensor>
runReshape(TensorShape inShape, const std::vector<int64_t> &sizes,
           std::optional<TensorShape> sizesShape = std::nullopt) {
  if (!sizesShape)
    sizesShape = TensorShape{static_cast<int64_t>(sizes.size())};
  std::vector<double> values;
  for (int64_t i = 0; i < inShape.numElements(); ++i)
    values.push_back(static_cast<double>(i));
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<float>(inShape, values));
  std::vector<double> sizeValues(sizes.begin(), sizes.end());
  inputs.push_back(makeTensorFrom<Tshape>(*sizesShape, sizeValues));
  const void *data = inputs[0].rawData();
  auto out = runKernel(
      "Reshape", AttrMap{{"T", DType::F32}, {"Tshape", dtypeOf<Tshape>()}},
      inputs, DType::F32);
  if (out.ok()) {
    EXPECT_EQ(out->rawData(), data);
    EXPECT_EQ(valuesOf<float>(*out), valuesOf<float>(inputs[0]));
  }
  return out;
}

std::string reshapeError(const std::string &msg) {
  return opError("Reshape", msg);
}

TEST(Reshape, ExplicitShape) {
  auto out = runReshape<int32_t>({2, 3}, {3, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({3, 2}));
  out = runReshape<int64_t>({2, 3, 4}, {24});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({24}));
  // To and from a scalar.
  out = runReshape<int32_t>({1, 1}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape());
  out = runReshape<int64_t>({}, {1, 1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({1, 1, 1}));
}

TEST(Reshape, InfersMinusOne) {
  auto out = runReshape<int32_t>({2, 3, 4}, {-1, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({6, 4}));
  out = runReshape<int64_t>({2, 3, 4}, {2, -1, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 4, 3}));
  out = runReshape<int64_t>({5}, {-1});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({5}));
  out = runReshape<int32_t>({}, {-1});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({1}));
}

TEST(Reshape, ZeroSizedDims) {
  // -1 next to a 0: zero dims are left out of the inference on both sides.
  auto out = runReshape<int32_t>({0, 3}, {0, -1});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3}));
  out = runReshape<int32_t>({3, 0, 2}, {-1, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({6, 0}));
  // Without a 0 in the request, an empty input makes -1 zero.
  out = runReshape<int64_t>({0, 3}, {-1, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3}));
  out = runReshape<int64_t>({0, 4}, {2, 0, 5});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 0, 5}));
}

TEST(Reshape, ScalarSizesAsVector) {
  // TF's legacy scalar shape operand means a 1-element vector.
  auto out = runReshape<int32_t>({4}, {4}, TensorShape());
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({4}));
}

TEST(Reshape, Errors) {
  auto out = runReshape<int32_t>({2, 3}, {4});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.status().message(),
            reshapeError("Input to reshape is a tensor with 6 values, but the "
                         "requested shape has 4"));
  out = runReshape<int64_t>({7}, {-1, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            reshapeError("Input to reshape is a tensor with 7 values, but the "
                         "requested shape requires a multiple of 3"));
  out = runReshape<int32_t>({6}, {-1, 2, -1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            reshapeError("Only one input size may be -1, not both 0 and 2"));
  out = runReshape<int32_t>({6}, {3, -2});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            reshapeError("Size 1 must be non-negative, not -2"));
  out = runReshape<int32_t>({4}, {2, 2}, TensorShape{1, 2});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            reshapeError("sizes input must be 1-D, not [1,2]"));
  out = runReshape<int64_t>(
      {4}, {int64_t(1) << 32, int64_t(1) << 32, int64_t(1) << 32});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            reshapeError("Requested shape has too many elements"));
}

TEST(Reshape, OtherDTypesAndUnregisteredTshape) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<bool>({2, 2}, {true, false, false, true}));
  inputs.push_back(makeTensor<int32_t>({1}, {-1}));
  const void *data = inputs[0].rawData();
  auto out =
      runKernel("Reshape", AttrMap{{"T", DType::Bool}, {"Tshape", DType::I32}},
                inputs, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({4}));
  EXPECT_EQ(out->rawData(), data);

  // A shape of floats: TF registers no Reshape kernel with Tshape=f32.
  inputs[1] = makeTensor<float>({1}, {-1});
  out =
      runKernel("Reshape", AttrMap{{"T", DType::Bool}, {"Tshape", DType::F32}},
                inputs, DType::Bool);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
}

TEST(Identity, SharesBufferForAnyDType) {
  std::vector<Tensor> tensors = {
      makeTensor<float>({2}, {1.5f, -2}),
      makeTensor<Eigen::half>({1}, {Eigen::half(3)}),
      makeTensor<uint16_t>({3}, {1, 2, 3}),
      makeTensor<int64_t>({}, {42}),
      makeTensor<bool>({0, 2}, {}),
  };
  for (const Tensor &t : tensors) {
    SCOPED_TRACE(dtypeName(t.dtype()));
    auto out = runKernel("Identity", AttrMap{{"T", t.dtype()}}, {t}, t.dtype());
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(out->dtype(), t.dtype());
    EXPECT_EQ(out->shape(), t.shape());
    EXPECT_EQ(out->rawData(), t.rawData());
  }
}

} // namespace
