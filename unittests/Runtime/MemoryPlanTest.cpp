//===- MemoryPlanTest.cpp - PlannedArena tests ------------------*- C++ -*-===//
//
// A plan's overlaps, taking and giving back planned buffers, what a taken or
// overlapping buffer does to an allocation, buffers that outlive their
// arena's frame, and two threads taking overlapping buffers at once.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/MemoryPlan.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

using namespace tfrt_fallback::rt;

namespace {

/// Buffers 0 [0, 64), 1 [64, 128), 2 [32, 96) (overlaps both), 3 [0, 16)
/// (overlaps 0 only).
MemoryPlan makePlan() {
  MemoryPlan plan;
  plan.arenaBytes = 128;
  plan.buffers.resize(4);
  plan.buffers[0].offset = 0, plan.buffers[0].bytes = 64;
  plan.buffers[1].offset = 64, plan.buffers[1].bytes = 64;
  plan.buffers[2].offset = 32, plan.buffers[2].bytes = 64;
  plan.buffers[3].offset = 0, plan.buffers[3].bytes = 16;
  EXPECT_TRUE(plan.computeConflicts().ok());
  return plan;
}

std::vector<uint32_t> conflictsOf(const MemoryPlan &plan, uint32_t buffer) {
  const MemoryPlan::Buffer &b = plan.buffers[buffer];
  std::vector<uint32_t> list(plan.conflicts.begin() + b.conflictBegin,
                             plan.conflicts.begin() + b.conflictEnd);
  std::sort(list.begin(), list.end());
  return list;
}

TEST(MemoryPlanTest, Conflicts) {
  MemoryPlan plan = makePlan();
  EXPECT_EQ(conflictsOf(plan, 0), (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(conflictsOf(plan, 1), (std::vector<uint32_t>{2}));
  EXPECT_EQ(conflictsOf(plan, 2), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(conflictsOf(plan, 3), (std::vector<uint32_t>{0}));
}

TEST(MemoryPlanTest, TooManyConflicts) {
  // n buffers at one offset: n (n - 1) overlaps.
  MemoryPlan plan;
  plan.arenaBytes = 64;
  plan.buffers.resize(2100);
  for (MemoryPlan::Buffer &buffer : plan.buffers)
    buffer.bytes = 64;
  Status status = plan.computeConflicts();
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted);
}

TEST(MemoryPlanTest, TakeAndGiveBack) {
  MemoryPlan plan = makePlan();
  RCReference<PlannedArena> arena = PlannedArena::create(plan);
  ASSERT_TRUE(arena);
  Tensor a, b, c;
  ASSERT_TRUE(arena->allocate(0, DType::F32, TensorShape({16}), &a));
  EXPECT_EQ(a.numElements(), 16);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.rawData()) % 64, 0u);
  EXPECT_TRUE(a.isBufferUniquelyOwned());
  std::memset(a.rawData(), 0, a.totalBytes());
  // Taken: buffer 0 itself, and 2 and 3 that overlap it.
  EXPECT_FALSE(arena->allocate(0, DType::F32, TensorShape({4}), &b));
  EXPECT_FALSE(arena->allocate(2, DType::F32, TensorShape({4}), &b));
  EXPECT_FALSE(arena->allocate(3, DType::F32, TensorShape({4}), &b));
  EXPECT_EQ(arena->misses(), 3u);
  // Buffer 1 does not overlap it.
  ASSERT_TRUE(arena->allocate(1, DType::I32, TensorShape({2, 8}), &c));
  EXPECT_EQ(static_cast<char *>(c.rawData()) - static_cast<char *>(a.rawData()),
            64);
  // Too large for its buffer: not taken.
  a.reset();
  EXPECT_FALSE(arena->allocate(3, DType::F32, TensorShape({5}), &b));
  // Given back: buffer 3 (overlapping 0, free now) can be taken.
  ASSERT_TRUE(arena->allocate(3, DType::F32, TensorShape({4}), &b));
  // A copy shares the buffer, which goes back with the last holder.
  Tensor copy = b;
  EXPECT_FALSE(copy.isBufferUniquelyOwned());
  b.reset();
  EXPECT_FALSE(arena->allocate(0, DType::F32, TensorShape({4}), &a));
  copy.reset();
  EXPECT_TRUE(arena->allocate(0, DType::F32, TensorShape({4}), &a));
}

TEST(MemoryPlanTest, BufferOutlivesArenaAndPlan) {
  // A result that holds planned memory stays valid after the frame (the
  // arena's other holder) and the plan are gone.
  Tensor held;
  {
    MemoryPlan plan = makePlan();
    RCReference<PlannedArena> arena = PlannedArena::create(plan);
    ASSERT_TRUE(arena->allocate(1, DType::F32, TensorShape({16}), &held));
  }
  float *data = static_cast<float *>(held.rawData());
  for (int i = 0; i < 16; ++i)
    data[i] = static_cast<float>(i);
  EXPECT_EQ(data[15], 15.0f);
  held.reset();
}

TEST(MemoryPlanTest, EmptyPlanHasNoArena) {
  MemoryPlan plan;
  EXPECT_FALSE(PlannedArena::create(plan));
}

TEST(MemoryPlanTest, TwoThreadsNeverShareBytes) {
  // Buffers 0 and 2 overlap: two threads taking one each, many times, never
  // hold both at once.
  MemoryPlan plan = makePlan();
  RCReference<PlannedArena> arena = PlannedArena::create(plan);
  std::atomic<int> holders{0};
  std::atomic<bool> overlapped{false};
  auto work = [&](uint32_t buffer) {
    for (int i = 0; i < 20000; ++i) {
      Tensor t;
      if (!arena->allocate(buffer, DType::F32, TensorShape({4}), &t))
        continue;
      if (holders.fetch_add(1) != 0)
        overlapped = true;
      holders.fetch_sub(1);
    }
  };
  std::thread first(work, 0), second(work, 2);
  first.join();
  second.join();
  EXPECT_FALSE(overlapped.load());
}

} // namespace
