//===- HostContextTest.cpp - HostContext tests ------------------*- C++ -*-===//
//
// enqueueWork / enqueueBlockingWork / await / quiesce with 0, 1 and 4
// threads, and the Eigen device.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "gtest/gtest.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

using namespace tfrt_fallback::rt;

namespace {

/// A one-shot event on std primitives (visible to TSan without an
/// instrumented Abseil).
class Event {
public:
  void notify() {
    std::lock_guard<std::mutex> lock(mu_);
    set_ = true;
    cv_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return set_; });
  }

private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool set_ = false;
};

class HostContextTest : public ::testing::TestWithParam<int> {};

TEST_P(HostContextTest, EnqueueAndQuiesce) {
  HostContext host(GetParam());
  EXPECT_EQ(host.numThreads(), GetParam());
  std::atomic<int> count{0};
  for (int i = 0; i < 1000; ++i)
    host.enqueueWork([&] { ++count; });
  host.quiesce();
  EXPECT_EQ(count.load(), 1000);
}

TEST_P(HostContextTest, QuiesceWaitsForNestedWork) {
  HostContext host(GetParam());
  std::atomic<int> count{0};
  for (int i = 0; i < 50; ++i)
    host.enqueueWork([&] {
      host.enqueueBlockingWork([&] {
        host.enqueueWork([&] { ++count; });
        ++count;
      });
      ++count;
    });
  host.quiesce();
  EXPECT_EQ(count.load(), 150);
}

TEST_P(HostContextTest, AwaitValuesProducedByWork) {
  HostContext host(GetParam());
  std::vector<RCReference<AsyncValue>> values;
  std::vector<AsyncValueRef<int>> typed;
  for (int i = 0; i < 100; ++i) {
    AsyncValueRef<int> v = makeUnconstructedAsyncValueRef<int>();
    typed.push_back(v.copy());
    values.push_back(v.copyRef());
    host.enqueueWork([v, i] { v.emplace(i); });
  }
  host.await(values);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(typed[i].isConcrete());
    EXPECT_EQ(typed[i].get(), i);
  }
}

TEST_P(HostContextTest, AwaitValueProducedByAnotherThread) {
  HostContext host(GetParam());
  AsyncValueRef<int> v = makeUnconstructedAsyncValueRef<int>();
  std::thread producer([v] { v.emplace(5); });
  RCReference<AsyncValue> values[] = {v.copyRef()};
  host.await(values);
  EXPECT_EQ(v.get(), 5);
  producer.join();
}

TEST_P(HostContextTest, AwaitFromWorkerDoesNotDeadlock) {
  // A work item awaits a value produced by work enqueued after it; with one
  // worker this only completes because await() runs queued work.
  HostContext host(GetParam());
  AsyncValueRef<int> inner = makeUnconstructedAsyncValueRef<int>();
  AsyncValueRef<int> outer = makeUnconstructedAsyncValueRef<int>();
  host.enqueueWork([&host, inner, outer] {
    host.enqueueWork([inner] { inner.emplace(1); });
    RCReference<AsyncValue> values[] = {inner.copyRef()};
    host.await(values);
    outer.emplace(inner.get() + 1);
  });
  RCReference<AsyncValue> values[] = {outer.copyRef()};
  host.await(values);
  EXPECT_EQ(outer.get(), 2);
}

/// Blocking-pool tests need worker threads (inline mode runs blocking work
/// on the caller).
class HostContextThreadedTest : public ::testing::TestWithParam<int> {};

TEST_P(HostContextThreadedTest, BlockingWorkDoesNotStarveCompute) {
  HostContext host(GetParam());
  // Occupy blocking threads waiting on a notification that compute work
  // sends.
  Event computeRan;
  std::atomic<int> unblocked{0};
  for (int i = 0; i < 8; ++i)
    host.enqueueBlockingWork([&] {
      computeRan.wait();
      ++unblocked;
    });
  host.enqueueWork([&] { computeRan.notify(); });
  host.quiesce();
  EXPECT_EQ(unblocked.load(), 8);
}

TEST_P(HostContextThreadedTest, BlockingWorkMayWaitOnBlockingWork) {
  HostContext host(GetParam());
  Event second;
  std::atomic<bool> done{false};
  host.enqueueBlockingWork([&] {
    second.wait();
    done = true;
  });
  host.enqueueBlockingWork([&] { second.notify(); });
  host.quiesce();
  EXPECT_TRUE(done.load());
}

TEST_P(HostContextTest, EigenDevice) {
  HostContext host(GetParam());
  const Eigen::ThreadPoolDevice &device = host.eigenDevice();
  EXPECT_GE(device.numThreads(), 1);
  auto tensor = Tensor::allocate(DType::F32, TensorShape{100000});
  ASSERT_TRUE(tensor.ok());
  auto flat = tensor->flat<float>();
  flat.device(device) = flat.constant(1.5f);
  Eigen::Tensor<float, 0, Eigen::RowMajor> sum;
  sum.device(device) = flat.sum();
  EXPECT_FLOAT_EQ(sum(), 150000.0f);
  std::atomic<int64_t> covered{0};
  device.parallelFor(
      1000, Eigen::TensorOpCost(1, 1, 100),
      [&](Eigen::Index begin, Eigen::Index end) { covered += end - begin; });
  EXPECT_EQ(covered.load(), 1000);
}

INSTANTIATE_TEST_SUITE_P(Threads, HostContextTest, ::testing::Values(0, 1, 4),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return "T" + std::to_string(info.param);
                         });

INSTANTIATE_TEST_SUITE_P(Threads, HostContextThreadedTest,
                         ::testing::Values(1, 4),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return "T" + std::to_string(info.param);
                         });

TEST(HostContextDefaults, DefaultThreadCount) {
  HostContext host;
  EXPECT_EQ(host.numThreads(), HostContext::defaultNumThreads());
  EXPECT_GE(host.numThreads(), 1);
}

} // namespace
