//===- RandomKernels.cpp - Philox random number ops -------------*- C++ -*-===//
//
// TensorFlow's random ops on its Philox4x32-10 streams, so a seed gives
// TensorFlow's numbers (tsl/lib/random/philox_random.h,
// random_distributions.h, core/kernels/random_op_cpu.h,
// stateless_random_ops.cc, stateless_random_ops_v2.cc, random_op.cc,
// multinomial_op.cc):
//
//  * Philox: a 128-bit counter and a 64-bit key, 10 rounds; each call
//    returns 4 uint32 and advances the counter by one.
//  * Stateless ops (seed [2]) derive the key and counter by one Philox call
//    on (counter = the seed's words, key = 0x3ec8f720, 0x02461e29): key =
//    its first two words, counter = (0, 0, third, fourth). The V2 ops take
//    key [1] and counter [2] (uint64) directly; alg 1 (Philox) and 3
//    (auto: Philox) are supported, 2 (ThreeFry) is not on CPU.
//  * Stateful ops (seed, seed2 attributes) start at key = seed, counter =
//    (0, 0, seed2) and reserve output_count * 256 Philox calls per run, as
//    TF's GuardedPhiloxRandom; seed = seed2 = 0 picks random seeds.
//  * Output element group g (4 values, 2 for 64-bit types) comes from
//    Philox call g. Float = bits(0x3f800000 | (u & 0x7fffff)) - 1, double
//    from 52 bits of two words, half/bfloat16 from the low 10/7 bits;
//    normals by Box-Muller on pairs (u1 clamped to >= 1e-7); truncated
//    normals reject |x| >= 2 and take group g's samples from call g * 256
//    on (for doubles g * 128); integers are lo + bits % (hi - lo).
//
// The transcendental functions of Box-Muller (log, sqrt, sincos) come from
// the C library, as in TF's CPU build; their last-bit rounding may differ
// between C libraries.
//
//===----------------------------------------------------------------------===//

#include "common/Registration.h"
#include "random/Philox.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <random>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

enum class Dist { Uniform, Normal, TruncatedNormal, UniformInt, FullInt };

/// The values one Philox call (one output group) gives.
template <typename T> constexpr int groupSize() {
  return sizeof(T) == 8 ? 2 : 4;
}

/// Group g of a fixed-size distribution from one Philox result.
template <typename T, Dist D>
void fixedGroup(const Philox::Result &s, T *out, uint64_t range, T lo) {
  if constexpr (D == Dist::Uniform) {
    if constexpr (std::is_same_v<T, double>) {
      out[0] = uint64ToDouble(s[0], s[1]);
      out[1] = uint64ToDouble(s[2], s[3]);
    } else {
      for (int i = 0; i < 4; ++i) {
        if constexpr (std::is_same_v<T, float>)
          out[i] = uint32ToFloat(s[i]);
        else if constexpr (std::is_same_v<T, half>)
          out[i] = uint16ToHalf(s[i]);
        else
          out[i] = uint16ToBfloat16(s[i]);
      }
    }
  } else if constexpr (D == Dist::Normal) {
    if constexpr (std::is_same_v<T, double>) {
      boxMullerDouble(s[0], s[1], s[2], s[3], &out[0], &out[1]);
    } else {
      for (int i = 0; i < 4; i += 2) {
        float f[2];
        boxMullerFloat(s[i], s[i + 1], &f[0], &f[1]);
        out[i] = static_cast<T>(f[0]);
        out[i + 1] = static_cast<T>(f[1]);
      }
    }
  } else {
    // UniformInt (SignedAdd(lo, bits % range), wrapping) and FullInt.
    using U = std::make_unsigned_t<T>;
    for (int i = 0; i < groupSize<T>(); ++i) {
      U bits;
      if constexpr (sizeof(T) == 8)
        bits = static_cast<U>(s[2 * i] | static_cast<uint64_t>(s[2 * i + 1])
                                             << 32);
      else
        bits = static_cast<U>(s[i]);
      if constexpr (D == Dist::UniformInt)
        out[i] = static_cast<T>(static_cast<U>(lo) +
                                static_cast<U>(bits % static_cast<U>(range)));
      else
        out[i] = static_cast<T>(bits);
    }
  }
}

/// Group g of TF's TruncatedNormalDistribution: Box-Muller pairs from a
/// single-sample stream, keeping values with |x| < 2.
template <typename T> void truncatedGroup(SingleSamples *gen, T *out) {
  constexpr int n = groupSize<T>();
  int index = 0;
  while (index < n) {
    if constexpr (std::is_same_v<T, double>) {
      const uint32_t x0 = (*gen)(), x1 = (*gen)(), x2 = (*gen)(), x3 = (*gen)();
      double d[2];
      boxMullerDouble(x0, x1, x2, x3, &d[0], &d[1]);
      for (int k = 0; k < 2 && index < n; ++k)
        if (std::abs(d[k]) < 2.0)
          out[index++] = d[k];
    } else {
      const uint32_t x0 = (*gen)(), x1 = (*gen)();
      float f[2];
      boxMullerFloat(x0, x1, &f[0], &f[1]);
      for (int k = 0; k < 2 && index < n; ++k)
        if (std::abs(f[k]) < 2.0f)
          out[index++] = static_cast<T>(f[k]);
    }
  }
}

