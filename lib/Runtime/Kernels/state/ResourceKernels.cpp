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
// - _VarHandlesOp / _ReadVariablesOp: N VarHandleOps / ReadVariableOps in
//   one node (TF's grappler batches them so).
// - VarIsInitializedOp(resource): whether the variable has a value.
// - DestroyResourceOp(resource, ignore_lookup_error): deletes it.
// - VariableShape(input): the value's shape.
// - ResourceGather / ResourceGatherNd(resource, indices): GatherV2 (axis =
//   batch_dims) / GatherNd of the value (Gather.h).
// - ResourceScatter{Add,Sub,Mul,Div,Min,Max,Update} and
//   ResourceScatterNd{Add,Sub,Min,Max,Update}(resource, indices, updates)
//   and ResourceStridedSliceAssign(ref, begin, end, strides, value): the
//   value with some slices updated (Scatter.h, StridedSlice.h). The new
//   value is built in a copy that replaces the old one (copy-on-write, as
//   AssignAdd), after every index and shape has been checked.
// Reads and writes of one variable are ordered by the program's chains (the
// ops are stateful); each kernel holds the variable's mutex while it works
// (the gathers only while they take the value).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Gather.h"
#include "common/Registration.h"
#include "common/Scatter.h"
#include "common/StridedSlice.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Resource.h"

#include "tfrt_fallback/Runtime/StrCat.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

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

/// The handle of input `index`, or null after recording an error.
const ResourceHandle *getHandle(OpKernelContextInterface *ctx,
                                const OpKernel &op, int index = 0) {
  const ResourceHandle *handle = getResourceHandle(ctx->input(index));
  if (!handle || !handle->name.size()) {
    ctx->ctxFailure(op.errorf("input %d is not a resource handle", index));
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

/// The variable input `index` names, locked, when it exists and has a value;
/// otherwise var is null and the error (TF's) is recorded.
LockedVar lockInitializedVar(OpKernelContextInterface *ctx, const OpKernel &op,
                             int index = 0) {
  LockedVar locked;
  locked.handle = getHandle(ctx, op, index);
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

/// _VarHandlesOp(containers, shared_names, N, dtypes, shapes): N handles
/// at once, as VarHandleOp makes each (TF's ResourceHandlesOp; grappler
/// batches the VarHandleOps of a graph into one). A handle without a name
/// is named after the node and its output, "node:i", so it stays one
/// variable (TF makes it anonymous).
class VarHandlesOpKernel final : public OpKernel {
public:
  explicit VarHandlesOpKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    int64_t n = 0;
    std::vector<std::string> containers, names;
    std::vector<DType> dtypes;
    std::vector<PartialShape> shapes;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("N", &n));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("containers", &containers));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("shared_names", &names));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "dtypes", &dtypes));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "shapes", &shapes));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, static_cast<int64_t>(containers.size()) == n,
        errorf("Number of containers (%d) must be equal to N (%d)",
               containers.size(), n));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, static_cast<int64_t>(names.size()) == n,
        errorf("Number of names (%d) must be equal to N (%d)", names.size(),
               n));
    for (int64_t i = 0; i < n; ++i) {
      ResourceHandle handle;
      handle.container = containers[i];
      handle.name = names[i].empty() ? strCat(nodeName(), ":", i) : names[i];
      if (static_cast<int64_t>(dtypes.size()) == n)
        handle.dtype = dtypes[i];
      if (static_cast<int64_t>(shapes.size()) == n)
        handle.shape = shapes[i];
      handles_.push_back(std::move(handle));
    }
  }
  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numOutputs() == static_cast<int>(handles_.size()),
        errorf("expected %d outputs, the node has %d", handles_.size(),
               ctx->numOutputs()));
    for (size_t i = 0; i < handles_.size(); ++i)
      ctx->setOutput(i, makeResourceTensor(handles_[i]));
  }

private:
  std::vector<ResourceHandle> handles_;
};

