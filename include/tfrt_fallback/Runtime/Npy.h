//===- Npy.h - read and write NumPy .npy files ------------------*- C++ -*-===//
//
// NumPy's .npy format (versions 1.0, 2.0 and 3.0, little-endian, C order) for
// every dtype with a NumPy descriptor. bf16 tensors are written as float32,
// since NumPy has no bfloat16.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_NPY_H
#define TFRT_FALLBACK_RUNTIME_NPY_H

#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace tfrt_fallback::rt {

/// Parses the bytes of a .npy file; `name` is used in error messages.
StatusOr<Tensor> parseNpy(std::string_view bytes, std::string_view name);
/// Reads a .npy file.
StatusOr<Tensor> readNpyFile(const std::string &path);

/// Encodes `tensor` as a version 1.0 .npy file (2.0 if the header is long).
StatusOr<std::string> encodeNpy(const Tensor &tensor);
/// Writes `tensor` to `path`.
Status writeNpyFile(const std::string &path, const Tensor &tensor);

/// Parses all of `text` as a decimal integer (an optional '-', digits; no
/// spaces), within int64_t: the .npy header's dimensions and the runners'
/// flags. std::from_chars's rules for base 10, read by hand: neither
/// absl::SimpleAtoi, whose object file brings Abseil's floating-point parser
/// (~15 KB), nor libstdc++'s std::from_chars, which brings its code for
/// every base (~1.4 KB).
bool parseInteger(std::string_view text, int64_t *value);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_NPY_H