/// TF's FillPhiloxRandom on one thread: group g from Philox call g (for
/// truncated normals, from a stream skipped by g * groupSize * 256 / 4).
template <typename T, Dist D>
void fill(Philox gen, T *out, int64_t n, uint64_t range = 0, T lo = T(0)) {
  constexpr int k = groupSize<T>();
  T group[k];
  for (int64_t g = 0, offset = 0; offset < n; ++g, offset += k) {
    if constexpr (D == Dist::TruncatedNormal) {
      Philox stream = gen;
      stream.skip(static_cast<uint64_t>(g) * k * 256 / 4);
      SingleSamples single(&stream);
      truncatedGroup<T>(&single, group);
    } else {
      fixedGroup<T, D>(gen(), group, range, lo);
    }
    std::copy(group, group + std::min<int64_t>(k, n - offset), out + offset);
  }
}

/// The [lo, hi) range of a uniform-int op from its scalar minval/maxval
/// operands: "minval must be 0-D, got shape [2]", "Need minval < maxval,
/// got 3 >= 3".
template <typename T>
Status readIntRange(const OpKernel &op, const Tensor &minval,
                    const Tensor &maxval, T *lo, uint64_t *range) {
  if (minval.rank() != 0)
    return op.errorf("minval must be 0-D, got shape %s",
                     minval.shape().toString());
  if (maxval.rank() != 0)
    return op.errorf("maxval must be 0-D, got shape %s",
                     maxval.shape().toString());
  *lo = minval.data<T>()[0];
  const T hi = maxval.data<T>()[0];
  if (!(*lo < hi))
    return op.errorf("Need minval < maxval, got %d >= %d",
                     static_cast<int64_t>(*lo), static_cast<int64_t>(hi));
  using U = std::make_unsigned_t<T>;
  *range = static_cast<U>(static_cast<U>(hi) - static_cast<U>(*lo));
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// Stateless ops
//===----------------------------------------------------------------------===//

/// StatelessRandomUniform / Normal / TruncatedNormal / UniformInt /
/// UniformFullInt(shape, seed[, minval, maxval]) and their V2 forms
/// (shape, key, counter, alg[, minval, maxval]): a tensor of `shape` and
/// dtype T from the seed's Philox stream (see the file header).
template <typename T, Dist D, bool V2>
class StatelessRandomKernel final : public OpKernel {
public:
  explicit StatelessRandomKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TensorShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readShape(*this, ctx->input(0), &shape));
    Philox gen;
    if (V2)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, streamFromKeyCounter(*this, ctx->input(1), ctx->input(2),
                                    ctx->input(3), &gen));
    else
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   streamFromSeed(*this, ctx->input(1), &gen));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    if (shape.numElements() == 0)
      return;
    uint64_t range = 0;
    T lo = T(0);
    if constexpr (D == Dist::UniformInt) {
      const int first = V2 ? 4 : 2;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, readIntRange<T>(*this, ctx->input(first), ctx->input(first + 1),
                               &lo, &range));
    }
    fill<T, D>(gen, out->data<T>(), shape.numElements(), range, lo);
  }
};

/// StatelessRandomGetKeyCounter(seed) -> (key [1], counter [2]) and
/// StatelessRandomGetKeyCounterAlg (also alg = 1, Philox): the V2 operands
/// that give the V1 ops' stream for `seed`. StatelessRandomGetAlg: 1.
template <bool WithAlg> class GetKeyCounterKernel final : public OpKernel {
public:
  explicit GetKeyCounterKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    Philox gen;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 streamFromSeed(*this, ctx->input(0), &gen));
    Tensor *key = nullptr, *counter = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape{1}, &key));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape{2}, &counter));
    const auto &k = gen.key();
    const auto &c = gen.counter();
    key->data<uint64_t>()[0] = k[0] | static_cast<uint64_t>(k[1]) << 32;
    counter->data<uint64_t>()[0] = c[0] | static_cast<uint64_t>(c[1]) << 32;
    counter->data<uint64_t>()[1] = c[2] | static_cast<uint64_t>(c[3]) << 32;
    if (WithAlg) {
      Tensor *alg = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   ctx->allocateOutput(2, TensorShape(), &alg));
      alg->data<int32_t>()[0] = 1;
    }
  }
};

