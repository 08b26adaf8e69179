//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//
//
// Feeds arbitrary bytes to parseNpy. A file it accepts must describe a tensor
// whose data it holds, and must survive a round trip through encodeNpy.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Npy.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace tfrt_fallback::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  StatusOr<Tensor> tensor = parseNpy(bytes, "fuzz.npy");
  if (!tensor.ok())
    return 0;
  // Touch every byte of the data (ASan checks the buffer is that large).
  const Tensor &t = *tensor;
  size_t total = t.totalBytes();
  if (total > 0 && t.rawData()) {
    volatile uint8_t sum = 0;
    const uint8_t *raw = static_cast<const uint8_t *>(t.rawData());
    for (size_t i = 0; i < total; ++i)
      sum += raw[i];
    (void)sum;
  }
  StatusOr<std::string> encoded = encodeNpy(t);
  if (!encoded.ok())
    return 0;
  StatusOr<Tensor> again = parseNpy(*encoded, "roundtrip.npy");
  // What we write we must read back, with the same dtype, shape and bytes.
  if (!again.ok() || again->dtype() != t.dtype() ||
      again->shape() != t.shape() ||
      (total > 0 && again->rawData() && t.rawData() &&
       std::memcmp(again->rawData(), t.rawData(), total) != 0))
    std::abort();
  return 0;
}
