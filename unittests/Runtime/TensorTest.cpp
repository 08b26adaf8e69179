//===- TensorTest.cpp - Shape, buffer and tensor tests ----------*- C++ -*-===//
//
// Shapes, allocation limits, alignment, ownership and debugString formats.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Tensor.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

using namespace tfrt_fallback::rt;

namespace {

TEST(TensorShapeTest, Basics) {
  TensorShape scalar;
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.numElements(), 1);
  EXPECT_EQ(scalar.toString(), "[]");

  TensorShape shape{2, 3};
  EXPECT_EQ(shape.rank(), 2);
  EXPECT_EQ(shape.dim(0), 2);
  EXPECT_EQ(shape.dim(1), 3);
  EXPECT_EQ(shape.numElements(), 6);
  EXPECT_EQ(shape.toString(), "[2,3]");
  EXPECT_EQ(shape, (TensorShape{2, 3}));
  EXPECT_NE(shape, (TensorShape{3, 2}));
  EXPECT_EQ((TensorShape{4, 0, 5}).numElements(), 0);
}

TEST(TensorShapeTest, CreateChecksDims) {
  std::vector<int64_t> ok = {1, 2, 3, 4, 5, 6, 7};
  auto shape = TensorShape::create(ok);
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(shape->numElements(), 5040);
  EXPECT_EQ(shape->toString(), "[1,2,3,4,5,6,7]");

  std::vector<int64_t> negative = {2, -1};
  EXPECT_EQ(TensorShape::create(negative).status(),
            InvalidArgumentError("negative dimension -1 in shape [2,-1]"));

  std::vector<int64_t> huge = {int64_t(1) << 40, int64_t(1) << 40};
  EXPECT_EQ(TensorShape::create(huge).status(),
            InvalidArgumentError(
                "shape [1099511627776,1099511627776] has more than 2^63-1 "
                "elements"));

  // A zero dim makes an empty tensor, but the other dims must still
  // multiply within int64, so that no stride or row count overflows.
  std::vector<int64_t> zero = {int64_t(1) << 40, int64_t(1) << 40, 0};
  EXPECT_EQ(TensorShape::create(zero).status(),
            InvalidArgumentError(
                "shape [1099511627776,1099511627776,0] has more than 2^63-1 "
                "elements in its non-zero dimensions"));
  std::vector<int64_t> wide = {int64_t(1) << 40, 0, int64_t(1) << 22};
  auto empty = TensorShape::create(wide);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->numElements(), 0);

  // TensorFlow's limit of 254 dims.
  std::vector<int64_t> deep(254, 1);
  EXPECT_TRUE(TensorShape::create(deep).ok());
  deep.push_back(1);
  EXPECT_EQ(TensorShape::create(deep).status(),
            InvalidArgumentError("shape has 255 dimensions, more than 254"));
}

TEST(TensorTest, AllocateIsAligned) {
  for (int64_t n : {0, 1, 3, 17, 1000}) {
    auto t = Tensor::allocate(DType::F32, TensorShape{n});
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t->rawData()) % 64, 0u);
    EXPECT_TRUE(t->isAligned());
    EXPECT_EQ(t->totalBytes(), static_cast<size_t>(n) * 4);
    EXPECT_EQ(t->buffer()->size(), static_cast<size_t>(n) * 4);
    EXPECT_EQ(t->dtype(), DType::F32);
  }
}

