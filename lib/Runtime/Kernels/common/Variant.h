//===- Variant.h - The objects variant tensors hold --------------*- C++
//-*-===//
//
// Private to lib/Runtime/Kernels: a variant tensor's buffer holds one object
// per element (a TensorList, a TensorMap, a ragged tensor), side by side. Each
// derives from VariantObject, whose kind says which it is, so that a kernel
// given a variant of another kind fails with an error instead of reading it as
// its own (TensorFlow's Variant::get<T>() returns null for another type).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_VARIANT_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_VARIANT_H

#include "tfrt_fallback/Runtime/Tensor.h"

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tfrt_fallback::rt::kernels {

enum class VariantKind : uint8_t { TensorList, TensorMap, RaggedTensor };

/// TensorFlow's TypeName() of each kind, for messages.
inline std::string_view variantKindName(VariantKind kind) {
  switch (kind) {
  case VariantKind::TensorList:
    return "tensorflow::TensorList";
  case VariantKind::TensorMap:
    return "tensorflow::TensorMap";
  case VariantKind::RaggedTensor:
    return "tensorflow::RaggedTensorVariant";
  }
  return "unknown";
}

/// The base of every object a variant tensor holds.
struct VariantObject {
  explicit VariantObject(VariantKind kind) : variantKind(kind) {}
  VariantKind variantKind;
};

/// A variant tensor of `shape` over `objects` (an array of `Object`s, one
/// per element), which `release` frees.
template <typename Object, typename Release>
Tensor makeVariantTensor(TensorShape shape, Object *objects, Release release) {
  static_assert(std::is_base_of_v<VariantObject, Object>);
  // The buffer points at the first object's VariantObject, so its kind can
  // be read before the object's type is known.
  VariantObject *base = objects;
  return Tensor(DType::Variant, std::move(shape),
                TensorBuffer::wrapExternal(base, 0, std::move(release)));
}

/// The first object of variant tensor `t`, which has elements, or null when
/// `t` is not a variant tensor made by makeVariantTensor.
inline const VariantObject *firstVariantObject(const Tensor &t) {
  if (t.dtype() != DType::Variant || t.numElements() == 0 || !t.rawData() ||
      t.byteOffset() != 0)
    return nullptr;
  return static_cast<const VariantObject *>(t.rawData());
}

/// The objects of variant tensor `t` when they are `Object`s (kind `kind`),
/// else null.
template <typename Object>
const Object *variantObjects(const Tensor &t, VariantKind kind) {
  const VariantObject *first = firstVariantObject(t);
  if (!first || first->variantKind != kind)
    return nullptr;
  return static_cast<const Object *>(first);
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_VARIANT_H
