//===- DenormalTest.cpp - ScopedFlushDenormal tests -------------*- C++ -*-===//
//
// Denormals flush to zero inside the scope and not after it, and the worker
// threads of a HostContext (its queue and Eigen's pool) flush them.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Denormal.h"

#include "tfrt_fallback/Runtime/HostContext.h"

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#include "gtest/gtest.h"

#include <atomic>
#include <cfloat>
#include <limits>

using namespace tfrt_fallback::rt;

namespace {

#if defined(__x86_64__) || defined(__aarch64__)
constexpr bool kSupported = true;
#else
constexpr bool kSupported = false;
#endif

/// FLT_MIN * 0.5 through a volatile, so the compiler cannot fold it: a
/// denormal (5.9e-39) unless the thread flushes it to zero.
float halfOfSmallestNormal() {
  volatile float smallest = FLT_MIN;
  volatile float half = 0.5f;
  return smallest * half;
}

TEST(DenormalTest, ScopeFlushesAndRestores) {
  if (!kSupported)
    GTEST_SKIP() << "no flush mode on this target";
  ASSERT_FALSE(ScopedFlushDenormal::isFlushing());
  EXPECT_EQ(halfOfSmallestNormal(), FLT_MIN / 2);
  {
    ScopedFlushDenormal flush;
    EXPECT_TRUE(ScopedFlushDenormal::isFlushing());
    EXPECT_EQ(halfOfSmallestNormal(), 0.0f);
    {
      ScopedFlushDenormal nested;
      EXPECT_EQ(halfOfSmallestNormal(), 0.0f);
    }
    // The inner scope found the mode set and leaves it set.
    EXPECT_TRUE(ScopedFlushDenormal::isFlushing());
  }
  EXPECT_FALSE(ScopedFlushDenormal::isFlushing());
  EXPECT_EQ(halfOfSmallestNormal(), FLT_MIN / 2);
}

TEST(DenormalTest, WorkerThreadsFlush) {
  if (!kSupported)
    GTEST_SKIP() << "no flush mode on this target";
  HostContext host(2);
  std::atomic<int> queueFlushes{0};
  for (int i = 0; i < 4; ++i)
    host.enqueueWork([&] {
      if (halfOfSmallestNormal() == 0.0f)
        ++queueFlushes;
    });
  host.quiesce();
  EXPECT_EQ(queueFlushes.load(), 4);

  std::atomic<int> eigenFlushes{0}, eigenTasks{0};
  host.eigenDevice().parallelFor(64, Eigen::TensorOpCost(0, 0, 1e6),
                                 [&](Eigen::Index first, Eigen::Index last) {
                                   ++eigenTasks;
                                   if (halfOfSmallestNormal() == 0.0f)
                                     ++eigenFlushes;
                                 });
  // Tasks Eigen ran on the calling thread (which is not flushing) are the
  // only ones that may keep the denormal.
  EXPECT_GE(eigenFlushes.load(), 1);
  EXPECT_FALSE(ScopedFlushDenormal::isFlushing());
}

} // namespace
