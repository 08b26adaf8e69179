//===- ImmutableConstKernels.cpp - ImmutableConst ---------------*- C++ -*-===//
//
// ImmutableConst(dtype, shape, memory_region_name): TF's constant read from
// a region of the memmapped file system (kernels/immutable_constant_op.cc).
// The region is `memmapped_package://NAME` of the executor's memmapped
// package (MemmappedPackage.h; fallback-run --memmapped-package=FILE),
// which the first ImmutableConst to run maps and keeps as a resource of the
// executor (an error opening it is every ImmutableConst's error); the
// output aliases the mapped file when the region is aligned, else is a
// copy. Errors: no package, no such region, a region whose size is not
// dtype x shape; string, resource and variant dtypes are refused as TF
// refuses them.
//
//===----------------------------------------------------------------------===//

#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/MemmappedPackage.h"
#include "tfrt_fallback/Runtime/Resource.h"

#include <string>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// The executor's mapped package, or why it could not be mapped.
class PackageResource final : public Resource {
public:
  explicit PackageResource(
      StatusOr<std::shared_ptr<const MemmappedPackage>> package)
      : package(std::move(package)) {}
  std::string_view kind() const override { return "MemmappedPackage"; }

  const StatusOr<std::shared_ptr<const MemmappedPackage>> package;
};

class ImmutableConstKernel final : public OpKernel {
public:
  explicit ImmutableConstKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("memory_region_name", &regionName_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype_));
    if (dtype_ == DType::Resource || dtype_ == DType::Variant) {
      ctx->ctxFailure(
          errorf("Resource and variant dtypes are invalid for this op."));
      return;
    }
    if (dtype_ == DType::String) {
      ctx->ctxFailure(makeOpError(StatusCode::kUnimplemented, opName(),
                                  nodeName(),
                                  "Sorry, DT_STRING is not currently "
                                  "supported for ImmutableConstOp."));
      return;
    }
    PartialShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("shape", &shape));
    if (!shape.isFullyDefined()) {
      ctx->ctxFailure(
          errorf("shape must be fully defined, got %s", shape.toString()));
      return;
    }
    StatusOr<TensorShape> s = TensorShape::create(shape.dims());
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, s.status());
    shape_ = *s;
    const std::string_view prefix = MemmappedPackage::kPrefix;
    if (regionName_.compare(0, prefix.size(), prefix) != 0) {
      ctx->ctxFailure(errorf("memory_region_name '%s' is not a region of the "
                             "memmapped package (%s...)",
                             regionName_, prefix));
      return;
    }
  }

  void compute(OpKernelContextInterface *ctx) override {
    ResourceManager *resources = ctx->resourceManager();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, resources && !resources->memmappedPackagePath().empty(),
        errorf("no memmapped package for region '%s' (give one with "
               "--memmapped-package=FILE)",
               regionName_));
    const std::string &path = resources->memmappedPackagePath();
    ResourceHandle handle;
    handle.container = "_memmapped_package";
    handle.name = path;
    std::shared_ptr<Resource> resource =
        resources->lookupOrCreate(handle, [&]() -> std::shared_ptr<Resource> {
          return std::make_shared<PackageResource>(
              MemmappedPackage::open(path));
        });
    const auto &package =
        static_cast<const PackageResource &>(*resource).package;
    if (!package.ok()) {
      ctx->ctxFailure(makeOpError(package.status().code(), opName(), nodeName(),
                                  std::string(package.status().message())));
      return;
    }
    StatusOr<Tensor> t = (*package)->tensor(
        std::string_view(regionName_).substr(MemmappedPackage::kPrefix.size()),
        dtype_, shape_);
    if (!t.ok()) {
      ctx->ctxFailure(makeOpError(t.status().code(), opName(), nodeName(),
                                  std::string(t.status().message())));
      return;
    }
    ctx->setOutput(0, *std::move(t));
  }

private:
  std::string regionName_;
  DType dtype_ = DType::Invalid;
  TensorShape shape_;
};

} // namespace

void registerImmutableConstKernels(KernelRegistry &registry) {
  registerKernel<OpId::kImmutableConst, ImmutableConstKernel>(registry);
}

} // namespace tfrt_fallback::rt
