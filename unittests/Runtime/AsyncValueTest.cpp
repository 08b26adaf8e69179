//===- AsyncValueTest.cpp - AsyncValue tests --------------------*- C++ -*-===//
//
// States, continuations, errors, refcounting and a concurrency stress test.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/AsyncValue.h"

#include "gtest/gtest.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace tfrt_fallback::rt;

namespace {

/// Counts live instances to detect leaks and double destruction.
struct Counted {
  static std::atomic<int> live;
  explicit Counted(int v = 0) : value(v) { ++live; }
  Counted(const Counted &other) : value(other.value) { ++live; }
  ~Counted() { --live; }
  int value;
};
std::atomic<int> Counted::live{0};

TEST(AsyncValueTest, AvailableValue) {
  AsyncValueRef<int> v = makeAvailableAsyncValueRef<int>(42);
  EXPECT_TRUE(v.isAvailable());
  EXPECT_TRUE(v.isConcrete());
  EXPECT_FALSE(v.isError());
  EXPECT_EQ(v.get(), 42);
  EXPECT_EQ(*v, 42);
  EXPECT_EQ(v.getAsyncValue()->refCount(), 1u);
}

TEST(AsyncValueTest, UnconstructedThenEmplace) {
  AsyncValueRef<std::string> v = makeUnconstructedAsyncValueRef<std::string>();
  EXPECT_TRUE(v.getAsyncValue()->isUnconstructed());
  EXPECT_FALSE(v.isAvailable());
  v.emplace("hello");
  EXPECT_TRUE(v.isConcrete());
  EXPECT_EQ(v.get(), "hello");
  EXPECT_EQ(v->size(), 5u);
}

TEST(AsyncValueTest, ConstructedThenConcrete) {
  AsyncValueRef<int> v = makeConstructedAsyncValueRef<int>(7);
  EXPECT_TRUE(v.getAsyncValue()->isConstructed());
  EXPECT_FALSE(v.isAvailable());
  EXPECT_EQ(v.get(), 7); // The payload is readable before it is published.
  v.get() = 8;
  bool ran = false;
  v.andThen([&] { ran = true; });
  EXPECT_FALSE(ran);
  v.setStateConcrete();
  EXPECT_TRUE(ran);
  EXPECT_EQ(v.get(), 8);
}

TEST(AsyncValueTest, AndThenAfterAvailableRunsImmediately) {
  AsyncValueRef<int> v = makeAvailableAsyncValueRef<int>(1);
  int calls = 0;
  v.andThen([&] { ++calls; });
  EXPECT_EQ(calls, 1);
}

TEST(AsyncValueTest, AndThenBeforeAvailableRunsInOrder) {
  AsyncValueRef<int> v = makeUnconstructedAsyncValueRef<int>();
  std::vector<int> order;
  for (int i = 0; i < 5; ++i)
    v.andThen([&order, i] { order.push_back(i); });
  EXPECT_TRUE(order.empty());
  v.emplace(3);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(AsyncValueTest, WaiterMayDropLastReference) {
  auto v = std::make_unique<AsyncValueRef<Counted>>(
      makeUnconstructedAsyncValueRef<Counted>());
  AsyncValue *raw = v->getAsyncValue();
  raw->andThen([&v] { v.reset(); }); // Drops the only external reference.
  raw->emplace<Counted>(5);
  EXPECT_EQ(v, nullptr);
  EXPECT_EQ(Counted::live.load(), 0);
}

TEST(AsyncValueTest, SetErrorRunsWaiters) {
  AsyncValueRef<int> v = makeUnconstructedAsyncValueRef<int>();
  Status seen;
  v.andThen([&] { seen = v.getError(); });
  v.setError(InvalidArgumentError("bad input"));
  EXPECT_TRUE(v.isError());
  EXPECT_TRUE(v.isAvailable());
  EXPECT_FALSE(v.isConcrete());
  EXPECT_EQ(seen, InvalidArgumentError("bad input"));
}

TEST(AsyncValueTest, SetErrorOnConstructedDestroysPayload) {
  {
    AsyncValueRef<Counted> v = makeConstructedAsyncValueRef<Counted>(1);
    EXPECT_EQ(Counted::live.load(), 1);
    v.setError(InternalError("boom"));
    EXPECT_EQ(Counted::live.load(), 0);
    EXPECT_EQ(v.getError().message(), "boom");
  }
  EXPECT_EQ(Counted::live.load(), 0);
}

TEST(AsyncValueTest, SetErrorWithOkStatusBecomesInternal) {
  AsyncValueRef<int> v = makeUnconstructedAsyncValueRef<int>();
  v.setError(OkStatus());
  EXPECT_EQ(v.getError().code(), StatusCode::kInternal);
}

TEST(AsyncValueTest, ErrorValueConvertsToAnyType) {
  AsyncValueRef<float> f = makeErrorAsyncValueRef(CancelledError("x"));
  AsyncValueRef<Chain> c = makeErrorAsyncValueRef(CancelledError("y"));
  EXPECT_TRUE(f.isError());
  EXPECT_EQ(f.getError().message(), "x");
  EXPECT_EQ(c.getError().code(), StatusCode::kCancelled);
  EXPECT_EQ(c.getAsyncValue()->getErrorIfPresent()->message(), "y");
}

TEST(AsyncValueTest, ErrorPropagatesThroughContinuations) {
  // b = f(a): when a fails, b fails with the same status.
  AsyncValueRef<int> a = makeUnconstructedAsyncValueRef<int>();
  AsyncValueRef<int> b = makeUnconstructedAsyncValueRef<int>();
  a.andThen([a, b] {
    if (a.isError())
      b.setError(a.getError());
    else
      b.emplace(a.get() * 2);
  });
  a.setError(DataLossError("corrupt"));
  ASSERT_TRUE(b.isError());
  EXPECT_EQ(b.getError(), DataLossError("corrupt"));
}

TEST(AsyncValueTest, TypeErasedAccess) {
  RCReference<AsyncValue> erased = makeAvailableAsyncValueRef<double>(2.5);
  EXPECT_TRUE(erased->isType<double>());
  EXPECT_FALSE(erased->isType<float>());
  EXPECT_EQ(erased->get<double>(), 2.5);
  AsyncValueRef<double> typed(std::move(erased));
  EXPECT_EQ(typed.get(), 2.5);
}

TEST(AsyncValueTest, RefCountingDestroysPayloadOnce) {
  {
    AsyncValueRef<Counted> a = makeAvailableAsyncValueRef<Counted>(1);
    AsyncValueRef<Counted> b = a.copy();
    RCReference<AsyncValue> c = b.copyRef();
    EXPECT_EQ(a.getAsyncValue()->refCount(), 3u);
    b = nullptr;
    EXPECT_EQ(a.getAsyncValue()->refCount(), 2u);
    EXPECT_EQ(Counted::live.load(), 1);
  }
  EXPECT_EQ(Counted::live.load(), 0);
  {
    AsyncValueRef<Counted> u = makeUnconstructedAsyncValueRef<Counted>();
    EXPECT_EQ(Counted::live.load(), 0);
  }
  EXPECT_EQ(Counted::live.load(), 0);
}

TEST(AsyncValueTest, PendingWaitersAreDestroyedWhenRun) {
  // Captured state in a waiter is released after the waiter runs.
  auto v = makeUnconstructedAsyncValueRef<int>();
  AsyncValueRef<Counted> captured = makeAvailableAsyncValueRef<Counted>(9);
  v.andThen([captured] { EXPECT_EQ(captured->value, 9); });
  captured = nullptr;
  EXPECT_EQ(Counted::live.load(), 1);
  v.emplace(1);
  EXPECT_EQ(Counted::live.load(), 0);
}

TEST(AsyncValueTest, RunWhenReady) {
  auto a = makeUnconstructedAsyncValueRef<int>();
  auto b = makeAvailableAsyncValueRef<int>(1);
  auto c = makeUnconstructedAsyncValueRef<int>();
  int calls = 0;
  std::vector<RCReference<AsyncValue>> values = {a.copyRef(), b.copyRef(),
                                                 c.copyRef()};
  runWhenReady(values, [&] { ++calls; });
  EXPECT_EQ(calls, 0);
  a.emplace(1);
  EXPECT_EQ(calls, 0);
  c.setError(UnknownError("e"));
  EXPECT_EQ(calls, 1);

  AsyncValue *raw[] = {b.getAsyncValue()};
  runWhenReady(raw, [&] { ++calls; });
  EXPECT_EQ(calls, 2);
  runWhenReady(absl::Span<AsyncValue *const>(), [&] { ++calls; });
  EXPECT_EQ(calls, 3);
}

TEST(AsyncValueTest, RunWhenReadyKeepsValuesAlive) {
  int calls = 0;
  AsyncValue *raw;
  {
    auto a = makeUnconstructedAsyncValueRef<Counted>();
    raw = a.getAsyncValue();
    std::vector<RCReference<AsyncValue>> values = {a.copyRef()};
    runWhenReady(values, [&] { ++calls; });
    raw->addRef(); // Our own handle to publish the value later.
  }
  raw->emplace<Counted>(1);
  EXPECT_EQ(calls, 1);
  raw->dropRef();
  EXPECT_EQ(Counted::live.load(), 0);
}

TEST(AsyncValueTest, ConcurrentAndThenVsEmplaceStress) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 1000;
  for (int round = 0; round < 20; ++round) {
    AsyncValueRef<Counted> v = makeUnconstructedAsyncValueRef<Counted>();
    std::atomic<int> ran{0};
    std::atomic<int> wrongValue{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&] {
        while (!go.load(std::memory_order_acquire)) {
        }
        for (int i = 0; i < kPerThread; ++i)
          v.andThen([&, v2 = v.copy()] {
            if (v2.get().value != 123)
              ++wrongValue;
            ++ran;
          });
      });
    go.store(true, std::memory_order_release);
    // Publish while the consumers are adding waiters.
    std::this_thread::yield();
    v.emplace(123);
    for (std::thread &thread : threads)
      thread.join();
    EXPECT_EQ(ran.load(), kThreads * kPerThread);
    EXPECT_EQ(wrongValue.load(), 0);
    EXPECT_EQ(v.getAsyncValue()->refCount(), 1u);
  }
  EXPECT_EQ(Counted::live.load(), 0);
}

TEST(AsyncValueTest, ConcurrentRunWhenReady) {
  constexpr int kValues = 16;
  for (int round = 0; round < 50; ++round) {
    std::vector<AsyncValueRef<int>> values;
    std::vector<RCReference<AsyncValue>> erased;
    for (int i = 0; i < kValues; ++i) {
      values.push_back(makeUnconstructedAsyncValueRef<int>());
      erased.push_back(values.back().copyRef());
    }
    std::atomic<int> calls{0};
    std::thread producer([&] {
      for (auto &value : values)
        value.emplace(1);
    });
    runWhenReady(erased, [&] { ++calls; });
    producer.join();
    EXPECT_EQ(calls.load(), 1);
  }
}

} // namespace
