//===- MemmappedPackage.cpp - TF's memmapped file system package -*- C++ -*-=//
//
// Reads a package's directory with the kernels' protobuf wire reader
// (ProtoWire.h); see MemmappedPackage.h for the format.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/MemmappedPackage.h"

#include "strings/ProtoWire.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <cstring>

namespace tfrt_fallback::rt {
namespace {
using kernels::Wire;

/// One element of the directory; false for malformed bytes.
bool parseElement(Wire &w, std::string *name, uint64_t *offset,
                  uint64_t *length) {
  while (!w.atEnd()) {
    uint64_t tag = 0;
    if (!w.varint(&tag))
      return false;
    const uint64_t field = tag >> 3;
    switch (tag & 7) {
    case 0: {
      uint64_t value = 0;
      if (!w.varint(&value))
        return false;
      if (field == 1)
        *offset = value;
      else if (field == 3)
        *length = value;
      break;
    }
    case 1:
      if (!w.skip(8))
        return false;
      break;
    case 2: {
      uint32_t n = 0;
      std::string_view bytes;
      if (!w.length(&n) || !w.bytes(n, &bytes))
        return false;
      if (field == 2)
        name->assign(bytes);
      break;
    }
    case 5:
      if (!w.skip(4))
        return false;
      break;
    default:
      return false;
    }
  }
  return true;
}

} // namespace

StatusOr<std::shared_ptr<const MemmappedPackage>>
MemmappedPackage::open(const std::string &path) {
  StatusOr<RCReference<TensorBuffer>> file = TensorBuffer::readFile(path);
  if (!file.ok())
    return file.status();
  auto corrupted = [&](std::string_view why) {
    return makeError(StatusCode::kDataLoss,
                     "Corrupted memmapped model file: %s %.*s", path.c_str(),
                     static_cast<int>(why.size()), why.data());
  };
  const uint8_t *data = static_cast<const uint8_t *>((*file)->data());
  const uint64_t size = (*file)->size();
  if (size <= sizeof(uint64_t))
    return corrupted("Invalid package size");
  uint64_t directoryOffset = 0;
  for (int b = 7; b >= 0; --b)
    directoryOffset = directoryOffset << 8 | data[size - 8 + b];
  if (directoryOffset > size - sizeof(uint64_t))
    return corrupted("Invalid directory offset");
  auto package = std::make_shared<MemmappedPackage>();
  package->path_ = path;
  Wire w(
      std::string_view(reinterpret_cast<const char *>(data) + directoryOffset,
                       size - sizeof(uint64_t) - directoryOffset));
  struct Element {
    std::string name;
    uint64_t offset = 0, length = 0;
  };
  std::vector<Element> elements;
  while (!w.atEnd()) {
    uint64_t tag = 0;
    Wire e(std::string_view{});
    Element element;
    if (!w.varint(&tag) || tag != ((1 << 3) | 2) || !w.delimited(&e) ||
        !parseElement(e, &element.name, &element.offset, &element.length))
      return corrupted("Can't parse its internal directory");
    elements.push_back(std::move(element));
  }
  // As TF: from the last element back, each before the next (the last
  // before the directory); and, beyond TF, each region inside the file.
  uint64_t next = directoryOffset;
  for (auto it = elements.rbegin(); it != elements.rend(); ++it) {
    if (it->offset >= next)
      return corrupted("Invalid offset of internal component");
    if (it->length > next - it->offset)
      return corrupted("Invalid length of internal component " + it->name);
    if (!package->regions_.emplace(it->name, Region{it->offset, it->length})
             .second)
      return corrupted("Duplicate name of internal component " + it->name);
    next = it->offset;
  }
  package->file_ = *std::move(file);
  return std::shared_ptr<const MemmappedPackage>(std::move(package));
}

StatusOr<Tensor> MemmappedPackage::tensor(std::string_view name, DType dtype,
                                          const TensorShape &shape) const {
  auto it = regions_.find(name);
  if (it == regions_.end())
    return makeError(StatusCode::kNotFound,
                     "no region '%.*s' in memmapped package %s",
                     static_cast<int>(name.size()), name.data(), path_.c_str());
  const Region region = it->second;
  const uint64_t bytes =
      static_cast<uint64_t>(shape.numElements()) * dtypeSize(dtype);
  if (region.length != bytes)
    return makeError(StatusCode::kInvalidArgument,
                     "region '%.*s' of memmapped package %s has %llu bytes, "
                     "a tensor of shape %s and dtype %s has %llu",
                     static_cast<int>(name.size()), name.data(), path_.c_str(),
                     static_cast<unsigned long long>(region.length),
                     shape.toString().c_str(),
                     std::string(dtypeName(dtype)).c_str(),
                     static_cast<unsigned long long>(bytes));
  const char *at = static_cast<const char *>(file_->data()) + region.offset;
  if (reinterpret_cast<uintptr_t>(at) % TensorBuffer::kAlignment == 0)
    return Tensor::fromBuffer(dtype, shape, file_, region.offset);
  StatusOr<Tensor> copy = Tensor::allocate(dtype, shape);
  if (!copy.ok())
    return copy.status();
  if (bytes)
    std::memcpy(copy->rawData(), at, bytes);
  return copy;
}

} // namespace tfrt_fallback::rt
