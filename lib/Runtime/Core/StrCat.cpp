//===- StrCat.cpp - String concatenation for the runtime --------*- C++ -*-===//
//
// The out-of-line parts of StrCat.h.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/StrCat.h"

#include <charconv>
#include <cstdio>

namespace tfrt_fallback::rt {

StrPiece::StrPiece(long long value) {
  auto result = std::to_chars(buffer_, buffer_ + sizeof(buffer_), value);
  piece_ = std::string_view(buffer_, result.ptr - buffer_);
}

StrPiece::StrPiece(unsigned long long value) {
  auto result = std::to_chars(buffer_, buffer_ + sizeof(buffer_), value);
  piece_ = std::string_view(buffer_, result.ptr - buffer_);
}

StrPiece::StrPiece(double value) {
  int n = std::snprintf(buffer_, sizeof(buffer_), "%g", value);
  piece_ = std::string_view(buffer_, n > 0 ? static_cast<size_t>(n) : 0);
}

std::string strCatPieces(std::initializer_list<std::string_view> pieces) {
  std::string out;
  strAppendPieces(&out, pieces);
  return out;
}

void strAppendPieces(std::string *out,
                     std::initializer_list<std::string_view> pieces) {
  size_t size = out->size();
  for (std::string_view piece : pieces)
    size += piece.size();
  out->reserve(size);
  for (std::string_view piece : pieces)
    out->append(piece.data(), piece.size());
}

} // namespace tfrt_fallback::rt
