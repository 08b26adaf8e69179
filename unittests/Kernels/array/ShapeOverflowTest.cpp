//===- ShapeOverflowTest.cpp - shape arithmetic past int64 ----------------===//
//
// Kernels that compute an output shape from operand values (Reshape, Tile,
// BroadcastTo, Fill, Range, Pad, ConcatV2) turn a shape whose arithmetic
// overflows int64, or whose bytes exceed TensorBuffer::kMaxBytes, into an
// error of the op: never a wrapped-around size, undefined behaviour or an
// attempt to allocate it. The sizes are chosen by hand so that the product
// or sum just passes 2^63 (or 2^40 bytes).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

constexpr int64_t k2To62 = int64_t(1) << 62;

/// An empty f32 tensor of `shape` (one dim 0, the others large).
Tensor emptyOfShape(TensorShape shape) {
  return *Tensor::allocate(DType::F32, std::move(shape));
}

TEST(ShapeOverflow, Reshape) {
  auto out =
      runKernel("Reshape", AttrMap{{"T", DType::F32}, {"Tshape", DType::I64}},
                {f32({0}, {}), i64({3}, {0, k2To62, 2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Reshape", "Requested shape has too many elements"));
}

TEST(ShapeOverflow, Tile) {
  // [1, 2^62] tiled [2, 2]: 2^63 in the last dim.
  Tensor input = emptyOfShape(TensorShape{0, k2To62});
  auto out = runKernel("Tile", AttrMap{{"T", DType::F32}},
                       {input, i64({2}, {1, 2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Tile", "Tile output is too large"));
}

TEST(ShapeOverflow, BroadcastToAndFill) {
  // 2^62 x 2: more than 2^63-1 elements.
  auto out = runKernel("BroadcastTo", AttrMap{{"T", DType::F32}},
                       {f32({1}, {1}), i64({2}, {k2To62, 2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("BroadcastTo", "Invalid shape: shape [4611686018427387904,"
                                   "2] has more than 2^63-1 elements"));
  // 2^62 floats: elements fit, bytes (2^64) do not.
  out = runKernel("Fill", AttrMap{{"T", DType::F32}},
                  {i64({1}, {k2To62}), f32({}, {1})}, DType::F32);
  EXPECT_EQ(out.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(out.status().message(),
            opError("Fill", "output 0: tensor of shape [4611686018427387904] "
                            "and dtype f32 exceeds the limit of 1099511627776 "
                            "bytes"));
  // A zero dim with the others past 2^63-1 between them.
  out = runKernel("Fill", AttrMap{{"T", DType::F32}},
                  {i64({3}, {k2To62, 0, 4}), f32({}, {1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Fill", "Invalid dims: shape [4611686018427387904,0,4] "
                            "has more than 2^63-1 elements in its non-zero "
                            "dimensions"));
}

TEST(ShapeOverflow, MatMulOfEmptyOperands) {
  // [2^40, 0] x [0, 2^40]: no element read, 2^80 written. The output's
  // dims go through allocateOutput(index, dims), whose error the executor
  // names with the op.
  constexpr int64_t k2To40 = int64_t(1) << 40;
  auto out = runKernel("MatMul", AttrMap{{"T", DType::F32}},
                       {emptyOfShape(TensorShape{k2To40, 0}),
                        emptyOfShape(TensorShape{0, k2To40})},
                       DType::F32);
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.status().message(),
            opError("MatMul", "shape [1099511627776,1099511627776] has more "
                              "than 2^63-1 elements"));
}

TEST(ShapeOverflow, Range) {
  const float inf = std::numeric_limits<float>::infinity();
  for (float limit : {inf, 1e30f}) {
    auto out = runKernel("Range", AttrMap{{"Tidx", DType::F32}},
                         {f32({}, {0}), f32({}, {limit}), f32({}, {1e-10f})},
                         DType::F32);
    EXPECT_EQ(out.status().message(),
              opError("Range", "Requires ((limit - start) / delta) <= "
                               "9223372036854775807"))
        << limit;
  }
  // A NaN delta passes delta != 0 and the sign checks' negative branch;
  // its size is NaN.
  auto out =
      runKernel("Range", AttrMap{{"Tidx", DType::F32}},
                {f32({}, {1}), f32({}, {0}), f32({}, {NAN})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Range", "Requires ((limit - start) / delta) <= "
                             "9223372036854775807"));
  // int64 from the minimum to the maximum: 2^64 - 1 values.
  out =
      runKernel("Range", AttrMap{{"Tidx", DType::I64}},
                {i64({}, {std::numeric_limits<int64_t>::min()}),
                 i64({}, {std::numeric_limits<int64_t>::max()}), i64({}, {1})},
                DType::I64);
  EXPECT_EQ(out.status().message(),
            opError("Range", "Requires ((limit - start) / delta) <= "
                             "9223372036854775807"));
}

TEST(ShapeOverflow, Pad) {
  // 1 + (2^63 - 1) overflows.
  auto out = runKernel(
      "Pad", AttrMap{{"T", DType::F32}},
      {f32({1}, {1}), i64({1, 2}, {std::numeric_limits<int64_t>::max(), 0})},
      DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Pad", "Paddings 9223372036854775807 0 of dimension 0 "
                           "overflow"));
}

TEST(ShapeOverflow, ConcatV2) {
  // Two empty [0, 2^62] tensors along axis 1: 2^63.
  Tensor input = emptyOfShape(TensorShape{0, k2To62});
  auto out = runKernel("ConcatV2", AttrMap{{"T", DType::F32}},
                       {input, input, i32({}, {1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ConcatV2", "ConcatOp : the output dimension 1 overflows"));
  // Along axis 0 the sum is 0 and the output is empty.
  out = runKernel("ConcatV2", AttrMap{{"T", DType::F32}},
                  {input, input, i32({}, {0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), (TensorShape{0, k2To62}));
}

} // namespace
