//===- PadTest.cpp - Pad's shape rule ---------------------------*- C++ -*-===//
//
// shape::paddedShape on known and partial inputs; expected shapes and
// messages worked out by hand from TF's PadOp (kernels/pad_op.cc).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Pad.h"

#include "ShapeTestUtils.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tfrt_fallback::rt::shape {
namespace {

StatusOr<PartialShape> pad(const PartialShape &input,
                           std::vector<int64_t> paddings) {
  return paddedShape(input, paddings);
}

std::string message(const StatusOr<PartialShape> &result) {
  return std::string(result.status().message());
}

TEST(Pad, KnownShapes) {
  EXPECT_EQ(*pad({2, 3}, {1, 2, 0, 4}), PartialShape({5, 7}));
  EXPECT_EQ(*pad({0, 3}, {1, 1, 0, 0}), PartialShape({2, 3}));
  const PartialShape scalar(std::vector<int64_t>{});
  EXPECT_EQ(*pad(scalar, {}), scalar);
}

TEST(Pad, PartialInputs) {
  // An unknown dim stays unknown; the others grow.
  EXPECT_EQ(*pad({-1, 3}, {1, 1, 2, 2}), PartialShape({-1, 7}));
  EXPECT_EQ(*pad(PartialShape::unknownRank(), {1, 1}),
            PartialShape::unknownRank());
}

TEST(Pad, Errors) {
  EXPECT_EQ(message(pad({2, 3}, {0, 0, -1, 2})),
            "Paddings must be non-negative: -1 2");
  // A negative padding of an unknown dim is still an error.
  EXPECT_EQ(message(pad({-1}, {3, -4})), "Paddings must be non-negative: 3 -4");
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(message(pad({1, 2}, {0, 0, big, 0})),
            "Paddings 9223372036854775807 0 of dimension 1 overflow");
  EXPECT_EQ(message(pad({2}, {1, 1, 1, 1})),
            "4 paddings for a shape of rank 1");
}

} // namespace
} // namespace tfrt_fallback::rt::shape
