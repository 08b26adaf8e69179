//===- StringTensor.h - Tensors of TensorFlow strings -----------*- C++ -*-===//
//
// A string tensor (DType::String) holds one std::string_view per element:
// bytes of any value (not necessarily UTF-8, not NUL-terminated) that the
// tensor's buffer keeps alive. Made by makeStringTensor, one buffer holds
// the views followed by the bytes they view, so a string tensor is one
// allocation, freed with its last reference; a constant of a program views
// the program's constant section in place (makeStringTensorView). Elements
// are never written after a tensor is made: kernels that move strings build
// a new tensor, sharing buffers only for views of whole runs (Reshape,
// Identity, a contiguous slice).
//
// String stays out of dispatchDType and isBufferDType (DType.h): no numeric
// kernel is instantiated for strings, and Tensor::allocate refuses them.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_STRINGTENSOR_H
#define TFRT_FALLBACK_RUNTIME_STRINGTENSOR_H

#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/types/span.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {

/// Bytes of one string tensor element view.
constexpr size_t kStringElementSize = sizeof(std::string_view);

/// A string tensor of `shape` holding copies of `values` (row-major, as
/// many as the shape has elements). ResourceExhausted when the views and
/// bytes exceed TensorBuffer::kMaxBytes.
StatusOr<Tensor> makeStringTensor(const TensorShape &shape,
                                  absl::Span<const std::string_view> values);

/// A string tensor of `shape` whose elements are `views` (as many as the
/// shape has elements), pointing into memory that `owner` keeps alive (a
/// program file's constant section): the bytes are not copied.
Tensor makeStringTensorView(const TensorShape &shape,
                            std::vector<std::string_view> views,
                            RCReference<TensorBuffer> owner);

/// The elements of string tensor `tensor`, row-major.
inline absl::Span<const std::string_view> stringElements(const Tensor &tensor) {
  return {tensor.data<std::string_view>(),
          static_cast<size_t>(tensor.numElements())};
}

/// Elements [offset, offset + shape.numElements()) of string tensor `t`
/// with `shape`, sharing its buffer.
inline Tensor stringSubTensor(const Tensor &t, int64_t offset,
                              TensorShape shape) {
  return Tensor(DType::String, std::move(shape), t.buffer(),
                t.byteOffset() + offset * kStringElementSize);
}

/// How NumPy's repr shows a bytes object: b'abc', b"it's", with \\x00,
/// \\n, \\t, \\r, \\\\ and \\' escaped as Python escapes them.
std::string quoteBytes(std::string_view bytes);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_STRINGTENSOR_H
