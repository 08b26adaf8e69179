//===- TensorFile.cpp - Tensor buffers backed by a file ---------*- C++ -*-===//
//
// TensorBuffer::readFile (program files, mapped read-only) and
// discardPages, apart from Tensor.cpp so that they are compiled for size
// (tfrt_fallback_cold_sources): they run once per program or per packed
// constant, never on the per-op path.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Tensor.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define TFRT_FALLBACK_HAVE_MMAP 1
#endif

namespace tfrt_fallback::rt {

StatusOr<RCReference<TensorBuffer>>
TensorBuffer::readFile(const std::string &path) {
  auto cannotRead = [&](StatusCode code, const char *why) {
    return makeError(code, "cannot read '%s': %s", path.c_str(), why);
  };
#ifdef TFRT_FALLBACK_HAVE_MMAP
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cannotRead(StatusCode::kNotFound, std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      static_cast<uint64_t>(st.st_size) <= kMaxBytes) {
    size_t size = static_cast<size_t>(st.st_size);
    void *map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map != MAP_FAILED) {
      RCReference<TensorBuffer> buffer =
          wrapExternal(map, size, [map, size] { ::munmap(map, size); });
      buffer->fileMapped_ = true;
      return buffer;
    }
  } else {
    ::close(fd);
  }
#endif
  // Not mappable: read it.
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return cannotRead(StatusCode::kNotFound, std::strerror(errno));
  StatusOr<RCReference<TensorBuffer>> bytes =
      cannotRead(StatusCode::kInvalidArgument, "not a regular file");
  long size = -1;
  if (std::fseek(file, 0, SEEK_END) == 0)
    size = std::ftell(file);
  if (size >= 0 && std::fseek(file, 0, SEEK_SET) == 0) {
    bytes = allocate(static_cast<size_t>(size));
    if (bytes.ok() && size > 0 &&
        std::fread((*bytes)->data(), 1, static_cast<size_t>(size), file) !=
            static_cast<size_t>(size))
      bytes = cannotRead(StatusCode::kDataLoss, "short read");
  }
  std::fclose(file);
  return bytes;
}

void TensorBuffer::discardPages(const void *data, size_t bytes) const {
#ifdef TFRT_FALLBACK_HAVE_MMAP
  if (!fileMapped_)
    return;
  static const uintptr_t pageSize =
      static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t lo = reinterpret_cast<uintptr_t>(data_);
  const uintptr_t hi = lo + size_;
  uintptr_t begin = std::max(reinterpret_cast<uintptr_t>(data), lo);
  uintptr_t end = std::min(reinterpret_cast<uintptr_t>(data) + bytes, hi);
  // Whole pages only: the neighbours' bytes stay where they are.
  begin = (begin + pageSize - 1) & ~(pageSize - 1);
  end &= ~(pageSize - 1);
  if (begin >= end)
    return;
  // MADV_RANDOM first, though nothing reads these pages in order: it makes
  // the range a mapping (VMA) of its own, so that a fault on a neighbouring
  // constant, which maps the rest of its page-cache folio (up to 2 MiB with
  // large folios) within its VMA, cannot map these pages back in.
  void *first = reinterpret_cast<void *>(begin);
  ::madvise(first, end - begin, MADV_RANDOM);
  ::madvise(first, end - begin, MADV_DONTNEED);
#else
  (void)data;
  (void)bytes;
#endif
}

} // namespace tfrt_fallback::rt
