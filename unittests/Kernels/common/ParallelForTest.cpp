//===- ParallelForTest.cpp - kernels::parallelFor -----------------*- C++
//-*-===//
//
// How a kernel's loop is split (ParallelFor.h, ParallelFor.cpp): block sizes
// from the cost, every index run exactly once whatever the threads, the
// calling thread taking part, nested and concurrent splits.
//
//===----------------------------------------------------------------------===//

// Eigen 3.4's thread pool uses std::bind, whose libstdc++ implementation uses
// the C++17-deprecated std::result_of.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "common/ParallelFor.h"

#include "tfrt_fallback/Runtime/HostContext.h"

#include "gtest/gtest.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace tfrt_fallback::rt::kernels {
namespace {

TEST(ParallelBlockSize, FromCost) {
  // One thread, or less than two blocks of 20,000 cycles: one block.
  EXPECT_EQ(parallelBlockSize(1, 1000, 1000), 1000);
  EXPECT_EQ(parallelBlockSize(2, 1000, 39), 1000); // 39,000 cycles
  EXPECT_EQ(parallelBlockSize(2, 1000, 0), 1000);
  // 40,000 cycles: two blocks of 500.
  EXPECT_EQ(parallelBlockSize(2, 1000, 40), 500);
  // 1e6 cycles on 2 threads: 4 blocks per thread, 125 items each.
  EXPECT_EQ(parallelBlockSize(2, 1000, 1000), 125);
  // Fewer items than blocks wanted: one item per block.
  EXPECT_EQ(parallelBlockSize(4, 3, 1e6), 1);
  // 7 items in 4 blocks (2 threads x 4 would be 8 > 7): ceil(7 / 7) = 1.
  EXPECT_EQ(parallelBlockSize(2, 7, 1e6), 1);
  // 10 blocks by cost (200,000 cycles), 16 wanted by 4 threads: 10 of 10.
  EXPECT_EQ(parallelBlockSize(4, 100, 2000), 10);
  // A cost past int64's range (2^62 items of 1e12 cycles): 8 blocks of
  // 2^59 items.
  const Eigen::Index huge = Eigen::Index(1) << 62;
  EXPECT_EQ(parallelBlockSize(2, huge, 1e12), huge / 8);
}

class ParallelForTest : public ::testing::TestWithParam<int> {};

TEST_P(ParallelForTest, EveryIndexOnce) {
  HostContext host(GetParam());
  for (Eigen::Index n : {1, 2, 7, 100, 1000, 12345}) {
    std::vector<std::atomic<int>> hits(n);
    parallelFor(host.eigenDevice(), n, Eigen::TensorOpCost(0, 0, 1000),
                [&](Eigen::Index first, Eigen::Index last) {
                  ASSERT_LE(0, first);
                  ASSERT_LT(first, last);
                  ASSERT_LE(last, n);
                  for (Eigen::Index i = first; i < last; ++i)
                    hits[i].fetch_add(1);
                });
    for (Eigen::Index i = 0; i < n; ++i)
      ASSERT_EQ(hits[i].load(), 1) << "n " << n << " index " << i;
  }
}

TEST_P(ParallelForTest, BlocksCoverTheRange) {
  // Every item once, in blocks of at most blockSize items that never cross
  // a boundary between the participants' equal shares (n * p / P): two
  // kernels over the same rows split them at the same rows whatever their
  // block sizes.
  HostContext host(GetParam());
  const Eigen::Index n = 1000;
  for (Eigen::Index blockSize : {1, 3, 64, 300, 1000}) {
    const Eigen::Index blocks = (n + blockSize - 1) / blockSize;
    const Eigen::Index participants = std::min<Eigen::Index>(
        std::max(host.eigenDevice().numThreads(), 1), blocks);
    std::vector<std::atomic<int>> hits(n);
    parallelForBlocks(host.eigenDevice(), n, blockSize,
                      [&](Eigen::Index first, Eigen::Index last) {
                        EXPECT_LT(first, last);
                        EXPECT_LE(last - first, blockSize);
                        for (Eigen::Index p = 1; p < participants; ++p) {
                          const Eigen::Index boundary = n * p / participants;
                          EXPECT_FALSE(first < boundary && boundary < last)
                              << "[" << first << ", " << last << ") crosses "
                              << boundary;
                        }
                        for (Eigen::Index i = first; i < last; ++i)
                          hits[i].fetch_add(1);
                      });
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(hits[i].load(), 1) << "block size " << blockSize;
  }
}

TEST_P(ParallelForTest, RunsOnTheCallerAndAtMostNumThreads) {
  HostContext host(GetParam());
  std::mutex mu;
  std::set<std::thread::id> threads;
  const std::thread::id caller = std::this_thread::get_id();
  bool callerRan = false;
  for (int round = 0; round < 20; ++round)
    parallelForBlocks(host.eigenDevice(), 64, 1,
                      [&](Eigen::Index, Eigen::Index) {
                        std::lock_guard<std::mutex> lock(mu);
                        threads.insert(std::this_thread::get_id());
                        callerRan |= std::this_thread::get_id() == caller;
                      });
  // The caller takes blocks until none is left: it runs at least one unless
  // the pool took all 64 before it started, 20 times over.
  EXPECT_TRUE(callerRan);
  EXPECT_LE(threads.size(), static_cast<size_t>(std::max(GetParam(), 1)));
}

TEST_P(ParallelForTest, NestedAndEigenInside) {
  HostContext host(GetParam());
  const Eigen::ThreadPoolDevice &device = host.eigenDevice();
  std::atomic<int64_t> total{0};
  parallelForBlocks(device, 8, 1, [&](Eigen::Index, Eigen::Index) {
    // A split inside a block, ours and Eigen's: neither waits for a
    // thread that is busy running this block.
    parallelForBlocks(
        device, 100, 10,
        [&](Eigen::Index first, Eigen::Index last) { total += last - first; });
    device.parallelFor(
        100, Eigen::TensorOpCost(0, 0, 1e6),
        [&](Eigen::Index first, Eigen::Index last) { total += last - first; });
  });
  EXPECT_EQ(total.load(), 8 * 200);
}

TEST_P(ParallelForTest, ConcurrentCallers) {
  HostContext host(GetParam());
  constexpr int kCallers = 4;
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round)
        parallelForBlocks(host.eigenDevice(), 256, 16,
                          [&](Eigen::Index first, Eigen::Index last) {
                            total += last - first;
                          });
    });
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(total.load(), int64_t(kCallers) * 50 * 256);
}

INSTANTIATE_TEST_SUITE_P(Threads, ParallelForTest,
                         ::testing::Values(0, 1, 2, 4),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return "T" + std::to_string(info.param);
                         });

} // namespace
} // namespace tfrt_fallback::rt::kernels
