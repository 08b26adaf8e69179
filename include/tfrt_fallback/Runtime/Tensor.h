//===- Tensor.h - Dense host tensors ----------------------------*- C++ -*-===//
//
// TensorShape, TensorBuffer (refcounted 64-byte aligned memory, or a view of
// external memory kept alive by its owner) and Tensor (dtype + shape + buffer
// + byte offset) with Eigen views for kernels.
//
// Eigen maps are always Eigen::Unaligned: buffers allocated here are 64-byte
// aligned, but views into a mapped program file or at a byte offset need not
// be, and an Aligned map over unaligned data is undefined behaviour.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_TENSOR_H
#define TFRT_FALLBACK_RUNTIME_TENSOR_H

#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/RefCounted.h"
#include "tfrt_fallback/Runtime/Status.h"

#include "absl/container/inlined_vector.h"
#include "absl/functional/any_invocable.h"
#include "absl/types/span.h"

#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif
#include <unsupported/Eigen/CXX11/Tensor>

#include <cassert>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <string>

namespace tfrt_fallback::rt {

//===----------------------------------------------------------------------===//
// TensorShape
//===----------------------------------------------------------------------===//

class TensorShape {
public:
  using Dims = absl::InlinedVector<int64_t, 6>;

  /// A scalar (rank 0, one element).
  TensorShape() = default;
  /// Trusted construction: dims must be >= 0 and their product must fit in
  /// int64 (checked by assert only). Use create() for untrusted dims.
  TensorShape(std::initializer_list<int64_t> dims)
      : TensorShape(absl::MakeConstSpan(dims.begin(), dims.size())) {}
  explicit TensorShape(absl::Span<const int64_t> dims);
  // Copies move rank() dims with one memcpy: shapes are copied on the
  // executor's hot path. The inline dims past rank() are unspecified (never
  // read), so a copy fills them once instead of zeroing them first.
  TensorShape(const TensorShape &other)
      : heap_(nullptr), rank_(other.rank_), numElements_(other.numElements_) {
    if (!other.heap_) {
      std::memcpy(inline_, other.inline_, sizeof(inline_));
    } else {
      heap_ = new int64_t[rank_];
      std::memcpy(heap_, other.heap_, rank_ * sizeof(int64_t));
    }
  }
  TensorShape(TensorShape &&other) noexcept {
    if (other.heap_) {
      heap_ = other.heap_;
      rank_ = other.rank_;
      numElements_ = other.numElements_;
      other.heap_ = nullptr;
      other.rank_ = 0;
      other.numElements_ = 1;
      return;
    }
    copyFrom(other);
  }
  TensorShape &operator=(const TensorShape &other) {
    if (this != &other)
      copyFrom(other);
    return *this;
  }
  TensorShape &operator=(TensorShape &&other) noexcept {
    if (this == &other)
      return *this;
    if (other.heap_) {
      delete[] heap_;
      heap_ = other.heap_;
      rank_ = other.rank_;
      numElements_ = other.numElements_;
      other.heap_ = nullptr;
      other.rank_ = 0;
      other.numElements_ = 1;
      return *this;
    }
    copyFrom(other);
    return *this;
  }
  ~TensorShape() { delete[] heap_; }

  /// The most dims a shape may have (TensorFlow's TensorShape::MaxDimensions).
  static constexpr int kMaxRank = 254;

  /// Checked construction: InvalidArgument for a negative dim, more than
  /// kMaxRank dims, or non-zero dims whose product overflows int64. The
  /// last is stricter than TensorFlow, which admits [2^40, 2^40, 0] (no
  /// elements): here the product of any subset of a shape's dims fits in
  /// int64, so a kernel's strides and row counts cannot overflow.
  static StatusOr<TensorShape> create(absl::Span<const int64_t> dims);

