//===- ResourceKernels.cpp - Resource variable ops ------------------------===//
//
// TensorFlow's resource variables (tensorflow/core/kernels/
// resource_variable_ops.cc) on the executor's ResourceManager (Resource.h):
//
// - VarHandleOp(container, shared_name, dtype, shape): a resource scalar
//   naming the variable (shared_name, or the node's name when empty, as TF
//   graphs do). It creates nothing.
// - AssignVariableOp(resource, value): creates the variable at its first
//   assignment, then replaces its value; the dtype must be the variable's.
//   validate_shape (TF's default false) requires the shape to stay.
// - AssignAddVariableOp / AssignSubVariableOp(resource, value): value +/-
//   the variable's, same shape (TF: "Cannot update variable with shape ...
//   using a Tensor with shape ..., shapes must be equal.").
// - ReadVariableOp(resource): the value (sharing its buffer: values are
//   immutable, an assignment replaces the buffer, never writes into it).
// - VarIsInitializedOp(resource): whether the variable has a value.
// - DestroyResourceOp(resource, ignore_lookup_error): deletes it.
// Reads and writes of one variable are ordered by the program's chains (the
// ops are stateful); each kernel holds the variable's mutex while it works.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Resource.h"

#include "tfrt_fallback/Runtime/StrCat.h"

#include <memory>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// `resource` as a variable, or null for another kind (no RTTI: shipped
/// runtimes may build without it).
std::shared_ptr<Var> asVar(const std::shared_ptr<Resource> &resource) {
  if (!resource || resource->kind() != "Var")
    return nullptr;
  return std::static_pointer_cast<Var>(resource);
}

/// The handle of input 0, or null after recording an error.
const ResourceHandle *getHandle(OpKernelContextInterface *ctx,
                                const OpKernel &op) {
  const ResourceHandle *handle = getResourceHandle(ctx->input(0));
  if (!handle || !handle->name.size()) {
    ctx->ctxFailure(op.errorf("input 0 is not a resource handle"));
    return nullptr;
  }
  if (!ctx->resourceManager()) {
    ctx->ctxFailure(makeOpError(StatusCode::kFailedPrecondition, op.opName(),
                                op.nodeName(),
                                "no resource manager: the kernel runs "
                                "outside an executor"));
    return nullptr;
  }
  return handle;
}

/// The variable of `handle` (which must exist), or null after recording
/// TF's error for a missing one.
std::shared_ptr<Var> lookupVar(OpKernelContextInterface *ctx,
                               const OpKernel &op,
                               const ResourceHandle &handle) {
  StatusOr<std::shared_ptr<Resource>> resource =
      ctx->resourceManager()->lookup(handle);
  std::shared_ptr<Var> var;
  if (resource.ok())
    var = asVar(*resource);
  if (!var)
    ctx->ctxFailure(makeOpError(
        StatusCode::kFailedPrecondition, op.opName(), op.nodeName(),
        strCat("Could not find variable ", handle.debugName(),
               ". This could mean that the variable has been deleted. "
               "In TF1, it can also mean the variable is "
               "uninitialized.")));
  return var;
}

/// A variable with a value, its mutex held.
struct LockedVar {
  const ResourceHandle *handle = nullptr;
  std::shared_ptr<Var> var;
  std::unique_lock<std::mutex> lock;
};

/// The variable input 0 names, locked, when it exists and has a value;
/// otherwise var is null and the error (TF's) is recorded.
LockedVar lockInitializedVar(OpKernelContextInterface *ctx,
                             const OpKernel &op) {
  LockedVar locked;
  locked.handle = getHandle(ctx, op);
  if (!locked.handle)
    return locked;
  std::shared_ptr<Var> var = lookupVar(ctx, op, *locked.handle);
  if (!var)
    return locked;
  locked.lock = std::unique_lock<std::mutex>(var->mutex);
  if (!var->value.isValid()) {
    ctx->ctxFailure(makeOpError(
        StatusCode::kFailedPrecondition, op.opName(), op.nodeName(),
        strCat("Read of uninitialized variable ", locked.handle->debugName())));
    return locked;
  }
  locked.var = std::move(var);
  return locked;
}

class VarHandleOpKernel final : public OpKernel {
public:
  explicit VarHandleOpKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "container", &handle_.container));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "shared_name", &handle_.name));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &handle_.dtype));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "shape", &handle_.shape));
    if (handle_.name.empty())
      handle_.name = nodeName();
  }
  void compute(OpKernelContextInterface *ctx) override {
    ctx->setOutput(0, makeResourceTensor(handle_));
  }

private:
  ResourceHandle handle_;
};

class ReadVariableOpKernel final : public OpKernel {
public:
  explicit ReadVariableOpKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    LockedVar locked = lockInitializedVar(ctx, *this);
    if (!locked.var)
      return;
    const ResourceHandle *handle = locked.handle;
    const std::shared_ptr<Var> &var = locked.var;
    if (var->dtype() != dtype_) {
      ctx->ctxFailure(errorf(
          "Trying to read variable %s with wrong dtype. Expected %s "
          "got %s",
          handle->debugName(), dtypeName(var->dtype()), dtypeName(dtype_)));
      return;
    }
    ctx->setOutput(0, var->value);
  }

private:
  DType dtype_ = DType::Invalid;
};

