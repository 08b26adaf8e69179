//===- ReshapeTest.cpp - Reshape's shape rule -------------------*- C++ -*-===//
//
// shape::reshapeOutputShape on known and partial inputs; expected shapes
// worked out by hand from TF's ReshapeOp (kernels/reshape_op.h).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Reshape.h"

#include "ShapeTestUtils.h"

#include "gtest/gtest.h"

#include <vector>

namespace tfrt_fallback::rt::shape {
namespace {

StatusOr<PartialShape> reshape(const PartialShape &input,
                               std::vector<int64_t> sizes) {
  return reshapeOutputShape(input, sizes);
}

std::string message(const StatusOr<PartialShape> &result) {
  return std::string(result.status().message());
}

TEST(Reshape, KnownShapes) {
  EXPECT_EQ(*reshape({2, 3, 4}, {-1, 4}), PartialShape({6, 4}));
  EXPECT_EQ(*reshape({2, 3, 4}, {2, -1, 3}), PartialShape({2, 4, 3}));
  EXPECT_EQ(*reshape({2, 3}, {3, 2}), PartialShape({3, 2}));
  const PartialShape scalar(std::vector<int64_t>{});
  EXPECT_EQ(*reshape(scalar, {-1}), PartialShape({1}));
  EXPECT_EQ(*reshape({1, 1}, {}), scalar);
}

TEST(Reshape, ZeroDims) {
  // A 0 in the request: zero dims of the input are left out on both sides.
  EXPECT_EQ(*reshape({0, 3}, {0, -1}), PartialShape({0, 3}));
  EXPECT_EQ(*reshape({3, 0, 2}, {-1, 0}), PartialShape({6, 0}));
  // [0, 4] to [0, -1, 3]: 4 is not a multiple of 3, but the input is
  // empty: TF's kernel takes 4 / 3 = 1.
  EXPECT_EQ(*reshape({0, 4}, {0, -1, 3}), PartialShape({0, 1, 3}));
  // No 0 in the request: an empty input makes the -1 zero.
  EXPECT_EQ(*reshape({0, 3}, {-1, 3}), PartialShape({0, 3}));
  EXPECT_EQ(*reshape({0, 4}, {2, 0, 5}), PartialShape({2, 0, 5}));
  // A non-empty input cannot become an empty one.
  EXPECT_EQ(message(reshape({2, 3}, {0, -1})),
            "Input to reshape is a tensor with 6 values, but the requested "
            "shape has 0");
}

TEST(Reshape, PartialInputs) {
  // The -1 depends on the unknown dim.
  EXPECT_EQ(*reshape({-1, 4}, {-1, 2}), PartialShape({-1, 2}));
  // An empty input is empty whatever its unknown dims are.
  EXPECT_EQ(*reshape({0, -1}, {-1, 5}), PartialShape({0, 5}));
  // ... unless a 0 in the request leaves its zero dims out.
  EXPECT_EQ(*reshape({0, -1}, {0, -1}), PartialShape({0, -1}));
  EXPECT_EQ(*reshape(PartialShape::unknownRank(), {-1, 4}),
            PartialShape({-1, 4}));
  EXPECT_EQ(*reshape(PartialShape::unknownRank(), {2, 4}),
            PartialShape({2, 4}));
  // Unknown requested sizes stay unknown, and so does the -1 beside one.
  EXPECT_EQ(*reshape({2, 3, 4}, {kUnknownSize, 8, 3}),
            PartialShape({-1, 8, 3}));
  EXPECT_EQ(*reshape({2, 3, 4}, {kUnknownSize, -1}), PartialShape({-1, -1}));
  // Mismatches are errors only when the input is known.
  EXPECT_EQ(*reshape({-1, 5}, {-1, 3}), PartialShape({-1, 3}));
}

TEST(Reshape, Errors) {
  auto result = reshape({2, 3}, {4});
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(message(result), "Input to reshape is a tensor with 6 values, but "
                             "the requested shape has 4");
  EXPECT_EQ(message(reshape({7}, {-1, 3})),
            "Input to reshape is a tensor with 7 values, but the requested "
            "shape requires a multiple of 3");
  EXPECT_EQ(message(reshape({6}, {-1, 2, -1})),
            "Only one input size may be -1, not both 0 and 2");
  EXPECT_EQ(message(reshape({6}, {3, -2})),
            "Size 1 must be non-negative, not -2");
  // Size errors do not need the input.
  EXPECT_EQ(
      message(reshape(PartialShape::unknownRank(),
                      {int64_t(1) << 32, int64_t(1) << 32, int64_t(1) << 32})),
      "Requested shape has too many elements");
}

} // namespace
} // namespace tfrt_fallback::rt::shape