  int rank() const { return static_cast<int>(rank_); }
  int64_t dim(int i) const {
    assert(i >= 0 && i < rank() && "TensorShape::dim() out of range");
    return data()[i];
  }
  absl::Span<const int64_t> dims() const { return {data(), rank_}; }
  int64_t numElements() const { return numElements_; }
  bool isScalar() const { return rank_ == 0; }

  /// "[2,3]"; "[]" for a scalar.
  std::string toString() const;

  /// A loop rather than memcmp: shapes have a few dims, and kernels that
  /// compare them on every call keep fewer registers without the call.
  friend bool operator==(const TensorShape &a, const TensorShape &b) {
    const size_t rank = a.rank_;
    if (rank != b.rank_)
      return false;
    const int64_t *x = a.dims().data(), *y = b.dims().data();
    for (size_t i = 0; i < rank; ++i)
      if (x[i] != y[i])
        return false;
    return true;
  }
  friend bool operator!=(const TensorShape &a, const TensorShape &b) {
    return !(a == b);
  }

private:
  friend class Tensor;
  static constexpr size_t kInlineRank = 6;

  const int64_t *data() const { return heap_ ? heap_ : inline_; }
  /// Stores `rank` dims (numElements_ is the caller's).
  void assignDims(const int64_t *dims, size_t rank) {
    if (rank > kInlineRank) {
      int64_t *storage = new int64_t[rank];
      std::memcpy(storage, dims, rank * sizeof(int64_t));
      delete[] heap_;
      heap_ = storage;
    } else {
      if (rank)
        std::memmove(inline_, dims, rank * sizeof(int64_t));
      delete[] heap_;
      heap_ = nullptr;
    }
    rank_ = rank;
  }
  void copyFrom(const TensorShape &other) {
    if (!other.heap_ && !heap_) {
      // The common case, a shape of rank <= 6: one fixed-size copy.
      std::memcpy(inline_, other.inline_, sizeof(inline_));
      rank_ = other.rank_;
    } else {
      assignDims(other.data(), other.rank_);
    }
    numElements_ = other.numElements_;
  }

  /// The dims when rank() <= kInlineRank; the entries past rank() are
  /// unspecified.
  int64_t inline_[kInlineRank];
  int64_t *heap_ = nullptr;
  size_t rank_ = 0;
  int64_t numElements_ = 1;
};

/// The bytes of `count` elements of `elementBytes` bytes each, or false when
/// the product does not fit in 64 bits (a forged shape): the one size check
/// of every tensor, constant, .npy file and host vector, before the limits
/// (TensorBuffer::kMaxBytes, a MemoryBudget) are checked against *bytes.
[[nodiscard]] inline bool bytesOf(uint64_t count, uint64_t elementBytes,
                                  uint64_t *bytes) {
  return !__builtin_mul_overflow(count, elementBytes, bytes);
}
/// bytesOf a tensor of `shape` and `dtype` (a buffer dtype).
[[nodiscard]] inline bool bytesOf(const TensorShape &shape, DType dtype,
                                  uint64_t *bytes) {
  return bytesOf(static_cast<uint64_t>(shape.numElements()),
                 static_cast<uint64_t>(dtypeSize(dtype)), bytes);
}

//===----------------------------------------------------------------------===//
// TensorBuffer
//===----------------------------------------------------------------------===//

class MemoryBudget;
class TensorBuffer;

/// Memory whose buffers are made in place and handed back rather than freed
/// (a compiler's memory plan, MemoryPlan.h).
class PlannedMemory {
public:
  /// The last reference to `buffer`, made by TensorBuffer::placeIn, is
  /// gone; its destructor has run.
  virtual void giveBack(TensorBuffer *buffer) = 0;

protected:
  ~PlannedMemory() = default;
};

/// Refcounted tensor memory. Either owned (one malloc'ed block holding this
/// header followed by the 64-byte aligned data) or a view of external memory
/// whose owner is kept alive by a release callback.
class TensorBuffer : public ReferenceCounted<TensorBuffer> {
public:
  static constexpr size_t kAlignment = 64;
  /// Largest allocation allowed: 2^40 bytes (1 TiB).
  static constexpr uint64_t kMaxBytes = uint64_t(1) << 40;

