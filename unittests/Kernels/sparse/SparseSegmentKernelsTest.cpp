//===- SparseSegmentKernelsTest.cpp - SparseSegment* ------------*- C++ -*-===//
//
// SparseSegmentSum / Mean / SqrtN and the WithNumSegments forms against
// hand-derived values and a naive reference loop (long segments cross TF's
// grouping of 8 rows), index dtypes and TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(SparseSegment, SumMeanSqrtN) {
  Tensor data = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor indices = i32({4}, {0, 2, 1, 1});
  Tensor ids = i32({4}, {0, 0, 2, 2});
  auto out = runKernel("SparseSegmentSum", AttrMap{{"T", DType::F32}},
                       {data, indices, ids}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2}, {6, 8, 0, 0, 6, 8});
  out = runKernel("SparseSegmentMean", AttrMap{{"T", DType::F32}},
                  {data, indices, ids}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2}, {3, 4, 0, 0, 3, 4});
  out =
      runKernel("SparseSegmentSqrtN", AttrMap{{"T", DType::F64}},
                {makeTensor<double>({3, 2}, {1, 2, 3, 4, 5, 6}), indices, ids},
                DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  const double r = std::sqrt(2.0);
  expectValues<double>(*out, {3, 2}, {6 / r, 8 / r, 0, 0, 6 / r, 8 / r});
  // WithNumSegments: 4 rows, int64 ids and indices; int32 data.
  out = runKernel("SparseSegmentSumWithNumSegments", AttrMap{{"T", DType::I32}},
                  {i32({3, 1}, {1, 2, 3}), i64({2}, {2, 2}), i64({2}, {1, 1}),
                   i32({}, {4})},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {4, 1}, {0, 6, 0, 0});
}

TEST(SparseSegment, LongSegmentsMatchNaiveSum) {
  // One segment of 21 rows (a group of 5, then 8 and 8) and one of 3.
  const int64_t n = 24;
  std::vector<float> data(10);
  for (int i = 0; i < 10; ++i)
    data[i] = static_cast<float>(i + 1);
  std::vector<int32_t> indices(n), ids(n);
  for (int64_t i = 0; i < n; ++i) {
    indices[i] = static_cast<int32_t>((i * 7) % 10);
    ids[i] = i < 21 ? 0 : 1;
  }
  double sums[2] = {0, 0};
  for (int64_t i = 0; i < n; ++i)
    sums[ids[i]] += data[indices[i]];
  auto out = runKernel("SparseSegmentMean", AttrMap{{"T", DType::F32}},
                       {f32({10}, data), i32({n}, indices), i32({n}, ids)},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {sums[0] / 21, sums[1] / 3});
  out =
      runKernel("SparseSegmentSqrtNWithNumSegments", AttrMap{{"T", DType::F16}},
                {makeTensorFrom<half>(
                     {10}, std::vector<double>(data.begin(), data.end())),
                 i32({n}, indices), i32({n}, ids), i64({}, {3})},
                DType::F16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<half>(*out, {3},
                     {sums[0] / std::sqrt(21.0), sums[1] / std::sqrt(3.0), 0});
}

TEST(SparseSegment, Errors) {
  Tensor data = f32({3}, {1, 2, 3});
  auto run = [&](const char *op, Tensor indices, Tensor ids) {
    return runKernel(op, AttrMap{{"T", DType::F32}}, {data, indices, ids},
                     DType::F32);
  };
  EXPECT_EQ(run("SparseSegmentSum", i32({2}, {0, 1}), i32({2}, {1, 0}))
                .status()
                .message(),
            opError("SparseSegmentSum", "segment ids are not increasing"));
  EXPECT_EQ(
      run("SparseSegmentSum", i32({2}, {0, 3}), i32({2}, {0, 0}))
          .status()
          .message(),
      opError("SparseSegmentSum", "Bad: indices[1] == 3 out of range [0, 3)"));
  EXPECT_EQ(run("SparseSegmentMean", i32({2}, {0, 1}), i32({1}, {0}))
                .status()
                .message(),
            opError("SparseSegmentMean",
                    "segment_ids and indices should have same size."));
  auto out =
      runKernel("SparseSegmentSumWithNumSegments", AttrMap{{"T", DType::F32}},
                {data, i32({1}, {0}), i32({1}, {2}), i32({}, {2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("SparseSegmentSumWithNumSegments",
                    "segment ids must be < num_segments"));
}

} // namespace
