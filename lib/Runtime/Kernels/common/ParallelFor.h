//===- ParallelFor.h - Parallel loops over the device -----------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. Parallel loops over an Eigen thread-pool
// device, with the caller running blocks too (ParallelFor.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_PARALLELFOR_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_PARALLELFOR_H

#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/functional/function_ref.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Parallel loops
//===----------------------------------------------------------------------===//

/// How many items of [0, n) go in one block when each costs `cyclesPerItem`
/// and `threads` threads may share them: blocks of at least ~20,000 cycles,
/// about four per thread for balance; n when one thread should do it all
/// (ParallelFor.cpp).
Eigen::Index parallelBlockSize(int threads, Eigen::Index n,
                               double cyclesPerItem);

/// Runs `f(first, last)` on blocks of at most `blockSize` items covering
/// [0, n): the calling thread and the device's pool threads each own an
/// equal contiguous share of the items (the caller the first), run it in
/// blocks, then what is left of the others', and the call returns once
/// every block has run (ParallelFor.cpp). A block never crosses a share's
/// end, so calls over the same rows split them at the same rows whatever
/// their block sizes. Safe to nest: the caller never waits for a block
/// nobody has started.
void parallelForBlocks(const Eigen::ThreadPoolDevice &device, Eigen::Index n,
                       Eigen::Index blockSize,
                       absl::FunctionRef<void(Eigen::Index, Eigen::Index)> f);

/// Runs `f(first, last)` over [0, n) on `device`, like
/// Eigen::ThreadPoolDevice::parallelFor with its cost model, but the calling
/// thread runs blocks too (Eigen's hands them all to the pool and sleeps
/// when there are more blocks than threads) and no block waits for a thread
/// to wake up (the pool's threads spin briefly between tasks); `f` is called
/// directly when the device has one thread, there is one item, or the work
/// is too small to share. `args` are the optional block-align function
/// (then Eigen's parallelFor runs) followed by `f`.
template <typename... Args>
void parallelFor(const Eigen::ThreadPoolDevice &device, Eigen::Index n,
                 const Eigen::TensorOpCost &cost, Args &&...args) {
  if (n <= 0)
    return;
  auto &&f = std::get<sizeof...(Args) - 1>(std::forward_as_tuple(args...));
  if (n == 1 || device.numThreads() <= 1) {
    f(Eigen::Index(0), n);
    return;
  }
  if constexpr (sizeof...(Args) == 1) {
    const Eigen::Index blockSize = parallelBlockSize(
        device.numThreads(), n,
        Eigen::TensorCostModel<Eigen::ThreadPoolDevice>::totalCost(1, cost));
    if (blockSize >= n) {
      f(Eigen::Index(0), n);
      return;
    }
    parallelForBlocks(device, n, blockSize, f);
  } else {
    device.parallelFor(n, cost, std::forward<Args>(args)...);
  }
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_PARALLELFOR_H
