//===- SliceKernelsTest.cpp - TensorStridedSliceUpdate ----------*- C++ -*-===//
//
// TensorStridedSliceUpdate against updates worked out by hand from
// tf.tensor_strided_slice_update's documentation (the slice
// tf.strided_slice would read, set to the value broadcast to the slice's
// shape): ranges, strides, negative strides, masks; TF's errors.
// (Slice and StridedSlice are in DataMovementKernelsTest.cpp.)
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

StatusOr<Tensor> update(Tensor input, std::vector<int32_t> begin,
                        std::vector<int32_t> end, std::vector<int32_t> strides,
                        Tensor value, AttrMap attrs = {}) {
  const DType dtype = input.dtype();
  attrs.set("T", dtype);
  attrs.set("Index", DType::I32);
  const int64_t n = static_cast<int64_t>(begin.size());
  return runKernel("TensorStridedSliceUpdate", attrs,
                   {std::move(input), i32({n}, std::move(begin)),
                    i32({n}, std::move(end)), i32({n}, std::move(strides)),
                    std::move(value)},
                   dtype);
}

TEST(TensorStridedSliceUpdate, RangesAndStrides) {
  // [0, 1, 2, 3][1:3] = [10, 20].
  auto out = update(iota({4}), {1}, {3}, {1}, f32({2}, {10, 20}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {0, 10, 20, 3});
  // [3:0:-1] walks 3, 2, 1.
  out = update(iota({4}), {3}, {0}, {-1}, f32({3}, {7, 8, 9}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {0, 9, 8, 7});
  // zeros[3, 4][::2, ::2] = [1, 2] broadcast over the two rows.
  out = update(f32({3, 4}, std::vector<float>(12)), {0, 0}, {3, 4}, {2, 2},
               f32({2}, {1, 2}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 4}, {1, 0, 2, 0, 0, 0, 0, 0, 1, 0, 2, 0});
  // A scalar value fills the slice; int32.
  out = update(i32({2, 3}, {1, 2, 3, 4, 5, 6}), {0, 1}, {2, 3}, {1, 1},
               i32({}, {0}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3}, {1, 0, 0, 4, 0, 0});
}

TEST(TensorStridedSliceUpdate, Masks) {
  // x[1] (shrink_axis_mask) of a [3, 2] input: row 1 = [7, 8].
  auto out = update(iota({3, 2}), {1}, {2}, {1}, f32({2}, {7, 8}),
                    AttrMap{{"shrink_axis_mask", int64_t(1)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2}, {0, 1, 7, 8, 4, 5});
  // x[:, 1] (begin_mask / end_mask on dim 0, shrink on dim 1): column 1.
  out = update(iota({3, 2}), {0, 1}, {0, 2}, {1, 1}, f32({3}, {7, 8, 9}),
               AttrMap{{"begin_mask", int64_t(1)},
                       {"end_mask", int64_t(1)},
                       {"shrink_axis_mask", int64_t(2)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2}, {0, 7, 2, 8, 4, 9});
  // x[..., 0] with an ellipsis; x[tf.newaxis, 0:1] takes a [1, 1, 2] value.
  out = update(
      iota({2, 2}), {0, 0}, {0, 1}, {1, 1}, f32({2}, {5, 6}),
      AttrMap{{"ellipsis_mask", int64_t(1)}, {"shrink_axis_mask", int64_t(2)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {5, 1, 6, 3});
  out = update(iota({2, 2}), {0, 0}, {0, 1}, {1, 1}, f32({1, 1, 2}, {5, 6}),
               AttrMap{{"new_axis_mask", int64_t(1)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {5, 6, 2, 3});
}

TEST(TensorStridedSliceUpdate, Errors) {
  auto out = update(iota({4}), {1}, {3}, {1}, f32({3}, {1, 2, 3}));
  EXPECT_EQ(out.status().message(),
            opError("TensorStridedSliceUpdate",
                    "Cannot broadcast input shape [3] into final shape [2]"));
  out = update(iota({4}), {1}, {3}, {1}, f32({2, 2}, {1, 2, 3, 4}));
  EXPECT_EQ(out.status().message(),
            opError("TensorStridedSliceUpdate",
                    "Cannot broadcast input shape [2,2] into final shape [2]"));
  out = update(iota({4}), {1}, {3}, {0}, f32({2}, {1, 2}));
  EXPECT_EQ(out.status().message(),
            opError("TensorStridedSliceUpdate", "strides[0] must be non-zero"));
  out = update(iota({4}), {5}, {6}, {1}, f32({}, {1}),
               AttrMap{{"shrink_axis_mask", int64_t(1)}});
  EXPECT_EQ(out.status().message(),
            opError("TensorStridedSliceUpdate",
                    "slice index 5 of dimension 0 out of bounds."));
  // An empty slice ignores the value's shape, as TF.
  out = update(iota({4}), {2}, {2}, {1}, f32({3}, {1, 2, 3}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {0, 1, 2, 3});
}

TEST(TensorStridedSliceUpdate, Strings) {
  // ["a", "b", "c", "d"][1::2] = ["x", "yz"] -> ["a", "x", "c", "yz"]; a
  // scalar value broadcasts.
  auto strs = [](TensorShape shape, std::vector<std::string_view> v) {
    return *makeStringTensor(shape, v);
  };
  auto out = update(strs({4}, {"a", "b", "c", "d"}), {1}, {4}, {2},
                    strs({2}, {"x", "yz"}));
  ASSERT_TRUE(out.ok()) << out.status();
  auto e = stringElements(*out);
  EXPECT_EQ(std::vector<std::string_view>(e.begin(), e.end()),
            (std::vector<std::string_view>{"a", "x", "c", "yz"}));
  out = update(strs({2, 2}, {"a", "b", "c", "d"}), {0, 1}, {2, 2}, {1, 1},
               strs({}, {"z"}));
  ASSERT_TRUE(out.ok()) << out.status();
  e = stringElements(*out);
  EXPECT_EQ(std::vector<std::string_view>(e.begin(), e.end()),
            (std::vector<std::string_view>{"a", "z", "c", "z"}));
  out =
      update(strs({2}, {"a", "b"}), {0}, {2}, {1}, strs({3}, {"x", "y", "z"}));
  EXPECT_EQ(out.status().message(),
            opError("TensorStridedSliceUpdate",
                    "Cannot broadcast input shape [3] into final shape [2]"));
}

} // namespace
