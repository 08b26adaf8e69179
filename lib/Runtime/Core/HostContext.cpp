//===- HostContext.cpp - Thread pools and intra-op device -------*- C++ -*-===//
//
// A mutex + condition variable work queue used for the compute pool (fixed
// size), the blocking pool (grows when no thread is idle) and the intra-op
// pool behind the Eigen device (fixed size). It uses std::mutex rather than
// absl::Mutex so that ThreadSanitizer, which intercepts pthreads, sees the
// synchronization even when Abseil itself is not instrumented.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/HostContext.h"

#include "tfrt_fallback/Runtime/Denormal.h"

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tfrt_fallback::rt {

/// Count of enqueued but unfinished work items, for quiesce().
struct HostContext::Pending {
  std::atomic<int64_t> count{0};
  std::mutex mu;
  std::condition_variable idle;

  void add() { count.fetch_add(1, std::memory_order_relaxed); }
  void done() {
    if (count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mu);
      idle.notify_all();
    }
  }
  void waitIdle() {
    std::unique_lock<std::mutex> lock(mu);
    while (count.load(std::memory_order_acquire) != 0)
      idle.wait(lock);
  }
};

class HostContext::WorkQueue {
public:
  /// `growing`: start no thread up front; add one whenever work arrives and
  /// no thread is idle. `spin`: an idle thread polls the queue for a while
  /// before it sleeps (the intra-op pool, whose splits come every few
  /// microseconds and must not wait for a thread to wake up).
  WorkQueue(Pending &pending, int numThreads, bool growing, bool spin = false)
      : pending_(pending), growing_(growing), spin_(spin) {
    if (!growing)
      for (int i = 0; i < numThreads; ++i)
        startThread(i);
  }

  ~WorkQueue() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
      cv_.notify_all();
    }
    for (std::thread &thread : threads_)
      thread.join();
  }

  void push(absl::AnyInvocable<void()> work) {
    pending_.add();
    std::lock_guard<std::mutex> lock(mu_);
    tasks_.push_back(std::move(work));
    queued_.store(tasks_.size(), std::memory_order_relaxed);
    // A growing pool adds a thread whenever queued work outnumbers the idle
    // threads, so blocking work never waits behind other blocking work.
    if (growing_ && tasks_.size() > static_cast<size_t>(idle_))
      startThread(-1);
    else
      cv_.notify_one();
  }

  /// Runs queued work on the calling thread until `*done` is set by
  /// signalAll() (under the queue mutex).
  void helpUntil(const bool *done) {
    std::unique_lock<std::mutex> lock(mu_);
    while (!*done) {
      if (tasks_.empty()) {
        cv_.wait(lock);
        continue;
      }
      absl::AnyInvocable<void()> work = std::move(tasks_.front());
      tasks_.pop_front();
      queued_.store(tasks_.size(), std::memory_order_relaxed);
      lock.unlock();
      std::move(work)();
      work = nullptr; // Destroy captures before counting the work as done.
      pending_.done();
      lock.lock();
    }
  }

  /// Sets `*flag` and wakes every thread waiting in this queue.
  void setAndSignalAll(bool *flag) {
    std::lock_guard<std::mutex> lock(mu_);
    *flag = true;
    cv_.notify_all();
  }

  /// The index of the calling thread among this fixed-size queue's
  /// workers, -1 on any other thread.
  int currentThreadIndex() const {
    return currentQueue == this ? currentIndex : -1;
  }

private:
  void startThread(int index) {
    threads_.emplace_back([this, index] { workerLoop(index); });
  }

  void workerLoop(int index) {
    currentQueue = this;
    currentIndex = index;
    setFlushDenormal(); // Kernels run with denormals flushed, as in TF.
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      while (tasks_.empty() && !stopping_) {
        if (spin_) {
          lock.unlock();
          spinForWork();
          lock.lock();
          if (!tasks_.empty() || stopping_)
            break;
        }
        ++idle_;
        cv_.wait(lock);
        --idle_;
      }
      if (tasks_.empty())
        return; // stopping_ and drained
      absl::AnyInvocable<void()> work = std::move(tasks_.front());
      tasks_.pop_front();
      queued_.store(tasks_.size(), std::memory_order_relaxed);
      lock.unlock();
      std::move(work)();
      work = nullptr;
      pending_.done();
      lock.lock();
    }
  }

  /// Polls for queued work for up to kSpin, without the mutex.
  void spinForWork() const {
    constexpr auto kSpin = std::chrono::microseconds(50);
    const auto deadline = std::chrono::steady_clock::now() + kSpin;
    for (unsigned i = 1;; ++i) {
      if (queued_.load(std::memory_order_relaxed) != 0)
        return;
      cpuRelax();
      if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline)
        return;
    }
  }

  Pending &pending_;
  const bool growing_;
  const bool spin_;
  /// tasks_.size(), readable without the mutex (spinForWork).
  std::atomic<size_t> queued_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<absl::AnyInvocable<void()>> tasks_;
  std::vector<std::thread> threads_;
  int idle_ = 0;
  bool stopping_ = false;
  static thread_local const WorkQueue *currentQueue;
  static thread_local int currentIndex;
};

