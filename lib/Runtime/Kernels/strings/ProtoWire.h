//===- ProtoWire.h - a bounded reader of protobuf wire data -----*- C++ -*-===//
//
// The runtime's one codec of the protobuf wire format (no protobuf
// library). Wire reads varints, lengths, length-delimited sub-messages,
// each checked against the bytes left so that hostile input fails instead
// of reading out of bounds; the tf.Example parsers and the memmapped
// package's directory read through it. wire::appendVarint and
// wire::appendBytesField write the same encoding (SerializeTensor).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STRINGS_PROTOWIRE_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STRINGS_PROTOWIRE_H

#include <cstddef>
#include <cstdint>
#include <string>
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

namespace wire {

/// Appends `v` as a varint.
inline void appendVarint(std::string *out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

/// Appends a length-delimited field (wire type 2) number `field`.
inline void appendBytesField(std::string *out, int field,
                             std::string_view bytes) {
  appendVarint(out, static_cast<uint64_t>(field) << 3 | 2);
  appendVarint(out, bytes.size());
  out->append(bytes.data(), bytes.size());
}

} // namespace wire

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STRINGS_PROTOWIRE_H