class GetAlgKernel final : public OpKernel {
public:
  explicit GetAlgKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    Tensor *alg = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape(), &alg));
    alg->data<int32_t>()[0] = 1;
  }
};

//===----------------------------------------------------------------------===//
// Stateful ops
//===----------------------------------------------------------------------===//

/// RandomUniform / RandomStandardNormal / TruncatedNormal(shape; seed,
/// seed2, dtype) and RandomUniformInt(shape, minval, maxval; seed, seed2,
/// Tout): as their stateless forms, on the node's stream.
template <typename T, Dist D>
class StatefulRandomKernel final : public OpKernel {
public:
  explicit StatefulRandomKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, gen_.init(ctx));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TensorShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readShape(*this, ctx->input(0), &shape));
    uint64_t range = 0;
    T lo = T(0);
    if constexpr (D == Dist::UniformInt) {
      const Tensor &minval = ctx->input(1), &maxval = ctx->input(2);
      TFRT_FALLBACK_OP_REQUIRES(ctx, minval.rank() == 0,
                                errorf("minval must be 0-D, got shape %s",
                                       minval.shape().toString()));
      TFRT_FALLBACK_OP_REQUIRES(ctx, maxval.rank() == 0,
                                errorf("maxval must be 0-D, got shape %s",
                                       maxval.shape().toString()));
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    if (shape.numElements() == 0)
      return;
    if constexpr (D == Dist::UniformInt)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx,
          readIntRange<T>(*this, ctx->input(1), ctx->input(2), &lo, &range));
    fill<T, D>(gen_.reserve(shape.numElements()), out->data<T>(),
               shape.numElements(), range, lo);
  }

private:
  GuardedPhilox gen_;
};

//===----------------------------------------------------------------------===//
// Multinomial, StatelessMultinomial
//===----------------------------------------------------------------------===//

/// Multinomial(logits [batch, classes], num_samples; seed, seed2,
/// output_dtype) and StatelessMultinomial(logits, num_samples, seed): per
/// row, the CDF of exp(logit - max) over the finite logits (in double) and
/// for each sample the first class whose CDF exceeds u * total, u a double
/// from two consecutive stream words. Rows use the stream one after the
/// other (TF's CPU kernel with one shard; TF restarts each shard of rows at
/// start_row * (num_samples + 3) / 4 calls). The stateful op reserves
/// batch * ceil4(num_samples) * 2 * 256 calls per run. TF's errors: "logits
/// should be a matrix, got shape [3]", "num_samples should be a scalar, got
/// shape [..]", "num_samples should be non-negative, got -1", "num_classes
/// should be positive, got 0".
template <typename T, bool Stateless>
class MultinomialKernel final : public OpKernel {
public:
  explicit MultinomialKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    if (!Stateless)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, gen_.init(ctx));
    const DType out = ctx->outputDType(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, out == DType::I32 || out == DType::I64,
        errorf("output_dtype must be int32 or int64, got %s", dtypeName(out)));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &logits = ctx->input(0);
    const Tensor &numT = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, logits.rank() == 2,
                              errorf("logits should be a matrix, got shape %s",
                                     logits.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numT.rank() == 0,
        errorf("num_samples should be a scalar, got shape %s",
               numT.shape().toString()));
    const int64_t samples = numT.data<int32_t>()[0];
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, samples >= 0,
        errorf("num_samples should be non-negative, got %d", samples));
    const int64_t batch = logits.dim(0), classes = logits.dim(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, classes > 0,
        errorf("num_classes should be positive, got %d", classes));
    Philox gen;
    if (Stateless)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   streamFromSeed(*this, ctx->input(2), &gen));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{batch, samples}, &out));
    if (out->numElements() == 0)
      return;
    if (!Stateless)
      gen = gen_.reserve(batch * ((samples + 3) / 4 * 4) * 2);
    SingleSamples single(&gen);
    const bool wide = out->dtype() == DType::I64;
    std::vector<double> cdf(classes);
    const T *pl = logits.data<T>();
    for (int64_t b = 0; b < batch; ++b) {
      const T *row = pl + b * classes;
      double mx = static_cast<double>(std::numeric_limits<T>::lowest());
      for (int64_t j = 0; j < classes; ++j)
        if (std::isfinite(static_cast<double>(row[j])))
          mx = std::max(mx, static_cast<double>(row[j]));
      double total = 0;
      for (int64_t j = 0; j < classes; ++j) {
        const double v = static_cast<double>(row[j]);
        if (std::isfinite(v))
          total += std::exp(v - mx);
        cdf[j] = total;
      }
      for (int64_t s = 0; s < samples; ++s) {
        const uint32_t x0 = single(), x1 = single();
        const double find = uint64ToDouble(x0, x1) * total;
        const int64_t k =
            std::upper_bound(cdf.begin(), cdf.end(), find) - cdf.begin();
        if (wide)
          out->data<int64_t>()[b * samples + s] = k;
        else
          out->data<int32_t>()[b * samples + s] = static_cast<int32_t>(k);
      }
    }
  }

