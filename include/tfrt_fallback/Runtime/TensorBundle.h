//===- TensorBundle.h - TensorFlow's checkpoint (tensor bundle) -*- C++ -*-===//
//
// Reads and writes TensorFlow's tensor bundle, the V2 checkpoint format of
// SavedModels' variables/ and of RestoreV2 / SaveV2 (TF's
// core/util/tensor_bundle): PREFIX.index is a table in LevelDB's format
// (TF's lib/io/table) mapping each tensor's key to a BundleEntryProto
// (dtype, shape, shard, offset, size, masked CRC32C), the empty key to the
// BundleHeaderProto; PREFIX.data-NNNNN-of-MMMMM hold the tensors' bytes.
// Every length and offset is checked against its file and every checksum is
// verified; errors name the file and the key. No protobuf library: the
// entries are read and written with the runtime's wire codec.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_TENSORBUNDLE_H
#define TFRT_FALLBACK_RUNTIME_TENSORBUNDLE_H

#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/types/span.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfrt_fallback::rt {

/// CRC-32C (Castagnoli) of `size` bytes, continuing `crc` (0 to start).
uint32_t crc32c(uint32_t crc, const void *data, size_t size);
/// LevelDB's and TF's masking of a stored CRC (so that a CRC of data that
/// embeds CRCs is not trivially related to them), and its inverse.
inline uint32_t maskCrc32c(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}
inline uint32_t unmaskCrc32c(uint32_t masked) {
  uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

/// The key/value pairs of a LevelDB-format table file (`bytes`), in key
/// order; `file` names it in errors. Blocks may be Snappy-compressed.
StatusOr<std::vector<std::pair<std::string, std::string>>>
readTableFile(std::string_view bytes, const std::string &file);

/// One tensor of a bundle's index.
struct BundleEntry {
  int dataType = 0; // TensorFlow's DataType number
  std::vector<int64_t> dims;
  int32_t shard = 0;
  uint64_t offset = 0, size = 0;
  uint32_t maskedCrc = 0;
  /// A partitioned variable's entry (BundleEntryProto.slices).
  bool sliced = false;
};

/// A checkpoint opened for reading: its index is read and checked at open,
/// each tensor's bytes when it is read.
class TensorBundleReader {
public:
  /// Opens PREFIX.index ("dir/variables/variables" for a SavedModel).
  static StatusOr<TensorBundleReader> open(std::string prefix);
  /// The same from the index file's bytes (the fuzz target's entry);
  /// shards are still read from PREFIX.data-*.
  static StatusOr<TensorBundleReader> fromIndex(std::string prefix,
                                                std::string_view indexBytes);

  const std::string &prefix() const { return prefix_; }
  int numShards() const { return numShards_; }
  /// The tensors' keys, in order.
  const std::vector<std::string> &keys() const { return keys_; }
  /// The entry of `key`, or null.
  const BundleEntry *find(std::string_view key) const;
  /// The tensor under `key`, its checksum verified.
  StatusOr<Tensor> read(std::string_view key) const;
  /// The same from the shard's bytes (the fuzz target's entry).
  StatusOr<Tensor> readFrom(std::string_view key, const BundleEntry &entry,
                            std::string_view shardBytes) const;
  /// PREFIX.data-NNNNN-of-MMMMM of shard `shard`.
  std::string shardPath(int32_t shard) const;

private:
  std::string prefix_;
  int numShards_ = 1;
  std::vector<std::string> keys_;
  std::vector<BundleEntry> entries_;
};

/// Writes `tensors` (key, value; keys distinct and non-empty) as the
/// one-shard bundle PREFIX.index + PREFIX.data-00000-of-00001, as TF's
/// BundleWriter does (uncompressed blocks).
Status
writeTensorBundle(const std::string &prefix,
                  absl::Span<const std::pair<std::string, Tensor>> tensors);

/// MergeV2Checkpoints: the bundles at `sources` (each one shard) become one
/// at `destination` whose shard i is source i's data file, moved; the
/// sources' index files are removed.
Status mergeTensorBundles(absl::Span<const std::string> sources,
                          const std::string &destination);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_TENSORBUNDLE_H