/// _ReadVariablesOp(resources; N, dtypes): ReadVariableOp of each resource
/// (TF's ReadVariablesOp): every variable must exist and have a value (the
/// names of the uninitialized ones in one error) and dtypes[i]'s dtype.
class ReadVariablesOpKernel final : public OpKernel {
public:
  explicit ReadVariablesOpKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    int64_t n = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("N", &n));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtypes", &dtypes_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, static_cast<int64_t>(dtypes_.size()) == n,
        errorf("Mismatched number of arguments to ReadVariablesOp (%d vs. %d)",
               n, dtypes_.size()));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const int n = static_cast<int>(dtypes_.size());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numInputs() == n && ctx->numOutputs() == n,
        errorf("expected %d inputs and outputs, the node has %d and %d", n,
               ctx->numInputs(), ctx->numOutputs()));
    std::vector<Tensor> values(n);
    std::string uninitialized;
    for (int i = 0; i < n; ++i) {
      const ResourceHandle *handle = getHandle(ctx, *this, i);
      if (!handle)
        return;
      StatusOr<std::shared_ptr<Resource>> resource =
          ctx->resourceManager()->lookup(*handle);
      std::shared_ptr<Var> var = resource.ok() ? asVar(*resource) : nullptr;
      if (var) {
        std::lock_guard<std::mutex> lock(var->mutex);
        values[i] = var->value;
      }
      if (!values[i].isValid()) {
        strAppend(&uninitialized, uninitialized.empty() ? "" : ", ",
                  handle->name);
        continue;
      }
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, values[i].dtype() == dtypes_[i],
          errorf("Trying to read variable %s from Container: %s with wrong "
                 "dtype. Expected %s got %s",
                 handle->name, handle->container, dtypeName(dtypes_[i]),
                 dtypeName(values[i].dtype())));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, uninitialized.empty(),
        makeOpError(StatusCode::kFailedPrecondition, opName(), nodeName(),
                    strCat("In ReadVariablesOp the following variables were "
                           "found uninitialized: ",
                           uninitialized)));
    for (int i = 0; i < n; ++i)
      ctx->setOutput(i, std::move(values[i]));
  }

private:
  std::vector<DType> dtypes_;
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
    Status status = dispatchDType(dtype_, [&](auto tag) -> Status {
      using T = typename decltype(tag)::Type;
      if constexpr (kIsQuantized<T>) {
        return errorf("cannot add to a variable of %s", dtypeName(dtype_));
      } else {
        const T *a = old.data<T>();
        const T *b = value.data<T>();
        T *out = updated->template data<T>();
        for (int64_t i = 0, e = old.numElements(); i < e; ++i)
          out[i] = Sign > 0 ? static_cast<T>(a[i] + b[i])
                            : static_cast<T>(a[i] - b[i]);
        return OkStatus();
      }
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

/// Calls f(DTypeTag<T>{}) for the number type T of `dtype` (one of
/// kUpdateDTypes); false for another dtype.
template <typename F> bool dispatchNumber(DType dtype, F &&f) {
  switch (dtype) {
#define TFRT_FALLBACK_NUMBER_CASE(Enum, CppType)                               \
  case DType::Enum:                                                            \
    f(DTypeTag<CppType>{});                                                    \
    return true;
    TFRT_FALLBACK_NUMBER_CASE(F32, float)
    TFRT_FALLBACK_NUMBER_CASE(F64, double)
    TFRT_FALLBACK_NUMBER_CASE(F16, Eigen::half)
    TFRT_FALLBACK_NUMBER_CASE(BF16, Eigen::bfloat16)
    TFRT_FALLBACK_NUMBER_CASE(I8, int8_t)
    TFRT_FALLBACK_NUMBER_CASE(I16, int16_t)
    TFRT_FALLBACK_NUMBER_CASE(I32, int32_t)
    TFRT_FALLBACK_NUMBER_CASE(I64, int64_t)
    TFRT_FALLBACK_NUMBER_CASE(U8, uint8_t)
    TFRT_FALLBACK_NUMBER_CASE(U16, uint16_t)
    TFRT_FALLBACK_NUMBER_CASE(U32, uint32_t)
    TFRT_FALLBACK_NUMBER_CASE(U64, uint64_t)
#undef TFRT_FALLBACK_NUMBER_CASE
  default:
    return false;
  }
}

/// The variable's value when it has `dtype`; otherwise null after
/// recording TF's ReadVariableOp error.
const Tensor *readableValue(OpKernelContextInterface *ctx, const OpKernel &op,
                            const LockedVar &locked, DType dtype) {
  if (locked.var->dtype() == dtype)
    return &locked.var->value;
  ctx->ctxFailure(op.errorf("Trying to read variable %s with wrong dtype. "
                            "Expected %s got %s",
                            locked.handle->debugName(),
                            dtypeName(locked.var->dtype()), dtypeName(dtype)));
  return nullptr;
}

/// A new tensor holding a copy of `value`, to update and then assign.
StatusOr<Tensor> copyOf(const Tensor &value) {
  StatusOr<Tensor> copy = Tensor::allocate(value.dtype(), value.shape());
  if (copy.ok() && value.totalBytes())
    std::memcpy(copy->rawData(), value.rawData(), value.totalBytes());
  return copy;
}

/// ResourceGather(resource, indices; batch_dims, validate_indices): the
/// variable's value gathered as GatherV2(value, indices, axis = batch_dims,
/// batch_dims) does. validate_indices is ignored: indices are always
/// checked (as TF's CPU kernel does).
class ResourceGatherKernel final : public OpKernel {
public:
  explicit ResourceGatherKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "batch_dims", &batchDims_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, batchDims_ >= 0,
        errorf("batch_dims is negative (%d)", batchDims_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    Tensor params;
    {
      LockedVar locked = lockInitializedVar(ctx, *this);
      if (!locked.var)
        return;
      const Tensor *value = readableValue(ctx, *this, locked, dtype_);
      if (!value)
        return;
      // Values are never written into: the gather reads this one after
      // the lock is released.
      params = *value;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, params.rank() < 1 || params.rank() >= batchDims_,
        errorf("params must have at least %d (batch_dims) dimensions but it "
               "has shape %s",
               batchDims_, params.shape().toString()));
    GatherPlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 planGather(*this, params, ctx->input(1),
                                            batchDims_, batchDims_, &plan));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(plan.outDims), &out));
    gatherInto(ctx->eigenDevice(), params, plan, *out);
  }