private:
  GuardedPhilox gen_;
};

template <typename T>
using StatelessUniform = StatelessRandomKernel<T, Dist::Uniform, false>;
template <typename T>
using StatelessNormal = StatelessRandomKernel<T, Dist::Normal, false>;
template <typename T>
using StatelessTruncated =
    StatelessRandomKernel<T, Dist::TruncatedNormal, false>;
template <typename T>
using StatelessUniformInt = StatelessRandomKernel<T, Dist::UniformInt, false>;
template <typename T>
using StatelessFullInt = StatelessRandomKernel<T, Dist::FullInt, false>;
template <typename T>
using StatelessUniformV2 = StatelessRandomKernel<T, Dist::Uniform, true>;
template <typename T>
using StatelessNormalV2 = StatelessRandomKernel<T, Dist::Normal, true>;
template <typename T>
using StatelessTruncatedV2 =
    StatelessRandomKernel<T, Dist::TruncatedNormal, true>;
template <typename T>
using StatelessUniformIntV2 = StatelessRandomKernel<T, Dist::UniformInt, true>;
template <typename T>
using StatelessFullIntV2 = StatelessRandomKernel<T, Dist::FullInt, true>;
template <typename T>
using RandomUniform = StatefulRandomKernel<T, Dist::Uniform>;
template <typename T>
using RandomStandardNormal = StatefulRandomKernel<T, Dist::Normal>;
template <typename T>
using TruncatedNormal = StatefulRandomKernel<T, Dist::TruncatedNormal>;
template <typename T>
using RandomUniformInt = StatefulRandomKernel<T, Dist::UniformInt>;
template <typename T> using Multinomial = MultinomialKernel<T, false>;
template <typename T> using StatelessMultinomial = MultinomialKernel<T, true>;

} // namespace

void registerRandomKernels(KernelRegistry &registry) {
  // The value dtype is the `dtype` attribute (Tout for RandomUniformInt);
  // shape and seed dtypes are read from the operands.
  registerByAttr<OpId::kStatelessRandomUniform, StatelessUniform, float, double,
                 half, bf16>(registry, "dtype");
  registerByAttr<OpId::kStatelessRandomNormal, StatelessNormal, float, double,
                 half, bf16>(registry, "dtype");
  registerByAttr<OpId::kStatelessTruncatedNormal, StatelessTruncated, float,
                 double, half, bf16>(registry, "dtype");
  registerByAttr<OpId::kStatelessRandomUniformInt, StatelessUniformInt, int32_t,
                 int64_t>(registry, "dtype");
  registerByAttr<OpId::kStatelessRandomUniformFullInt, StatelessFullInt,
                 int32_t, int64_t, uint32_t, uint64_t>(registry, "dtype");
  registerByAttr<OpId::kStatelessRandomUniformV2, StatelessUniformV2, float,
                 double, half, bf16>(registry, "dtype");
  registerByAttr<OpId::kStatelessRandomNormalV2, StatelessNormalV2, float,
                 double, half, bf16>(registry, "dtype");
  registerByAttr<OpId::kStatelessTruncatedNormalV2, StatelessTruncatedV2, float,
                 double, half, bf16>(registry, "dtype");
  registerByAttr<OpId::kStatelessRandomUniformIntV2, StatelessUniformIntV2,
                 int32_t, int64_t>(registry, "dtype");
  registerByAttr<OpId::kStatelessRandomUniformFullIntV2, StatelessFullIntV2,
                 int32_t, int64_t, uint32_t, uint64_t>(registry, "dtype");
  registerKernel<OpId::kStatelessRandomGetKeyCounter,
                 GetKeyCounterKernel<false>>(registry);
  registerKernel<OpId::kStatelessRandomGetKeyCounterAlg,
                 GetKeyCounterKernel<true>>(registry);
  registerKernel<OpId::kStatelessRandomGetAlg, GetAlgKernel>(registry);
  registerByAttr<OpId::kRandomUniform, RandomUniform, float, double, half,
                 bf16>(registry, "dtype");
  registerByAttr<OpId::kRandomStandardNormal, RandomStandardNormal, float,
                 double, half, bf16>(registry, "dtype");
  registerByAttr<OpId::kTruncatedNormal, TruncatedNormal, float, double, half,
                 bf16>(registry, "dtype");
  registerByAttr<OpId::kRandomUniformInt, RandomUniformInt, int32_t, int64_t>(
      registry, "Tout");
  registerKernel<OpId::kMultinomial, Multinomial>(registry, FloatTypes{});
  registerKernel<OpId::kStatelessMultinomial, StatelessMultinomial>(
      registry, FloatTypes{});
}

} // namespace tfrt_fallback::rt