TEST(TensorTest, AllocateErrors) {
  EXPECT_EQ(Tensor::allocate(DType::Invalid, TensorShape{1}).status(),
            InvalidArgumentError("cannot create a tensor of dtype 'invalid'"));
  EXPECT_EQ(Tensor::allocate(DType::String, TensorShape{1}).status(),
            InvalidArgumentError("cannot create a tensor of dtype 'string'"));
  auto tooBig = Tensor::allocate(DType::F64, TensorShape{int64_t(1) << 38});
  EXPECT_EQ(tooBig.status(),
            ResourceExhaustedError(
                "tensor of shape [274877906944] and dtype f64 exceeds the "
                "limit of 1099511627776 bytes"));
  // Element count fits in int64 but the byte count overflows uint64.
  auto overflow = Tensor::allocate(DType::I64, TensorShape{int64_t(1) << 62});
  EXPECT_EQ(overflow.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(TensorBuffer::allocate((size_t(1) << 40) + 1).status().code(),
            StatusCode::kResourceExhausted);
}

TEST(TensorTest, TypedViews) {
  auto t = Tensor::fromValues<int32_t>(TensorShape{2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->flat<int32_t>()(4), 5);
  EXPECT_EQ((t->tensor<int32_t, 2>()(1, 0)), 4);
  int64_t dims[] = {3, 2};
  EXPECT_EQ((t->shaped<int32_t, 2>(dims)(2, 1)), 6);
  auto flat = t->flat<int32_t>();
  flat = flat * 2;
  EXPECT_EQ(t->data<int32_t>()[5], 12);

  auto s = Tensor::fromValues<float>(TensorShape{}, {2.5f});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->scalar<float>()(), 2.5f);

  EXPECT_EQ(Tensor::fromValues<float>(TensorShape{2}, {1.0f}).status(),
            InvalidArgumentError("shape [2] needs 2 values, got 1"));
}

TEST(TensorTest, UniquelyOwned) {
  auto t = Tensor::allocate(DType::I32, TensorShape{4});
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->isBufferUniquelyOwned());
  {
    Tensor copy = *t;
    EXPECT_FALSE(t->isBufferUniquelyOwned());
    EXPECT_FALSE(copy.isBufferUniquelyOwned());
  }
  EXPECT_TRUE(t->isBufferUniquelyOwned());
  Tensor moved = std::move(*t);
  EXPECT_TRUE(moved.isBufferUniquelyOwned());
  Tensor reshaped = moved.reshaped(TensorShape{2, 2});
  EXPECT_FALSE(moved.isBufferUniquelyOwned());
  EXPECT_EQ(reshaped.rawData(), moved.rawData());
  EXPECT_FALSE(Tensor().isBufferUniquelyOwned());
}

TEST(TensorTest, ExternalBufferKeepsOwnerAlive) {
  // The owner of the memory, e.g. a mapped program file.
  auto owner = std::make_shared<std::vector<float>>(
      std::vector<float>{0, 1, 2, 3, 4, 5});
  std::weak_ptr<std::vector<float>> weak = owner;
  int released = 0;
  {
    RCReference<TensorBuffer> buffer =
        TensorBuffer::wrapExternal(owner->data(), owner->size() * sizeof(float),
                                   [owner, &released]() mutable {
                                     owner.reset();
                                     ++released;
                                   });
    owner.reset();
    EXPECT_FALSE(weak.expired());
    EXPECT_FALSE(buffer->isOwned());

    auto t = Tensor::fromBuffer(DType::F32, TensorShape{2}, buffer,
                                2 * sizeof(float));
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->flat<float>()(0), 2.0f);
    EXPECT_EQ(t->flat<float>()(1), 3.0f);
    // External memory is never handed out for in-place writes.
    buffer = nullptr;
    EXPECT_FALSE(t->isBufferUniquelyOwned());

    auto tooLarge =
        Tensor::fromBuffer(DType::F32, TensorShape{5}, t->buffer(), 8);
    EXPECT_EQ(tooLarge.status(),
              InvalidArgumentError(
                  "tensor of shape [5] and dtype f32 at offset 8 does not "
                  "fit in a buffer of 24 bytes"));
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 1);
  EXPECT_TRUE(weak.expired());
}

/// A file of `words` int32 words, word i holding i, in a fresh temporary
/// path.
std::string writeCountingFile(int words) {
  char path[] = "/tmp/tfrt-fallback-readfile-XXXXXX";
  int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  std::FILE *file = fdopen(fd, "wb");
  for (int32_t i = 0; i < words; ++i)
    std::fwrite(&i, sizeof(i), 1, file);
  std::fclose(file);
  return path;
}

TEST(TensorBufferTest, ReadFileReadsEveryByte) {
  // Several pages, and a size that is not a multiple of a page.
  const int words = 3 * 4096 + 7;
  std::string path = writeCountingFile(words);
  auto buffer = TensorBuffer::readFile(path);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  ASSERT_EQ((*buffer)->size(), size_t(words) * 4);
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*buffer)->data()) %
                TensorBuffer::kAlignment,
            0u);
  EXPECT_FALSE((*buffer)->isOwned()) << "a regular file is mapped";
  const int32_t *data = static_cast<const int32_t *>((*buffer)->data());
  for (int i = 0; i < words; ++i)
    ASSERT_EQ(data[i], i) << "word " << i;

  // Discarding pages (whole ones inside the range, and a range reaching
  // past the end) changes no byte: they are read from the file again.
  (*buffer)->discardPages(data + 100, 2 * 4096 * 4);
  (*buffer)->discardPages(data, (*buffer)->size() + 4096);
  for (int i = 0; i < words; ++i)
    ASSERT_EQ(data[i], i) << "word " << i << " after discardPages";
  std::remove(path.c_str());
}

