//===- BufferArena.cpp - Retained memory for large tensor buffers -*- C++ -*-//
//
// Best-fit blocks over memory-mapped regions, with splitting and coalescing
// (see BufferArena.h).
//
//===----------------------------------------------------------------------===//

#include "BufferArena.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#if defined(__linux__) || defined(__APPLE__)
#include <sys/mman.h>
#define TFRT_FALLBACK_HAS_MMAP 1
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define TFRT_FALLBACK_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TFRT_FALLBACK_SANITIZED 1
#endif

namespace tfrt_fallback::rt {
namespace {

constexpr size_t kPage = 4096;
/// Regions are reserved at least this large; untouched pages cost nothing.
constexpr size_t kRegionBytes = size_t(64) << 20;

size_t roundUp(size_t value, size_t to) { return (value + to - 1) / to * to; }

/// A block of a region, linked to its neighbours in address order.
struct Block {
  char *addr;
  size_t size;
  bool free;
  Block *prev, *next;
};

} // namespace

struct BufferArena::Impl {
  mutable std::mutex mu;
  /// Free blocks by (size, address): best fit, lowest address first.
  std::map<std::pair<size_t, const char *>, Block *> freeBlocks;
  std::vector<std::pair<char *, size_t>> regions;
  size_t reserved = 0, used = 0;

  void insertFree(Block *block) {
    freeBlocks.emplace(std::make_pair(block->size, block->addr), block);
  }
  void eraseFree(Block *block) {
    freeBlocks.erase(std::make_pair(block->size, block->addr));
  }

  /// A new region's single free block, or null.
  Block *addRegion(size_t size) {
#if defined(TFRT_FALLBACK_HAS_MMAP)
    size_t bytes =
        size > kRegionBytes ? roundUp(size, size_t(2) << 20) : kRegionBytes;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#if defined(MAP_NORESERVE)
    flags |= MAP_NORESERVE;
#endif
    void *addr = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (addr == MAP_FAILED)
      return nullptr;
    regions.emplace_back(static_cast<char *>(addr), bytes);
    reserved += bytes;
    return new Block{static_cast<char *>(addr), bytes, true, nullptr, nullptr};
#else
    (void)size;
    return nullptr;
#endif
  }
};

BufferArena *BufferArena::get() {
  static BufferArena *arena = []() -> BufferArena * {
#if defined(TFRT_FALLBACK_HAS_MMAP) && !defined(TFRT_FALLBACK_SANITIZED)
    // TFRT_FALLBACK_BUFFER_ARENA=0 gives every buffer to malloc (for heap
    // profilers and memory checkers).
    const char *env = std::getenv("TFRT_FALLBACK_BUFFER_ARENA");
    if (env && std::strcmp(env, "0") == 0)
      return nullptr;
    // Never destroyed: buffers may outlive static destructors.
    auto *created = new BufferArena;
    created->impl_ = new Impl;
    return created;
#else
    return nullptr;
#endif
  }();
  return arena;
}

void *BufferArena::allocate(size_t bytes, void **handle) {
  if (bytes > (size_t(1) << 62))
    return nullptr;
  const size_t size = roundUp(bytes, kPage);
  Impl &impl = *impl_;
  std::lock_guard<std::mutex> lock(impl.mu);
  auto it = impl.freeBlocks.lower_bound(
      std::make_pair(size, static_cast<const char *>(nullptr)));
  Block *block;
  if (it != impl.freeBlocks.end()) {
    block = it->second;
    impl.freeBlocks.erase(it);
  } else {
    block = impl.addRegion(size);
    if (!block)
      return nullptr;
  }
  if (block->size > size) {
    auto *rest = new Block{block->addr + size, block->size - size, true, block,
                           block->next};
    if (block->next)
      block->next->prev = rest;
    block->next = rest;
    block->size = size;
    impl.insertFree(rest);
  }
  block->free = false;
  impl.used += block->size;
  *handle = block;
  return block->addr;
}

void BufferArena::release(void *handle) {
  auto *block = static_cast<Block *>(handle);
  Impl &impl = *impl_;
  std::lock_guard<std::mutex> lock(impl.mu);
  block->free = true;
  impl.used -= block->size;
  if (Block *next = block->next; next && next->free) {
    impl.eraseFree(next);
    block->size += next->size;
    block->next = next->next;
    if (next->next)
      next->next->prev = block;
    delete next;
  }
  if (Block *prev = block->prev; prev && prev->free) {
    impl.eraseFree(prev);
    prev->size += block->size;
    prev->next = block->next;
    if (block->next)
      block->next->prev = prev;
    delete block;
    block = prev;
  }
  impl.insertFree(block);
}

size_t BufferArena::trim() {
  Impl &impl = *impl_;
  std::lock_guard<std::mutex> lock(impl.mu);
  size_t released = 0;
#if defined(TFRT_FALLBACK_HAS_MMAP)
  for (const auto &[key, block] : impl.freeBlocks) {
    ::madvise(block->addr, block->size, MADV_DONTNEED);
    released += block->size;
  }
#endif
  return released;
}

size_t BufferArena::reservedBytes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->reserved;
}

size_t BufferArena::usedBytes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->used;
}

} // namespace tfrt_fallback::rt
