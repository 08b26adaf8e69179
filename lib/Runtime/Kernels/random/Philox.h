//===- Philox.h - TensorFlow's Philox streams -------------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: TensorFlow's Philox4x32-10 generator
// (tsl/lib/random/philox_random.h), its conversions of words to floats and
// normals (random_distributions.h), the stateless ops' seed and key/counter
// handling (stateless_random_ops.cc, stateless_random_ops_v2_util.h) and
// the stateful ops' GuardedPhiloxRandom, shared by the Random and
// RandomDistribution families.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_RANDOM_PHILOX_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_RANDOM_PHILOX_H

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <random>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Philox4x32-10
//===----------------------------------------------------------------------===//

class Philox {
public:
  using Result = std::array<uint32_t, 4>;

  Philox() = default;
  Philox(Result counter, std::array<uint32_t, 2> key)
      : counter_(counter), key_(key) {}
  /// TF's PhiloxRandom(seed_lo, seed_hi): key = seed_lo, counter words 2
  /// and 3 = seed_hi.
  Philox(uint64_t seedLo, uint64_t seedHi) {
    key_ = {static_cast<uint32_t>(seedLo), static_cast<uint32_t>(seedLo >> 32)};
    counter_ = {0, 0, static_cast<uint32_t>(seedHi),
                static_cast<uint32_t>(seedHi >> 32)};
  }

  const Result &counter() const { return counter_; }
  const std::array<uint32_t, 2> &key() const { return key_; }

  /// Advances the counter by `count` calls.
  void skip(uint64_t count) {
    const uint32_t lo = static_cast<uint32_t>(count);
    uint32_t hi = static_cast<uint32_t>(count >> 32);
    counter_[0] += lo;
    if (counter_[0] < lo)
      ++hi;
    counter_[1] += hi;
    if (counter_[1] < hi && ++counter_[2] == 0)
      ++counter_[3];
  }

  Result operator()() {
    Result c = counter_;
    std::array<uint32_t, 2> k = key_;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k[0] += 0x9E3779B9u;
        k[1] += 0xBB67AE85u;
      }
      const uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
      const uint64_t p1 = uint64_t(0xCD9E8D57u) * c[2];
      c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0],
           static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1],
           static_cast<uint32_t>(p0)};
    }
    if (++counter_[0] == 0 && ++counter_[1] == 0 && ++counter_[2] == 0)
      ++counter_[3];
    return c;
  }

private:
  Result counter_{0, 0, 0, 0};
  std::array<uint32_t, 2> key_{0, 0};
};

/// The uint32 samples of a Philox stream one at a time (TF's
/// SingleSampleAdapter).
class SingleSamples {
public:
  explicit SingleSamples(Philox *gen) : gen_(gen) {}
  uint32_t operator()() {
    if (used_ == 4) {
      buffer_ = (*gen_)();
      used_ = 0;
    }
    return buffer_[used_++];
  }

private:
  Philox *gen_;
  Philox::Result buffer_{};
  int used_ = 4;
};

//===----------------------------------------------------------------------===//
// Conversions and distributions
//===----------------------------------------------------------------------===//

inline float uint32ToFloat(uint32_t x) {
  const uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f - 1.0f;
}

inline double uint64ToDouble(uint32_t x0, uint32_t x1) {
  const uint64_t bits = (uint64_t(1023) << 52) |
                        (static_cast<uint64_t>(x0 & 0xfffffu) << 32) | x1;
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d - 1.0;
}

inline Eigen::half uint16ToHalf(uint32_t x) {
  const uint16_t bits = static_cast<uint16_t>((15u << 10) | (x & 0x3ffu));
  return Eigen::numext::bit_cast<Eigen::half>(bits) - Eigen::half(1.0f);
}

inline Eigen::bfloat16 uint16ToBfloat16(uint32_t x) {
  const uint16_t bits = static_cast<uint16_t>((127u << 7) | (x & 0x7fu));
  return Eigen::numext::bit_cast<Eigen::bfloat16>(bits) - Eigen::bfloat16(1.0f);
}

inline void boxMullerFloat(uint32_t x0, uint32_t x1, float *f0, float *f1) {
  float u1 = uint32ToFloat(x0);
  if (u1 < 1.0e-7f)
    u1 = 1.0e-7f;
  // 2.0f * M_PI is a double, so is the product, as in TF.
  const float v1 = static_cast<float>(2.0f * M_PI * uint32ToFloat(x1));
  const float u2 = std::sqrt(-2.0f * std::log(u1));
  *f0 = std::sin(v1) * u2;
  *f1 = std::cos(v1) * u2;
}

inline void boxMullerDouble(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3,
                            double *d0, double *d1) {
  double u1 = uint64ToDouble(x0, x1);
  if (u1 < 1.0e-7)
    u1 = 1.0e-7;
  const double v1 = 2 * M_PI * uint64ToDouble(x2, x3);
  const double u2 = std::sqrt(-2.0 * std::log(u1));
  *d0 = std::sin(v1) * u2;
  *d1 = std::cos(v1) * u2;
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

/// The output shape from a shape operand (TF's tensor::MakeShape): a 1-D
/// int32/int64 vector of non-negative dims.
inline Status readShape(const OpKernel &op, const Tensor &t,
                        TensorShape *shape) {
  if (t.rank() != 1 || !isIndexTensor(t))
    return op.errorf("shape must be a vector of {int32,int64}, got shape %s",
                     t.shape().toString());
  TensorShape::Dims dims;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    dims.push_back(indexAt(t, i));
    if (dims.back() < 0)
      return op.errorf("Dimension %d must be >= 0", dims.back());
  }
  StatusOr<TensorShape> s = TensorShape::create(dims);
  if (!s.ok())
    return s.status();
  *shape = *std::move(s);
  return OkStatus();
}

