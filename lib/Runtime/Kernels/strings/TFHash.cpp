//===- TFHash.cpp - TensorFlow's Fingerprint64 on farmhash ------*- C++ -*-===//
//
// The strings library's one call into farmhash, so that only the kernels
// that fingerprint (strings/, sparse/SparseCrossKernels.cpp) link it.
//
//===----------------------------------------------------------------------===//

#include "strings/TFHash.h"

#include <farmhash.h>

namespace tfrt_fallback::rt::kernels {

uint64_t fingerprint64(std::string_view s) {
  return util::Fingerprint64(s.data(), s.size());
}

} // namespace tfrt_fallback::rt::kernels
