//===- StridedSliceTest.cpp - TF's strided-slice spec -----------*- C++ -*-===//
//
// shape::planStridedSlice. Expected plans are NumPy's basic indexing worked
// by hand (x[1:3, ::2, -1] and so on); error texts are TF's.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/StridedSlice.h"

#include "gtest/gtest.h"

#include <vector>

namespace tfrt_fallback::rt::shape {
namespace {

using V = std::vector<int64_t>;

/// A plan's list as a vector, for EXPECT_EQ.
template <typename List> V vec(const List &list) {
  return V(list.begin(), list.end());
}

StatusOr<StridedSlicePlan> plan(const V &shape, const V &begin, const V &end,
                                const V &strides,
                                StridedSliceMasks masks = {}) {
  return planStridedSlice(shape, begin, end, strides, masks);
}

TEST(StridedSlice, RangesStepsAndAShrunkIndex) {
  // x[1:3, ::2, -1] of a 4x6x8 x.
  StridedSliceMasks masks;
  masks.begin = 2;
  masks.end = 2;
  masks.shrinkAxis = 4;
  auto p = plan({4, 6, 8}, {1, 0, -1}, {3, 0, 0}, {1, 2, 1}, masks);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(vec(p->begin), (V{1, 0, 7}));
  EXPECT_EQ(vec(p->stride), (V{1, 2, 1}));
  EXPECT_EQ(vec(p->processingDims), (V{2, 3, 1}));
  EXPECT_EQ(vec(p->finalDims), (V{2, 3}));
  EXPECT_EQ(vec(p->finalToProcessing), (V{0, 1}));
  EXPECT_FALSE(p->identity);
}

TEST(StridedSlice, NegativeStrideFromTheEnd) {
  // x[::-1] of 5 elements: begins at 4.
  StridedSliceMasks masks;
  masks.begin = 1;
  masks.end = 1;
  auto p = plan({5}, {0}, {0}, {-1}, masks);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(vec(p->begin), (V{4}));
  EXPECT_EQ(vec(p->processingDims), (V{5}));
  // x[3:1:-1] takes 3 and 2; x[3:1] takes nothing.
  p = plan({4}, {3}, {1}, {-1});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(vec(p->processingDims), (V{2}));
  p = plan({4}, {3}, {1}, {1});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(vec(p->finalDims), (V{0}));
}

TEST(StridedSlice, OutOfRangeBoundsAreClamped) {
  // x[-10:10] of 4 elements is all of x.
  auto p = plan({4}, {-10}, {10}, {1});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(vec(p->begin), (V{0}));
  EXPECT_EQ(vec(p->processingDims), (V{4}));
  EXPECT_TRUE(p->identity);
}

TEST(StridedSlice, EllipsisAndNewAxis) {
  // x[..., None] of a 2x3 x, and x[None, 1] (an implied trailing ellipsis).
  StridedSliceMasks masks;
  masks.ellipsis = 1;
  masks.newAxis = 2;
  auto p = plan({2, 3}, {0, 0}, {0, 0}, {1, 1}, masks);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(vec(p->finalDims), (V{2, 3, 1}));
  EXPECT_EQ(vec(p->finalToProcessing), (V{0, 1, -1}));
  masks = {};
  masks.newAxis = 1;
  masks.shrinkAxis = 2;
  p = plan({2, 3}, {0, 1}, {0, 2}, {1, 1}, masks);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(vec(p->finalDims), (V{1, 3}));
  EXPECT_EQ(vec(p->begin), (V{1, 0}));
}

TEST(StridedSlice, UnknownDims) {
  // x[1:3, 2] of an ?x6 x: the first size is unknown, the second is shrunk.
  StridedSliceMasks masks;
  masks.shrinkAxis = 2;
  auto p = plan({-1, 6}, {1, 2}, {3, 3}, {1, 1}, masks);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(vec(p->begin), (V{-1, 2}));
  EXPECT_EQ(vec(p->processingDims), (V{-1, 1}));
  EXPECT_EQ(vec(p->finalDims), (V{-1}));
  EXPECT_FALSE(p->identity);
  // An unknown dim that is shrunk has one element.
  p = plan({-1}, {0}, {1}, {1}, {0, 0, 0, 0, 1});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(vec(p->processingDims), (V{1}));
  EXPECT_TRUE(p->finalDims.empty());
}

TEST(StridedSlice, Errors) {
  auto message = [](const StatusOr<StridedSlicePlan> &p) {
    EXPECT_FALSE(p.ok());
    return p.ok() ? std::string() : std::string(p.status().message());
  };
  EXPECT_EQ(message(plan({4}, {0, 1}, {1}, {1})),
            "Expected begin, end, and strides to be 1D equal size tensors, but "
            "got shapes [2], [1], and [1] instead.");
  EXPECT_EQ(message(plan({4}, {0}, {1}, {0})), "strides[0] must be non-zero");
  EXPECT_EQ(message(plan({4}, {5}, {6}, {1}, {0, 0, 0, 0, 1})),
            "slice index 5 of dimension 0 out of bounds.");
  EXPECT_EQ(message(plan({4}, {-5}, {0}, {1}, {0, 0, 0, 0, 1})),
            "slice index -5 of dimension 0 out of bounds.");
  EXPECT_EQ(message(plan({4}, {1}, {2}, {-1}, {0, 0, 0, 0, 1})),
            "only stride 1 allowed on non-range indexing.");
  EXPECT_EQ(message(plan({4}, {0, 0}, {1, 1}, {1, 1}, {0, 0, 3, 0, 0})),
            "Multiple ellipses in slice spec not allowed");
  EXPECT_EQ(message(plan({4}, {0, 0}, {1, 1}, {1, 1})),
            "Index out of range using input dim 1; input has only 1 dims");
  EXPECT_NE(message(plan({4}, V(32, 0), V(32, 0), V(32, 1)))
                .find("[32], [32], and [32]"),
            std::string::npos);
}

} // namespace
} // namespace tfrt_fallback::rt::shape
