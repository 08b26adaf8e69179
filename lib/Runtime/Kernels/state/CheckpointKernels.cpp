//===- CheckpointKernels.cpp - RestoreV2, SaveV2, MergeV2Checkpoints ------===//
//
// TensorFlow's V2 checkpoint ops (tensorflow/core/kernels/
// save_restore_v2_ops.cc) on the tensor bundle reader and writer
// (TensorBundle.h):
//
// - RestoreV2(prefix, tensor_names, shape_and_slices) -> one tensor per
//   `dtypes`: each named tensor of the checkpoint at `prefix`, checked
//   against its dtype (TF: "tensor_name = a; expected dtype float does not
//   equal restored dtype int32").
// - SaveV2(prefix, tensor_names, shape_and_slices, tensors...): writes the
//   tensors as the one-shard checkpoint `prefix`, creating its folder.
// - MergeV2Checkpoints(checkpoint_prefixes, destination_prefix): the
//   one-shard checkpoints become the shards of one; with delete_old_dirs
//   (TF's default true) their folders are removed when left empty.
// A non-empty shape_and_slices entry (a slice of a partitioned variable) is
// Unimplemented.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"
#include "common/TFDTypeName.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StrFormat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"
#include "tfrt_fallback/Runtime/TensorBundle.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// The checkpoint op's status `status` as its error (code kept).
Status opError(const OpKernel &op, const Status &status) {
  return makeOpError(status.code(), op.opName(), op.nodeName(),
                     status.message());
}

/// Checks the prefix (a string scalar) and the names and slices (string
/// vectors of `count` elements, or of the names' length when `count` is
/// -1); fails on a slice.
Status checkSpec(const OpKernel &op, OpKernelContextInterface *ctx,
                 int64_t count) {
  const Tensor &prefix = ctx->input(0);
  const Tensor &names = ctx->input(1);
  const Tensor &slices = ctx->input(2);
  if (prefix.dtype() != DType::String || prefix.numElements() != 1)
    return op.errorf("Input prefix should have a single element, got %d.",
                     prefix.numElements());
  if (names.dtype() != DType::String || slices.dtype() != DType::String ||
      names.rank() != 1 || slices.rank() != 1)
    return op.errorf("tensor_names and shape_and_slices must be string "
                     "vectors, got shapes %s and %s",
                     names.shape().toString(), slices.shape().toString());
  if (count < 0)
    count = names.numElements();
  if (names.numElements() != count || slices.numElements() != count)
    return op.errorf("Expected %d tensor names and slice specs, got %d and %d",
                     count, names.numElements(), slices.numElements());
  for (std::string_view slice : stringElements(slices))
    if (!slice.empty())
      return makeOpError(StatusCode::kUnimplemented, op.opName(), op.nodeName(),
                         strCat("the slice '", slice,
                                "' of a partitioned variable: slices are not "
                                "supported"));
  return OkStatus();
}

std::string prefixOf(OpKernelContextInterface *ctx) {
  return std::string(stringElements(ctx->input(0))[0]);
}

class RestoreV2Kernel : public OpKernel {
public:
  explicit RestoreV2Kernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtypes", &dtypes_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkSpec(*this, ctx, static_cast<int64_t>(dtypes_.size())));
    StatusOr<TensorBundleReader> reader =
        TensorBundleReader::open(prefixOf(ctx));
    TFRT_FALLBACK_OP_REQUIRES(ctx, reader.ok(),
                              opError(*this, reader.status()));
    absl::Span<const std::string_view> names = stringElements(ctx->input(1));
    for (size_t i = 0; i < dtypes_.size(); ++i) {
      StatusOr<Tensor> tensor = reader->read(names[i]);
      TFRT_FALLBACK_OP_REQUIRES(ctx, tensor.ok(),
                                opError(*this, tensor.status()));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, tensor->dtype() == dtypes_[i],
          errorf("tensor_name = %s; expected dtype %s does not equal restored "
                 "dtype %s",
                 names[i], tfDTypeName(dtypes_[i]),
                 tfDTypeName(tensor->dtype())));
      ctx->setOutput(static_cast<int>(i), *std::move(tensor));
    }
  }

private:
  std::vector<DType> dtypes_;
};

/// Creates the folders of `path`'s parent, as TF's BundleWriter does.
Status createParentDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    std::string dir = path.substr(0, slash);
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
      return makeError(StatusCode::kPermissionDenied,
                       "cannot create the folder '%s': %s", dir.c_str(),
                       std::strerror(errno));
  }
  return OkStatus();
}

class SaveV2Kernel : public OpKernel {
public:
  using OpKernel::OpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    const int64_t count = ctx->numInputs() - 3;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkSpec(*this, ctx, count));
    absl::Span<const std::string_view> names = stringElements(ctx->input(1));
    std::vector<std::pair<std::string, Tensor>> tensors;
    tensors.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i)
      tensors.emplace_back(std::string(names[i]),
                           ctx->input(static_cast<int>(3 + i)));
    const std::string prefix = prefixOf(ctx);
    Status status = createParentDirectories(prefix);
    if (status.ok())
      status = writeTensorBundle(prefix, tensors);
    TFRT_FALLBACK_OP_REQUIRES(ctx, status.ok(), opError(*this, status));
  }
};

class MergeV2CheckpointsKernel : public OpKernel {
public:
  explicit MergeV2CheckpointsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    if (ctx->hasAttr("delete_old_dirs"))
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("delete_old_dirs", &deleteOldDirs_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &sources = ctx->input(0);
    const Tensor &destination = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, sources.dtype() == DType::String && sources.rank() <= 1,
        errorf("Input checkpoint_prefixes should be a scalar or a vector, got "
               "shape %s",
               sources.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, destination.dtype() == DType::String && destination.rank() == 0,
        errorf("Input destination_prefix should be a scalar tensor, got shape "
               "%s",
               destination.shape().toString()));
    std::vector<std::string> prefixes;
    for (std::string_view prefix : stringElements(sources))
      prefixes.emplace_back(prefix);
    const std::string merged(stringElements(destination)[0]);
    Status status = createParentDirectories(merged);
    if (status.ok())
      status = mergeTensorBundles(prefixes, merged);
    TFRT_FALLBACK_OP_REQUIRES(ctx, status.ok(), opError(*this, status));
    if (!deleteOldDirs_)
      return;
    const size_t slash = merged.rfind('/');
    const std::string mergedDir =
        slash == std::string::npos ? "" : merged.substr(0, slash);
    for (const std::string &prefix : prefixes) {
      size_t end = prefix.rfind('/');
      if (end == std::string::npos || prefix.substr(0, end) == mergedDir)
        continue;
      // Best effort, as TF: only an empty folder goes.
      ::rmdir(prefix.substr(0, end).c_str());
    }
  }

private:
  bool deleteOldDirs_ = true;
};

} // namespace

void registerCheckpointKernels(KernelRegistry &registry) {
  registerKernel<OpId::kRestoreV2, RestoreV2Kernel>(registry);
  registerKernel<OpId::kSaveV2, SaveV2Kernel>(registry);
  registerKernel<OpId::kMergeV2Checkpoints, MergeV2CheckpointsKernel>(registry);
}

} // namespace tfrt_fallback::rt