private:
  DType dtype_ = DType::Invalid;
  int64_t batchDims_ = 0;
};

/// ResourceGatherNd(resource, indices): GatherNd(value, indices) of the
/// variable's value.
class ResourceGatherNdKernel final : public OpKernel {
public:
  explicit ResourceGatherNdKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    Tensor params;
    {
      LockedVar locked = lockInitializedVar(ctx, *this);
      if (!locked.var)
        return;
      const Tensor *value = readableValue(ctx, *this, locked, dtype_);
      if (!value)
        return;
      params = *value;
    }
    GatherPlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, planGatherNd(*this, params, ctx->input(1), &plan));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(plan.outDims), &out));
    gatherInto(ctx->eigenDevice(), params, plan, *out);
  }

private:
  DType dtype_ = DType::Invalid;
};

/// VariableShape(input; out_type): the shape of the variable's value, an
/// int32 (the default) or int64 vector.
class VariableShapeKernel final : public OpKernel {
public:
  explicit VariableShapeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "out_type", &outType_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    TensorShape shape;
    {
      LockedVar locked = lockInitializedVar(ctx, *this);
      if (!locked.var)
        return;
      shape = locked.var->value.shape();
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{shape.rank()}, &out));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, out->dtype() == DType::I32 || out->dtype() == DType::I64,
        errorf("out_type must be int32 or int64, got %s",
               dtypeName(out->dtype())));
    for (int i = 0; i < shape.rank(); ++i) {
      if (out->dtype() == DType::I32)
        out->data<int32_t>()[i] = static_cast<int32_t>(shape.dim(i));
      else
        out->data<int64_t>()[i] = shape.dim(i);
    }
  }

private:
  DType outType_ = DType::I32;
};

/// Which TF kernel's rules a scatter into a variable follows.
enum class ScatterRules {
  /// ResourceScatterAdd and friends (resource_variable_ops.cc): rows of the
  /// value picked by indices of any shape; updates.shape = indices.shape +
  /// value.shape[1:], or a scalar for every element of those rows. Their
  /// type attribute is `dtype`.
  Rows,
  /// ResourceScatterNdAdd and friends (scatter_nd_op.cc): slices addressed
  /// by the tuples of indices [..., k]; updates.shape = indices.shape[:-1] +
  /// value.shape[k:]. Their type attribute is `T`, and bad_indices_policy
  /// "IGNORE" skips tuples out of range.
  Nd,
};