TEST(TensorBufferTest, ReadFileErrorsAndEmptyFiles) {
  auto missing = TensorBuffer::readFile("/nonexistent/tfrt-fallback.bef");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("/nonexistent/tfrt-fallback.bef"),
            std::string::npos);
  // An empty file cannot be mapped: it is read (zero bytes).
  std::string path = writeCountingFile(0);
  auto empty = TensorBuffer::readFile(path);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ((*empty)->size(), 0u);
  std::remove(path.c_str());
  // An owned buffer ignores discardPages.
  auto owned = TensorBuffer::allocate(3 * 4096);
  ASSERT_TRUE(owned.ok());
  std::memset((*owned)->data(), 7, 3 * 4096);
  (*owned)->discardPages((*owned)->data(), 3 * 4096);
  EXPECT_EQ(static_cast<const char *>((*owned)->data())[4096], 7);
}

TEST(TensorTest, UnalignedViewWorks) {
  auto t = Tensor::fromValues<float>(TensorShape{5}, {1, 2, 3, 4, 5});
  ASSERT_TRUE(t.ok());
  auto view = Tensor::fromBuffer(DType::F32, TensorShape{4}, t->buffer(), 4);
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE(view->isAligned());
  Eigen::Tensor<float, 0, Eigen::RowMajor> sum = view->flat<float>().sum();
  EXPECT_EQ(sum(), 14.0f);
}

std::string debugOf(const StatusOr<Tensor> &t, int64_t max = 1000) {
  EXPECT_TRUE(t.ok());
  return t->debugString(max);
}

TEST(TensorDebugStringTest, Integers) {
  EXPECT_EQ(debugOf(Tensor::fromValues<int32_t>(TensorShape{2, 3},
                                                {1, 2, 3, 4, 5, 6})),
            "[[1, 2, 3],\n [4, 5, 6]]");
  EXPECT_EQ(debugOf(Tensor::fromValues<int64_t>(TensorShape{}, {42})), "42");
  EXPECT_EQ(debugOf(Tensor::fromValues<uint8_t>(TensorShape{2}, {200, 7})),
            "[200, 7]");
  EXPECT_EQ(debugOf(Tensor::fromValues<int8_t>(TensorShape{1}, {-5})), "[-5]");
  EXPECT_EQ(debugOf(Tensor::fromValues<int32_t>(TensorShape{0}, {})), "[]");
}

TEST(TensorDebugStringTest, ThreeDimensional) {
  EXPECT_EQ(debugOf(Tensor::fromValues<int32_t>(TensorShape{2, 2, 2},
                                                {0, 1, 2, 3, 4, 5, 6, 7})),
            "[[[0, 1],\n  [2, 3]],\n\n [[4, 5],\n  [6, 7]]]");
}

TEST(TensorDebugStringTest, Floats) {
  EXPECT_EQ(debugOf(Tensor::fromValues<float>(
                TensorShape{5}, {1.0f, 2.5f, -0.125f, 1.0f / 3, 1e-7f})),
            "[1., 2.5, -0.125, 0.333333, 1e-07]");
  EXPECT_EQ(debugOf(Tensor::fromValues<double>(
                TensorShape{4},
                {1e10, 123456789.0, std::numeric_limits<double>::infinity(),
                 std::nan("")})),
            "[1e+10, 1.23457e+08, inf, nan]");
  EXPECT_EQ(debugOf(Tensor::fromValues<Eigen::half>(
                TensorShape{2}, {Eigen::half(0.5f), Eigen::half(-2.0f)})),
            "[0.5, -2.]");
  EXPECT_EQ(debugOf(Tensor::fromValues<Eigen::bfloat16>(
                TensorShape{1}, {Eigen::bfloat16(1.0f)})),
            "[1.]");
}

TEST(TensorDebugStringTest, Bools) {
  EXPECT_EQ(debugOf(Tensor::fromValues<bool>(TensorShape{2, 2},
                                             {true, false, false, true})),
            "[[True, False],\n [False, True]]");
}

