//===- TensorBundleFuzzer.cpp - libFuzzer target for the bundle reader ----===//
//
// Feeds arbitrary bytes to the tensor bundle reader (TensorBundle.h): a
// little-endian uint32 n, then n bytes of PREFIX.index, then the bytes of
// its one shard. Every entry the index accepts is read from the shard bytes
// (those within it): a tensor that reads must hold the bytes its dtype and
// shape say.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/StringTensor.h"
#include "tfrt_fallback/Runtime/TensorBundle.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace tfrt_fallback::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4)
    return 0;
  uint32_t indexSize = 0;
  std::memcpy(&indexSize, data, 4);
  std::string_view rest(reinterpret_cast<const char *>(data) + 4, size - 4);
  if (indexSize > rest.size())
    return 0;
  std::string_view index = rest.substr(0, indexSize);
  std::string_view shard = rest.substr(indexSize);
  StatusOr<TensorBundleReader> reader =
      TensorBundleReader::fromIndex("fuzz", index);
  if (!reader.ok())
    return 0;
  for (const std::string &key : reader->keys()) {
    const BundleEntry *entry = reader->find(key);
    if (!entry)
      std::abort(); // every key has its entry
    if (entry->offset > shard.size() ||
        entry->size > shard.size() - entry->offset)
      continue;
    StatusOr<Tensor> tensor =
        reader->readFrom(key, *entry, shard.substr(entry->offset, entry->size));
    if (!tensor.ok())
      continue;
    if (tensor->dtype() == DType::String) {
      size_t total = 0;
      for (std::string_view s : stringElements(*tensor))
        total += s.size();
      if (total > entry->size)
        std::abort();
      continue;
    }
    if (tensor->totalBytes() != entry->size)
      std::abort();
    volatile uint8_t sum = 0;
    const auto *raw = static_cast<const uint8_t *>(tensor->rawData());
    for (size_t i = 0; i < tensor->totalBytes(); ++i)
      sum += raw[i];
    (void)sum;
  }
  return 0;
}