/// TF's GenerateKey: the Philox stream of a stateless op's seed [2]
/// (int32/int64). "seed must have shape [2], not [3]".
inline Status streamFromSeed(const OpKernel &op, const Tensor &seed,
                             Philox *gen) {
  if (seed.rank() != 1 || seed.dim(0) != 2)
    return op.errorf("seed must have shape [2], not %s",
                     seed.shape().toString());
  if (!isIndexTensor(seed))
    return op.errorf("Invalid seed type: %s", dtypeName(seed.dtype()));
  const uint64_t s0 = static_cast<uint64_t>(indexAt(seed, 0));
  const uint64_t s1 = static_cast<uint64_t>(indexAt(seed, 1));
  Philox mixer({static_cast<uint32_t>(s0), static_cast<uint32_t>(s0 >> 32),
                static_cast<uint32_t>(s1), static_cast<uint32_t>(s1 >> 32)},
               {0x3ec8f720u, 0x02461e29u});
  const Philox::Result mix = mixer();
  *gen = Philox({0, 0, mix[2], mix[3]}, {mix[0], mix[1]});
  return OkStatus();
}

/// The Philox stream of a V2 op's key [1], counter [2] (uint64) and alg
/// (int32 scalar). TF's errors: "Unsupported algorithm id: 2", "key must
/// have shape [1], not [2]. (Note that batched keys are not supported
/// yet.)", "counter must be a vector with length at least 2; got shape:
/// [1]. (Note that batched counters are not supported yet.)".
inline Status streamFromKeyCounter(const OpKernel &op, const Tensor &key,
                                   const Tensor &counter, const Tensor &alg,
                                   Philox *gen) {
  if (alg.rank() != 0 || alg.dtype() != DType::I32)
    return op.errorf("input 3 (0-based) must have shape [], not %s",
                     alg.shape().toString());
  int32_t id = alg.data<int32_t>()[0];
  if (id == 3)
    id = 1; // RNG_ALG_AUTO_SELECT is Philox on CPU.
  if (id != 1)
    return op.errorf("Unsupported algorithm id: %d", id);
  if (key.rank() != 1 || key.dim(0) != 1 || key.dtype() != DType::U64)
    return op.errorf("key must have shape [1], not %s. (Note that batched "
                     "keys are not supported yet.)",
                     key.shape().toString());
  if (counter.rank() != 1 || counter.dim(0) < 2 ||
      counter.dtype() != DType::U64)
    return op.errorf("counter must be a vector with length at least 2; got "
                     "shape: %s. (Note that batched counters are not "
                     "supported yet.)",
                     counter.shape().toString());
  const uint64_t k = key.data<uint64_t>()[0];
  const uint64_t *c = counter.data<uint64_t>();
  *gen =
      Philox({static_cast<uint32_t>(c[0]), static_cast<uint32_t>(c[0] >> 32),
              static_cast<uint32_t>(c[1]), static_cast<uint32_t>(c[1] >> 32)},
             {static_cast<uint32_t>(k), static_cast<uint32_t>(k >> 32)});
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// Stateful streams
//===----------------------------------------------------------------------===//

/// TF's GuardedPhiloxRandom: the stream of the seed / seed2 attributes
/// (random when both are 0); each run takes the current position and moves
/// it by output_count * 256 calls. Runs of one node are serialized.
class GuardedPhilox {
public:
  Status init(OpKernelConstructionInterface *ctx) {
    int64_t seed = 0, seed2 = 0;
    if (Status s = getOptionalAttr(ctx, "seed", &seed); !s.ok())
      return s;
    if (Status s = getOptionalAttr(ctx, "seed2", &seed2); !s.ok())
      return s;
    if (seed == 0 && seed2 == 0) {
      std::random_device device;
      auto next64 = [&] {
        return static_cast<uint64_t>(device()) << 32 | device();
      };
      seed = static_cast<int64_t>(next64());
      seed2 = static_cast<int64_t>(next64());
    }
    gen_ = Philox(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
    return OkStatus();
  }

  Philox reserve(int64_t outputs) {
    return reserveCalls(static_cast<uint64_t>(outputs) * 256);
  }

  /// TF's ReserveSamples128: the current position, moved by `calls`.
  Philox reserveCalls(uint64_t calls) {
    std::lock_guard<std::mutex> lock(mutex_);
    Philox local = gen_;
    gen_.skip(calls);
    return local;
  }

private:
  std::mutex mutex_;
  Philox gen_;
};

/// Registers `Kernel<T>` for op `Op` with its value type attribute `attr`
/// ("dtype", "Tout") equal to T, one def per T, subject to the build's
/// kernel selection.
template <OpId Op, template <typename> class Kernel, typename... Ts>
void registerByAttr(KernelRegistry &registry, const char *attr) {
  auto one = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (isKernelSelected(Op, dtypeOf<T>()))
      rt::registerKernel<Kernel<T>>(
          registry, KernelDefBuilder(kOpRow<Op>).typeConstraint<T>(attr));
  };
  (one(TypeTag<Ts>{}), ...);
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_RANDOM_PHILOX_H
