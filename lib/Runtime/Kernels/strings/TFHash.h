//===- TFHash.h - TensorFlow's fingerprint and keyed hashes -----*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the hash functions TensorFlow's kernels
// use, so that buckets and crosses come out as TF's do. Fingerprint64 is
// farmhash's (Debian's libfarmhash, the library TF's Fingerprint64 calls);
// FingerprintCat64 combines two fingerprints (tsl/platform/fingerprint.h);
// SipHash-2-4 is TF's StrongKeyedHash (highwayhash's SipHash).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STRINGS_TFHASH_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STRINGS_TFHASH_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tfrt_fallback::rt::kernels {

/// The little-endian 64-bit word at `p`.
inline uint64_t load64(const char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = v << 8 | static_cast<unsigned char>(p[i]);
  return v;
}

/// TF's Fingerprint64: farmhash's Fingerprint64 of the bytes (TFHash.cpp,
/// the one file that calls farmhash).
uint64_t fingerprint64(std::string_view s);

/// TF's FingerprintCat64(fp1, fp2): a fingerprint of two fingerprints, not
/// commutative.
inline uint64_t fingerprintCat64(uint64_t fp1, uint64_t fp2) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  auto shiftMix = [](uint64_t v) { return v ^ (v >> 47); };
  uint64_t result = fp1 ^ kMul;
  result ^= shiftMix(fp2 * kMul) * kMul;
  result *= kMul;
  result = shiftMix(result) * kMul;
  return shiftMix(result);
}

/// SipHash-2-4 of `s` under the 128-bit key (k0, k1) (Aumasson and
/// Bernstein's reference definition).
inline uint64_t sipHash24(uint64_t k0, uint64_t k1, std::string_view s) {
  auto rotl = [](uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
  uint64_t v0 = 0x736f6d6570736575ULL ^ k0, v1 = 0x646f72616e646f6dULL ^ k1,
           v2 = 0x6c7967656e657261ULL ^ k0, v3 = 0x7465646279746573ULL ^ k1;
  auto round = [&] {
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  };
  const size_t n = s.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t m = load64(s.data() + i);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  uint64_t last = static_cast<uint64_t>(n & 0xff) << 56;
  for (size_t j = 0; i + j < n; ++j)
    last |= static_cast<uint64_t>(static_cast<unsigned char>(s[i + j]))
            << (8 * j);
  v3 ^= last;
  round();
  round();
  v0 ^= last;
  v2 ^= 0xff;
  for (int k = 0; k < 4; ++k)
    round();
  return v0 ^ v1 ^ v2 ^ v3;
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STRINGS_TFHASH_H
