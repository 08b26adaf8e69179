//===- TensorBundle.cpp - TensorFlow's checkpoint (tensor bundle) -*- C++
//-*-===//
//
// The table (LevelDB's format: TF's lib/io/{format,block,table}.cc), its
// Snappy blocks, the bundle's entries and shards (TF's
// util/tensor_bundle/tensor_bundle.cc), read with bounds checks and written
// as TF writes them.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/TensorBundle.h"

#include "strings/ProtoWire.h"
#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>

namespace tfrt_fallback::rt {

using kernels::Wire;

//===----------------------------------------------------------------------===//
// CRC-32C
//===----------------------------------------------------------------------===//

namespace {
struct Crc32cTable {
  uint32_t entries[256];
  constexpr Crc32cTable() : entries() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t crc = i;
      for (int bit = 0; bit < 8; ++bit)
        crc = (crc >> 1) ^ (crc & 1 ? 0x82f63b78u : 0);
      entries[i] = crc;
    }
  }
};
constexpr Crc32cTable kCrc32cTable;
} // namespace

uint32_t crc32c(uint32_t crc, const void *data, size_t size) {
  const auto *p = static_cast<const uint8_t *>(data);
  crc = ~crc;
  for (size_t i = 0; i < size; ++i)
    crc = kCrc32cTable.entries[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

namespace {

uint32_t loadFixed32(const char *p) {
  uint32_t value;
  std::memcpy(&value, p, 4);
  return value; // little-endian hosts only, as the runtime
}

void appendFixed32(std::string *out, uint32_t value) {
  char bytes[4];
  std::memcpy(bytes, &value, 4);
  out->append(bytes, 4);
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

/// Files larger than this are refused (a tensor bundle's index is small; a
/// shard is read a tensor at a time).
constexpr uint64_t kMaxIndexBytes = uint64_t(1) << 30;

Status fileError(const std::string &path, const char *what) {
  return makeError(StatusCode::kNotFound, "cannot %s '%s': %s", what,
                   path.c_str(), std::strerror(errno));
}

/// The bytes [offset, offset + size) of `path`, or the whole file when
/// `size` is ~0 (at most kMaxIndexBytes).
StatusOr<std::string> readFileRange(const std::string &path, uint64_t offset,
                                    uint64_t size) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return fileError(path, "open");
  struct Closer {
    std::FILE *f;
    ~Closer() { std::fclose(f); }
  } closer{file};
  if (std::fseek(file, 0, SEEK_END) != 0)
    return fileError(path, "seek in");
  long end = std::ftell(file);
  if (end < 0)
    return fileError(path, "measure");
  const uint64_t fileSize = static_cast<uint64_t>(end);
  if (size == ~uint64_t(0)) {
    if (fileSize > kMaxIndexBytes)
      return makeError(StatusCode::kInvalidArgument,
                       "'%s' has %llu bytes, more than a tensor bundle's "
                       "index may (%llu)",
                       path.c_str(), static_cast<unsigned long long>(fileSize),
                       static_cast<unsigned long long>(kMaxIndexBytes));
    size = fileSize;
  }
  if (offset > fileSize || size > fileSize - offset)
    return makeError(StatusCode::kDataLoss,
                     "'%s' has %llu bytes; bytes [%llu, %llu) are outside it",
                     path.c_str(), static_cast<unsigned long long>(fileSize),
                     static_cast<unsigned long long>(offset),
                     static_cast<unsigned long long>(offset + size));
  std::string bytes;
  bytes.resize(size);
  if (std::fseek(file, static_cast<long>(offset), SEEK_SET) != 0 ||
      (size && std::fread(bytes.data(), 1, size, file) != size))
    return fileError(path, "read");
  return bytes;
}

Status writeFile(const std::string &path, std::string_view bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return makeError(StatusCode::kPermissionDenied, "cannot create '%s': %s",
                     path.c_str(), std::strerror(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  ok = std::fclose(file) == 0 && ok;
  if (!ok)
    return makeError(StatusCode::kDataLoss, "cannot write '%s': %s",
                     path.c_str(), std::strerror(errno));
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// Snappy
//===----------------------------------------------------------------------===//

/// Snappy's raw format: the uncompressed length, then literals and copies.
StatusOr<std::string> snappyUncompress(std::string_view in,
                                       const std::string &file) {
  auto bad = [&](const char *why) {
    return makeError(StatusCode::kDataLoss,
                     "'%s': a Snappy block is corrupt (%s)", file.c_str(), why);
  };
  Wire wire(in);
  uint64_t length = 0;
  if (!wire.varint(&length) || length > kMaxIndexBytes)
    return bad("bad length");
  // One tag byte makes at most 64 bytes.
  if (length > 64 * static_cast<uint64_t>(in.size()))
    return bad("longer than its input can make");
  std::string out;
  out.reserve(length);
  const auto *p = reinterpret_cast<const uint8_t *>(in.data()) +
                  (in.size() - wire.remaining());
  const auto *end = reinterpret_cast<const uint8_t *>(in.data()) + in.size();
  while (p < end) {
    const uint8_t tag = *p++;
    uint64_t len = 0, offset = 0;
    auto readLE = [&](int n, uint64_t *value) {
      if (end - p < n)
        return false;
      *value = 0;
      for (int i = 0; i < n; ++i)
        *value |= static_cast<uint64_t>(p[i]) << (8 * i);
      p += n;
      return true;
    };
    switch (tag & 3) {
    case 0: { // literal
      len = tag >> 2;
      if (len >= 60 && !readLE(static_cast<int>(len - 59), &len))
        return bad("truncated literal length");
      len += 1;
      if (static_cast<uint64_t>(end - p) < len || out.size() + len > length)
        return bad("literal past the end");
      out.append(reinterpret_cast<const char *>(p), len);
      p += len;
      continue;
    }
    case 1:
      len = 4 + ((tag >> 2) & 7);
      if (p == end)
        return bad("truncated copy");
      offset = (static_cast<uint64_t>(tag >> 5) << 8) | *p++;
      break;
    case 2:
      len = (tag >> 2) + 1;
      if (!readLE(2, &offset))
        return bad("truncated copy");
      break;
    default:
      len = (tag >> 2) + 1;
      if (!readLE(4, &offset))
        return bad("truncated copy");
      break;
    }
    if (offset == 0 || offset > out.size() || out.size() + len > length)
      return bad("copy outside the output");
    // Byte by byte: a copy may overlap what it makes.
    size_t from = out.size() - offset;
    for (uint64_t i = 0; i < len; ++i)
      out.push_back(out[from + i]);
  }
  if (out.size() != length)
    return bad("shorter than its length");
  return out;
}

//===----------------------------------------------------------------------===//
// Table
//===----------------------------------------------------------------------===//

constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr size_t kFooterSize = 48;
constexpr size_t kBlockTrailerSize = 5;

struct BlockHandle {
  uint64_t offset = 0, size = 0;
};

bool readHandle(Wire &wire, BlockHandle *handle) {
  return wire.varint(&handle->offset) && wire.varint(&handle->size);
}

void appendHandle(std::string *out, const BlockHandle &handle) {
  kernels::wire::appendVarint(out, handle.offset);
  kernels::wire::appendVarint(out, handle.size);
}

class TableReader {
public:
  TableReader(std::string_view bytes, const std::string &file)
      : bytes_(bytes), file_(file) {}

  Status bad(const std::string &why) const {
    return makeError(StatusCode::kDataLoss,
                     "'%s' is not a valid tensor bundle index: %s",
                     file_.c_str(), why.c_str());
  }

  /// A block's contents, its checksum verified and Snappy undone.
  StatusOr<std::string> block(const BlockHandle &handle) const {
    if (handle.offset > bytes_.size() ||
        handle.size > bytes_.size() - handle.offset ||
        bytes_.size() - handle.offset - handle.size < kBlockTrailerSize)
      return bad(strFormat("a block (offset %llu, %llu bytes) is outside the "
                           "file's %zu bytes",
                           static_cast<unsigned long long>(handle.offset),
                           static_cast<unsigned long long>(handle.size),
                           bytes_.size()));
    const char *data = bytes_.data() + handle.offset;
    const uint32_t stored = loadFixed32(data + handle.size + 1);
    if (unmaskCrc32c(stored) != crc32c(0, data, handle.size + 1))
      return makeError(StatusCode::kDataLoss,
                       "'%s': checksum mismatch in the block at offset %llu",
                       file_.c_str(),
                       static_cast<unsigned long long>(handle.offset));
    std::string_view contents(data, handle.size);
    switch (data[handle.size]) {
    case 0:
      return std::string(contents);
    case 1:
      return snappyUncompress(contents, file_);
    default:
      return bad(strFormat("block compression type %d is not none (0) or "
                           "Snappy (1)",
                           static_cast<int>(data[handle.size])));
    }
  }

  /// Calls `entry(key, value)` for each entry of `block`, in order.
  template <typename Fn> Status forEachEntry(std::string_view block, Fn entry) {
    if (block.size() < 4)
      return bad("a block is shorter than its restart count");
    const uint32_t numRestarts = loadFixed32(block.data() + block.size() - 4);
    if (numRestarts > (block.size() - 4) / 4)
      return bad("a block's restart count exceeds its size");
    Wire wire(block.substr(0, block.size() - 4 - 4 * size_t(numRestarts)));
    std::string key;
    while (!wire.atEnd()) {
      uint32_t shared = 0, unshared = 0, valueSize = 0;
      std::string_view delta, value;
      if (!wire.length(&shared) || !wire.length(&unshared) ||
          !wire.length(&valueSize) || shared > key.size() ||
          !wire.bytes(unshared, &delta) || !wire.bytes(valueSize, &value))
        return bad("a block entry is corrupt");
      key.resize(shared);
      key.append(delta.data(), delta.size());
      if (Status status = entry(key, value); !status.ok())
        return status;
    }
    return OkStatus();
  }

  StatusOr<std::vector<std::pair<std::string, std::string>>> read() {
    if (bytes_.size() < kFooterSize)
      return bad(strFormat("%zu bytes are too few for a table's footer",
                           bytes_.size()));
    const char *footer = bytes_.data() + bytes_.size() - kFooterSize;
    const uint64_t magic =
        loadFixed32(footer + 40) | uint64_t(loadFixed32(footer + 44)) << 32;
    if (magic != kTableMagic)
      return bad("bad magic number");
    Wire handles(std::string_view(footer, 40));
    BlockHandle metaindex, index;
    if (!readHandle(handles, &metaindex) || !readHandle(handles, &index))
      return bad("bad footer");
    StatusOr<std::string> indexBlock = block(index);
    if (!indexBlock.ok())
      return indexBlock.status();
    std::vector<std::pair<std::string, std::string>> entries;
    if (Status status = forEachEntry(
            *indexBlock,
            [&](const std::string &, std::string_view value) {
              Wire wire(value);
              BlockHandle handle;
              if (!readHandle(wire, &handle))
                return bad("bad block handle in the index");
              StatusOr<std::string> data = block(handle);
              if (!data.ok())
                return data.status();
              return forEachEntry(
                  *data, [&](const std::string &key, std::string_view v) {
                    if (!entries.empty() && key <= entries.back().first)
                      return bad(strFormat("the keys are not in order at '%s'",
                                           key.c_str()));
                    entries.emplace_back(key, std::string(v));
                    return OkStatus();
                  });
            });
        !status.ok())
      return status;
    return entries;
  }

private:
  std::string_view bytes_;
  const std::string &file_;
};

/// LevelDB's bytewise comparator's shortening of index keys: a key >=
/// `start` and < `limit` (FindShortestSeparator), or >= `start`
/// (FindShortSuccessor, `limit` null).
std::string shortKey(std::string start, const std::string *limit) {
  if (!limit) {
    for (size_t i = 0; i < start.size(); ++i)
      if (static_cast<uint8_t>(start[i]) != 0xff) {
        ++start[i];
        start.resize(i + 1);
        return start;
      }
    return start;
  }
  size_t diff = 0;
  const size_t common = std::min(start.size(), limit->size());
  while (diff < common && start[diff] == (*limit)[diff])
    ++diff;
  if (diff < common) {
    const uint8_t byte = static_cast<uint8_t>(start[diff]);
    if (byte < 0xff && byte + 1 < static_cast<uint8_t>((*limit)[diff])) {
      ++start[diff];
      start.resize(diff + 1);
    }
  }
  return start;
}

/// A table of `entries` (sorted, distinct keys) as TF's TableBuilder writes
/// it (TF's TableOptions): uncompressed blocks of up to 256 KiB with a
/// restart every 16 keys, an index block whose keys are LevelDB's short
/// separators, an empty metaindex block, the footer.
std::string
buildTable(const std::vector<std::pair<std::string, std::string>> &entries) {
  constexpr size_t kBlockSize = 262144;
  std::string file;
  struct Block {
    std::string bytes;
    std::vector<uint32_t> restarts;
    int sinceRestart = 0;
    std::string lastKey;
  };
  auto add = [](Block &block, int interval, std::string_view key,
                std::string_view value) {
    size_t shared = 0;
    if (block.sinceRestart < interval && !block.restarts.empty()) {
      while (shared < block.lastKey.size() && shared < key.size() &&
             block.lastKey[shared] == key[shared])
        ++shared;
    } else {
      block.restarts.push_back(static_cast<uint32_t>(block.bytes.size()));
      block.sinceRestart = 0;
    }
    kernels::wire::appendVarint(&block.bytes, shared);
    kernels::wire::appendVarint(&block.bytes, key.size() - shared);
    kernels::wire::appendVarint(&block.bytes, value.size());
    block.bytes.append(key.data() + shared, key.size() - shared);
    block.bytes.append(value.data(), value.size());
    ++block.sinceRestart;
    block.lastKey.assign(key.data(), key.size());
  };
  auto finish = [&](Block &block) -> BlockHandle {
    if (block.restarts.empty())
      block.restarts.push_back(0);
    for (uint32_t restart : block.restarts)
      appendFixed32(&block.bytes, restart);
    appendFixed32(&block.bytes, static_cast<uint32_t>(block.restarts.size()));
    BlockHandle handle{file.size(), block.bytes.size()};
    file += block.bytes;
    file.push_back(0); // no compression
    appendFixed32(&file, maskCrc32c(crc32c(0, file.data() + handle.offset,
                                           handle.size + 1)));
    block = Block();
    return handle;
  };
  Block data, index;
  // A finished data block's index entry waits for the next key (its
  // separator from the block's last key).
  std::optional<BlockHandle> pending;
  std::string pendingLastKey;
  auto addIndexEntry = [&](const std::string *nextKey) {
    std::string handle;
    appendHandle(&handle, *pending);
    add(index, 1, shortKey(pendingLastKey, nextKey), handle);
    pending.reset();
  };
  for (const auto &[key, value] : entries) {
    if (pending)
      addIndexEntry(&key);
    add(data, 16, key, value);
    if (data.bytes.size() >= kBlockSize) {
      pendingLastKey = data.lastKey;
      pending = finish(data);
    }
  }
  if (!data.bytes.empty()) {
    pendingLastKey = data.lastKey;
    pending = finish(data);
  }
  if (pending)
    addIndexEntry(nullptr);
  Block meta;
  BlockHandle metaindex = finish(meta);
  BlockHandle indexHandle = finish(index);
  std::string footer;
  appendHandle(&footer, metaindex);
  appendHandle(&footer, indexHandle);
  footer.resize(40, '\0');
  appendFixed32(&footer, static_cast<uint32_t>(kTableMagic));
  appendFixed32(&footer, static_cast<uint32_t>(kTableMagic >> 32));
  return file + footer;
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

/// Skips a field of wire type `type`.
bool skipField(Wire &wire, uint64_t type) {
  uint64_t ignored;
  std::string_view bytes;
  uint32_t n = 0;
  switch (type) {
  case 0:
    return wire.varint(&ignored);
  case 1:
    return wire.skip(8);
  case 2:
    return wire.length(&n) && wire.bytes(n, &bytes);
  case 5:
    return wire.skip(4);
  default:
    return false;
  }
}

/// A BundleEntryProto, or false when it is not one.
bool decodeEntry(std::string_view bytes, BundleEntry *entry) {
  Wire wire(bytes);
  while (!wire.atEnd()) {
    uint64_t tag = 0, value = 0;
    if (!wire.varint(&tag))
      return false;
    const uint64_t field = tag >> 3, type = tag & 7;
    if (type == 0 && field != 2 && field != 7) {
      if (!wire.varint(&value))
        return false;
      if (field == 1)
        entry->dataType = static_cast<int>(value);
      else if (field == 3)
        entry->shard = static_cast<int32_t>(value);
      else if (field == 4)
        entry->offset = value;
      else if (field == 5)
        entry->size = value;
    } else if (field == 2 && type == 2) { // TensorShapeProto
      Wire shape{std::string_view()};
      if (!wire.delimited(&shape))
        return false;
      while (!shape.atEnd()) {
        uint64_t shapeTag = 0;
        if (!shape.varint(&shapeTag))
          return false;
        if (shapeTag == (2 << 3 | 2)) { // dim
          Wire dim{std::string_view()};
          if (!shape.delimited(&dim))
            return false;
          int64_t size = 0;
          while (!dim.atEnd()) {
            uint64_t dimTag = 0, dimValue = 0;
            if (!dim.varint(&dimTag))
              return false;
            if (dimTag == (1 << 3 | 0)) {
              if (!dim.varint(&dimValue))
                return false;
              size = static_cast<int64_t>(dimValue);
            } else if (!skipField(dim, dimTag & 7)) {
              return false;
            }
          }
          entry->dims.push_back(size);
        } else if (shapeTag == (3 << 3 | 0)) { // unknown_rank
          uint64_t unknown = 0;
          if (!shape.varint(&unknown) || unknown)
            return false;
        } else if (!skipField(shape, shapeTag & 7)) {
          return false;
        }
      }
    } else if (field == 6 && type == 5) {
      std::string_view crc;
      if (!wire.bytes(4, &crc))
        return false;
      entry->maskedCrc = loadFixed32(crc.data());
    } else if (field == 7 && type == 2) {
      entry->sliced = true;
      if (!skipField(wire, type))
        return false;
    } else if (!skipField(wire, type)) {
      return false;
    }
  }
  return true;
}

std::string encodeEntry(const BundleEntry &entry) {
  using kernels::wire::appendVarint;
  std::string out, shape;
  appendVarint(&out, 1 << 3);
  appendVarint(&out, static_cast<uint64_t>(entry.dataType));
  for (int64_t dim : entry.dims) {
    std::string dimBytes;
    appendVarint(&dimBytes, 1 << 3);
    appendVarint(&dimBytes, static_cast<uint64_t>(dim));
    kernels::wire::appendBytesField(&shape, 2, dimBytes);
  }
  kernels::wire::appendBytesField(&out, 2, shape);
  auto optional = [&](int field, uint64_t value) {
    if (!value)
      return;
    appendVarint(&out, static_cast<uint64_t>(field) << 3);
    appendVarint(&out, value);
  };
  optional(3, static_cast<uint64_t>(entry.shard));
  optional(4, entry.offset);
  optional(5, entry.size);
  appendVarint(&out, 6 << 3 | 5);
  appendFixed32(&out, entry.maskedCrc);
  return out;
}

/// BundleHeaderProto{num_shards, LITTLE, version{producer 1}}.
std::string encodeHeader(int numShards) {
  std::string out;
  kernels::wire::appendVarint(&out, 1 << 3);
  kernels::wire::appendVarint(&out, static_cast<uint64_t>(numShards));
  kernels::wire::appendBytesField(&out, 3, std::string("\x08\x01", 2));
  return out;
}

/// Each string length as TF checksums it: four bytes, or eight above 2^32.
uint32_t extendLengthCrc(uint32_t crc, uint64_t length) {
  if (length <= UINT32_MAX) {
    uint32_t small = static_cast<uint32_t>(length);
    return crc32c(crc, &small, 4);
  }
  return crc32c(crc, &length, 8);
}

} // namespace

StatusOr<std::vector<std::pair<std::string, std::string>>>
readTableFile(std::string_view bytes, const std::string &file) {
  TableReader reader(bytes, file);
  return reader.read();
}

//===----------------------------------------------------------------------===//
// TensorBundleReader
//===----------------------------------------------------------------------===//

StatusOr<TensorBundleReader> TensorBundleReader::open(std::string prefix) {
  StatusOr<std::string> index =
      readFileRange(prefix + ".index", 0, ~uint64_t(0));
  if (!index.ok())
    return index.status();
  return fromIndex(std::move(prefix), *index);
}

StatusOr<TensorBundleReader>
TensorBundleReader::fromIndex(std::string prefix, std::string_view indexBytes) {
  const std::string file = prefix + ".index";
  StatusOr<std::vector<std::pair<std::string, std::string>>> table =
      readTableFile(indexBytes, file);
  if (!table.ok())
    return table.status();
  auto bad = [&](const std::string &key, const char *why) {
    return makeError(StatusCode::kDataLoss, "'%s': the entry of '%s' %s",
                     file.c_str(), key.c_str(), why);
  };
  TensorBundleReader reader;
  reader.prefix_ = std::move(prefix);
  if (table->empty() || !table->front().first.empty())
    return makeError(StatusCode::kDataLoss,
                     "'%s' has no bundle header (the empty key)", file.c_str());
  {
    Wire wire(table->front().second);
    uint64_t numShards = 1, endianness = 0, minConsumer = 0;
    while (!wire.atEnd()) {
      uint64_t tag = 0;
      if (!wire.varint(&tag))
        return bad("", "is not a BundleHeaderProto");
      if (tag == (1 << 3) && wire.varint(&numShards))
        continue;
      if (tag == (2 << 3) && wire.varint(&endianness))
        continue;
      if (tag == (3 << 3 | 2)) {
        Wire version{std::string_view()};
        if (!wire.delimited(&version))
          return bad("", "is not a BundleHeaderProto");
        while (!version.atEnd()) {
          uint64_t versionTag = 0, value = 0;
          if (!version.varint(&versionTag))
            return bad("", "is not a BundleHeaderProto");
          if (versionTag == (2 << 3) && version.varint(&value))
            minConsumer = value;
          else if (!skipField(version, versionTag & 7))
            return bad("", "is not a BundleHeaderProto");
        }
        continue;
      }
      if (!skipField(wire, tag & 7))
        return bad("", "is not a BundleHeaderProto");
    }
    if (endianness != 0)
      return makeError(StatusCode::kUnimplemented,
                       "'%s' is a big-endian bundle, which is not supported",
                       file.c_str());
    if (minConsumer > 1)
      return makeError(StatusCode::kUnimplemented,
                       "'%s' needs a bundle reader of version %llu (this one "
                       "reads version 1)",
                       file.c_str(),
                       static_cast<unsigned long long>(minConsumer));
    if (numShards < 1 || numShards > 100000)
      return makeError(StatusCode::kDataLoss, "'%s' claims %llu shards",
                       file.c_str(),
                       static_cast<unsigned long long>(numShards));
    reader.numShards_ = static_cast<int>(numShards);
  }
  for (size_t i = 1; i < table->size(); ++i) {
    const auto &[key, value] = (*table)[i];
    BundleEntry entry;
    if (!decodeEntry(value, &entry))
      return bad(key, "is not a BundleEntryProto");
    if (entry.shard < 0 || entry.shard >= reader.numShards_)
      return bad(key, "names a shard the bundle does not have");
    if (std::any_of(entry.dims.begin(), entry.dims.end(),
                    [](int64_t d) { return d < 0; }))
      return bad(key, "has a negative dimension");
    reader.keys_.push_back(key);
    reader.entries_.push_back(std::move(entry));
  }
  return reader;
}

const BundleEntry *TensorBundleReader::find(std::string_view key) const {
  auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
  if (it == keys_.end() || *it != key)
    return nullptr;
  return &entries_[it - keys_.begin()];
}

std::string TensorBundleReader::shardPath(int32_t shard) const {
  return strFormat("%s.data-%05d-of-%05d", prefix_.c_str(), shard, numShards_);
}

StatusOr<Tensor> TensorBundleReader::read(std::string_view key) const {
  const BundleEntry *entry = find(key);
  if (!entry)
    return makeError(StatusCode::kNotFound,
                     "the checkpoint '%s' has no tensor '%.*s'",
                     prefix_.c_str(), TFRT_FALLBACK_SV(key));
  if (entry->sliced)
    return makeError(StatusCode::kUnimplemented,
                     "'%.*s' in the checkpoint '%s' is a partitioned (sliced) "
                     "variable, which is not supported",
                     TFRT_FALLBACK_SV(key), prefix_.c_str());
  StatusOr<std::string> bytes =
      readFileRange(shardPath(entry->shard), entry->offset, entry->size);
  if (!bytes.ok())
    return makeError(bytes.status().code(), "reading '%.*s': %s",
                     TFRT_FALLBACK_SV(key),
                     std::string(bytes.status().message()).c_str());
  return readFrom(key, *entry, *bytes);
}

StatusOr<Tensor> TensorBundleReader::readFrom(std::string_view key,
                                              const BundleEntry &entry,
                                              std::string_view bytes) const {
  const std::string file = shardPath(entry.shard);
  auto bad = [&](const std::string &why) {
    return makeError(StatusCode::kDataLoss, "'%s': the tensor '%.*s' %s",
                     file.c_str(), TFRT_FALLBACK_SV(key), why.c_str());
  };
  if (entry.sliced)
    return makeError(StatusCode::kUnimplemented,
                     "'%.*s' is a partitioned (sliced) variable, which is not "
                     "supported",
                     TFRT_FALLBACK_SV(key));
  if (bytes.size() != entry.size)
    return bad(strFormat("has %zu bytes, its entry says %llu", bytes.size(),
                         static_cast<unsigned long long>(entry.size)));
  StatusOr<DType> dtype = dtypeFromDataType(entry.dataType);
  if (!dtype.ok() || *dtype == DType::Resource || *dtype == DType::Variant)
    return makeError(StatusCode::kUnimplemented,
                     "the tensor '%.*s' of '%s' has DataType %d, which the "
                     "runtime cannot restore",
                     TFRT_FALLBACK_SV(key), file.c_str(), entry.dataType);
  StatusOr<TensorShape> shape = TensorShape::create(entry.dims);
  if (!shape.ok())
    return bad(std::string(shape.status().message()));
  auto mismatch = [&] {
    return makeError(StatusCode::kDataLoss,
                     "'%s': checksum mismatch for the tensor '%.*s'",
                     file.c_str(), TFRT_FALLBACK_SV(key));
  };
  if (*dtype == DType::String) {
    // N varint lengths, their masked checksum, then the bytes.
    Wire wire(bytes);
    const int64_t count = shape->numElements();
    if (static_cast<uint64_t>(count) > bytes.size())
      return bad("has more elements than bytes");
    std::vector<uint64_t> lengths(static_cast<size_t>(count));
    uint32_t lengthsCrc = 0;
    uint64_t total = 0;
    for (uint64_t &length : lengths) {
      if (!wire.varint(&length) || length > bytes.size())
        return bad("has a bad string length");
      lengthsCrc = extendLengthCrc(lengthsCrc, length);
      total += length;
    }
    std::string_view stored, text;
    if (!wire.bytes(4, &stored) ||
        unmaskCrc32c(loadFixed32(stored.data())) != lengthsCrc)
      return bad("has a bad checksum of its string lengths");
    if (total != wire.remaining() || !wire.bytes(total, &text))
      return bad("has string lengths that do not add up to its bytes");
    // The entry's checksum: the lengths as checksummed above, their
    // checksum's bytes, the strings' bytes.
    uint32_t crc = lengthsCrc;
    crc = crc32c(crc, stored.data(), stored.size());
    crc = crc32c(crc, text.data(), text.size());
    if (unmaskCrc32c(entry.maskedCrc) != crc)
      return mismatch();
    std::vector<std::string_view> views;
    views.reserve(lengths.size());
    size_t at = 0;
    for (uint64_t length : lengths) {
      views.push_back(text.substr(at, length));
      at += length;
    }
    return makeStringTensor(*shape, views);
  }
  if (unmaskCrc32c(entry.maskedCrc) != crc32c(0, bytes.data(), bytes.size()))
    return mismatch();
  uint64_t expected = 0;
  if (!bytesOf(static_cast<uint64_t>(shape->numElements()), dtypeSize(*dtype),
               &expected) ||
      expected != bytes.size())
    return bad(strFormat("has %zu bytes; a %.*s tensor of shape %s has %llu",
                         bytes.size(), TFRT_FALLBACK_SV(dtypeName(*dtype)),
                         shape->toString().c_str(),
                         static_cast<unsigned long long>(expected)));
  StatusOr<Tensor> tensor = Tensor::allocate(*dtype, *std::move(shape));
  if (!tensor.ok())
    return tensor.status();
  if (!bytes.empty())
    std::memcpy(tensor->rawData(), bytes.data(), bytes.size());
  return tensor;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

Status
writeTensorBundle(const std::string &prefix,
                  absl::Span<const std::pair<std::string, Tensor>> tensors) {
  std::vector<size_t> order(tensors.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return tensors[a].first < tensors[b].first;
  });
  std::string data;
  std::vector<std::pair<std::string, std::string>> entries;
  entries.emplace_back("", encodeHeader(1));
  for (size_t i : order) {
    const auto &[key, tensor] = tensors[i];
    if (key.empty() || entries.back().first == key)
      return makeError(StatusCode::kInvalidArgument,
                       "cannot save two tensors named '%s' in '%s'",
                       key.c_str(), prefix.c_str());
    if (tensor.dtype() == DType::Resource || tensor.dtype() == DType::Variant)
      return makeError(
          StatusCode::kUnimplemented, "cannot save the %.*s tensor '%s'",
          TFRT_FALLBACK_SV(dtypeName(tensor.dtype())), key.c_str());
    BundleEntry entry;
    entry.dataType = static_cast<int>(tensor.dtype());
    entry.dims.assign(tensor.shape().dims().begin(),
                      tensor.shape().dims().end());
    entry.offset = data.size();
    if (tensor.dtype() == DType::String) {
      absl::Span<const std::string_view> strings = stringElements(tensor);
      uint32_t lengthsCrc = 0;
      for (std::string_view s : strings) {
        kernels::wire::appendVarint(&data, s.size());
        lengthsCrc = extendLengthCrc(lengthsCrc, s.size());
      }
      const size_t storedAt = data.size();
      appendFixed32(&data, maskCrc32c(lengthsCrc));
      for (std::string_view s : strings)
        data.append(s.data(), s.size());
      // As the reader checks it: the lengths' checksum continued over the
      // rest.
      entry.maskedCrc = maskCrc32c(
          crc32c(lengthsCrc, data.data() + storedAt, data.size() - storedAt));
    } else {
      data.append(static_cast<const char *>(tensor.rawData()),
                  tensor.totalBytes());
      entry.maskedCrc = maskCrc32c(
          crc32c(0, data.data() + entry.offset, data.size() - entry.offset));
    }
    entry.size = data.size() - entry.offset;
    entries.emplace_back(key, encodeEntry(entry));
  }
  if (Status status = writeFile(prefix + ".data-00000-of-00001", data);
      !status.ok())
    return status;
  return writeFile(prefix + ".index", buildTable(entries));
}

Status mergeTensorBundles(absl::Span<const std::string> sources,
                          const std::string &destination) {
  const int numShards = static_cast<int>(sources.size());
  if (numShards == 0)
    return makeError(StatusCode::kInvalidArgument,
                     "no checkpoint to merge into '%s'", destination.c_str());
  std::map<std::string, std::string> merged;
  merged.emplace("", encodeHeader(numShards));
  std::vector<TensorBundleReader> readers;
  for (const std::string &source : sources) {
    StatusOr<TensorBundleReader> reader = TensorBundleReader::open(source);
    if (!reader.ok())
      return reader.status();
    if (reader->numShards() != 1)
      return makeError(StatusCode::kUnimplemented,
                       "'%s' has %d shards; MergeV2Checkpoints merges "
                       "one-shard checkpoints",
                       source.c_str(), reader->numShards());
    readers.push_back(*std::move(reader));
  }
  for (int i = 0; i < numShards; ++i) {
    for (const std::string &key : readers[i].keys()) {
      BundleEntry entry = *readers[i].find(key);
      entry.shard = i;
      if (!merged.emplace(key, encodeEntry(entry)).second)
        return makeError(StatusCode::kInvalidArgument,
                         "the tensor '%s' is in more than one checkpoint "
                         "merged into '%s'",
                         key.c_str(), destination.c_str());
    }
  }
  for (int i = 0; i < numShards; ++i) {
    std::string from = readers[i].shardPath(0);
    std::string to =
        strFormat("%s.data-%05d-of-%05d", destination.c_str(), i, numShards);
    if (from != to && std::rename(from.c_str(), to.c_str()) != 0)
      return makeError(StatusCode::kPermissionDenied,
                       "cannot move '%s' to '%s': %s", from.c_str(), to.c_str(),
                       std::strerror(errno));
  }
  std::vector<std::pair<std::string, std::string>> entries(merged.begin(),
                                                           merged.end());
  if (Status status = writeFile(destination + ".index", buildTable(entries));
      !status.ok())
    return status;
  for (const std::string &source : sources)
    if (source != destination)
      std::remove((source + ".index").c_str());
  return OkStatus();
}

} // namespace tfrt_fallback::rt
