//===- DataMovementKernelsTest.cpp - Transpose, Concat, Slice, ... -*- C++
//-*-===//
//
// Transpose (against a naive loop), ConcatV2, Pack, Unpack, Split, SplitV,
// Slice, StridedSlice (every mask, clamping, negative strides, int32 shape
// math), Pad, PadV2, MirrorPad, Tile, ReverseV2 and their errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

std::vector<double> asDoubles(const Tensor &t) {
  std::vector<double> out;
  (void)dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::Type;
    for (int64_t i = 0; i < t.numElements(); ++i)
      out.push_back(toDouble(t.data<T>()[i]));
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

std::vector<double> naiveTranspose(const Tensor &in,
                                   const std::vector<int> &perm) {
  const int rank = in.rank();
  std::vector<int64_t> outDims(rank), inStrides(rank, 1);
  for (int d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * in.dim(d + 1);
  for (int i = 0; i < rank; ++i)
    outDims[i] = in.dim(perm[i]);
  std::vector<double> values = asDoubles(in), out;
  for (int64_t o = 0; o < in.numElements(); ++o) {
    int64_t rem = o, offset = 0;
    for (int i = rank - 1; i >= 0; --i) {
      offset += (rem % outDims[i]) * inStrides[perm[i]];
      rem /= outDims[i];
    }
    out.push_back(values[offset]);
  }
  return out;
}

void checkTranspose(const Tensor &in, const std::vector<int> &perm,
                    bool perm64 = false) {
  SCOPED_TRACE(in.shape().toString());
  std::vector<double> pv(perm.begin(), perm.end());
  TensorShape::Dims outDims;
  for (int p : perm)
    outDims.push_back(in.dim(p));
  Tensor permT =
      perm64 ? makeTensorFrom<int64_t>({static_cast<int64_t>(perm.size())}, pv)
             : makeTensorFrom<int32_t>({static_cast<int64_t>(perm.size())}, pv);
  auto out = runKernel("Transpose",
                       AttrMap{{"T", in.dtype()}, {"Tperm", permT.dtype()}},
                       {in, permT}, in.dtype());
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape(outDims));
  EXPECT_EQ(asDoubles(*out), naiveTranspose(in, perm));
}

TEST(Transpose, MatchesNaiveLoop) {
  checkTranspose(iota({3, 5}), {1, 0});
  checkTranspose(iota({67, 45}), {1, 0}, true);
  checkTranspose(iota({2, 5, 6, 3}), {0, 3, 1, 2}); // NHWC -> NCHW
  checkTranspose(iota({2, 3, 5, 6}), {0, 2, 3, 1}); // NCHW -> NHWC
  checkTranspose(iota({2, 3, 4, 5}), {2, 0, 3, 1});
  checkTranspose(iota({2, 3, 4, 5}), {3, 2, 1, 0});
  checkTranspose(iota({4, 1, 3}), {2, 1, 0});
  checkTranspose(makeTensorFrom<int8_t>({3, 4, 2}, patternValues(24)),
                 {1, 2, 0});
  checkTranspose(makeTensorFrom<int64_t>({3, 4, 2}, patternValues(24)),
                 {2, 0, 1});
  checkTranspose(makeTensorFrom<Eigen::half>({5, 7}, patternValues(35)),
                 {1, 0});
  checkTranspose(
      makeTensor<bool>({2, 3}, {true, false, false, true, true, false}),
      {1, 0});
  checkTranspose(iota({0, 3}), {1, 0});
  checkTranspose(iota({}), {});
}

TEST(Transpose, IdentitySharesBuffer) {
  Tensor in = iota({2, 3});
  auto out = runKernel("Transpose", AttrMap{{"T", DType::F32}},
                       {in, i32({2}, {0, 1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), in.rawData());
}

TEST(Transpose, Errors) {
  auto out = runKernel("Transpose", AttrMap{{"T", DType::F32}},
                       {iota({2, 3}), i32({3}, {0, 1, 2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Transpose", "transpose expects a vector of size 2. But "
                                 "input(1) is a vector of size 3"));
  out = runKernel("Transpose", AttrMap{{"T", DType::F32}},
                  {iota({2, 3}), i32({2}, {0, 2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Transpose", "2 is out of range [0 .. 2)"));
  out = runKernel("Transpose", AttrMap{{"T", DType::F32}},
                  {iota({2, 3}), i32({2}, {1, 1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Transpose", "1 is duplicated in perm"));
}

//===----------------------------------------------------------------------===//
// ConcatV2, Pack, Unpack
//===----------------------------------------------------------------------===//

TEST(ConcatV2, AxesAndEmptyInputs) {
  Tensor a = f32({2, 2}, {1, 2, 3, 4});
  Tensor b = f32({2, 1}, {5, 6});
  Tensor e = f32({2, 0}, {});
  auto out = runKernel("ConcatV2", AttrMap{{"T", DType::F32}, {"N", 3}},
                       {a, e, b, i32({}, {-1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {1, 2, 5, 3, 4, 6});
  out = runKernel("ConcatV2", AttrMap{{"T", DType::F32}, {"N", 2}},
                  {a, f32({1, 2}, {7, 8}), i64({}, {0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2}, {1, 2, 3, 4, 7, 8});
  // int32 shape math.
  out = runKernel("ConcatV2", AttrMap{{"T", DType::I32}, {"N", 2}},
                  {i32({1}, {-1}), i32({2}, {4, 3}), i32({}, {0})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {-1, 4, 3});
  // Concat (axis first).
  out = runKernel("Concat", AttrMap{{"T", DType::F32}, {"N", 2}},
                  {i32({}, {1}), a, b}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {1, 2, 5, 3, 4, 6});
}

TEST(ConcatV2, Errors) {
  Tensor a = f32({2, 2}, {1, 2, 3, 4});
  auto out = runKernel("ConcatV2", AttrMap{{"T", DType::F32}},
                       {a, a, i32({}, {2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ConcatV2", "ConcatOp : Expected concatenating dimensions "
                                "in the range [-2, 2), but got 2"));
  out = runKernel("ConcatV2", AttrMap{{"T", DType::F32}},
                  {a, f32({3, 1}, {1, 2, 3}), i32({}, {1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ConcatV2", "ConcatOp : Dimension 0 in both shapes must "
                                "be equal: shape[0] = [2,2] vs. shape[1] = "
                                "[3,1]"));
  out = runKernel("ConcatV2", AttrMap{{"T", DType::F32}},
                  {a, f32({4}, {1, 2, 3, 4}), i32({}, {0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ConcatV2", "ConcatOp : Ranks of all input tensors should "
                                "match: shape[0] = [2,2] vs. shape[1] = [4]"));
}

TEST(Pack, Axes) {
  Tensor a = f32({2}, {1, 2}), b = f32({2}, {3, 4});
  auto out = runKernel("Pack", AttrMap{{"T", DType::F32}, {"axis", 0}}, {a, b},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {1, 2, 3, 4});
  out = runKernel("Pack", AttrMap{{"T", DType::F32}, {"axis", -1}}, {a, b},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {1, 3, 2, 4});
  out = runKernel("Pack", AttrMap{{"T", DType::I32}},
                  {i32({}, {1}), i32({}, {-1}), i32({}, {3})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {1, -1, 3});
  out = runKernel("Pack", AttrMap{{"T", DType::F32}}, {a, f32({1}, {1})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Pack", "Shapes of all inputs must match: values[0].shape "
                            "= [2] != values[1].shape = [1]"));
  out = runKernel("Pack", AttrMap{{"T", DType::F32}, {"axis", 2}}, {a, b},
                  DType::F32);
  EXPECT_EQ(out.status().message(), opError("Pack", "axis = 2 not in [-2, 2)"));
}

TEST(Unpack, AxesAndSharing) {
  Tensor in = iota({2, 3});
  auto outs = runKernelN("Unpack", AttrMap{{"T", DType::F32}, {"num", 2}}, {in},
                         {DType::F32, DType::F32});
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<float>((*outs)[1], {3}, {3, 4, 5});
  EXPECT_EQ((*outs)[0].rawData(), in.rawData());
  outs =
      runKernelN("Unpack", AttrMap{{"T", DType::F32}, {"num", 3}, {"axis", -1}},
                 {in}, {DType::F32, DType::F32, DType::F32});
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<float>((*outs)[0], {2}, {0, 3});
  expectValues<float>((*outs)[2], {2}, {2, 5});
  outs = runKernelN("Unpack", AttrMap{{"T", DType::F32}, {"num", 2}},
                    {iota({3})}, {DType::F32, DType::F32});
  EXPECT_EQ(
      outs.status().message(),
      opError("Unpack", "Input shape axis 0 must equal 2, got shape [3]"));
}

//===----------------------------------------------------------------------===//
// Split, SplitV
//===----------------------------------------------------------------------===//

TEST(Split, AxisFirstAndSharing) {
  Tensor in = iota({4, 3});
  auto outs = runKernelN("Split", AttrMap{{"T", DType::F32}, {"num_split", 2}},
                         {i32({}, {0}), in}, {DType::F32, DType::F32});
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<float>((*outs)[1], {2, 3}, {6, 7, 8, 9, 10, 11});
  EXPECT_EQ((*outs)[0].rawData(), in.rawData());
  outs = runKernelN("Split", AttrMap{{"T", DType::F32}, {"num_split", 3}},
                    {i32({}, {-1}), in}, {DType::F32, DType::F32, DType::F32});
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<float>((*outs)[2], {4, 1}, {2, 5, 8, 11});
  outs = runKernelN("Split", AttrMap{{"T", DType::F32}, {"num_split", 2}},
                    {i32({}, {1}), in}, {DType::F32, DType::F32});
  EXPECT_EQ(outs.status().message(),
            opError("Split", "Number of ways to split should evenly divide the "
                             "split dimension, but got split_dim 1 (size = 3) "
                             "and num_split 2"));
  outs = runKernelN("Split", AttrMap{{"T", DType::F32}, {"num_split", 2}},
                    {i32({}, {2}), in}, {DType::F32, DType::F32});
  EXPECT_EQ(outs.status().message(),
            opError("Split", "-input rank(-2) <= split_dim < input rank (2), "
                             "but got 2"));
}

TEST(SplitV, InferredSize) {
  Tensor in = iota({2, 5});
  auto outs = runKernelN("SplitV", AttrMap{{"T", DType::F32}, {"num_split", 3}},
                         {in, i64({3}, {1, -1, 2}), i32({}, {1})},
                         {DType::F32, DType::F32, DType::F32});
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<float>((*outs)[0], {2, 1}, {0, 5});
  expectValues<float>((*outs)[1], {2, 2}, {1, 2, 6, 7});
  expectValues<float>((*outs)[2], {2, 2}, {3, 4, 8, 9});
  outs = runKernelN("SplitV", AttrMap{{"T", DType::F32}},
                    {in, i32({2}, {-1, -1}), i32({}, {1})},
                    {DType::F32, DType::F32});
  EXPECT_EQ(outs.status().message(),
            opError("SplitV", "There can only be one -1 in the input."));
  outs = runKernelN("SplitV", AttrMap{{"T", DType::F32}},
                    {in, i32({2}, {2, 2}), i32({}, {1})},
                    {DType::F32, DType::F32});
  EXPECT_EQ(outs.status().message(),
            opError("SplitV",
                    "Determined shape must either match input shape along "
                    "split_dim exactly if fully specified, or be less than "
                    "the size of the input along split_dim if not fully "
                    "specified.  Got: 4"));
}

//===----------------------------------------------------------------------===//
// Slice, StridedSlice
//===----------------------------------------------------------------------===//

TEST(Slice, BeginSizeAndMinusOne) {
  auto out = runKernel("Slice", AttrMap{{"T", DType::F32}},
                       {iota({3, 4}), i32({2}, {1, 1}), i32({2}, {2, -1})},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {5, 6, 7, 9, 10, 11});
  Tensor in = iota({4, 3});
  out = runKernel("Slice", AttrMap{{"T", DType::F32}},
                  {in, i64({2}, {2, 0}), i64({2}, {1, 3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3}, {6, 7, 8});
  EXPECT_EQ(static_cast<const char *>(out->rawData()),
            static_cast<const char *>(in.rawData()) + 6 * sizeof(float));
  out = runKernel("Slice", AttrMap{{"T", DType::F32}},
                  {in, i32({2}, {4, 0}), i32({2}, {0, 3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3}));
  out = runKernel("Slice", AttrMap{{"T", DType::F32}},
                  {in, i32({2}, {5, 0}), i32({2}, {1, 1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Slice", "Expected begin[0] in [0, 4], but got 5"));
  out = runKernel("Slice", AttrMap{{"T", DType::F32}},
                  {in, i32({2}, {1, 1}), i32({2}, {1, 3})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Slice", "Expected size[1] in [0, 2], but got 3"));
  out = runKernel("Slice", AttrMap{{"T", DType::F32}},
                  {in, i32({1}, {1}), i32({2}, {1, 3})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Slice", "Expected begin and size arguments to be 1-D "
                             "tensors of size 2, but got shapes [1] and [2] "
                             "instead."));
}

struct SliceSpec {
  std::vector<int64_t> begin, end, strides;
  int beginMask = 0, endMask = 0, ellipsisMask = 0, newAxisMask = 0,
      shrinkMask = 0;
};

template <typename Index = int32_t>
StatusOr<Tensor> stridedSlice(const Tensor &in, const SliceSpec &s) {
  auto vec = [](const std::vector<int64_t> &v) {
    return makeTensorFrom<Index>({static_cast<int64_t>(v.size())},
                                 std::vector<double>(v.begin(), v.end()));
  };
  return runKernel("StridedSlice",
                   AttrMap{{"T", in.dtype()},
                           {"Index", dtypeOf<Index>()},
                           {"begin_mask", s.beginMask},
                           {"end_mask", s.endMask},
                           {"ellipsis_mask", s.ellipsisMask},
                           {"new_axis_mask", s.newAxisMask},
                           {"shrink_axis_mask", s.shrinkMask}},
                   {in, vec(s.begin), vec(s.end), vec(s.strides)}, in.dtype());
}

TEST(StridedSlice, NumPyIndexing) {
  Tensor x = iota({3, 4});
  // x[1:3, ::2]
  auto out = stridedSlice(x, {{1, 0}, {3, 0}, {1, 2}, 0, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {4, 6, 8, 10});
  // x[::-1]
  out = stridedSlice<int64_t>(x, {{0}, {0}, {-1}, 1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 4}, {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
  // x[-1]
  out = stridedSlice(x, {{-1}, {0}, {1}, 0, 0, 0, 0, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {8, 9, 10, 11});
  // x[..., 1]
  out = stridedSlice(x, {{0, 1}, {0, 2}, {1, 1}, 0, 0, 1, 0, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {1, 5, 9});
  // x[:, None, 1:]
  out = stridedSlice(x, {{0, 0, 1}, {0, 0, 0}, {1, 1, 1}, 1, 5, 0, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 1, 3}, {1, 2, 3, 5, 6, 7, 9, 10, 11});
  // x[..., None]
  out = stridedSlice(x, {{0, 0}, {0, 0}, {1, 1}, 0, 0, 1, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({3, 4, 1}));
  // x[None, 1]
  out = stridedSlice(x, {{0, 1}, {0, 2}, {1, 1}, 0, 0, 0, 1, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 4}, {4, 5, 6, 7});
  // x[-10:10, 2:100] (clamped)
  out = stridedSlice(x, {{-10, 2}, {10, 100}, {1, 1}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2}, {2, 3, 6, 7, 10, 11});
  // x[0, 10:-10:-2] (clamped, negative stride)
  out = stridedSlice(x, {{0, 10}, {1, -10}, {1, -2}, 0, 0, 0, 0, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {3, 1});
  // x[2:0:-1, -1:-5:-3]
  out = stridedSlice(x, {{2, -1}, {0, -5}, {-1, -3}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {11, 8, 7, 4});
  // x[1:1] is empty; x[3:1] too.
  out = stridedSlice(x, {{1}, {1}, {1}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 4}));
  out = stridedSlice(x, {{3}, {1}, {1}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 4}));
  // x[:] shares the buffer.
  out = stridedSlice(x, {{0}, {0}, {1}, 1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), x.rawData());
}

TEST(StridedSlice, Int32ShapeMath) {
  Tensor shape = i32({4}, {1, 224, 224, 3});
  auto out = stridedSlice(shape, {{1}, {3}, {1}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {224, 224});
  out = stridedSlice(shape, {{-1}, {0}, {1}, 0, 0, 0, 0, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {}, {3});
  out = stridedSlice(shape, {{0}, {-1}, {1}, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {1, 224, 224});
  out = stridedSlice(i64({2}, {5, 7}), {{0}, {1}, {1}, 0, 0, 0, 0, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {}, {5});
}

TEST(StridedSlice, Errors) {
  Tensor x = iota({3, 4});
  auto out = stridedSlice(x, {{5}, {6}, {1}, 0, 0, 0, 0, 1});
  EXPECT_EQ(
      out.status().message(),
      opError("StridedSlice", "slice index 5 of dimension 0 out of bounds."));
  out = stridedSlice(x, {{0}, {1}, {0}});
  EXPECT_EQ(out.status().message(),
            opError("StridedSlice", "strides[0] must be non-zero"));
  out = stridedSlice(x, {{0, 0}, {1, 1}, {1, 1}, 0, 0, 3});
  EXPECT_EQ(
      out.status().message(),
      opError("StridedSlice", "Multiple ellipses in slice spec not allowed"));
  out = stridedSlice(x, {{0}, {1}, {-1}, 0, 0, 0, 0, 1});
  EXPECT_EQ(
      out.status().message(),
      opError("StridedSlice", "only stride 1 allowed on non-range indexing."));
  out = stridedSlice(x, {{0, 0, 0}, {1, 1, 1}, {1, 1, 1}});
  EXPECT_EQ(out.status().message(),
            opError("StridedSlice", "Index out of range using input dim 2; "
                                    "input has only 2 dims"));
  out = stridedSlice(x, {{0, 0}, {1}, {1, 1}});
  EXPECT_EQ(out.status().message(),
            opError("StridedSlice",
                    "Expected begin, end, and strides to be 1D equal size "
                    "tensors, but got shapes [2], [1], and [2] instead."));
}

//===----------------------------------------------------------------------===//
// Pad, MirrorPad, Tile, ReverseV2
//===----------------------------------------------------------------------===//

TEST(Pad, ConstantAndV2) {
  auto out = runKernel("Pad", AttrMap{{"T", DType::F32}},
                       {f32({2, 2}, {1, 2, 3, 4}), i32({2, 2}, {1, 0, 0, 2})},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 4}, {0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0});
  // NHWC spatial padding: unpadded channel dim merged into rows.
  out = runKernel("PadV2", AttrMap{{"T", DType::I32}},
                  {i32({1, 1, 2, 2}, {1, 2, 3, 4}),
                   i64({4, 2}, {0, 0, 1, 1, 0, 1, 0, 0}), i32({}, {9})},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {1, 3, 3, 2},
                        {9, 9, 9, 9, 9, 9, 1, 2, 3, 4, 9, 9, 9, 9, 9, 9, 9, 9});
  out = runKernel("Pad", AttrMap{{"T", DType::F32}},
                  {f32({0, 2}, {}), i32({2, 2}, {1, 0, 0, 1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3}, {0, 0, 0});
  out = runKernel("Pad", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), i32({1, 2}, {-1, 0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Pad", "Paddings must be non-negative: -1 0"));
  out = runKernel("Pad", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), i32({2, 2}, {0, 0, 0, 0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Pad", "The first dimension of paddings must be the rank "
                           "of inputs[2,2] [2]"));
}

TEST(MirrorPad, ReflectAndSymmetric) {
  Tensor in = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor pads = i32({2, 2}, {1, 1, 2, 2});
  auto out =
      runKernel("MirrorPad", AttrMap{{"T", DType::F32}, {"mode", "REFLECT"}},
                {in, pads}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4, 7}, {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1,
                                     6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1});
  out =
      runKernel("MirrorPad", AttrMap{{"T", DType::F32}, {"mode", "SYMMETRIC"}},
                {in, pads}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4, 7}, {2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2,
                                     5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5});
  out = runKernel("MirrorPad", AttrMap{{"T", DType::F32}, {"mode", "REFLECT"}},
                  {in, i32({2, 2}, {2, 0, 0, 0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("MirrorPad", "paddings must be less than the dimension "
                                 "size: 2, 0 not less than 2"));
}

TEST(Tile, Multiples) {
  auto out =
      runKernel("Tile", AttrMap{{"T", DType::F32}},
                {f32({2, 2}, {1, 2, 3, 4}), i32({2}, {2, 3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4, 6}, {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
                                     1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
  out = runKernel("Tile", AttrMap{{"T", DType::I64}},
                  {i64({2, 1}, {5, 6}), i64({2}, {1, 3})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {2, 3}, {5, 5, 5, 6, 6, 6});
  out = runKernel("Tile", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), i32({1}, {0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
  out = runKernel("Tile", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), i32({1}, {-1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Tile", "Expected multiples[0] >= 0, but got -1"));
  out = runKernel("Tile", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), i32({2}, {1, 1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Tile", "Expected multiples argument to be a vector of "
                            "length 1 but got length 2"));
}

TEST(ReverseV2, Axes) {
  auto out = runKernel("ReverseV2", AttrMap{{"T", DType::F32}},
                       {iota({2, 3}), i32({1}, {-1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {2, 1, 0, 5, 4, 3});
  out = runKernel("ReverseV2", AttrMap{{"T", DType::F32}},
                  {iota({2, 3}), i64({2}, {0, 1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {5, 4, 3, 2, 1, 0});
  out = runKernel("ReverseV2", AttrMap{{"T", DType::F32}},
                  {iota({2, 3}), i32({2}, {1, -1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ReverseV2", "axis 1 specified more than once."));
}

} // namespace
