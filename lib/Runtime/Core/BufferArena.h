//===- BufferArena.h - Retained memory for large tensor buffers -*- C++ -*-===//
//
// Large tensor buffers come from an arena of memory-mapped regions that is
// kept across runs, as TF's BFC allocator and ONNX Runtime's CPU arena keep
// theirs: glibc returns large blocks (at or above its mmap threshold) to the
// OS on free, so every run paid a page fault and a page of zeroing per 4 KiB
// of activations (posenet: 15 MiB a run, 20% of its time).
//
// Best fit (smallest free block that fits, lowest address among equals)
// with splitting and coalescing of neighbours, in page-granular blocks. A
// region is reserved larger than it is used: pages no block ever touched
// cost no memory, so the resident size follows the peak of live buffers
// plus fragmentation, as glibc's heap does. Thread-safe (one mutex).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_CORE_BUFFERARENA_H
#define TFRT_FALLBACK_LIB_RUNTIME_CORE_BUFFERARENA_H

#include <cstddef>
#include <cstdint>

namespace tfrt_fallback::rt {

class BufferArena {
public:
  /// Buffers of at least this many bytes come from the arena (glibc's
  /// default mmap threshold); smaller ones from malloc.
  static constexpr size_t kMinBytes = 128 * 1024;

  /// The process's arena, or null when it is disabled (sanitizer builds,
  /// where malloc's red zones must see every buffer, and targets without
  /// mmap).
  static BufferArena *get();

  /// A block of at least `bytes`, 64-byte aligned, with `*handle` set for
  /// release(); null when no memory could be mapped.
  void *allocate(size_t bytes, void **handle);
  /// Returns the block of `handle` to the arena; its pages stay resident.
  void release(void *handle);
  /// Gives the pages of every free block back to the OS (they are mapped
  /// again, as zeros, when reused). Returns the bytes released.
  size_t trim();

  /// Bytes of the regions mapped so far and of the blocks in use.
  size_t reservedBytes() const;
  size_t usedBytes() const;

private:
  BufferArena() = default;
  struct Impl;
  Impl *impl_ = nullptr;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_LIB_RUNTIME_CORE_BUFFERARENA_H
