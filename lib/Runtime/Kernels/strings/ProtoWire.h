//===- ProtoWire.h - a bounded reader of protobuf wire data -----*- C++ -*-===//
//
// The runtime's one reader of the protobuf wire format (no protobuf
// library): varints, lengths, length-delimited sub-messages, each checked
// against the bytes left so that hostile input fails instead of reading out
// of bounds. The tf.Example parsers and the memmapped package's directory
// read through it.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_KERNELS_PROTOWIRE_H
#define TFRT_FALLBACK_RUNTIME_KERNELS_PROTOWIRE_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tfrt_fallback::rt::kernels {

/// A bounded reader of protobuf wire data.
class Wire {
public:
  explicit Wire(std::string_view bytes)
      : p_(reinterpret_cast<const uint8_t *>(bytes.data())),
        end_(p_ + bytes.size()) {}

  bool atEnd() const { return p_ == end_; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  /// The next byte (remaining() > 0).
  uint8_t peek() const { return *p_; }
  /// Consumes `byte` if it is next.
  bool expect(uint8_t byte) {
    if (atEnd() || *p_ != byte)
      return false;
    ++p_;
    return true;
  }
  /// A varint of at most 10 bytes (protobuf's limit), as uint64.
  bool varint(uint64_t *value) {
    uint64_t result = 0;
    for (int i = 0; i < 10; ++i) {
      if (atEnd())
        return false;
      const uint8_t b = *p_++;
      result |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
      if (!(b & 0x80)) {
        *value = result;
        return true;
      }
    }
    return false;
  }
  /// A varint length (protobuf's ReadVarint32: the low 32 bits).
  bool length(uint32_t *value) {
    uint64_t v = 0;
    if (!varint(&v))
      return false;
    *value = static_cast<uint32_t>(v);
    return true;
  }
  /// The next `n` bytes as a view.
  bool bytes(size_t n, std::string_view *out) {
    if (n > remaining())
      return false;
    *out = std::string_view(reinterpret_cast<const char *>(p_), n);
    p_ += n;
    return true;
  }
  bool skip(size_t n) {
    if (n > remaining())
      return false;
    p_ += n;
    return true;
  }
  /// A reader of the next `n` bytes (consumed here).
  bool sub(size_t n, Wire *out) {
    std::string_view view;
    if (!bytes(n, &view))
      return false;
    *out = Wire(view);
    return true;
  }
  /// A length-prefixed sub-message.
  bool delimited(Wire *out) {
    uint32_t n = 0;
    return length(&n) && sub(n, out);
  }
  void skipToEnd() { p_ = end_; }

private:
  const uint8_t *p_;
  const uint8_t *end_;
};

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_RUNTIME_KERNELS_PROTOWIRE_H
