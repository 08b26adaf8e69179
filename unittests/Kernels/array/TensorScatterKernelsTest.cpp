//===- TensorScatterKernelsTest.cpp - TensorScatter* ------------*- C++ -*-===//
//
// TensorScatterUpdate / Add / Sub / Min / Max and ScatterNdNonAliasingAdd:
// element and slice updates, repeated indices, the IGNORE policy and TF's
// errors. Expected values are worked out by hand from the tf.tensor_scatter_*
// documentation.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

AttrMap scatterAttrs(DType t, DType idx = DType::I32) {
  return {{"T", t}, {"Tindices", idx}};
}

TEST(TensorScatter, ElementUpdates) {
  // TF's doc example: tensor [0]*8 (here 1s), indices [[4], [3], [1], [7]],
  // updates [9, 10, 11, 12].
  Tensor tensor = f32({8}, {1, 1, 1, 1, 1, 1, 1, 1});
  Tensor indices = i32({4, 1}, {4, 3, 1, 7});
  Tensor updates = f32({4}, {9, 10, 11, 12});
  auto run = [&](const char *op) {
    return runKernel(op, scatterAttrs(DType::F32), {tensor, indices, updates},
                     DType::F32);
  };
  auto out = run("TensorScatterUpdate");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {8}, {1, 11, 1, 10, 9, 1, 1, 12});
  out = run("TensorScatterAdd");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {8}, {1, 12, 1, 11, 10, 1, 1, 13});
  out = run("TensorScatterSub");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {8}, {1, -10, 1, -9, -8, 1, 1, -11});
  out = run("ScatterNdNonAliasingAdd");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {8}, {1, 12, 1, 11, 10, 1, 1, 13});
  // The caller's tensor is unchanged.
  expectValues<float>(tensor, {8}, {1, 1, 1, 1, 1, 1, 1, 1});
}

TEST(TensorScatter, SlicesRepeatsMinMax) {
  // Rows of a [3, 2] int64 tensor; row 0 twice (Add sums, Max takes both).
  Tensor tensor = i64({3, 2}, {5, 5, 5, 5, 5, 5});
  Tensor indices = i64({3, 1}, {0, 2, 0});
  Tensor updates = i64({3, 2}, {1, 9, 7, 2, 3, 4});
  auto out = runKernel("TensorScatterAdd", scatterAttrs(DType::I64, DType::I64),
                       {tensor, indices, updates}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {3, 2}, {9, 18, 5, 5, 12, 7});
  out = runKernel("TensorScatterMax", scatterAttrs(DType::I64, DType::I64),
                  {tensor, indices, updates}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {3, 2}, {5, 9, 5, 5, 7, 5});
  out = runKernel("TensorScatterMin", scatterAttrs(DType::I64, DType::I64),
                  {tensor, indices, updates}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {3, 2}, {1, 4, 5, 5, 5, 2});
  // Full index tuples into a matrix, bool (TensorScatterUpdate moves bytes).
  out = runKernel("TensorScatterUpdate", scatterAttrs(DType::Bool),
                  {makeTensor<bool>({2, 2}, {false, false, false, false}),
                   i32({2, 2}, {0, 1, 1, 0}),
                   makeTensor<bool>({2}, {true, true})},
                  DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<bool>(*out, {2, 2}, {0, 1, 1, 0});
}

TEST(TensorScatter, BadIndices) {
  Tensor tensor = f32({4}, {0, 0, 0, 0});
  auto out =
      runKernel("TensorScatterUpdate", scatterAttrs(DType::F32),
                {tensor, i32({2, 1}, {1, 4}), f32({2}, {1, 2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("TensorScatterUpdate",
                    "indices[1] = [4] does not index into shape [4]"));
  AttrMap ignore = scatterAttrs(DType::F32);
  ignore.set("bad_indices_policy", std::string("IGNORE"));
  out = runKernel("TensorScatterAdd", ignore,
                  {tensor, i32({2, 1}, {1, -1}), f32({2}, {1, 2})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {0, 1, 0, 0});
  out = runKernel(
      "TensorScatterUpdate", scatterAttrs(DType::F32),
      {f32({2, 2}, {0, 0, 0, 0}), i32({1, 1}, {0}), f32({1, 3}, {1, 2, 3})},
      DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("TensorScatterUpdate",
                    "The inner 1 dimensions of output.shape=[2,2] must match "
                    "the inner 1 dimensions of updates.shape=[1,3]"));
  out = runKernel(
      "TensorScatterUpdate", scatterAttrs(DType::F32),
      {f32({2, 2}, {0, 0, 0, 0}), i32({2, 1}, {0, 1}), f32({1, 2}, {1, 2})},
      DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("TensorScatterUpdate",
                    "Outer dimensions of indices and update must match. "
                    "Indices shape: [2,1], updates shape:[1,2]"));
}

} // namespace
