//===- MemoryPlanTest.cpp - PlannedArena tests ------------------*- C++ -*-===//
//
// Taking and giving back planned buffers, what a taken or overlapping buffer
// does to an allocation (against a pairwise reference check, and for a plan
// of 200,000 buffers over the same bytes), buffers that outlive their
// arena's frame, and two threads taking overlapping buffers at once.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/MemoryPlan.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <random>
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
  plan.index();
  return plan;
}

TEST(MemoryPlanTest, ManyBuffersAtOneOffset) {
  // 200,000 buffers over the same bytes (a long chain whose results take
  // turns in one place): indexing is linear in memory, and taking one
  // blocks every other until it goes back.
  MemoryPlan plan;
  plan.arenaBytes = 128;
  plan.buffers.resize(200000);
  for (size_t i = 0; i < plan.buffers.size(); ++i)
    plan.buffers[i].offset = (i % 2) * 64, plan.buffers[i].bytes = 64;
  plan.index();
  EXPECT_EQ(plan.numStarts, 2u);
  EXPECT_EQ(plan.numEnds, 2u);
  RCReference<PlannedArena> arena = PlannedArena::create(plan);
  ASSERT_TRUE(arena);
  Tensor a, b, c;
  ASSERT_TRUE(arena->allocate(1000, DType::F32, TensorShape({16}), &a));
  EXPECT_FALSE(arena->allocate(199998, DType::F32, TensorShape({16}), &b));
  ASSERT_TRUE(arena->allocate(199999, DType::F32, TensorShape({16}), &b));
  EXPECT_FALSE(arena->allocate(3, DType::F32, TensorShape({16}), &c));
  a.reset();
  EXPECT_TRUE(arena->allocate(2, DType::F32, TensorShape({16}), &c));
}

TEST(MemoryPlanTest, AgreesWithPairwiseOverlapCheck) {
  // Random plans and random takes and give-backs: a buffer is taken exactly
  // when no buffer held at the time shares a byte with it (the reference
  // compares every pair).
  std::mt19937 random(7);
  for (int round = 0; round < 20; ++round) {
    MemoryPlan plan;
    plan.arenaBytes = 1024;
    plan.buffers.resize(1 + random() % 60);
    for (MemoryPlan::Buffer &buffer : plan.buffers) {
      buffer.offset = random() % 1000;
      buffer.bytes = 1 + random() % (1024 - buffer.offset);
    }
    plan.index();
    RCReference<PlannedArena> arena = PlannedArena::create(plan);
    ASSERT_TRUE(arena);
    std::vector<Tensor> held(plan.buffers.size());
    for (int step = 0; step < 400; ++step) {
      const uint32_t i = random() % plan.buffers.size();
      if (held[i].rawData()) {
        held[i].reset();
        continue;
      }
      const MemoryPlan::Buffer &mine = plan.buffers[i];
      bool expected = true;
      for (size_t j = 0; j < held.size(); ++j) {
        const MemoryPlan::Buffer &other = plan.buffers[j];
        if (held[j].rawData() && other.offset < mine.offset + mine.bytes &&
            mine.offset < other.offset + other.bytes)
          expected = false;
      }
      Tensor t;
      ASSERT_EQ(arena->allocate(i, DType::U8, TensorShape({1}), &t), expected)
          << "round " << round << ", step " << step << ", buffer " << i;
      if (expected)
        held[i] = std::move(t);
    }
  }
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