class AssignVariableOpKernel final : public OpKernel {
public:
  explicit AssignVariableOpKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "validate_shape", &validateShape_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const ResourceHandle *handle = getHandle(ctx, *this);
    if (!handle)
      return;
    const Tensor &value = ctx->input(1);
    if (value.dtype() != dtype_) {
      ctx->ctxFailure(errorf("value has dtype %s, the dtype attribute says %s",
                             dtypeName(value.dtype()), dtypeName(dtype_)));
      return;
    }
    std::shared_ptr<Resource> resource = ctx->resourceManager()->lookupOrCreate(
        *handle, [&] { return std::make_shared<Var>(dtype_); });
    auto var = asVar(resource);
    if (!var) {
      ctx->ctxFailure(errorf("%s is a %s, not a variable", handle->debugName(),
                             resource->kind()));
      return;
    }
    std::lock_guard<std::mutex> lock(var->mutex);
    if (var->dtype() != dtype_) {
      ctx->ctxFailure(errorf("Trying to assign variable with wrong dtype. "
                             "Expected %s got %s",
                             dtypeName(var->dtype()), dtypeName(dtype_)));
      return;
    }
    if (validateShape_ && var->value.isValid() &&
        var->value.shape() != value.shape()) {
      ctx->ctxFailure(errorf("Trying to assign to variable with tensor with "
                             "wrong shape. Expected %s got %s",
                             var->value.shape().toString(),
                             value.shape().toString()));
      return;
    }
    var->value = value;
  }

private:
  DType dtype_ = DType::Invalid;
  bool validateShape_ = false;
};

/// AssignAddVariableOp (Sign = 1) and AssignSubVariableOp (Sign = -1).
template <int Sign> class AssignUpdateVariableOpKernel final : public OpKernel {
public:
  explicit AssignUpdateVariableOpKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    LockedVar locked = lockInitializedVar(ctx, *this);
    if (!locked.var)
      return;
    const ResourceHandle *handle = locked.handle;
    const std::shared_ptr<Var> &var = locked.var;
    const Tensor &value = ctx->input(1);
    if (var->dtype() != dtype_ || value.dtype() != dtype_) {
      ctx->ctxFailure(errorf("Trying to update variable %s of dtype %s with "
                             "a %s value",
                             handle->debugName(), dtypeName(var->dtype()),
                             dtypeName(value.dtype())));
      return;
    }
    const Tensor &old = var->value;
    if (old.shape() != value.shape()) {
      ctx->ctxFailure(errorf("Cannot update variable with shape %s using a "
                             "Tensor with shape %s, shapes must be equal.",
                             old.shape().toString(), value.shape().toString()));
      return;
    }
    StatusOr<Tensor> updated = Tensor::allocate(dtype_, old.shape());
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, updated.status());
    Status status = dispatchDType(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::Type;
      const T *a = old.data<T>();
      const T *b = value.data<T>();
      T *out = updated->template data<T>();
      for (int64_t i = 0, e = old.numElements(); i < e; ++i)
        out[i] = Sign > 0 ? static_cast<T>(a[i] + b[i])
                          : static_cast<T>(a[i] - b[i]);
    });
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, status);
    var->value = *std::move(updated);
  }

private:
  DType dtype_ = DType::Invalid;
};

class VarIsInitializedOpKernel final : public OpKernel {
public:
  explicit VarIsInitializedOpKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const ResourceHandle *handle = getHandle(ctx, *this);
    if (!handle)
      return;
    bool initialized = false;
    StatusOr<std::shared_ptr<Resource>> resource =
        ctx->resourceManager()->lookup(*handle);
    if (resource.ok())
      if (auto var = asVar(*resource)) {
        std::lock_guard<std::mutex> lock(var->mutex);
        initialized = var->value.isValid();
      }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape{}, &out));
    out->data<bool>()[0] = initialized;
  }
};

class DestroyResourceOpKernel final : public OpKernel {
public:
  explicit DestroyResourceOpKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "ignore_lookup_error", &ignoreLookupError_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const ResourceHandle *handle = getHandle(ctx, *this);
    if (!handle)
      return;
    Status status = ctx->resourceManager()->erase(*handle);
    if (!status.ok() && !ignoreLookupError_)
      ctx->ctxFailure(
          makeOpError(status.code(), opName(), nodeName(), status.message()));
  }

private:
  bool ignoreLookupError_ = true;
};

/// The dtypes TF registers AssignAdd/AssignSubVariableOp for on CPU (its
/// number types without complex and the quantized ones).
constexpr DType kUpdateDTypes[] = {
    DType::F32, DType::F64, DType::F16, DType::BF16, DType::I8,  DType::I16,
    DType::I32, DType::I64, DType::U8,  DType::U16,  DType::U32, DType::U64};

} // namespace

void registerResourceKernels(KernelRegistry &registry) {
  // VarHandleOp's dtype types no operand: any is accepted here; the
  // variable's reads and writes check it.
  registerKernel<OpId::kVarHandleOp, VarHandleOpKernel>(registry);
  registerKernel<OpId::kReadVariableOp, ReadVariableOpKernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kAssignVariableOp, AssignVariableOpKernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kAssignAddVariableOp, AssignUpdateVariableOpKernel<1>>(
      registry, {{"dtype", kUpdateDTypes}});
  registerKernel<OpId::kAssignSubVariableOp, AssignUpdateVariableOpKernel<-1>>(
      registry, {{"dtype", kUpdateDTypes}});
  registerKernel<OpId::kVarIsInitializedOp, VarIsInitializedOpKernel>(registry);
  registerKernel<OpId::kDestroyResourceOp, DestroyResourceOpKernel>(registry);
}

} // namespace tfrt_fallback::rt
