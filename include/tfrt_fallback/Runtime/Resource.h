//===- Resource.h - Resources shared by name across runs --------*- C++ -*-===//
//
// TensorFlow's resources (tensorflow/core/framework/resource_mgr.h): state
// that outlives a run and that kernels find by name, e.g. the variables of
// VarHandleOp / ReadVariableOp / AssignVariableOp. A resource tensor (dtype
// resource, a scalar) holds a ResourceHandle: the names of a resource, not
// the resource, which lives in the ResourceManager of the Executor running
// the program (every run of that executor sees the same variables, as runs
// of one TensorFlow session do). Kernels reach it through
// OpKernelContextInterface::resourceManager(). A handle may also own its
// resource (TensorFlow's per-step resources, such as TensorArrays): the
// resource then lives as long as a tensor holds the handle, which ends with
// the run that made it, and no manager is involved.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_RESOURCE_H
#define TFRT_FALLBACK_RUNTIME_RESOURCE_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace tfrt_fallback::rt {

class Resource;

/// What a resource tensor holds: the resource's container and name, for a
/// variable its dtype and shape as VarHandleOp declared them, and for a
/// resource the handle owns (a TensorArray) the resource itself.
struct ResourceHandle {
  std::string container;
  std::string name;
  DType dtype = DType::Invalid;
  PartialShape shape = PartialShape::unknownRank();
  /// The resource, when the handle owns it (kernels use it instead of
  /// looking the names up); null for a resource of the ResourceManager.
  std::shared_ptr<Resource> owned;

  /// "container/name" (or "name" in the default container).
  std::string debugName() const;
};

/// A scalar resource tensor holding `handle`.
Tensor makeResourceTensor(ResourceHandle handle);

/// The handle in `tensor`, or null when it is not a resource scalar.
const ResourceHandle *getResourceHandle(const Tensor &tensor);

/// A resource; concrete kinds derive from it.
class Resource {
public:
  virtual ~Resource();
  /// "Var", ...: named in errors about a resource of the wrong kind.
  virtual std::string_view kind() const = 0;
};

/// A resource variable: its value (invalid until first assigned) under its
/// mutex. Values are immutable tensors, so a read shares the buffer and an
/// assignment replaces it.
class Var final : public Resource {
public:
  explicit Var(DType dtype) : dtype_(dtype) {}
  std::string_view kind() const override { return "Var"; }
  DType dtype() const { return dtype_; }

  std::mutex mutex;
  Tensor value;

private:
  DType dtype_;
};

/// The resources of one executor, by (container, name). Thread-safe.
class ResourceManager {
public:
  /// The resource of `handle`, or NotFound.
  StatusOr<std::shared_ptr<Resource>> lookup(const ResourceHandle &handle);

  /// The resource of `handle`, made by `create` when there is none.
  template <typename Create>
  std::shared_ptr<Resource> lookupOrCreate(const ResourceHandle &handle,
                                           Create create) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<Resource> &slot = resources_[key(handle)];
    if (!slot)
      slot = create();
    return slot;
  }

  /// Removes the resource of `handle`; NotFound when there is none.
  Status erase(const ResourceHandle &handle);

  /// The path of the executor's memmapped package (ImmutableConst's
  /// regions), or empty; set before the first run
  /// (Executor::setMemmappedPackagePath). The kernel maps it on first use,
  /// so a runtime without ImmutableConst has no code for packages.
  const std::string &memmappedPackagePath() const {
    return memmappedPackagePath_;
  }
  void setMemmappedPackagePath(std::string path) {
    memmappedPackagePath_ = std::move(path);
  }

private:
  static std::string key(const ResourceHandle &handle);

  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Resource>> resources_;
  std::string memmappedPackagePath_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_RESOURCE_H
