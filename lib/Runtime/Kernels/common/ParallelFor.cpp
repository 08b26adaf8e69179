//===- ParallelFor.cpp - Splitting a kernel's loop over threads -*- C++ -*-===//
//
// The out-of-line half of kernels::parallelFor (ParallelFor.h): how large a
// block is, and how blocks are shared. The calling thread runs blocks too,
// so a split never waits for a sleeping thread to start: with two threads,
// the caller and one pool thread share the work (HostContext's intra-op pool
// has one thread fewer than the device reports, the caller being the other).
//
//===----------------------------------------------------------------------===//

// Eigen 3.4's thread pool uses std::bind, whose libstdc++ implementation uses
// the C++17-deprecated std::result_of.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "common/ParallelFor.h"

#include "tfrt_fallback/Runtime/HostContext.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

namespace tfrt_fallback::rt::kernels {

namespace {
/// Below this many cycles a block is not worth handing to another thread.
constexpr double kMinBlockCycles = 20000;
/// Blocks per thread: more balance the load, fewer cost less to hand out.
constexpr Eigen::Index kBlocksPerThread = 4;

/// The blocks of one parallelForBlocks call. Participant p (the caller is 0,
/// helper i is i + 1) owns the items [begin(p), begin(p + 1)), an equal
/// share of them, and takes them in blocks of at most blockSize in order,
/// then helps with the others' remaining ones: the caller always gets the
/// first rows of a split and a helper the same later rows from one kernel
/// to the next, so a layer mostly reads what the same core wrote in its
/// cache the layer before (MobileNetV2's memory-bound depthwise layers on
/// two threads: 1.05x faster than on one when blocks went round-robin from
/// one counter, 1.3x with owned ranges; blazeface as a whole 1.3x -> 1.6x).
/// Shares are of items, not of whole blocks, so that two kernels over the
/// same rows split them at the same row whatever their block sizes (a GEMM
/// and the depthwise convolution after it: with shares of blocks, 7 blocks
/// of 4 rows gave the caller 12 of 28 rows where the GEMM had given it 14,
/// and which of the helper's blocks it then took varied from one layer to
/// the next). The caller and each helper hold a reference: a helper may
/// start after the caller has returned (every block taken), and then finds
/// nothing to do.
struct SharedBlocks {
  SharedBlocks(Eigen::Index n, Eigen::Index blockSize,
               absl::FunctionRef<void(Eigen::Index, Eigen::Index)> f,
               int participants)
      : n(n), blockSize(blockSize), participants(participants), f(f),
        refs(participants), cursors(new Cursor[participants]) {
    for (int p = 0; p < participants; ++p)
      cursors[p].next.store(begin(p), std::memory_order_relaxed);
  }

  Eigen::Index begin(int p) const { return n * p / participants; }

  /// Runs blocks until none is left, its own first. `f` is only called for
  /// a block taken here, and the caller waits for every taken item, so `f`
  /// (the caller's) is alive whenever it is called.
  void work(int self) {
    Eigen::Index ran = 0;
    for (int i = 0; i < participants; ++i) {
      const int p = (self + i) % participants;
      const Eigen::Index end = begin(p + 1);
      for (Eigen::Index first;
           (first = cursors[p].next.fetch_add(
                blockSize, std::memory_order_relaxed)) < end;) {
        const Eigen::Index last = std::min(end, first + blockSize);
        f(first, last);
        ran += last - first;
      }
    }
    if (ran)
      finished.fetch_add(ran, std::memory_order_release);
  }

  void dropRef() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }

  /// A participant's next item, on a cache line of its own.
  struct alignas(64) Cursor {
    std::atomic<Eigen::Index> next{0};
  };

  const Eigen::Index n, blockSize;
  const int participants;
  const absl::FunctionRef<void(Eigen::Index, Eigen::Index)> f;
  /// Items done.
  std::atomic<Eigen::Index> finished{0};
  std::atomic<int> refs;
  std::unique_ptr<Cursor[]> cursors;
};
} // namespace

Eigen::Index parallelBlockSize(int threads, Eigen::Index n,
                               double cyclesPerItem) {
  const double total = static_cast<double>(n) * std::max(cyclesPerItem, 0.0);
  const double byCost = total / kMinBlockCycles;
  if (threads <= 1 || byCost < 2)
    return n;
  const Eigen::Index blocks = std::min<Eigen::Index>(
      {n, kBlocksPerThread * threads,
       // Clamped first: a double past int64's range does not convert.
       static_cast<Eigen::Index>(std::min(byCost, static_cast<double>(n)))});
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
  for (int i = 1; i <= helpers; ++i)
    device.getPool()->Schedule([shared, i] {
      shared->work(i);
      shared->dropRef();
    });
  shared->work(0);
  // The blocks other threads took are running: wait for them, briefly
  // spinning, then yielding the core.
  for (int spins = 0; shared->finished.load(std::memory_order_acquire) < n;
       ++spins) {
    if (spins < 8192)
      cpuRelax();
    else
      std::this_thread::yield();
  }
  shared->dropRef();
}

} // namespace tfrt_fallback::rt::kernels
