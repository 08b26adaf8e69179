//===- Tensor.cpp - Dense host tensors --------------------------*- C++ -*-===//
//
// Shape validation and buffer allocation (program files: TensorFile.cpp,
// printing: TensorPrint.cpp).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Tensor.h"

#include "BufferArena.h"
#include "tfrt_fallback/Runtime/Limits.h"
#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include "absl/base/optimization.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

namespace tfrt_fallback::rt {

//===----------------------------------------------------------------------===//
// TensorShape
//===----------------------------------------------------------------------===//

TensorShape::TensorShape(absl::Span<const int64_t> dims) {
  assignDims(dims.data(), dims.size());
  // Unsigned, so that a trusted shape that breaks the rules (asserts off)
  // is not undefined behaviour here.
  uint64_t count = 1;
  for (int64_t d : dims) {
    assert(d >= 0 && "negative dimension");
    count *= static_cast<uint64_t>(d);
  }
  numElements_ = static_cast<int64_t>(count);
}

StatusOr<TensorShape> TensorShape::create(absl::Span<const int64_t> dims) {
  if (dims.size() > static_cast<size_t>(kMaxRank))
    return makeError(StatusCode::kInvalidArgument,
                     "shape has %zu dimensions, more than %d", dims.size(),
                     kMaxRank);
  // The product of the non-zero dims: it bounds the product of any subset.
  int64_t product = 1;
  bool zero = false, overflow = false;
  for (int64_t d : dims) {
    if (d < 0)
      return makeError(StatusCode::kInvalidArgument,
                       "negative dimension %lld in shape [%s]",
                       static_cast<long long>(d), strJoin(dims, ",").c_str());
    zero |= d == 0;
    overflow |= d != 0 && __builtin_mul_overflow(product, d, &product);
  }
  if (overflow)
    return makeError(StatusCode::kInvalidArgument,
                     "shape [%s] has more than 2^63-1 elements%s",
                     strJoin(dims, ",").c_str(),
                     zero ? " in its non-zero dimensions" : "");
  return TensorShape(dims);
}

std::string TensorShape::toString() const {
  std::string text = "[";
  text += strJoin(dims(), ",");
  text += ']';
  return text;
}

//===----------------------------------------------------------------------===//
// TensorBuffer
//===----------------------------------------------------------------------===//

namespace {
std::atomic<bool> accounting{false};
std::atomic<size_t> live{0};
std::atomic<size_t> peak{0};

void countAllocation(size_t bytes) {
  size_t now = live.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  size_t before = peak.load(std::memory_order_relaxed);
  while (now > before &&
         !peak.compare_exchange_weak(before, now, std::memory_order_relaxed))
    ;
}
} // namespace

void TensorBuffer::setAccounting(bool enabled) {
  accounting.store(enabled, std::memory_order_relaxed);
}
size_t TensorBuffer::liveBytes() {
  return live.load(std::memory_order_relaxed);
}
size_t TensorBuffer::peakBytes() {
  return peak.load(std::memory_order_relaxed);
}
size_t TensorBuffer::releaseCachedMemory() {
  BufferArena *arena = BufferArena::get();
  return arena ? arena->trim() : 0;
}

void TensorBuffer::resetPeakBytes() {
  peak.store(live.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

StatusOr<RCReference<TensorBuffer>> TensorBuffer::allocate(size_t bytes) {
  if (bytes > kMaxBytes)
    return makeError(StatusCode::kResourceExhausted,
                     "tensor allocation of %zu bytes exceeds the limit of "
                     "%llu bytes",
                     bytes, static_cast<unsigned long long>(kMaxBytes));
  // Charged before anything is allocated; refunded if nothing is.
  MemoryBudget *budget =
      MemoryBudget::anyAlive() ? MemoryBudget::current() : nullptr;
  if (budget)
    if (Status status = budget->charge(bytes); !status.ok())
      return status;
  TensorBuffer *buffer = nullptr;
  // Large buffers: a page-granular block of the arena, the header at its
  // start and the data at the next 64-byte boundary.
  if (bytes >= BufferArena::kMinBytes) {
    if (BufferArena *arena = BufferArena::get()) {
      constexpr size_t kHeader =
          (sizeof(TensorBuffer) + kAlignment - 1) & ~(kAlignment - 1);
      void *handle = nullptr;
      if (auto *block =
              static_cast<char *>(arena->allocate(kHeader + bytes, &handle))) {
        buffer =
            new (block) TensorBuffer(block + kHeader, bytes, handle, nullptr);
        buffer->arena_ = true;
      }
    }
  }
  if (!buffer) {
    // One plain malloc (much cheaper than aligned new in glibc) holding the
    // header right before the first 64-byte boundary that leaves room for
    // it.
    void *raw = std::malloc(sizeof(TensorBuffer) + kAlignment - 1 + bytes);
    if (!raw && budget)
      budget->refund(bytes);
    if (!raw)
      return makeError(StatusCode::kResourceExhausted,
                       "out of memory allocating %zu bytes", bytes);
    uintptr_t data = (reinterpret_cast<uintptr_t>(raw) + sizeof(TensorBuffer) +
                      kAlignment - 1) &
                     ~uintptr_t(kAlignment - 1);
    void *header = reinterpret_cast<void *>(data - sizeof(TensorBuffer));
    buffer = new (header)
        TensorBuffer(reinterpret_cast<void *>(data), bytes, raw, nullptr);
  }
  if (accounting.load(std::memory_order_relaxed)) {
    // Marks the buffer so that its release is counted even if accounting
    // is turned off meanwhile.
    buffer->counted_ = true;
    countAllocation(bytes);
  }
  if (budget) {
    budget->addRef();
    buffer->budget_ = budget;
  }
  return takeRef(buffer);
}

RCReference<TensorBuffer>
TensorBuffer::wrapExternal(void *data, size_t size,
                           absl::AnyInvocable<void()> release) {
  return takeRef(new TensorBuffer(data, size, nullptr, std::move(release)));
}

RCReference<TensorBuffer> TensorBuffer::placeIn(void *storage, void *data,
                                                size_t size,
                                                PlannedMemory *owner) {
  auto *buffer = new (storage) TensorBuffer(data, size, owner, nullptr);
  buffer->planned_ = true;
  return takeRef(buffer);
}

void TensorBuffer::destroy() const {
  auto *self = const_cast<TensorBuffer *>(this);
  if (ABSL_PREDICT_FALSE(self->planned_)) {
    auto *owner = static_cast<PlannedMemory *>(self->allocation_);
    self->~TensorBuffer();
    owner->giveBack(self);
    return;
  }
  if (void *raw = self->allocation_) {
    if (self->counted_)
      live.fetch_sub(self->size_, std::memory_order_relaxed);
    if (MemoryBudget *budget = self->budget_) {
      budget->refund(self->size_);
      budget->dropRef();
    }
    const bool fromArena = self->arena_;
    self->~TensorBuffer();
    if (fromArena)
      BufferArena::get()->release(raw);
    else
      std::free(raw);
    return;
  }
  absl::AnyInvocable<void()> release = std::move(self->release_);
  delete self;
  if (release)
    std::move(release)();
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

static Status checkBufferDType(DType dtype) {
  if (isBufferDType(dtype))
    return OkStatus();
  std::string_view name = dtypeName(dtype);
  return makeError(StatusCode::kInvalidArgument,
                   "cannot create a tensor of dtype '%.*s'",
                   TFRT_FALLBACK_SV(name));
}

StatusOr<Tensor> Tensor::allocate(DType dtype, TensorShape shape) {
  if (Status s = checkBufferDType(dtype); !s.ok())
    return s;
  uint64_t bytes;
  if (!bytesOf(shape, dtype, &bytes) || bytes > TensorBuffer::kMaxBytes)
    return makeError(
        StatusCode::kResourceExhausted,
        "tensor of shape %s and dtype %s exceeds the limit of %llu bytes",
        shape.toString().c_str(), std::string(dtypeName(dtype)).c_str(),
        static_cast<unsigned long long>(TensorBuffer::kMaxBytes));
  StatusOr<RCReference<TensorBuffer>> buffer =
      TensorBuffer::allocate(static_cast<size_t>(bytes));
  if (!buffer.ok())
    return buffer.status();
  return Tensor(dtype, std::move(shape), *std::move(buffer));
}

StatusOr<Tensor> Tensor::fromBuffer(DType dtype, TensorShape shape,
                                    RCReference<TensorBuffer> buffer,
                                    size_t byteOffset) {
  if (Status s = checkBufferDType(dtype); !s.ok())
    return s;
  if (!buffer)
    return InvalidArgumentError("tensor buffer is null");
  uint64_t bytes, end;
  if (!bytesOf(shape, dtype, &bytes) ||
      __builtin_add_overflow(bytes, static_cast<uint64_t>(byteOffset), &end) ||
      end > buffer->size())
    return makeError(StatusCode::kInvalidArgument,
                     "tensor of shape %s and dtype %s at offset %zu does not "
                     "fit in a buffer of %zu bytes",
                     shape.toString().c_str(),
                     std::string(dtypeName(dtype)).c_str(), byteOffset,
                     static_cast<size_t>(buffer->size()));
  return Tensor(dtype, std::move(shape), std::move(buffer), byteOffset);
}

} // namespace tfrt_fallback::rt
