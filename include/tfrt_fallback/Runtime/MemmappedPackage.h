//===- MemmappedPackage.h - TF's memmapped file system package --*- C++ -*-===//
//
// A package file of TensorFlow's memmapped file system
// (tensorflow/core/util/memmapped_file_system.{h,cc,proto}): named regions
// of data, then the directory, a MemmappedFileSystemDirectory proto
//
//   MemmappedFileSystemDirectory        { repeated Element element = 1; }
//   MemmappedFileSystemDirectoryElement { uint64 offset = 1; string name = 2;
//                                         uint64 length = 3; }
//
// then the directory's offset as 8 little-endian bytes. Elements are in
// increasing offset order, each before the next and before the directory.
// The file is mapped once; ImmutableConst's tensors alias its regions
// (`memmapped_package://NAME` names region NAME). An executor is given its
// path with Executor::setMemmappedPackagePath (fallback-run
// --memmapped-package); ImmutableConst maps it on first use and keeps it as
// a resource of the executor.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_MEMMAPPEDPACKAGE_H
#define TFRT_FALLBACK_RUNTIME_MEMMAPPEDPACKAGE_H

#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace tfrt_fallback::rt {

class MemmappedPackage {
public:
  /// The prefix of a region's name in ImmutableConst's memory_region_name.
  static constexpr std::string_view kPrefix = "memmapped_package://";

  /// Maps the package at `path` and reads its directory. DataLoss for a
  /// file that is not a package (too short, a bad directory offset, a
  /// directory that does not parse, regions out of order, beyond the file
  /// or named twice).
  static StatusOr<std::shared_ptr<const MemmappedPackage>>
  open(const std::string &path);

  /// A tensor of `dtype` and `shape` over region `name` (without the
  /// prefix): it aliases the mapped file when the region is aligned to
  /// TensorBuffer::kAlignment, else is a copy. NotFound for no such region,
  /// InvalidArgument when its size is not that of the tensor.
  StatusOr<Tensor> tensor(std::string_view name, DType dtype,
                          const TensorShape &shape) const;

  const std::string &path() const { return path_; }

private:
  struct Region {
    uint64_t offset, length;
  };
  std::string path_;
  RCReference<TensorBuffer> file_;
  std::map<std::string, Region, std::less<>> regions_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_MEMMAPPEDPACKAGE_H
