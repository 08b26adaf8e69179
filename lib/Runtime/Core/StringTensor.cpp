//===- StringTensor.cpp - Tensors of TensorFlow strings ---------*- C++ -*-===//
//
// One buffer per string tensor: the views, then the bytes they view.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/StringTensor.h"

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"

#include <cstring>
#include <memory>

namespace tfrt_fallback::rt {

static Status tooLarge(const TensorShape &shape) {
  return makeError(StatusCode::kResourceExhausted,
                   "string tensor of shape %s exceeds the limit of %llu bytes",
                   shape.toString().c_str(),
                   static_cast<unsigned long long>(TensorBuffer::kMaxBytes));
}

StatusOr<Tensor> makeStringTensor(const TensorShape &shape,
                                  absl::Span<const std::string_view> values) {
  const size_t count = static_cast<size_t>(shape.numElements());
  if (values.size() != count)
    return makeError(StatusCode::kInvalidArgument,
                     "shape %s needs %zu strings, got %zu",
                     shape.toString().c_str(), count, values.size());
  // Views first (their alignment), bytes after; sizes checked against the
  // allocation limit before anything is summed past it.
  uint64_t bytes = 0;
  if (!bytesOf(static_cast<uint64_t>(count),
               static_cast<uint64_t>(kStringElementSize), &bytes) ||
      bytes > TensorBuffer::kMaxBytes)
    return tooLarge(shape);
  for (std::string_view value : values) {
    bytes += value.size();
    if (bytes > TensorBuffer::kMaxBytes)
      return tooLarge(shape);
  }
  StatusOr<RCReference<TensorBuffer>> buffer =
      TensorBuffer::allocate(static_cast<size_t>(bytes));
  if (!buffer.ok())
    return buffer.status();
  char *base = static_cast<char *>((*buffer)->data());
  auto *views = reinterpret_cast<std::string_view *>(base);
  char *next = base + count * kStringElementSize;
  for (size_t i = 0; i < count; ++i) {
    const std::string_view value = values[i];
    if (!value.empty())
      std::memcpy(next, value.data(), value.size());
    new (&views[i]) std::string_view(next, value.size());
    next += value.size();
  }
  return Tensor(DType::String, shape, *std::move(buffer));
}

Tensor makeStringTensorView(const TensorShape &shape,
                            std::vector<std::string_view> views,
                            RCReference<TensorBuffer> owner) {
  assert(static_cast<int64_t>(views.size()) == shape.numElements() &&
         "makeStringTensorView: one view per element");
  auto *storage = new std::vector<std::string_view>(std::move(views));
  RCReference<TensorBuffer> buffer = TensorBuffer::wrapExternal(
      storage->data(), storage->size() * kStringElementSize,
      [storage, owner = std::move(owner)]() mutable {
        delete storage;
        owner = nullptr;
      });
  return Tensor(DType::String, shape, std::move(buffer));
}

std::string quoteBytes(std::string_view bytes) {
  // Python quotes with ' unless the bytes hold a ' and no ".
  const bool doubleQuotes = bytes.find('\'') != std::string_view::npos &&
                            bytes.find('"') == std::string_view::npos;
  const char quote = doubleQuotes ? '"' : '\'';
  std::string out = "b";
  out += quote;
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\' || c == quote) {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte >= 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += c;
    }
  }
  out += quote;
  return out;
}

} // namespace tfrt_fallback::rt
