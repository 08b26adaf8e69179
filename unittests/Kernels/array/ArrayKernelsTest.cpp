//===- ArrayKernelsTest.cpp - ReverseSequence, Roll, OneHot, ... -*- C++ -*-//
//
// ReverseSequence, Roll, OneHot, InvertPermutation, Bitcast, Empty,
// DeepCopy, ParallelConcat and the Inplace ops. Expected values come from a
// naive reference loop (Roll, ReverseSequence) or are worked out by hand
// from TF's documentation.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cstring>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(ReverseSequence, TfDocExample) {
  // input [4, 8] rows of 0..7 shifted by 10 * b, seq_dim 1, batch_dim 0,
  // lengths [7, 2, 3, 5].
  std::vector<float> v;
  for (int b = 0; b < 4; ++b)
    for (int s = 0; s < 8; ++s)
      v.push_back(10 * b + s);
  auto out =
      runKernel("ReverseSequence",
                AttrMap{{"T", DType::F32}, {"seq_dim", 1}, {"batch_dim", 0}},
                {f32({4, 8}, v), i64({4}, {7, 2, 3, 5})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected;
  const int lens[] = {7, 2, 3, 5};
  for (int b = 0; b < 4; ++b)
    for (int s = 0; s < 8; ++s)
      expected.push_back(10 * b + (s < lens[b] ? lens[b] - 1 - s : s));
  expectValues<float>(*out, {4, 8}, expected);
}

TEST(ReverseSequence, BatchAfterSeqAndInnerDims) {
  // input [3, 2, 2] with seq_dim 0, batch_dim 1 (int32 lengths), the last
  // dim carried along: a naive loop gives the expected values.
  const Dims dims = {3, 2, 2};
  std::vector<int32_t> v(12);
  for (int i = 0; i < 12; ++i)
    v[i] = i;
  const int lens[] = {3, 1};
  auto out =
      runKernel("ReverseSequence",
                AttrMap{{"T", DType::I32}, {"seq_dim", 0}, {"batch_dim", 1}},
                {i32({3, 2, 2}, v), i32({2}, {3, 1})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected;
  forEachIndex(dims, [&](const std::vector<int64_t> &idx) {
    const int64_t s = idx[0], b = idx[1], c = idx[2];
    const int64_t from = s < lens[b] ? lens[b] - 1 - s : s;
    expected.push_back(v[(from * 2 + b) * 2 + c]);
  });
  expectValues<int32_t>(*out, {3, 2, 2}, expected);
}

TEST(ReverseSequence, Errors) {
  auto run = [](int64_t seqDim, int64_t batchDim, Tensor lengths) {
    return runKernel("ReverseSequence",
                     AttrMap{{"T", DType::F32},
                             {"seq_dim", seqDim},
                             {"batch_dim", batchDim}},
                     {iota({2, 3}), std::move(lengths)}, DType::F32);
  };
  EXPECT_EQ(run(1, 1, i64({2}, {1, 1})).status().message(),
            opError("ReverseSequence", "batch_dim == seq_dim == 1"));
  EXPECT_EQ(
      run(2, 0, i64({2}, {1, 1})).status().message(),
      opError("ReverseSequence", "seq_dim must be < input rank ( 2 vs. 2)"));
  EXPECT_EQ(run(1, 0, i64({3}, {1, 1, 1})).status().message(),
            opError("ReverseSequence",
                    "Length of seq_lengths != input.dims(0), (3 vs. 2)"));
  EXPECT_EQ(run(1, 0, i64({2}, {1, 4})).status().message(),
            opError("ReverseSequence", "seq_lens(1) > input.dims(1)"));
  EXPECT_EQ(run(1, 0, i64({2}, {-1, 0})).status().message(),
            opError("ReverseSequence", "seq_lens(0) < 0"));
}

/// Roll by a naive loop: out[(i + shift) mod n] = in[i] per axis.
std::vector<double> naiveRoll(const Dims &dims, const std::vector<double> &in,
                              const std::vector<int64_t> &shifts) {
  std::vector<double> out(in.size());
  int64_t flat = 0;
  forEachIndex(dims, [&](const std::vector<int64_t> &idx) {
    int64_t to = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      const int64_t n = dims[d];
      to = to * n + ((idx[d] + shifts[d]) % n + n) % n;
    }
    out[to] = in[flat++];
  });
  return out;
}

TEST(Roll, MatchesNaiveLoop) {
  const Dims dims = {3, 4, 5};
  std::vector<double> in(60);
  for (int i = 0; i < 60; ++i)
    in[i] = i;
  // Shift 2 on axis 0, -1 then +8 on axis 2 (adds up to 7, i.e. 2), axis
  // 1 untouched.
  auto out = runKernel("Roll", AttrMap{{"T", DType::F64}},
                       {makeTensorFrom<double>({3, 4, 5}, in),
                        i32({3}, {2, -1, 8}), i64({3}, {0, 2, -1})},
                       DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {3, 4, 5}, naiveRoll(dims, in, {2, 0, 2}));
  // Scalar shift and axis on a vector: [0, 1, 2, 3, 4] by 2.
  out = runKernel("Roll", AttrMap{{"T", DType::I32}},
                  {i32({5}, {0, 1, 2, 3, 4}), i32({}, {2}), i32({}, {0})},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {5}, {3, 4, 0, 1, 2});
}

TEST(Roll, Errors) {
  auto out =
      runKernel("Roll", AttrMap{{"T", DType::F32}},
                {iota({2, 2}), i32({2}, {1, 1}), i32({1}, {0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Roll", "shift and axis must have the same size"));
  out = runKernel("Roll", AttrMap{{"T", DType::F32}},
                  {iota({2, 2}), i32({}, {1}), i32({}, {2})}, DType::F32);
  EXPECT_EQ(out.status().message(), opError("Roll", "axis 2 is out of range"));
  out = runKernel("Roll", AttrMap{{"T", DType::F32}},
                  {f32({}, {1}), i32({}, {1}), i32({}, {0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Roll", "input must be 1-D or higher"));
}

TEST(OneHot, AxesAndOutOfRange) {
  // TF's doc example: indices [0, 2, -1, 1], depth 3, on 5, off 0, axis -1.
  auto out = runKernel(
      "OneHot", AttrMap{{"T", DType::F32}, {"TI", DType::I32}},
      {i32({4}, {0, 2, -1, 1}), i32({}, {3}), f32({}, {5}), f32({}, {0})},
      DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4, 3}, {5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0});
  // axis 0: [depth, 4].
  out = runKernel(
      "OneHot", AttrMap{{"T", DType::I64}, {"TI", DType::I64}, {"axis", 0}},
      {i64({4}, {0, 2, 3, 1}), i32({}, {3}), i64({}, {1}), i64({}, {-1})},
      DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {3, 4},
                        {1, -1, -1, -1, -1, -1, -1, 1, -1, 1, -1, -1});
  // uint8 indices, 2-D, axis 1: [2, depth 2, 2].
  out = runKernel("OneHot",
                  AttrMap{{"T", DType::Bool}, {"TI", DType::U8}, {"axis", 1}},
                  {makeTensor<uint8_t>({2, 2}, {0, 1, 1, 1}), i32({}, {2}),
                   makeTensor<bool>({}, {true}), makeTensor<bool>({}, {false})},
                  DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<bool>(*out, {2, 2, 2}, {1, 0, 0, 1, 0, 0, 1, 1});
  out = runKernel(
      "OneHot", AttrMap{{"T", DType::F32}, {"axis", 3}},
      {i32({4}, {0, 2, -1, 1}), i32({}, {3}), f32({}, {5}), f32({}, {0})},
      DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("OneHot", "Expected axis to be -1 or between [0, 2).  But "
                              "received: 3"));
  out = runKernel("OneHot", AttrMap{{"T", DType::F32}},
                  {i32({1}, {0}), i32({}, {-1}), f32({}, {5}), f32({}, {0})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("OneHot", "depth must be non-negative, got: -1"));
}

TEST(InvertPermutation, InvertsAndChecks) {
  // TF's doc example: [3, 4, 0, 2, 1] -> [2, 4, 3, 0, 1].
  auto out = runKernel("InvertPermutation", AttrMap{{"T", DType::I32}},
                       {i32({5}, {3, 4, 0, 2, 1})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {5}, {2, 4, 3, 0, 1});
  out = runKernel("InvertPermutation", AttrMap{{"T", DType::I64}},
                  {i64({3}, {0, 3, 1})}, DType::I64);
  EXPECT_EQ(out.status().message(),
            opError("InvertPermutation", "3 is not between 0 and 3"));
  out = runKernel("InvertPermutation", AttrMap{{"T", DType::I32}},
                  {i32({3}, {0, 1, 1})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("InvertPermutation", "1 is duplicated in the input."));
}

TEST(Bitcast, Shapes) {
  // f32 1.0 is 0x3f800000: as uint8 (little endian) 00 00 80 3f.
  auto out =
      runKernel("Bitcast", AttrMap{{"T", DType::F32}, {"type", DType::U8}},
                {f32({2}, {1.0f, -2.0f})}, DType::U8);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 4}, {0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0});
  // Back: a last dim of 4 disappears.
  out =
      runKernel("Bitcast", AttrMap{{"T", DType::U8}, {"type", DType::F32}},
                {makeTensor<uint8_t>({1, 4}, {0, 0, 0x80, 0x3f})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1}, {1.0});
  // Same size keeps the shape: int32 -1 is uint32 0xffffffff.
  out = runKernel("Bitcast", AttrMap{{"T", DType::I32}, {"type", DType::U32}},
                  {i32({1}, {-1})}, DType::U32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint32_t>(*out, {1}, {4294967295.0});
  out = runKernel("Bitcast", AttrMap{{"T", DType::F32}, {"type", DType::F64}},
                  {f32({3}, {1, 2, 3})}, DType::F64);
  EXPECT_EQ(out.status().message(),
            opError("Bitcast", "Cannot bitcast from f32 to f64"));
}

TEST(EmptyAndDeepCopy, Values) {
  auto out = runKernel("Empty", AttrMap{{"dtype", DType::F32}, {"init", true}},
                       {i32({2}, {2, 3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {0, 0, 0, 0, 0, 0});
  out = runKernel("Empty", AttrMap{{"dtype", DType::F32}}, {i32({2}, {2, -3})},
                  DType::F32);
  EXPECT_FALSE(out.ok());
  Tensor x = i64({3}, {4, 5, 6});
  out = runKernel("DeepCopy", AttrMap{{"T", DType::I64}}, {x}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {3}, {4, 5, 6});
  EXPECT_NE(out->rawData(), x.rawData());
}

TEST(ParallelConcat, Stacks) {
  auto out = runKernel(
      "ParallelConcat",
      AttrMap{{"T", DType::F32}, {"N", 2}, {"shape", PartialShape({2, 2})}},
      {f32({1, 2}, {1, 2}), f32({1, 2}, {3, 4})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {1, 2, 3, 4});
  out = runKernel(
      "ParallelConcat",
      AttrMap{{"T", DType::F32}, {"N", 2}, {"shape", PartialShape({2, 2})}},
      {f32({1, 2}, {1, 2}), f32({2, 2}, {3, 4, 5, 6})}, DType::F32);
  EXPECT_EQ(
      out.status().message(),
      opError("ParallelConcat", "values[1] has shape [2,2], expected [1,2]"));
}

TEST(Inplace, UpdateAddSub) {
  // x [3, 2], rows 2 and -3 (i.e. 0, taken modulo 3).
  Tensor x = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor i = i32({2}, {2, -3});
  Tensor v = f32({2, 2}, {10, 20, 30, 40});
  auto out = runKernel("InplaceUpdate", AttrMap{{"T", DType::F32}}, {x, i, v},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2}, {30, 40, 3, 4, 10, 20});
  out = runKernel("InplaceAdd", AttrMap{{"T", DType::F32}}, {x, i, v},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2}, {31, 42, 3, 4, 15, 26});
  out = runKernel("InplaceSub", AttrMap{{"T", DType::I32}},
                  {i32({2}, {5, 7}), i32({1}, {1}), i32({1}, {2})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {5, 5});
  // The input the test still holds is not written.
  expectValues<float>(x, {3, 2}, {1, 2, 3, 4, 5, 6});
  out = runKernel("InplaceUpdate", AttrMap{{"T", DType::F32}},
                  {x, i32({1}, {0}), v}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("InplaceUpdate", "i and x shape doesn't match at index 0: "
                                     "[1] vs. [2,2]"));
  out = runKernel("InplaceUpdate", AttrMap{{"T", DType::F32}},
                  {x, i, f32({2, 3}, {1, 2, 3, 4, 5, 6})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("InplaceUpdate", "x and v shape doesn't match at index 1 "
                                     ": [3,2] vs. [2,3]"));
}

} // namespace
