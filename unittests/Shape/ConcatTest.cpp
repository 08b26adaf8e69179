//===- ConcatTest.cpp - Concat's shape rule ---------------------*- C++ -*-===//
//
// shape::concatShape on known and partial inputs; expected shapes and
// messages worked out by hand from TF's ConcatBaseOp (kernels/concat_op.cc).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Concat.h"

#include "ShapeTestUtils.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tfrt_fallback::rt::shape {
namespace {

StatusOr<PartialShape> concat(std::vector<PartialShape> inputs, int64_t axis) {
  return concatShape(inputs, axis);
}

std::string message(const StatusOr<PartialShape> &result) {
  return std::string(result.status().message());
}

TEST(Concat, KnownShapes) {
  EXPECT_EQ(*concat({{2, 3}, {2, 5}}, 1), PartialShape({2, 8}));
  EXPECT_EQ(*concat({{2, 3}, {2, 5}, {2, 0}}, -1), PartialShape({2, 8}));
  EXPECT_EQ(*concat({{1, 4}, {3, 4}}, 0), PartialShape({4, 4}));
  EXPECT_EQ(*concat({{7}}, 0), PartialShape({7}));
}

TEST(Concat, PartialInputs) {
  // Known dims fill unknown ones; an unknown axis size makes the sum
  // unknown; inputs of unknown rank take the others' rank.
  EXPECT_EQ(*concat({{-1, 3}, {2, 5}}, 1), PartialShape({2, 8}));
  EXPECT_EQ(*concat({{2, -1}, {2, 5}}, 1), PartialShape({2, -1}));
  EXPECT_EQ(*concat({PartialShape::unknownRank(), {2, 5}}, 0),
            PartialShape({-1, 5}));
  EXPECT_EQ(*concat({PartialShape::unknownRank()}, 0),
            PartialShape::unknownRank());
}

TEST(Concat, Errors) {
  EXPECT_EQ(message(concat({{2, 3}, {2, 3}}, 2)),
            "ConcatOp : Expected concatenating dimensions in the range "
            "[-2, 2), but got 2");
  const PartialShape scalar(std::vector<int64_t>{});
  EXPECT_EQ(message(concat({scalar, scalar}, 0)),
            "ConcatOp : Can't concatenate scalars (use tf.stack instead)");
  EXPECT_EQ(message(concat({{2, 3}, {2}}, 0)),
            "ConcatOp : Ranks of all input tensors should match: shape[0] = "
            "[2,3] vs. shape[1] = [2]");
  EXPECT_EQ(message(concat({{2, 3}, {2, 3}, {2, 4}}, 0)),
            "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = "
            "[2,3] vs. shape[2] = [2,4]");
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(message(concat({{big}, {1}}, 0)),
            "ConcatOp : the output dimension 0 overflows");
}

} // namespace
} // namespace tfrt_fallback::rt::shape