thread_local const HostContext::WorkQueue *HostContext::WorkQueue::currentQueue;
thread_local int HostContext::WorkQueue::currentIndex;

namespace {
/// Eigen's intra-op tasks on a work queue of their own: a kernel waits in
/// parallelFor until its blocks finish, so they cannot wait behind the
/// inter-op work that kernels are. numThreads - 1 threads, which spin for a
/// while between tasks, the thread that splits a loop being the last one
/// (kernels::parallelFor runs blocks on the calling thread too). Eigen's own
/// ThreadPoolTempl (per-thread deques, work stealing) costs a shipped
/// runtime ~11 KB (docs/BinarySize.md). `Queue` and `Counter` are
/// HostContext's private WorkQueue and Pending.
template <typename Queue, typename Counter>
class QueueEigenPool final : public Eigen::ThreadPoolInterface {
public:
  explicit QueueEigenPool(int numThreads)
      : numThreads_(numThreads), queue_(pending_, numThreads - 1,
                                        /*growing=*/false, /*spin=*/true) {}
  void Schedule(std::function<void()> fn) override {
    // A split nested in a task on this pool runs inline: Eigen's own
    // parallelFor would otherwise wait on its only thread.
    if (queue_.currentThreadIndex() >= 0) {
      fn();
      return;
    }
    queue_.push(std::move(fn));
  }
  int NumThreads() const override { return numThreads_; }
  int CurrentThreadId() const override { return queue_.currentThreadIndex(); }

private:
  int numThreads_;
  Counter pending_;
  Queue queue_; // Last: its destructor joins the threads first.
};

/// Runs Eigen's intra-op tasks inline on the calling thread.
class InlineEigenPool final : public Eigen::ThreadPoolInterface {
public:
  void Schedule(std::function<void()> fn) override { fn(); }
  int NumThreads() const override { return 1; }
  int CurrentThreadId() const override { return -1; }
};
} // namespace

int HostContext::defaultNumThreads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

HostContext::HostContext(int numThreads)
    : numThreads_(numThreads < 0 ? defaultNumThreads() : numThreads),
      pending_(std::make_unique<Pending>()) {
  if (numThreads_ > 0) {
    queue_ = std::make_unique<WorkQueue>(*pending_, numThreads_,
                                         /*growing=*/false);
    blockingQueue_ = std::make_unique<WorkQueue>(*pending_, 0,
                                                 /*growing=*/true);
  }
  if (numThreads_ > 1)
    eigenPool_ =
        std::make_unique<QueueEigenPool<WorkQueue, Pending>>(numThreads_);
  else
    eigenPool_ = std::make_unique<InlineEigenPool>();
  eigenDevice_ = std::make_unique<Eigen::ThreadPoolDevice>(
      eigenPool_.get(), eigenPool_->NumThreads());
}

HostContext::~HostContext() {
  quiesce();
  // Workers may still hold the queue mutex briefly after the last
  // pending_.done(); the WorkQueue destructors join them.
  blockingQueue_.reset();
  queue_.reset();
  eigenDevice_.reset();
  eigenPool_.reset();
}

void HostContext::enqueueWork(absl::AnyInvocable<void()> work) {
  if (!queue_) {
    std::move(work)();
    return;
  }
  queue_->push(std::move(work));
}

void HostContext::enqueueBlockingWork(absl::AnyInvocable<void()> work) {
  if (!blockingQueue_) {
    std::move(work)();
    return;
  }
  blockingQueue_->push(std::move(work));
}

void HostContext::await(absl::Span<const RCReference<AsyncValue>> values) {
  bool allAvailable = true;
  for (const RCReference<AsyncValue> &value : values)
    allAvailable &= value->isAvailable();
  if (allAvailable)
    return;

  if (queue_) {
    // The flag lives on this stack frame; it is only written under the
    // queue mutex, which outlives this call.
    bool done = false;
    WorkQueue *queue = queue_.get();
    runWhenReady(values, [queue, &done] { queue->setAndSignalAll(&done); });
    queue->helpUntil(&done);
    return;
  }

  // No workers: the producer is some other thread. Share the flag with the
  // callback so it can outlive this frame.
  struct Waiter {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
  };
  auto waiter = std::make_shared<Waiter>();
  runWhenReady(values, [waiter] {
    std::lock_guard<std::mutex> lock(waiter->mu);
    waiter->done = true;
    waiter->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(waiter->mu);
  while (!waiter->done)
    waiter->cv.wait(lock);
}

void HostContext::quiesce() { pending_->waitIdle(); }

} // namespace tfrt_fallback::rt
