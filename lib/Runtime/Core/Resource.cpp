//===- Resource.cpp - Resources shared by name across runs ----------------===//
//
// Resource handles in resource tensors, and the resource manager.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Resource.h"

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"

namespace tfrt_fallback::rt {

std::string ResourceHandle::debugName() const {
  return container.empty() ? name : strCat(container, "/", name);
}

Tensor makeResourceTensor(ResourceHandle handle) {
  auto *object = new ResourceHandle(std::move(handle));
  RCReference<TensorBuffer> buffer =
      TensorBuffer::wrapExternal(object, 0, [object] { delete object; });
  return Tensor(DType::Resource, TensorShape{}, std::move(buffer));
}

const ResourceHandle *getResourceHandle(const Tensor &tensor) {
  if (tensor.dtype() != DType::Resource || tensor.rank() != 0)
    return nullptr;
  return static_cast<const ResourceHandle *>(tensor.rawData());
}

Resource::~Resource() = default;

static Status doesNotExist(const ResourceHandle &handle) {
  return makeError(StatusCode::kNotFound, "Resource %s does not exist.",
                   handle.debugName().c_str());
}

std::string ResourceManager::key(const ResourceHandle &handle) {
  // The container cannot hold a NUL: the pair maps to one key.
  return strCat(handle.container, std::string(1, '\0'), handle.name);
}

StatusOr<std::shared_ptr<Resource>>
ResourceManager::lookup(const ResourceHandle &handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = resources_.find(key(handle));
  if (it == resources_.end())
    return doesNotExist(handle);
  return it->second;
}

Status ResourceManager::erase(const ResourceHandle &handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (resources_.erase(key(handle)) == 0)
    return doesNotExist(handle);
  return OkStatus();
}

} // namespace tfrt_fallback::rt
