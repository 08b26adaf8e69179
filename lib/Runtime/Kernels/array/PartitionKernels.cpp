//===- PartitionKernels.cpp - DynamicStitch, DynamicPartition ---*- C++ -*-===//
//
// Index-driven interleaving of whole slices (tensorflow/core/kernels/
// dynamic_stitch_op.cc, dynamic_partition_op.cc): DynamicStitch and
// ParallelDynamicStitch merge the slices of N data tensors into one,
// DynamicPartition splits one tensor into num_partitions. They move raw
// element bytes, so one kernel serves every dtype; every index is checked
// before any slice moves.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Whether `shape` begins with the dims of `prefix`.
bool startsWith(const TensorShape &shape, const TensorShape &prefix) {
  if (shape.rank() < prefix.rank())
    return false;
  for (int d = 0; d < prefix.rank(); ++d)
    if (shape.dim(d) != prefix.dim(d))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// DynamicStitch, ParallelDynamicStitch
//===----------------------------------------------------------------------===//

/// DynamicStitch / ParallelDynamicStitch(indices: N*int32, data: N*T):
/// merged[indices[m][i, ...], :] = data[m][i, ..., :]. The output has
/// max(indices) + 1 rows (0 without indices) of data[0].shape[
/// indices[0].rank:]; rows no index names are zero. Later inputs (and later
/// positions in one input) win on duplicates; ParallelDynamicStitch leaves
/// that order unspecified in TF, here it is the same. Checks, in TF's
/// order: every index in [0, rows) ("indices[3] is out of range", the
/// position within its tensor; a negative index is out of range),
/// data[m].shape starts with indices[m].shape ("data[1].shape = [2] does
/// not start with indices[1].shape = [3]") and every data[m] has the same
/// slice shape ("Need data[0].shape[1:] = data[1].shape[1:], got ...").
class DynamicStitchKernel final : public OpKernel {
public:
  explicit DynamicStitchKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numInputs() > 0 && ctx->numInputs() % 2 == 0,
        errorf("%s: Must have even number of arguments", opName()));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int n = ctx->numInputs() / 2;
    int32_t maxIndex = -1;
    for (int m = 0; m < n; ++m) {
      const Tensor &indices = ctx->input(m);
      const int32_t *p = indices.data<int32_t>();
      for (int64_t i = 0; i < indices.numElements(); ++i)
        maxIndex = std::max(maxIndex, p[i]);
    }
    const int64_t rows = int64_t(maxIndex) + 1;
    for (int m = 0; m < n; ++m) {
      const Tensor &indices = ctx->input(m);
      const int32_t *p = indices.data<int32_t>();
      for (int64_t i = 0; i < indices.numElements(); ++i)
        TFRT_FALLBACK_OP_REQUIRES(ctx, p[i] >= 0,
                                  errorf("indices[%d] is out of range", i));
    }
    const Tensor &indices0 = ctx->input(0);
    const Tensor &data0 = ctx->input(n);
    for (int m = 0; m < n; ++m) {
      const Tensor &indices = ctx->input(m);
      const Tensor &data = ctx->input(n + m);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, startsWith(data.shape(), indices.shape()),
          errorf("data[%d].shape = %s does not start with indices[%d].shape "
                 "= %s",
                 m, data.shape().toString(), m, indices.shape().toString()));
      bool same =
          data.rank() - indices.rank() == data0.rank() - indices0.rank();
      for (int d = 0; same && d < data.rank() - indices.rank(); ++d)
        same = data.dim(indices.rank() + d) == data0.dim(indices0.rank() + d);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, same,
          errorf("Need data[0].shape[%d:] = data[%d].shape[%d:], got "
                 "data[0].shape = %s, data[%d].shape = %s, indices[0].shape = "
                 "%s, indices[%d].shape = %s",
                 indices0.rank(), m, indices.rank(), data0.shape().toString(),
                 m, data.shape().toString(), indices0.shape().toString(), m,
                 indices.shape().toString()));
    }
    TensorShape::Dims dims{rows};
    for (int d = indices0.rank(); d < data0.rank(); ++d)
      dims.push_back(data0.dim(d));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(dims), &out));
    const size_t sliceBytes =
        rows == 0 ? 0 : out->totalBytes() / static_cast<size_t>(rows);
    char *dst = static_cast<char *>(out->rawData());
    std::memset(dst, 0, out->totalBytes());
    if (sliceBytes == 0)
      return;
    for (int m = 0; m < n; ++m) {
      const Tensor &indices = ctx->input(m);
      const int32_t *p = indices.data<int32_t>();
      const char *src = static_cast<const char *>(ctx->input(n + m).rawData());
      for (int64_t i = 0; i < indices.numElements(); ++i)
        std::memcpy(dst + p[i] * sliceBytes, src + i * sliceBytes, sliceBytes);
    }
  }
};

//===----------------------------------------------------------------------===//
// DynamicPartition
//===----------------------------------------------------------------------===//

/// DynamicPartition(data: T, partitions: int32; num_partitions): output p
/// holds, in order, the slices data[i, ..., :] whose partitions[i, ...] is
/// p; its shape is [count of p] + data.shape[partitions.rank:]. data.shape
/// must start with partitions.shape ("data.shape must start with
/// partitions.shape, got data.shape = [..], partitions.shape = [..]") and
/// each partition must be in [0, num_partitions) ("partitions[1] = 5 is
/// not in [0, 2)").
class DynamicPartitionKernel final : public OpKernel {
public:
  explicit DynamicPartitionKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("num_partitions", &numPartitions_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numPartitions_ >= 1 && numPartitions_ == ctx->numOutputs(),
        errorf("num_partitions is %d but the node has %d outputs",
               numPartitions_, ctx->numOutputs()));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &data = ctx->input(0);
    const Tensor &partitions = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, startsWith(data.shape(), partitions.shape()),
        errorf("data.shape must start with partitions.shape, got data.shape "
               "= %s, partitions.shape = %s",
               data.shape().toString(), partitions.shape().toString()));
    const int32_t *p = partitions.data<int32_t>();
    const int64_t n = partitions.numElements();
    std::vector<int64_t> counts(numPartitions_);
    for (int64_t i = 0; i < n; ++i) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, p[i] >= 0 && p[i] < numPartitions_,
          errorf("partitions%s = %d is not in [0, %d)",
                 sliceDebugString(partitions.shape().dims(), i), p[i],
                 numPartitions_));
      ++counts[p[i]];
    }
    std::vector<char *> dst(numPartitions_);
    for (int q = 0; q < numPartitions_; ++q) {
      TensorShape::Dims dims{counts[q]};
      for (int d = partitions.rank(); d < data.rank(); ++d)
        dims.push_back(data.dim(d));
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(q, TensorShape(dims), &out));
      dst[q] = static_cast<char *>(out->rawData());
    }
    if (n == 0 || data.numElements() == 0)
      return;
    const size_t sliceBytes = data.totalBytes() / static_cast<size_t>(n);
    const char *src = static_cast<const char *>(data.rawData());
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(dst[p[i]], src + i * sliceBytes, sliceBytes);
      dst[p[i]] += sliceBytes;
    }
  }

private:
  int32_t numPartitions_ = 0;
};

} // namespace

void registerPartitionKernels(KernelRegistry &registry) {
  registerKernel<OpId::kDynamicStitch, DynamicStitchKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kParallelDynamicStitch, DynamicStitchKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kDynamicPartition, DynamicPartitionKernel>(
      registry, {{"T", kAllDTypes}});
}

} // namespace tfrt_fallback::rt