  /// Allocates `bytes` bytes aligned to kAlignment. ResourceExhausted if the
  /// size exceeds kMaxBytes or the limits of the current MemoryBudget
  /// (Limits.h; the buffer is charged to it until freed), or the allocation
  /// fails. Contents are
  /// uninitialized. Buffers of 128 KiB and more come from an arena the
  /// process keeps (their pages stay resident for the next run, as in TF's
  /// and ONNX Runtime's allocators); smaller ones from malloc.
  static StatusOr<RCReference<TensorBuffer>> allocate(size_t bytes);

  /// Gives the free pages of the large-buffer arena back to the OS (for an
  /// app done running models for a while). Returns the bytes released.
  static size_t releaseCachedMemory();

  /// A buffer of `size` bytes at `data`, built in `storage` (sizeof and
  /// alignof TensorBuffer), that `owner` gets back when its last reference
  /// goes away. Owned (kernels may write it and reuse it for outputs).
  static RCReference<TensorBuffer> placeIn(void *storage, void *data,
                                           size_t size, PlannedMemory *owner);

  /// A view of `size` bytes at `data`, owned elsewhere. `release` runs when
  /// the last reference goes away; capture the owner in it (e.g. an
  /// RCReference or shared_ptr to a mapped file) to keep the memory alive.
  static RCReference<TensorBuffer>
  wrapExternal(void *data, size_t size, absl::AnyInvocable<void()> release);

  /// The whole file at `path`, read-only. Mapped (private, read-only) where
  /// the platform can, so that its pages are read when first touched and can
  /// be given back (discardPages); read into an allocated buffer otherwise
  /// (an empty file, a pipe, no mmap). At least 64-byte aligned either way.
  static StatusOr<RCReference<TensorBuffer>> readFile(const std::string &path);

  /// Says that the bytes [data, data + bytes) of this buffer will not be
  /// read again soon (a kernel keeps its own packed copy of a constant): the
  /// whole pages of that range of a mapped file are given back to the OS,
  /// and read from the file again if touched. A no-op for other buffers.
  void discardPages(const void *data, size_t bytes) const;

  /// Accounting of the bytes allocate() hands out, for memory reports
  /// (`fallback-run --benchmark`): off by default, when it costs one
  /// relaxed load per allocation; on, two atomic updates.
  static void setAccounting(bool enabled);
  /// Bytes of owned buffers alive now, and the most alive at once since
  /// the last resetPeakBytes() (counted while accounting is on).
  static size_t liveBytes();
  static size_t peakBytes();
  static void resetPeakBytes();

  void *data() const { return data_; }
  size_t size() const { return size_; }
  /// True for memory allocated by allocate(); external memory may be
  /// read-only and is never reused for outputs.
  bool isOwned() const { return allocation_ != nullptr; }
  /// Built by placeIn (planned memory): forwarded only where planned.
  bool isPlanned() const { return planned_; }

private:
  friend class ReferenceCounted<TensorBuffer>;
  TensorBuffer(void *data, size_t size, void *allocation,
               absl::AnyInvocable<void()> release)
      : data_(data), size_(size), allocation_(allocation),
        release_(std::move(release)) {}
  ~TensorBuffer() = default;
  void destroy() const;