/// ResourceScatter{Add,Sub,Mul,Div,Min,Max,Update}(resource, indices,
/// updates) and ResourceScatterNd{Add,Sub,Min,Max,Update}(ref, indices,
/// updates): the variable's value with each update slice combined into the
/// slice its index addresses (Op of Scatter.h; repeated indices apply in
/// order). Every index is checked before anything changes; the new value
/// replaces the old one (which readers may share) as a whole. Update moves
/// raw elements of any dtype; the others are typed (kUpdateDTypes).
/// ResourceScatterDiv fails on a zero update, as TF's CPU kernel does.
template <ScatterRules Rules, ScatterOp Op>
class ResourceScatterKernel final : public OpKernel {
public:
  explicit ResourceScatterKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->getAttr(Rules == ScatterRules::Rows ? "dtype" : "T", &dtype_));
    if (Rules == ScatterRules::Nd)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, readBadIndicesPolicy(*this, ctx, &ignoreBad_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    LockedVar locked = lockInitializedVar(ctx, *this);
    if (!locked.var)
      return;
    const Tensor &old = locked.var->value;
    const Tensor &indices = ctx->input(1);
    const Tensor &updates = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, old.dtype() == updates.dtype() && old.dtype() == dtype_,
        errorf("DType of scatter resource and updates does not match."));
    ScatterPlan plan;
    if constexpr (Rules == ScatterRules::Rows) {
      bool hasZero = false;
      if constexpr (Op == ScatterOp::Div)
        dispatchNumber(dtype_, [&](auto tag) {
          using T = typename decltype(tag)::Type;
          hasZero = containsZero<T>(updates);
        });
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   planScatterRows(*this, old.shape(), indices,
                                                   updates, hasZero, &plan));
    } else {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   planScatterNd(*this, old.shape(), indices,
                                                 updates, ignoreBad_, &plan));
    }
    if (plan.offsets.empty())
      return;
    StatusOr<Tensor> updated = copyOf(old);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, updated.status());
    if constexpr (Op == ScatterOp::Update) {
      applyScatterUpdateBytes(updated->rawData(), plan, updates.rawData(),
                              dtypeSize(dtype_));
    } else {
      const bool typed = dispatchNumber(dtype_, [&](auto tag) {
        using T = typename decltype(tag)::Type;
        applyScatter<T, Op>(updated->template data<T>(), plan,
                            updates.data<T>());
      });
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, typed, errorf("unsupported dtype %s", dtypeName(dtype_)));
    }
    locked.var->value = *std::move(updated);
  }

private:
  DType dtype_ = DType::Invalid;
  bool ignoreBad_ = false;
};

/// ResourceStridedSliceAssign(ref, begin, end, strides, value; T, masks):
/// the variable's value with the strided slice StridedSlice(value, begin,
/// end, strides) would read (StridedSlice.h) set to `value`, broadcast to
/// the slice's shape as TF's StridedSliceAssignBCast does (leading dims of
/// `value` beyond the slice's rank must be 1). The new value replaces the
/// old one as a whole. Raw elements, every dtype.
class ResourceStridedSliceAssignKernel final : public OpKernel {
public:
  explicit ResourceStridedSliceAssignKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("T", &dtype_));
    const std::pair<const char *, int32_t *> masks[] = {
        {"begin_mask", &beginMask_},
        {"end_mask", &endMask_},
        {"ellipsis_mask", &ellipsisMask_},
        {"new_axis_mask", &newAxisMask_},
        {"shrink_axis_mask", &shrinkMask_}};
    for (const auto &[name, value] : masks)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, name, value));
  }
  void compute(OpKernelContextInterface *ctx) override {
    LockedVar locked = lockInitializedVar(ctx, *this);
    if (!locked.var)
      return;
    const Tensor &old = locked.var->value;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, old.dtype() == dtype_,
        errorf("l-value dtype %s does not match r-value dtype %s",
               dtypeName(old.dtype()), dtypeName(dtype_)));
    StridedSlicePlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, planStridedSlice(*this, old.shape(), ctx->input(1), ctx->input(2),
                              ctx->input(3), beginMask_, endMask_,
                              ellipsisMask_, newAxisMask_, shrinkMask_, &plan));
    int64_t count = 1;
    for (int64_t dim : plan.processingDims)
      count *= dim;
    if (count == 0)
      return;
    const Tensor &value = ctx->input(4);
    // The value's element step along each input dim (0: broadcast).
    Dims valueSteps;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, stridedSliceValueSteps(value.shape(), plan, &valueSteps),
        errorf("Cannot broadcast input shape %s into final shape %s",
               value.shape().toString(),
               TensorShape(plan.finalDims).toString()));
    StatusOr<Tensor> updated = copyOf(old);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, updated.status());
    writeStridedSlice(plan, valueSteps, value, *updated);
    locked.var->value = *std::move(updated);
  }

private:
  DType dtype_ = DType::Invalid;
  int32_t beginMask_ = 0, endMask_ = 0, ellipsisMask_ = 0, newAxisMask_ = 0,
          shrinkMask_ = 0;
};

