//===- StringHashKernels.cpp - String hashing and Fingerprint ---*- C++ -*-===//
//
// TensorFlow's string hashes (tensorflow/core/kernels/
// string_to_hash_bucket_op.cc, string_to_hash_bucket_fast_op.cc,
// fingerprint_op.cc), with the hash functions TF uses so that a model's
// buckets are TF's:
//   StringToHashBucketFast   farmhash's Fingerprint64 (Debian's libfarmhash,
//                            the library TF's Fingerprint64 calls)
//   StringToHashBucket       TF's Hash64 (tsl/platform/hash.cc): 64-bit
//                            MurmurHash2 (MurmurHash64A) with seed
//                            0xDECAFCAFFE, written here
//   StringToHashBucketStrong SipHash-2-4 keyed with key[0], key[1] (TF's
//                            StrongKeyedHash via highwayhash), written here
//   Fingerprint              farmhash64 of each row's bytes; a string row of
//                            several elements: farmhash64 of their
//                            fingerprints, little-endian, one after another
// The bucket is hash % num_buckets.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/Registration.h"
#include "strings/TFHash.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// TF's Hash64(data, n) (tsl/platform/hash.cc): MurmurHash64A, seed
/// 0xDECAFCAFFE, little-endian words.
uint64_t tfHash64(std::string_view s) {
  constexpr uint64_t m = 0xc6a4a7935bd1e995ULL;
  constexpr int r = 47;
  size_t n = s.size();
  const char *data = s.data();
  uint64_t h = 0xDECAFCAFFEULL ^ (n * m);
  for (; n >= 8; n -= 8, data += 8) {
    uint64_t k = load64(data);
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  if (n > 0) {
    for (size_t i = n; i-- > 0;)
      h ^= static_cast<uint64_t>(static_cast<unsigned char>(data[i]))
           << (8 * i);
    h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

enum class Hash { Fast, Legacy, Strong };

/// StringToHashBucketFast / StringToHashBucket / StringToHashBucketStrong
/// (input: string; num_buckets >= 1; key: list(int) of 2 for Strong) ->
/// int64: hash(input) % num_buckets. "num_buckets must be >= 1", "Key must
/// have 2 elements".
template <Hash H> class HashBucketKernel final : public OpKernel {
public:
  explicit HashBucketKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("num_buckets", &buckets_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, buckets_ >= 1,
        errorf("num_buckets must be >= 1, got %d", buckets_));
    if constexpr (H == Hash::Strong) {
      std::vector<int64_t> key;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("key", &key));
      TFRT_FALLBACK_OP_REQUIRES(ctx, key.size() == 2,
                                errorf("Key must have 2 elements"));
      key_[0] = static_cast<uint64_t>(key[0]);
      key_[1] = static_cast<uint64_t>(key[1]);
    }
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    int64_t *po = out->data<int64_t>();
    for (std::string_view s : stringElements(in)) {
      uint64_t h;
      if constexpr (H == Hash::Fast)
        h = fingerprint64(s);
      else if constexpr (H == Hash::Legacy)
        h = tfHash64(s);
      else
        h = sipHash24(key_[0], key_[1], s);
      *po++ = static_cast<int64_t>(h % static_cast<uint64_t>(buckets_));
    }
  }

private:
  int64_t buckets_ = 1;
  uint64_t key_[2] = {0, 0};
};

/// Fingerprint(data: T, method: string) -> uint8 [dim0, 8]: the
/// "farmhash64" fingerprint of each slice data[i] (its bytes; for strings:
/// the element's fingerprint when a slice has one element, else the
/// fingerprint of the slice's element fingerprints), little-endian.
/// "`method` should be a scalar string: [2]", "Unsupported fingerprint
/// method: x", "`data` should have at least one dimension: []".
template <bool Strings> class FingerprintKernel final : public OpKernel {
public:
  explicit FingerprintKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &data = ctx->input(0);
    const Tensor &method = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, method.shape().isScalar(),
                              errorf("`method` should be a scalar string: %s",
                                     method.shape().toString()));
    const std::string_view name = stringElements(method)[0];
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, name == "farmhash64",
        errorf("Unsupported fingerprint method: %s", name));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, data.rank() >= 1,
        errorf("`data` should have at least one dimension: %s",
               data.shape().toString()));
    const int64_t rows = data.dim(0);
    const int64_t cols = rows == 0 ? 0 : data.numElements() / rows;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{rows, 8}, &out));
    uint8_t *po = out->data<uint8_t>();
    auto put = [](uint64_t v, uint8_t *dst) {
      for (int i = 0; i < 8; ++i)
        dst[i] = static_cast<uint8_t>(v >> (8 * i));
    };
    if constexpr (Strings) {
      auto values = stringElements(data);
      std::vector<uint8_t> prints(cols * 8);
      for (int64_t r = 0; r < rows; ++r) {
        if (cols == 1) {
          put(fingerprint64(values[r]), po + r * 8);
          continue;
        }
        for (int64_t c = 0; c < cols; ++c)
          put(fingerprint64(values[r * cols + c]), prints.data() + c * 8);
        put(fingerprint64(std::string_view(
                reinterpret_cast<const char *>(prints.data()), prints.size())),
            po + r * 8);
      }
    } else {
      const size_t rowBytes = cols * dtypeSize(data.dtype());
      const char *src = static_cast<const char *>(data.rawData());
      for (int64_t r = 0; r < rows; ++r)
        put(fingerprint64(std::string_view(src + r * rowBytes, rowBytes)),
            po + r * 8);
    }
  }
};

} // namespace

void registerStringHashKernels(KernelRegistry &registry) {
  registerKernel<OpId::kStringToHashBucketFast, HashBucketKernel<Hash::Fast>>(
      registry);
  registerKernel<OpId::kStringToHashBucket, HashBucketKernel<Hash::Legacy>>(
      registry);
  registerKernel<OpId::kStringToHashBucketStrong,
                 HashBucketKernel<Hash::Strong>>(registry);
  registerKernel<OpId::kFingerprint, FingerprintKernel<false>>(
      registry, {{"T", kAllDTypes}});
  registerStringKernel<OpId::kFingerprint, FingerprintKernel<true>>(registry);
}

} // namespace tfrt_fallback::rt