  void *data_;
  size_t size_;
  /// The malloc'ed block holding this header and the data (owned buffers),
  /// or its arena block when `arena_`; null for external ones.
  void *allocation_;
  absl::AnyInvocable<void()> release_;
  /// Allocated while accounting was on (liveBytes() includes it).
  bool counted_ = false;
  /// A read-only private mapping of a file (readFile): its pages can be
  /// dropped and read again.
  bool fileMapped_ = false;
  /// Allocated from the BufferArena.
  bool arena_ = false;
  /// Built by placeIn: `allocation_` is its PlannedMemory.
  bool planned_ = false;
  /// The run's budget this buffer is charged to (a reference), or null.
  MemoryBudget *budget_ = nullptr;
};

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

template <typename T>
using TensorMap1D =
    Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor, Eigen::DenseIndex>,
                     Eigen::Unaligned>;
template <typename T, int N>
using TensorMapND =
    Eigen::TensorMap<Eigen::Tensor<T, N, Eigen::RowMajor, Eigen::DenseIndex>,
                     Eigen::Unaligned>;
template <typename T>
using ScalarMap =
    Eigen::TensorMap<Eigen::TensorFixedSize<T, Eigen::Sizes<>, Eigen::RowMajor,
                                            Eigen::DenseIndex>,
                     Eigen::Unaligned>;

class Tensor {
public:
  /// An empty tensor: dtype Invalid, no buffer.
  Tensor() = default;
  /// Trusted construction from parts; the buffer must hold at least
  /// offset + totalBytes() bytes (assert only). See fromBuffer().
  Tensor(DType dtype, TensorShape shape, RCReference<TensorBuffer> buffer,
         size_t byteOffset = 0)
      : dtype_(dtype), shape_(std::move(shape)), buffer_(std::move(buffer)),
        byteOffset_(byteOffset) {
    assert((!buffer_ || byteOffset_ + totalBytes() <= buffer_->size()) &&
           "tensor does not fit in its buffer");
  }

  /// A new tensor with uninitialized contents. InvalidArgument for a dtype
  /// without buffers, ResourceExhausted for more than 2^40 bytes or an
  /// allocation failure.
  static StatusOr<Tensor> allocate(DType dtype, TensorShape shape);

  /// A tensor over `buffer` at `byteOffset`, checking the dtype and that the
  /// data fits.
  static StatusOr<Tensor> fromBuffer(DType dtype, TensorShape shape,
                                     RCReference<TensorBuffer> buffer,
                                     size_t byteOffset = 0);

  /// Allocates a tensor and copies `values` (row-major) into it.
  template <typename T>
  static StatusOr<Tensor> fromValues(TensorShape shape,
                                     absl::Span<const T> values);
  template <typename T>
  static StatusOr<Tensor> fromValues(TensorShape shape,
                                     std::initializer_list<T> values) {
    return fromValues<T>(std::move(shape),
                         absl::MakeConstSpan(values.begin(), values.size()));
  }

  /// Drops the data and becomes an empty tensor, like `*this = Tensor()`
  /// without building and moving a temporary (the executor does this for
  /// every value at its last use).
  void reset() {
    this->~Tensor();
    new (this) Tensor();
  }

  /// Moves this tensor into `to`, which must be empty (default-constructed
  /// or reset), and leaves this one empty: the fields are handed over
  /// once, with no reference count update (the executor gives a kernel's
  /// output the tensor of an input that dies with the kernel this way).
  void moveInto(Tensor *to) {
    assert(!to->isValid() && !to->buffer_ && !to->shape_.heap_ &&
           "Tensor::moveInto() needs an empty destination");
    to->dtype_ = dtype_;
    to->byteOffset_ = byteOffset_;
    to->buffer_.swap(buffer_);
    std::memcpy(to->shape_.inline_, shape_.inline_, sizeof(shape_.inline_));
    to->shape_.heap_ = shape_.heap_;
    to->shape_.rank_ = shape_.rank_;
    to->shape_.numElements_ = shape_.numElements_;
    dtype_ = DType::Invalid;
    byteOffset_ = 0;
    shape_.heap_ = nullptr;
    shape_.rank_ = 0;
    shape_.numElements_ = 1;
  }

  bool isValid() const { return dtype_ != DType::Invalid; }
  DType dtype() const { return dtype_; }
  const TensorShape &shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  int64_t dim(int i) const { return shape_.dim(i); }
  int64_t numElements() const { return shape_.numElements(); }
  size_t totalBytes() const {
    return static_cast<size_t>(shape_.numElements()) * dtypeSize(dtype_);
  }
  const RCReference<TensorBuffer> &buffer() const { return buffer_; }
  size_t byteOffset() const { return byteOffset_; }

