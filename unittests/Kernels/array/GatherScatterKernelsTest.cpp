//===- GatherScatterKernelsTest.cpp - Gather, ScatterNd, Where --*- C++ -*-===//
//
// GatherV2 (axes, batch_dims, index dtypes, bad indices), GatherNd,
// ScatterNd (duplicate sums), SparseToDense (validation) and Where.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(GatherV2, AxesAndIndexTypes) {
  Tensor params = iota({3, 4});
  auto out = runKernel("GatherV2", AttrMap{{"Tparams", DType::F32}},
                       {params, i32({2}, {2, 0}), i32({}, {0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 4}, {8, 9, 10, 11, 0, 1, 2, 3});
  out =
      runKernel("GatherV2", AttrMap{{"Tparams", DType::F32}},
                {params, i64({2, 2}, {3, 1, 0, 0}), i64({}, {-1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2, 2}, {3, 1, 0, 0, 7, 5, 4, 4, 11, 9, 8, 8});
  // Scalar index drops the axis.
  out = runKernel("GatherV2", AttrMap{{"Tparams", DType::I32}},
                  {i32({3}, {10, 20, 30}), i32({}, {1}), i32({}, {0})},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {}, {20});
  // Gather (v1) on axis 0.
  out = runKernel("Gather", AttrMap{{"Tparams", DType::F32}},
                  {params, i32({1}, {1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 4}, {4, 5, 6, 7});
  // Empty indices.
  out = runKernel("GatherV2", AttrMap{{"Tparams", DType::F32}},
                  {params, i32({0}, {}), i32({}, {1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({3, 0}));
}

TEST(GatherV2, BatchDims) {
  // params [2, 3], indices [2, 2], batch_dims 1 -> out [2, 2].
  auto out = runKernel(
      "GatherV2", AttrMap{{"Tparams", DType::F32}, {"batch_dims", 1}},
      {iota({2, 3}), i32({2, 2}, {2, 0, 1, 1}), i32({}, {1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {2, 0, 4, 4});
  out = runKernel(
      "GatherV2", AttrMap{{"Tparams", DType::F32}, {"batch_dims", -1}},
      {iota({2, 3, 2}), i32({2, 1}, {2, 0}), i32({}, {1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1, 2}, {4, 5, 6, 7});
  out = runKernel(
      "GatherV2", AttrMap{{"Tparams", DType::F32}, {"batch_dims", 1}},
      {iota({2, 3}), i32({3, 1}, {0, 0, 0}), i32({}, {1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("GatherV2", "params.shape[0]: 2 should be equal to "
                                "indices.shape[0]: 3"));
  out =
      runKernel("GatherV2", AttrMap{{"Tparams", DType::F32}, {"batch_dims", 1}},
                {iota({2, 3}), i32({2, 1}, {0, 0}), i32({}, {0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("GatherV2",
                    "batch_dims (1) must be less than or equal to axis (0)."));
}

TEST(GatherV2, Errors) {
  auto out = runKernel("GatherV2", AttrMap{{"Tparams", DType::F32}},
                       {iota({5}), i32({2, 2}, {0, 1, 7, 2}), i32({}, {0})},
                       DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("GatherV2", "indices[1,0] = 7 is not in [0, 5)"));
  out = runKernel("GatherV2", AttrMap{{"Tparams", DType::F32}},
                  {iota({5}), i64({1}, {-1}), i32({}, {0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("GatherV2", "indices[0] = -1 is not in [0, 5)"));
  out = runKernel("GatherV2", AttrMap{{"Tparams", DType::F32}},
                  {iota({5}), i64({1}, {0}), i32({}, {1})}, DType::F32);
  EXPECT_EQ(
      out.status().message(),
      opError("GatherV2", "Expected axis in the range [-1, 1), but got 1"));
}

TEST(GatherNd, SlicesAndElements) {
  Tensor params = iota({2, 3, 2});
  auto out = runKernel("GatherNd", AttrMap{{"Tparams", DType::F32}},
                       {params, i32({2, 2}, {1, 2, 0, 0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {10, 11, 0, 1});
  out = runKernel("GatherNd", AttrMap{{"Tparams", DType::F32}},
                  {params, i64({1, 3}, {1, 1, 1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1}, {9});
  out = runKernel("GatherNd", AttrMap{{"Tparams", DType::F32}},
                  {params, i32({2, 1}, {1, 0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3, 2}, {6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5});
  out = runKernel("GatherNd", AttrMap{{"Tparams", DType::F32}},
                  {params, i32({2, 2}, {0, 0, 1, 3})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("GatherNd", "indices[1] = [1, 3] does not index into "
                                "param shape [2,3,2]"));
  out = runKernel("GatherNd", AttrMap{{"Tparams", DType::F32}},
                  {params, i32({1, 4}, {0, 0, 0, 0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("GatherNd", "index innermost dimension length must be <= "
                                "params rank; saw: 4 vs. 3"));
}

TEST(ScatterNd, SumsDuplicates) {
  auto out = runKernel(
      "ScatterNd", AttrMap{{"T", DType::F32}},
      {i32({3, 1}, {4, 1, 4}), f32({3}, {1, 2, 3}), i32({1}, {6})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {6}, {0, 2, 0, 0, 4, 0});
  out = runKernel("ScatterNd", AttrMap{{"T", DType::I32}},
                  {i64({1, 1}, {1}), i32({1, 2}, {5, 6}), i64({2}, {2, 2})},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 2}, {0, 0, 5, 6});
  out = runKernel("ScatterNd", AttrMap{{"T", DType::F32}},
                  {i32({1, 1}, {6}), f32({1}, {1}), i32({1}, {6})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ScatterNd", "indices[0] = [6] does not index into shape "
                                 "[6]"));
  out = runKernel("ScatterNd", AttrMap{{"T", DType::F32}},
                  {i32({1, 1}, {0}), f32({2}, {1, 2}), i32({1}, {6})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ScatterNd",
                    "Must have updates.shape = indices.shape[:batch_dim] + "
                    "params_shape[slice_dim:], got updates.shape: [2], "
                    "indices.shape: [1,1], params_shape: [6], slice_dim: 1, "
                    "and batch_dim: 1"));
}

TEST(SparseToDense, ValuesAndValidation) {
  auto out = runKernel("SparseToDense", AttrMap{{"T", DType::F32}},
                       {i32({2, 2}, {0, 1, 1, 0}), i32({2}, {2, 2}),
                        f32({2}, {5, 6}), f32({}, {-1})},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {-1, 5, 6, -1});
  out = runKernel("SparseToDense", AttrMap{{"T", DType::I64}},
                  {i64({2}, {0, 3}), i64({}, {4}), i64({}, {7}), i64({}, {0})},
                  DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {4}, {7, 0, 0, 7});
  out = runKernel("SparseToDense", AttrMap{{"T", DType::F32}},
                  {i32({2}, {3, 1}), i32({1}, {4}), f32({}, {1}), f32({}, {0})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("SparseToDense",
                    "indices[1] = [1] is out of order. Many sparse ops require "
                    "sorted indices.\n    Use `tf.sparse.reorder` to create a "
                    "correctly ordered copy.\n\n"));
  out = runKernel("SparseToDense",
                  AttrMap{{"T", DType::F32}, {"validate_indices", false}},
                  {i32({2}, {3, 1}), i32({1}, {4}), f32({}, {1}), f32({}, {0})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {0, 1, 0, 1});
  out = runKernel("SparseToDense", AttrMap{{"T", DType::F32}},
                  {i32({2}, {1, 1}), i32({1}, {4}), f32({}, {1}), f32({}, {0})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("SparseToDense", "indices[1] = [1] is repeated"));
  out = runKernel("SparseToDense", AttrMap{{"T", DType::F32}},
                  {i32({1}, {4}), i32({1}, {4}), f32({}, {1}), f32({}, {0})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("SparseToDense", "indices[0] = [4] is out of bounds: need "
                                     "0 <= index < [4]"));
}

TEST(Where, Coordinates) {
  auto out = runKernel("Where", AttrMap{{"T", DType::Bool}},
                       {makeTensor<bool>({2, 2}, {true, false, false, true})},
                       DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {2, 2}, {0, 0, 1, 1});
  out = runKernel("Where", AttrMap{{"T", DType::F32}},
                  {f32({3}, {0, -0.0f, 2})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {1, 1}, {2});
  out = runKernel("Where", AttrMap{}, {i32({0, 3}, {})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 2}));
}

} // namespace
