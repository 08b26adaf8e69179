//===- BroadcastTest.cpp - NumPy broadcasting of shapes ---------*- C++ -*-===//
//
// shape::broadcastDims and shape::broadcastShapes; expected shapes worked
// out by hand from TF's BCast and BroadcastBinaryOpOutputShapeFn.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Broadcast.h"

#include "ShapeTestUtils.h"

#include "gtest/gtest.h"

#include <vector>

namespace tfrt_fallback::rt::shape {
namespace {

StatusOr<PartialShape> broadcast(std::vector<PartialShape> shapes) {
  return broadcastShapes(shapes);
}

TEST(Broadcast, KnownDims) {
  EXPECT_EQ(*broadcast({{3, 1, 5}, {4, 1}}), PartialShape({3, 4, 5}));
  EXPECT_EQ(*broadcast({{2, 3}, {2, 3}}), PartialShape({2, 3}));
  // A scalar broadcasts to anything.
  EXPECT_EQ(*broadcast({PartialShape(std::vector<int64_t>{}), {2, 3}}),
            PartialShape({2, 3}));
  // 1 against 0 is 0, either way round.
  EXPECT_EQ(*broadcast({{2, 1}, {0}}), PartialShape({2, 0}));
  EXPECT_EQ(*broadcast({{0}, {2, 1}}), PartialShape({2, 0}));
  // Three shapes.
  EXPECT_EQ(*broadcast({{5, 1, 1}, {1, 4, 1}, {3}}), PartialShape({5, 4, 3}));
}

TEST(Broadcast, UnknownDims) {
  // Unknown against 7 is 7 (it must be 1 or 7); against 1, unknown.
  EXPECT_EQ(*broadcast({{-1, 1}, {7, -1}}), PartialShape({7, -1}));
  // Unknown against 0 is 0 (it must be 1 or 0).
  EXPECT_EQ(*broadcast({{-1}, {0}}), PartialShape({0}));
  EXPECT_EQ(*broadcast({{-1, -1}, {-1}}), PartialShape({-1, -1}));
  EXPECT_EQ(*broadcast({PartialShape::unknownRank(), {2}}),
            PartialShape::unknownRank());
}

TEST(Broadcast, Errors) {
  auto result = broadcast({{2, 3}, {4}});
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(result.status().message(), "Incompatible shapes: [2,3] vs. [4]");
  // The broadcast so far against the one that does not fit.
  EXPECT_EQ(broadcast({{2, 1}, {1, 3}, {-1, 4}}).status().message(),
            "Incompatible shapes: [2,3] vs. [?,4]");
  absl::InlinedVector<int64_t, 6> dims;
  EXPECT_FALSE(broadcastDims({3}, {0}, &dims));
  EXPECT_TRUE(broadcastDims({3, 1}, {1}, &dims));
  EXPECT_EQ(dims, (absl::InlinedVector<int64_t, 6>{3, 1}));
}

} // namespace
} // namespace tfrt_fallback::rt::shape
