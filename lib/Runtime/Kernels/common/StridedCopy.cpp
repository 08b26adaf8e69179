//===- StridedCopy.cpp - Raw element copies of data movement ----*- C++ -*-===//
//
// The strided copy (a batched cache-tiled transpose, memcpy'd contiguous
// runs, or a strided gather per row) and the parallel memcpy behind it.
//
//===----------------------------------------------------------------------===//

#include "common/StridedCopy.h"

#include "common/Elements.h"
#include "common/ParallelFor.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>

namespace tfrt_fallback::rt::kernels {
namespace {

/// Drops size-1 dims and merges dim d into d + 1 when the input walks them
/// contiguously (strides[d] == strides[d + 1] * dims[d + 1]). Needs a
/// non-empty output.
void simplifyPlan(Dims &dims, Dims &strides) {
  Dims d2, s2;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1)
      continue;
    if (!d2.empty() && s2.back() == strides[i] * dims[i]) {
      d2.back() *= dims[i];
      s2.back() = strides[i];
      continue;
    }
    d2.push_back(dims[i]);
    s2.push_back(strides[i]);
  }
  dims = std::move(d2);
  strides = std::move(s2);
}

template <typename E>
void stridedCopyTyped(const Eigen::ThreadPoolDevice &device, const E *in,
                      E *out, const Dims &dims, const Dims &strides) {
  const int rank = static_cast<int>(dims.size());
  if (rank == 0) {
    out[0] = in[0];
    return;
  }
  const int64_t inner = dims[rank - 1];
  const int64_t innerStride = strides[rank - 1];
  if (rank == 1 && innerStride == 1) {
    parallelMemcpy(device, reinterpret_cast<char *>(out),
                   reinterpret_cast<const char *>(in), inner * sizeof(E));
    return;
  }

  if (rank >= 2 && innerStride != 1 && strides[rank - 2] == 1) {
    // Batched transpose: out[.., a, b] = in[batchOffset + a + b * s].
    constexpr int64_t kTile = 32;
    const int64_t rowsA = dims[rank - 2], colsB = inner, s = innerStride;
    int64_t batches = 1;
    for (int d = 0; d < rank - 2; ++d)
      batches *= dims[d];
    const int64_t tilesA = (rowsA + kTile - 1) / kTile;
    const double tileBytes = double(kTile) * double(colsB) * sizeof(E);
    kernels::parallelFor(device, batches * tilesA,
                         Eigen::TensorOpCost(tileBytes, tileBytes, 0),
                         [&](Eigen::Index first, Eigen::Index last) {
                           for (Eigen::Index t = first; t < last; ++t) {
                             const int64_t batch = t / tilesA;
                             const int64_t a0 = (t % tilesA) * kTile;
                             const int64_t a1 = std::min(rowsA, a0 + kTile);
                             int64_t inBase = 0, rem = batch;
                             for (int d = rank - 3; d >= 0; --d) {
                               inBase += (rem % dims[d]) * strides[d];
                               rem /= dims[d];
                             }
                             E *o = out + batch * rowsA * colsB;
                             const E *i = in + inBase;
                             for (int64_t b0 = 0; b0 < colsB; b0 += kTile) {
                               const int64_t b1 = std::min(colsB, b0 + kTile);
                               for (int64_t a = a0; a < a1; ++a)
                                 for (int64_t b = b0; b < b1; ++b)
                                   o[a * colsB + b] = i[a + b * s];
                             }
                           }
                         });
    return;
  }

  const int64_t rows = static_cast<int64_t>(std::accumulate(
      dims.begin(), dims.end() - 1, int64_t(1), std::multiplies<>()));
  const double rowBytes = double(inner) * sizeof(E);
  kernels::parallelFor(
      device, rows,
      Eigen::TensorOpCost(rowBytes, rowBytes, innerStride == 1 ? 0 : 1),
      [&](Eigen::Index first, Eigen::Index last) {
        // Odometer over the outer dims, starting at row `first`.
        Dims idx(rank - 1, 0);
        int64_t offset = 0, rem = first;
        for (int d = rank - 2; d >= 0; --d) {
          idx[d] = rem % dims[d];
          rem /= dims[d];
          offset += idx[d] * strides[d];
        }
        for (Eigen::Index r = first; r < last; ++r) {
          E *o = out + r * inner;
          const E *i = in + offset;
          if (innerStride == 1) {
            std::memcpy(o, i, inner * sizeof(E));
          } else {
            for (int64_t j = 0; j < inner; ++j)
              o[j] = i[j * innerStride];
          }
          for (int d = rank - 2; d >= 0; --d) {
            offset += strides[d];
            if (++idx[d] < dims[d])
              break;
            offset -= idx[d] * strides[d];
            idx[d] = 0;
          }
        }
      });
}

} // namespace

/// memcpy of `bytes` bytes split over the device's threads when large.
void parallelMemcpy(const Eigen::ThreadPoolDevice &device, char *dst,
                    const char *src, int64_t bytes) {
  constexpr int64_t kBlock = 1 << 16;
  if (bytes <= kBlock) {
    std::memcpy(dst, src, bytes);
    return;
  }
  kernels::parallelFor(device, (bytes + kBlock - 1) / kBlock,
                       Eigen::TensorOpCost(kBlock, kBlock, 0),
                       [=](Eigen::Index first, Eigen::Index last) {
                         const int64_t begin = first * kBlock;
                         const int64_t end = std::min(bytes, last * kBlock);
                         std::memcpy(dst + begin, src + begin, end - begin);
                       });
}

/// Fills `out` (which has shape `dims`, non-empty) from `in` read at element
/// offset base + sum(i_d * strides[d]) (strides may be 0 or negative).
void stridedCopy(const Eigen::ThreadPoolDevice &device, const Tensor &in,
                 int64_t base, Dims dims, Dims strides, Tensor &out) {
  simplifyPlan(dims, strides);
  dispatchElementSize(in.dtype(), [&](auto e) {
    using E = decltype(e);
    stridedCopyTyped<E>(device, static_cast<const E *>(in.rawData()) + base,
                        static_cast<E *>(out.rawData()), dims, strides);
  });
}

/// True if the plan reads one contiguous run of the input in order, so the
/// output can be a view.
bool isContiguousPlan(Dims dims, Dims strides) {
  simplifyPlan(dims, strides);
  return dims.empty() || (dims.size() == 1 && strides[0] == 1);
}

} // namespace tfrt_fallback::rt::kernels
