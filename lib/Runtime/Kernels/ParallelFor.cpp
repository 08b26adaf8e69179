//===- ParallelFor.cpp - Splitting a kernel's loop over threads -*- C++ -*-===//
//
// The out-of-line half of kernels::parallelFor (KernelUtils.h): how large a
// block is, and how blocks are shared. The calling thread takes blocks from
// the same counter as the pool's threads, so a split never waits for a
// sleeping thread to start: with two threads, the caller and one pool thread
// share the work (HostContext's intra-op pool has one thread fewer than the
// device reports, the caller being the other).
//
//===----------------------------------------------------------------------===//

// Eigen 3.4's thread pool uses std::bind, whose libstdc++ implementation uses
// the C++17-deprecated std::result_of.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/HostContext.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace tfrt_fallback::rt::kernels {

namespace {
/// Below this many cycles a block is not worth handing to another thread.
constexpr double kMinBlockCycles = 20000;
/// Blocks per thread: more balance the load, fewer cost less to hand out.
constexpr Eigen::Index kBlocksPerThread = 4;

/// The blocks of one parallelForBlocks call. The caller and each helper
/// hold a reference: a helper may start after the caller has returned
/// (every block taken), and then finds nothing to do.
struct SharedBlocks {
  SharedBlocks(Eigen::Index n, Eigen::Index blockSize,
               absl::FunctionRef<void(Eigen::Index, Eigen::Index)> f, int refs)
      : n(n), blockSize(blockSize), blocks((n + blockSize - 1) / blockSize),
        f(f), refs(refs) {}

  /// Runs blocks until none is left. `f` is only called for a block taken
  /// here, and the caller waits for every taken block, so `f` (the caller's)
  /// is alive whenever it is called.
  void work() {
    Eigen::Index ran = 0;
    for (Eigen::Index b;
         (b = next.fetch_add(1, std::memory_order_relaxed)) < blocks; ++ran) {
      const Eigen::Index first = b * blockSize;
      f(first, std::min(n, first + blockSize));
    }
    if (ran)
      finished.fetch_add(ran, std::memory_order_release);
  }

  void dropRef() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }

  const Eigen::Index n, blockSize, blocks;
  const absl::FunctionRef<void(Eigen::Index, Eigen::Index)> f;
  std::atomic<Eigen::Index> next{0};
  std::atomic<Eigen::Index> finished{0};
  std::atomic<int> refs;
};
} // namespace

Eigen::Index parallelBlockSize(int threads, Eigen::Index n,
                               double cyclesPerItem) {
  const double total = static_cast<double>(n) * std::max(cyclesPerItem, 0.0);
  const double byCost = total / kMinBlockCycles;
  if (threads <= 1 || byCost < 2)
    return n;
  const Eigen::Index blocks = std::min<Eigen::Index>(
      {n, kBlocksPerThread * threads, static_cast<Eigen::Index>(byCost)});
  return (n + blocks - 1) / blocks;
}

void parallelForBlocks(const Eigen::ThreadPoolDevice &device, Eigen::Index n,
                       Eigen::Index blockSize,
                       absl::FunctionRef<void(Eigen::Index, Eigen::Index)> f) {
  const Eigen::Index blocks = (n + blockSize - 1) / blockSize;
  const int helpers = static_cast<int>(
      std::min<Eigen::Index>(device.numThreads() - 1, blocks - 1));
  if (helpers <= 0) {
    for (Eigen::Index first = 0; first < n; first += blockSize)
      f(first, std::min(n, first + blockSize));
    return;
  }
  auto *shared = new SharedBlocks(n, blockSize, f, helpers + 1);
  for (int i = 0; i < helpers; ++i)
    device.getPool()->Schedule([shared] {
      shared->work();
      shared->dropRef();
    });
  shared->work();
  // The blocks other threads took are running: wait for them, briefly
  // spinning, then yielding the core.
  for (int spins = 0;
       shared->finished.load(std::memory_order_acquire) < shared->blocks;
       ++spins) {
    if (spins < 8192)
      cpuRelax();
    else
      std::this_thread::yield();
  }
  shared->dropRef();
}

} // namespace tfrt_fallback::rt::kernels