  void *rawData() const {
    return buffer_ ? static_cast<char *>(buffer_->data()) + byteOffset_
                   : nullptr;
  }
  /// True if the data pointer is 64-byte aligned.
  bool isAligned() const {
    return reinterpret_cast<uintptr_t>(rawData()) % TensorBuffer::kAlignment ==
           0;
  }

  /// True if this tensor is the only reference to an owned buffer, so a
  /// kernel may write its output into it.
  bool isBufferUniquelyOwned() const {
    return buffer_ && buffer_->isOwned() && buffer_->isUnique();
  }

  /// Same data viewed with another shape with as many elements.
  Tensor reshaped(TensorShape shape) const {
    assert(shape.numElements() == numElements() && "reshape size mismatch");
    return Tensor(dtype_, std::move(shape), buffer_, byteOffset_);
  }

  //===--------------------------------------------------------------------===//
  // Typed access. T must match dtype() (checked by assert only).
  //===--------------------------------------------------------------------===//

  template <typename T> T *data() const {
    assert(dtypeOf<T>() == dtype_ && "Tensor accessed with the wrong type");
    return static_cast<T *>(rawData());
  }
  template <typename T> TensorMap1D<T> flat() const {
    return TensorMap1D<T>(data<T>(), numElements());
  }
  template <typename T, int N> TensorMapND<T, N> tensor() const {
    assert(rank() == N && "Tensor::tensor<T, N>() with the wrong rank");
    Eigen::DSizes<Eigen::DenseIndex, N> dims;
    for (int i = 0; i < N; ++i)
      dims[i] = shape_.dim(i);
    return TensorMapND<T, N>(data<T>(), dims);
  }
  /// A view with `dims`, whose product must equal numElements().
  template <typename T, int N>
  TensorMapND<T, N> shaped(absl::Span<const int64_t> dims) const {
    assert(dims.size() == N && "Tensor::shaped<T, N>() with the wrong rank");
    Eigen::DSizes<Eigen::DenseIndex, N> sizes;
    int64_t product = 1;
    for (int i = 0; i < N; ++i) {
      sizes[i] = dims[i];
      product *= dims[i];
    }
    assert(product == numElements() && "Tensor::shaped() size mismatch");
    (void)product;
    return TensorMapND<T, N>(data<T>(), sizes);
  }
  template <typename T> ScalarMap<T> scalar() const {
    assert(numElements() == 1 && "Tensor::scalar() on a non-scalar");
    return ScalarMap<T>(data<T>());
  }

  /// NumPy-like text: "[[1, 2, 3],\n [4, 5, 6]]", floats with up to 6
  /// significant digits ("1.", "2.5", "1e-07"), bools as True/False. If the
  /// tensor has more than `maxElements` elements, each axis longer than 6
  /// shows its first and last 3 entries around "...".
  std::string debugString(int64_t maxElements = 1000) const;

private:
  DType dtype_ = DType::Invalid;
  TensorShape shape_;
  RCReference<TensorBuffer> buffer_;
  size_t byteOffset_ = 0;
};

template <typename T>
StatusOr<Tensor> Tensor::fromValues(TensorShape shape,
                                    absl::Span<const T> values) {
  if (static_cast<int64_t>(values.size()) != shape.numElements())
    return InvalidArgumentError(strCat("shape ", shape.toString(), " needs ",
                                       shape.numElements(), " values, got ",
                                       values.size()));
  StatusOr<Tensor> tensor = allocate(dtypeOf<T>(), std::move(shape));
  if (!tensor.ok())
    return tensor.status();
  T *out = tensor->data<T>();
  for (size_t i = 0; i < values.size(); ++i)
    out[i] = values[i];
  return tensor;
}

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_TENSOR_H