TEST(TensorDebugStringTest, Summarized) {
  std::vector<int32_t> values(64);
  std::iota(values.begin(), values.end(), 0);
  auto vec = Tensor::fromValues<int32_t>(
      TensorShape{10}, absl::MakeConstSpan(values.data(), 10));
  EXPECT_EQ(debugOf(vec, 5), "[0, 1, 2, ..., 7, 8, 9]");
  EXPECT_EQ(debugOf(vec, 10), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]");

  auto mat = Tensor::fromValues<int32_t>(TensorShape{8, 8},
                                         absl::MakeConstSpan(values));
  EXPECT_EQ(debugOf(mat, 10), "[[0, 1, 2, ..., 5, 6, 7],\n"
                              " [8, 9, 10, ..., 13, 14, 15],\n"
                              " [16, 17, 18, ..., 21, 22, 23],\n"
                              " ...,\n"
                              " [40, 41, 42, ..., 45, 46, 47],\n"
                              " [48, 49, 50, ..., 53, 54, 55],\n"
                              " [56, 57, 58, ..., 61, 62, 63]]");
  // Short axes are never elided.
  auto narrow = Tensor::fromValues<int32_t>(
      TensorShape{8, 2}, absl::MakeConstSpan(values.data(), 16));
  EXPECT_EQ(debugOf(narrow, 4), "[[0, 1],\n [2, 3],\n [4, 5],\n ...,\n"
                                " [10, 11],\n [12, 13],\n [14, 15]]");
}

TEST(TensorDebugStringTest, Invalid) {
  EXPECT_EQ(Tensor().debugString(), "<invalid tensor>");
}

} // namespace

//===----------------------------------------------------------------------===//
// Large buffers (the retained arena)
//===----------------------------------------------------------------------===//

namespace {

constexpr size_t kLarge = 1 << 20;

/// Whether large buffers come from the arena here: not in sanitizer builds
/// nor with TFRT_FALLBACK_BUFFER_ARENA=0.
bool arenaEnabled() {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
  return false;
#endif
#endif
  const char *env = std::getenv("TFRT_FALLBACK_BUFFER_ARENA");
  return !env || std::strcmp(env, "0") != 0;
}

TEST(TensorBufferArenaTest, FreedLargeBufferIsReused) {
  void *first;
  {
    auto buffer = TensorBuffer::allocate(kLarge);
    ASSERT_TRUE(buffer.ok());
    first = (*buffer)->data();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % TensorBuffer::kAlignment,
              0u);
    std::memset(first, 0xab, kLarge);
  }
  // The same size again gets the same (still mapped) block, as a run's
  // activations do on the next run.
  auto again = TensorBuffer::allocate(kLarge);
  ASSERT_TRUE(again.ok());
  if (!arenaEnabled())
    GTEST_SKIP() << "no arena in this build";
  EXPECT_EQ((*again)->data(), first);
}

TEST(TensorBufferArenaTest, NeighboursCoalesce) {
  if (!arenaEnabled())
    GTEST_SKIP() << "no arena in this build";
  auto a = TensorBuffer::allocate(kLarge);
  auto b = TensorBuffer::allocate(kLarge);
  ASSERT_TRUE(a.ok() && b.ok());
  auto *pa = static_cast<char *>((*a)->data());
  auto *pb = static_cast<char *>((*b)->data());
  // Page-granular blocks: the header's page and the data.
  ASSERT_EQ(std::abs(pb - pa), static_cast<ptrdiff_t>(kLarge + 4096));
  const char *low = std::min(pa, pb);
  a->reset();
  b->reset();
  // The two freed neighbours merged: a buffer of both sizes fits where
  // they were.
  auto both = TensorBuffer::allocate(2 * kLarge);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(static_cast<char *>((*both)->data()), low);
}

TEST(TensorBufferArenaTest, ManyBuffersNeverOverlap) {
  // Allocations and frees in a scrambled order; every live buffer keeps
  // the byte it was filled with.
  std::vector<std::pair<RCReference<TensorBuffer>, unsigned char>> live;
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  for (int step = 0; step < 400; ++step) {
    if (!live.empty() && next() % 3 == 0) {
      size_t victim = next() % live.size();
      auto &[buffer, fill] = live[victim];
      const auto *bytes = static_cast<const unsigned char *>(buffer->data());
      for (size_t i = 0; i < buffer->size(); i += 4093)
        ASSERT_EQ(bytes[i], fill) << "step " << step;
      live.erase(live.begin() + victim);
      continue;
    }
    size_t size = 64 * 1024 + next() % (3 << 20);
    auto buffer = TensorBuffer::allocate(size);
    ASSERT_TRUE(buffer.ok());
    auto fill = static_cast<unsigned char>(step);
    std::memset((*buffer)->data(), fill, size);
    live.emplace_back(*std::move(buffer), fill);
  }
  for (auto &[buffer, fill] : live) {
    const auto *bytes = static_cast<const unsigned char *>(buffer->data());
    for (size_t i = 0; i < buffer->size(); i += 4093)
      ASSERT_EQ(bytes[i], fill);
  }
  live.clear();
  EXPECT_GE(TensorBuffer::releaseCachedMemory(), 0u);
}

} // namespace