/// The dtypes TF registers AssignAdd/AssignSubVariableOp for on CPU (its
/// number types without complex and the quantized ones).
constexpr DType kUpdateDTypes[] = {
    DType::F32, DType::F64, DType::F16, DType::BF16, DType::I8,  DType::I16,
    DType::I32, DType::I64, DType::U8,  DType::U16,  DType::U32, DType::U64};

/// Registers the scatter kernel of `Op` with rules `R` for op `Id`: Update
/// for every buffer dtype, the others for kUpdateDTypes (TF's number
/// types; Min and Max its real number types, the same here), constrained
/// on the ops' type attribute (dtype, or T for the Nd ops).
template <OpId Id, typename R, ScatterOp Op>
void registerScatter(KernelRegistry &registry) {
  constexpr std::string_view attr =
      R::value == ScatterRules::Rows ? "dtype" : "T";
  if constexpr (Op == ScatterOp::Update)
    registerKernel<Id, ResourceScatterKernel<R::value, Op>>(
        registry, {{attr, kAllDTypes}});
  else
    registerKernel<Id, ResourceScatterKernel<R::value, Op>>(
        registry, {{attr, kUpdateDTypes}});
}

} // namespace

void registerResourceKernels(KernelRegistry &registry) {
  // VarHandleOp's dtype types no operand: any is accepted here; the
  // variable's reads and writes check it.
  registerKernel<OpId::kVarHandleOp, VarHandleOpKernel>(registry);
  registerKernel<OpId::kReadVariableOp, ReadVariableOpKernel>(
      registry, {{"dtype", kAllDTypes}});
  // The batched forms TF's grappler makes; their dtypes are list attributes
  // (checked against the variables, like ReadVariableOp's dtype).
  registerKernel<OpId::k_VarHandlesOp, VarHandlesOpKernel>(registry);
  registerKernel<OpId::k_ReadVariablesOp, ReadVariablesOpKernel>(registry);
  registerKernel<OpId::kAssignVariableOp, AssignVariableOpKernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kAssignAddVariableOp, AssignUpdateVariableOpKernel<1>>(
      registry, {{"dtype", kUpdateDTypes}});
  registerKernel<OpId::kAssignSubVariableOp, AssignUpdateVariableOpKernel<-1>>(
      registry, {{"dtype", kUpdateDTypes}});
  registerKernel<OpId::kVarIsInitializedOp, VarIsInitializedOpKernel>(registry);
  registerKernel<OpId::kDestroyResourceOp, DestroyResourceOpKernel>(registry);
  registerKernel<OpId::kVariableShape, VariableShapeKernel>(
      registry, {{"out_type", {DType::I32, DType::I64}}});
  // Index dtype attributes (Tindices, Index) are checked on the operands.
  registerKernel<OpId::kResourceGather, ResourceGatherKernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kResourceGatherNd, ResourceGatherNdKernel>(
      registry, {{"dtype", kAllDTypes}});
  using Rows = std::integral_constant<ScatterRules, ScatterRules::Rows>;
  using Nd = std::integral_constant<ScatterRules, ScatterRules::Nd>;
  registerScatter<OpId::kResourceScatterAdd, Rows, ScatterOp::Add>(registry);
  registerScatter<OpId::kResourceScatterSub, Rows, ScatterOp::Sub>(registry);
  registerScatter<OpId::kResourceScatterMul, Rows, ScatterOp::Mul>(registry);
  registerScatter<OpId::kResourceScatterDiv, Rows, ScatterOp::Div>(registry);
  registerScatter<OpId::kResourceScatterMin, Rows, ScatterOp::Min>(registry);
  registerScatter<OpId::kResourceScatterMax, Rows, ScatterOp::Max>(registry);
  registerScatter<OpId::kResourceScatterUpdate, Rows, ScatterOp::Update>(
      registry);
  registerScatter<OpId::kResourceScatterNdAdd, Nd, ScatterOp::Add>(registry);
  registerScatter<OpId::kResourceScatterNdSub, Nd, ScatterOp::Sub>(registry);
  registerScatter<OpId::kResourceScatterNdMin, Nd, ScatterOp::Min>(registry);
  registerScatter<OpId::kResourceScatterNdMax, Nd, ScatterOp::Max>(registry);
  registerScatter<OpId::kResourceScatterNdUpdate, Nd, ScatterOp::Update>(
      registry);
  registerKernel<OpId::kResourceStridedSliceAssign,
                 ResourceStridedSliceAssignKernel>(registry,
                                                   {{"T", kAllDTypes}});
}

} // namespace tfrt_fallback::rt
