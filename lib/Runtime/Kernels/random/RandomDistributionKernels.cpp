//===- RandomDistributionKernels.cpp - Gamma, Poisson, shuffles -*- C++ -*-===//
//
// TensorFlow's samplers beyond the fixed-size distributions, on its Philox
// streams (Philox.h) so that a seed gives TensorFlow's numbers
// (core/kernels/random_op.cc, random_poisson_op.cc,
// stateless_random_gamma_op.cc, stateless_random_ops.cc, shuffle_common.h,
// random_shuffle_op.cc, image/sample_distorted_bounding_box_op.cc,
// tsl/lib/random/simple_philox.h, exact_uniform_int.h):
//
//  * Gamma (Marsaglia-Tsang transformation-rejection) and Poisson (Knuth's
//    product of uniforms below rate 10, Hormann's transformed rejection
//    from 10 on) compute in double. Output element (sample s, parameter p)
//    is sample index p * samples_per_parameter + s of a stream skipped by
//    256 Philox calls per index, so a value does not depend on how the
//    work is split. Normals and uniforms come two per Philox call, used
//    last first (TF's RandomSampleBuffer). The stateful ops reserve 256
//    calls per output.
//  * RandomShuffle draws size - 1 words (reserving ceil((size - 1) / 4)
//    calls) and swaps row i with row i + word % (size - i).
//  * The bounding-box samplers draw through SimplePhilox (single words;
//    Uniform(n) rejects words below 2^32 mod n); the stateful ones reserve
//    max_attempts calls.
//
// TF's rejection loops have no bound: a Poisson rate whose samples exceed
// the output dtype (int32 output for rate 1e12, half for 1e5) loops forever
// there. Here a sample gives up after kMaxAttempts rejections with an
// InvalidArgument error (a sampler that accepts at least three times in
// four never gets near it otherwise).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/Summarize.h"
#include "random/Philox.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string_view>
#include <type_traits>
#include <vector>

// TF's CPU kernels are built without FMA contraction; a fused `a * b + c`
// would round differently from TensorFlow's numbers. (GCC has no such
// pragma and contracts by default: build with -ffp-contract=off there for
// TF's last bits.)
#ifdef __clang__
#pragma clang fp contract(off)
#endif

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

/// Philox calls reserved per output (TF's kReservedSamplesPerOutput).
constexpr uint64_t kReservedCallsPerOutput = 256;
/// Rejections after which one gamma or Poisson sample fails.
constexpr int kMaxAttempts = 10000;

template <typename T> double toDoubleValue(T v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bf16>)
    return static_cast<double>(static_cast<float>(v));
  else
    return static_cast<double>(v);
}

/// Double normals and uniforms of one Philox stream, two per call, handed
/// out last first (TF's RandomSampleBuffer and its UNIFORM macro).
class DoubleSamples {
public:
  explicit DoubleSamples(Philox gen) : gen_(gen) {}

  double normal() {
    if (normalLeft_ == 0) {
      const Philox::Result s = gen_();
      boxMullerDouble(s[0], s[1], s[2], s[3], &normal_[0], &normal_[1]);
      normalLeft_ = 2;
    }
    return normal_[--normalLeft_];
  }

  double uniform() {
    if (uniformLeft_ == 0) {
      const Philox::Result s = gen_();
      uniform_[0] = uint64ToDouble(s[0], s[1]);
      uniform_[1] = uint64ToDouble(s[2], s[3]);
      uniformLeft_ = 2;
    }
    return uniform_[--uniformLeft_];
  }

private:
  Philox gen_;
  double normal_[2] = {0, 0};
  double uniform_[2] = {0, 0};
  int normalLeft_ = 0;
  int uniformLeft_ = 0;
};

/// The stream of output `index`: `rng` skipped by 256 calls per index.
Philox streamOfOutput(Philox rng, int64_t index) {
  rng.skip(static_cast<uint64_t>(index) * kReservedCallsPerOutput);
  return rng;
}

//===----------------------------------------------------------------------===//
// Gamma
//===----------------------------------------------------------------------===//

/// One Gamma(alpha, 1) sample from `gen`, as TF's RandomGammaOp: alpha 1 is
/// -log1p(-u); otherwise Marsaglia and Tsang with d = alpha - 1/3 (alpha +
/// 2/3 below 1, the result times u^(1/alpha)), c = 1 / (3 sqrt(d)),
/// accepting v = (1 + c x)^3 when u < 1 - 0.0331 x^4 or log(u) < x^2 / 2 +
/// d (1 - v + log v). False after kMaxAttempts rejections.
bool gammaSample(double alpha, Philox gen, double *out) {
  DoubleSamples samples(gen);
  if (alpha == 1.0) {
    *out = -std::log1p(-samples.uniform());
    return true;
  }
  const bool lessThanOne = alpha < 1;
  const double d = alpha + (lessThanOne ? 2.0 / 3 : -1.0 / 3);
  const double c = 1.0 / 3 / std::sqrt(d);
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const double x = samples.normal();
    double v = 1 + c * x;
    if (v <= 0)
      continue;
    v = v * v * v;
    const double u = samples.uniform();
    if ((u < 1 - 0.0331 * (x * x) * (x * x)) ||
        (std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v)))) {
      double res = d * v;
      if (lessThanOne) {
        const double b = samples.uniform();
        res *= std::pow(b, 1 / alpha);
      }
      *out = res;
      return true;
    }
  }
  return false;
}

/// Fills `out` (samplesPerAlpha x numAlphas, row-major) with Gamma samples
/// for each alpha on `rng`, output index a * samplesPerAlpha + s at
/// position s * numAlphas + a.
template <typename T>
Status fillGamma(const OpKernel &op, OpKernelContextInterface *ctx, Philox rng,
                 const T *alpha, int64_t numAlphas, int64_t samplesPerAlpha,
                 T *out) {
  std::atomic<int64_t> failed{-1};
  parallelFor(ctx->eigenDevice(), numAlphas * samplesPerAlpha,
              Eigen::TensorOpCost(sizeof(T), sizeof(T), 300),
              [&](Eigen::Index first, Eigen::Index last) {
                for (Eigen::Index i = first; i < last; ++i) {
                  if (failed.load(std::memory_order_relaxed) >= 0)
                    return;
                  const int64_t a = i / samplesPerAlpha;
                  const int64_t s = i % samplesPerAlpha;
                  double value = 0;
                  if (!gammaSample(toDoubleValue(alpha[a]),
                                   streamOfOutput(rng, i), &value))
                    failed.store(a);
                  out[s * numAlphas + a] = static_cast<T>(value);
                }
              });
  if (failed.load() >= 0)
    return op.errorf("Gamma sampling for alpha %s did not accept a sample in "
                     "%d attempts",
                     toDoubleValue(alpha[failed.load()]), kMaxAttempts);
  return OkStatus();
}

/// TF's TensorShapeUtils::EndsWith(shape, suffix).
bool endsWith(const TensorShape &shape, const TensorShape &suffix) {
  const int n = shape.rank(), k = suffix.rank();
  if (k > n)
    return false;
  for (int i = 0; i < k; ++i)
    if (shape.dim(n - k + i) != suffix.dim(i))
      return false;
  return true;
}

/// `prefix` followed by `suffix`'s dims (TF's AppendShapeWithStatus):
/// fails like TensorShape::create when the element count overflows.
Status appendShape(const OpKernel &op, const TensorShape &prefix,
                   const TensorShape &suffix, TensorShape *out) {
  TensorShape::Dims dims(prefix.dims().begin(), prefix.dims().end());
  dims.insert(dims.end(), suffix.dims().begin(), suffix.dims().end());
  StatusOr<TensorShape> s = TensorShape::create(dims);
  if (!s.ok())
    return s.status();
  *out = *std::move(s);
  return OkStatus();
}

/// TensorFlow's name of `dtype` ("int32", "float").
std::string_view tfDTypeName(DType dtype) {
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, ...)                       \
  case DType::Enum:                                                            \
    return TFName;
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, ...)             \
  case DType::Enum:                                                            \
    return TFName;
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    return "unknown";
  }
}

/// TF's Tensor::DebugString: "Tensor<type: int32 shape: [2,1] values:
/// [2][2]>".
std::string tensorDebugString(const Tensor &t) {
  return strCat("Tensor<type: ", tfDTypeName(t.dtype()),
                " shape: ", t.shape().toString(),
                " values: ", summarizeValue(t, 3), ">");
}

/// RandomGamma(shape: S, alpha: T; seed, seed2) -> T of shape + alpha's
/// shape, T in {half, float, double}: samples for each alpha on the node's
/// stream.
template <typename T> class RandomGammaKernel final : public OpKernel {
public:
  explicit RandomGammaKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, gen_.init(ctx));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &shapeT = ctx->input(0);
    const Tensor &alpha = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shapeT.rank() == 1 && isIndexTensor(shapeT),
        errorf("shape must be a vector of {int32,int64}, got shape: %s",
               tensorDebugString(shapeT)));
    TensorShape samples, shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readShape(*this, shapeT, &samples));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, appendShape(*this, samples, alpha.shape(), &shape));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    if (shape.numElements() == 0)
      return;
    const int64_t perAlpha = samples.numElements();
    const int64_t numAlphas = alpha.numElements();
    const Philox rng = gen_.reserve(perAlpha * numAlphas);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, fillGamma<T>(*this, ctx, rng,
                                                   alpha.data<T>(), numAlphas,
                                                   perAlpha, out->data<T>()));
  }

private:
  GuardedPhilox gen_;
};

/// StatelessRandomGammaV2(shape, seed, alpha: dtype) and
/// StatelessRandomGammaV3(shape, key, counter, alg, alpha: dtype), dtype
/// in {half, bfloat16, float, double}: samples of `shape`, which must end
/// with alpha's shape ("Shape passed in must end with broadcasted
/// shape."), on the seed's (or key and counter's) stream.
template <typename T, bool V3>
class StatelessGammaKernel final : public OpKernel {
public:
  explicit StatelessGammaKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TensorShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readShape(*this, ctx->input(0), &shape));
    Philox rng;
    if (V3)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, streamFromKeyCounter(*this, ctx->input(1), ctx->input(2),
                                    ctx->input(3), &rng));
    else
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   streamFromSeed(*this, ctx->input(1), &rng));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    if (shape.numElements() == 0)
      return;
    const Tensor &alpha = ctx->input(V3 ? 4 : 2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, endsWith(shape, alpha.shape()),
        errorf("Shape passed in must end with broadcasted shape."));
    const int64_t numAlphas = alpha.numElements();
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, fillGamma<T>(*this, ctx, rng, alpha.data<T>(), numAlphas,
                          shape.numElements() / numAlphas, out->data<T>()));
  }
};

//===----------------------------------------------------------------------===//
// Poisson
//===----------------------------------------------------------------------===//

/// The largest value of U as a double (Eigen::NumTraits<U>::highest()).
template <typename U> double highestOf() {
  return toDoubleValue(Eigen::NumTraits<U>::highest());
}

/// `k` (a whole number in [0, highestOf<U>()]) as U; int64's highest rounds
/// up to 2^63 as a double, which saturates.
template <typename U> U fromCount(double k) {
  if constexpr (std::is_same_v<U, int64_t>) {
    if (k >= 9223372036854775807.0)
      return std::numeric_limits<int64_t>::max();
  }
  return static_cast<U>(k);
}

/// log(Gamma(x)) without std::lgamma's write of the global `signgam`,
/// which is a data race when kernels sample on several threads
/// (ThreadSanitizer reports it): lgamma_r where the C library has it.
inline double logGamma(double x) {
#if defined(__GLIBC__) || defined(__APPLE__) || defined(__BIONIC__)
  int sign;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}

/// One Poisson(rate) sample from `gen`, as TF's PoissonFunctor: below 10
/// Knuth's count of uniforms whose product stays above exp(-rate);
/// +infinity gives U's infinity (0 for integers); otherwise Hormann's
/// transformed rejection (PTRS), retrying a k beyond U's range. False after
/// kMaxAttempts rejections.
template <typename U> bool poissonSample(double rate, Philox gen, U *out) {
  DoubleSamples samples(gen);
  const double highest = highestOf<U>();
  if (rate < 10) {
    const double expNegRate = std::exp(-rate);
    double prod = 1, x = 0;
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      prod = prod * samples.uniform();
      if (prod <= expNegRate && x <= highest) {
        *out = fromCount<U>(x);
        return true;
      }
      x += 1;
    }
    return false;
  }
  if (std::isinf(rate) && rate > 0) {
    *out = Eigen::NumTraits<U>::infinity();
    return true;
  }
  const double logRate = std::log(rate);
  const double b = 0.931 + 2.53 * std::sqrt(rate);
  const double a = -0.059 + 0.02483 * b;
  const double invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    double u = samples.uniform();
    u -= 0.5;
    const double v = samples.uniform();
    const double uShifted = 0.5 - std::abs(u);
    const double k = std::floor((2 * a / uShifted + b) * u + rate + 0.43);
    if (k > highest)
      continue;
    if (uShifted >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2)) {
      *out = fromCount<U>(k);
      return true;
    }
    if (k < 0 || (uShifted < 0.013 && v > uShifted))
      continue;
    const double s = std::log(v * invAlpha / (a / (uShifted * uShifted) + b));
    const double t = -rate + k * logRate - logGamma(k + 1);
    if (s <= t) {
      *out = fromCount<U>(k);
      return true;
    }
  }
  return false;
}

/// Fills `out` (samplesPerRate x numRates) with Poisson samples of each
/// rate on `rng` (layout as fillGamma).
template <typename T, typename U>
Status fillPoisson(const OpKernel &op, OpKernelContextInterface *ctx,
                   Philox rng, const T *rate, int64_t numRates,
                   int64_t samplesPerRate, U *out) {
  std::atomic<int64_t> failed{-1};
  parallelFor(ctx->eigenDevice(), numRates * samplesPerRate,
              Eigen::TensorOpCost(sizeof(T), sizeof(U), 300),
              [&](Eigen::Index first, Eigen::Index last) {
                for (Eigen::Index i = first; i < last; ++i) {
                  if (failed.load(std::memory_order_relaxed) >= 0)
                    return;
                  const int64_t r = i / samplesPerRate;
                  const int64_t s = i % samplesPerRate;
                  U value = U(0);
                  if (!poissonSample<U>(toDoubleValue(rate[r]),
                                        streamOfOutput(rng, i), &value))
                    failed.store(r);
                  out[s * numRates + r] = value;
                }
              });
  if (failed.load() >= 0)
    return op.errorf("Poisson sampling for rate %s did not accept a sample "
                     "in %d attempts (are its samples beyond %s?)",
                     toDoubleValue(rate[failed.load()]), kMaxAttempts,
                     dtypeName(dtypeOf<U>()));
  return OkStatus();
}

/// Calls f(T{}) for the Poisson rate and output dtypes (half, float,
/// double, int32, int64).
template <typename F> void dispatchPoissonType(DType dtype, F &&f) {
  switch (dtype) {
  case DType::F16:
    return f(half{});
  case DType::F32:
    return f(float{});
  case DType::F64:
    return f(double{});
  case DType::I32:
    return f(int32_t{});
  default:
    return f(int64_t{});
  }
}

constexpr DType kPoissonTypes[] = {DType::F16, DType::F32, DType::F64,
                                   DType::I32, DType::I64};

/// RandomPoisson(shape: S, rate: dtype; seed, seed2) -> dtype,
/// RandomPoissonV2(shape: S, rate: R; seed, seed2) -> dtype and
/// StatelessRandomPoisson(shape: T, seed: Tseed, lam: Rtype) -> dtype.
/// The stateful ops sample shape + rate's shape; the stateless one `shape`,
/// which must end with lam's shape.
template <bool Stateless> class PoissonKernel final : public OpKernel {
public:
  explicit PoissonKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    if (!Stateless)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, gen_.init(ctx));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &rate = ctx->input(Stateless ? 2 : 1);
    TensorShape samples, shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 readShape(*this, ctx->input(0), &samples));
    Philox rng;
    if (Stateless) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   streamFromSeed(*this, ctx->input(1), &rng));
      shape = samples;
    } else {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, appendShape(*this, samples, rate.shape(), &shape));
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    if (shape.numElements() == 0)
      return;
    if (Stateless)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, endsWith(shape, rate.shape()),
          errorf("Shape passed in must end with broadcasted shape."));
    auto isPoissonType = [](DType d) {
      return std::find(std::begin(kPoissonTypes), std::end(kPoissonTypes), d) !=
             std::end(kPoissonTypes);
    };
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, isPoissonType(rate.dtype()) && isPoissonType(out->dtype()),
        errorf("rate and output dtypes must be half, float, double, int32 or "
               "int64, got %s and %s",
               dtypeName(rate.dtype()), dtypeName(out->dtype())));
    const int64_t numRates = rate.numElements();
    const int64_t perRate = shape.numElements() / numRates;
    if (!Stateless)
      rng = gen_.reserve(perRate * numRates);
    Status status;
    dispatchPoissonType(rate.dtype(), [&](auto rateTag) {
      using T = decltype(rateTag);
      dispatchPoissonType(out->dtype(), [&](auto outTag) {
        using U = decltype(outTag);
        status = fillPoisson<T, U>(*this, ctx, rng, rate.data<T>(), numRates,
                                   perRate, out->data<U>());
      });
    });
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, status);
  }

private:
  GuardedPhilox gen_;
};

//===----------------------------------------------------------------------===//
// RandomShuffle
//===----------------------------------------------------------------------===//

/// RandomShuffle(value: T; seed, seed2): value's rows (dim 0) in a random
/// order, for every dtype. Fewer than two rows or elements: the input
/// itself, drawing nothing. Otherwise TF's ShuffleRange on the row indices:
/// for i < size - 1, swap i with i + word % (size - i), words from the
/// node's stream (reserving ceil((size - 1) / 4) calls). More than 2^32 - 1
/// rows is an error (TF draws 32-bit words for them too).
template <bool Strings> class RandomShuffleKernel final : public OpKernel {
public:
  explicit RandomShuffleKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, gen_.init(ctx));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    if (in.numElements() <= 1 || in.dim(0) <= 1) {
      ctx->setOutput(0, in);
      return;
    }
    const int64_t size = in.dim(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, size <= int64_t{std::numeric_limits<uint32_t>::max()},
        errorf("RandomShuffle of %d rows: at most 4294967295 are supported",
               size));
    Philox rng = gen_.reserveCalls(static_cast<uint64_t>(size - 1 + 3) / 4);
    SingleSamples single(&rng);
    std::vector<int64_t> perm(size);
    std::iota(perm.begin(), perm.end(), int64_t{0});
    for (int64_t i = 0; i + 1 < size; ++i) {
      const uint32_t n = static_cast<uint32_t>(size - i);
      std::swap(perm[i], perm[i + single() % n]);
    }
    const int64_t row = in.numElements() / size;
    if constexpr (Strings) {
      const auto elements = stringElements(in);
      std::vector<std::string_view> views;
      views.reserve(in.numElements());
      for (int64_t i = 0; i < size; ++i)
        views.insert(views.end(), elements.begin() + perm[i] * row,
                     elements.begin() + (perm[i] + 1) * row);
      StatusOr<Tensor> out = makeStringTensor(in.shape(), views);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
      ctx->setOutput(0, *std::move(out));
    } else {
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   ctx->allocateOutput(0, in.shape(), &out));
      const size_t bytes = static_cast<size_t>(row) * dtypeSize(in.dtype());
      const char *src = static_cast<const char *>(in.rawData());
      char *dst = static_cast<char *>(out->rawData());
      for (int64_t i = 0; i < size; ++i)
        std::memcpy(dst + i * bytes, src + perm[i] * bytes, bytes);
    }
  }

private:
  GuardedPhilox gen_;
};

//===----------------------------------------------------------------------===//
// Bounding-box sampling
//===----------------------------------------------------------------------===//

/// TF's SimplePhilox on a stream: single words, floats, and Uniform(n)
/// (ExactUniformInt: n = 0 consumes a word and gives 0, a power of two
/// masks, otherwise words below (2^32 - 1) % n + 1 are rejected).
class SimplePhilox {
public:
  explicit SimplePhilox(Philox *gen) : single_(gen) {}
  float randFloat() { return uint32ToFloat(single_()); }
  uint32_t uniform(uint32_t n) {
    if (n == 0)
      return single_() * n;
    if ((n & (n - 1)) == 0)
      return single_() & (n - 1);
    const uint32_t rem = (~uint32_t{0} % n) + 1;
    uint32_t rnd;
    do
      rnd = single_();
    while (rnd < rem);
    return rnd % n;
  }

private:
  SingleSamples single_;
};

/// TF's Rectangle (min inclusive, max exclusive pixel bounds). Areas are
/// computed in int64 (TF's int product overflows for images wider than
/// 46340 pixels).
struct Rect {
  int minX = 0, minY = 0, maxX = 0, maxY = 0;

  float area() const {
    return static_cast<float>(static_cast<int64_t>(maxX - minX) *
                              static_cast<int64_t>(maxY - minY));
  }

  Rect intersect(const Rect &r) const {
    const int x0 = std::max(minX, r.minX), y0 = std::max(minY, r.minY);
    const int x1 = std::min(maxX, r.maxX), y1 = std::min(maxY, r.maxY);
    if (x0 > x1 || y0 > y1)
      return Rect();
    return Rect{x0, y0, x1, y1};
  }
};

/// TF's SatisfiesOverlapConstraints: a crop of at least one pixel covering
/// at least `minCovered` of some box of at least one pixel.
bool satisfiesOverlap(const Rect &crop, float minCovered,
                      const std::vector<Rect> &boxes) {
  constexpr float kMinArea = 1.0f;
  if (crop.area() < kMinArea)
    return false;
  for (const Rect &box : boxes) {
    const float objectArea = box.area();
    if (objectArea < kMinArea)
      continue;
    if (crop.intersect(box).area() / objectArea >= minCovered)
      return true;
  }
  return false;
}

/// `x` rounded as lrintf, as an int (long to int wraps as TF's cast).
int64_t roundToInt(float x) { return static_cast<int>(std::lrintf(x)); }

/// `v` truncated to int as x86's cvttsd2si does (TF's static_cast<int>):
/// INT_MIN for NaN and values out of range (UB in C++).
int64_t truncToInt(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0))
    return std::numeric_limits<int>::min();
  return static_cast<int>(v);
}

/// TF's GenerateRandomCrop: a crop of relative area in [minArea, maxArea]
/// with width = round(aspect * height), its height uniform between the
/// smallest and largest that fit, its corner uniform in the image. Heights
/// and widths are int64 here: TF's int arithmetic on them overflows (UB)
/// for extreme aspect ratios; in range the results are TF's.
bool generateRandomCrop(int width, int height, float minRelArea,
                        float maxRelArea, float aspect, SimplePhilox *random,
                        Rect *crop) {
  if (maxRelArea <= 0.0 || aspect <= 0.0 || width <= 0 || height <= 0 ||
      minRelArea > maxRelArea)
    return false;
  const float minArea = minRelArea * width * height;
  const float maxArea = maxRelArea * width * height;
  auto times = [aspect](int64_t v) {
    return static_cast<float>(static_cast<int>(v)) * aspect;
  };
  int64_t h = roundToInt(std::sqrt(minArea / aspect));
  int64_t maxH = roundToInt(std::sqrt(maxArea / aspect));
  if (std::lrintf(times(maxH)) > width) {
    const float kEps = 0.0000001f;
    maxH = truncToInt((width + 0.5 - kEps) / aspect);
    if (std::lrintf(times(maxH)) > width)
      maxH -= 1;
  }
  if (maxH > height)
    maxH = height;
  if (h >= maxH)
    h = maxH;
  if (h < maxH)
    h = static_cast<int>(static_cast<uint32_t>(h) +
                         random->uniform(static_cast<uint32_t>(maxH - h + 1)));
  int64_t w = roundToInt(times(h));
  float area = static_cast<float>(w * h);
  if (area < minArea) {
    h += 1;
    w = roundToInt(times(h));
    area = static_cast<float>(w * h);
  }
  if (area > maxArea) {
    h -= 1;
    w = roundToInt(times(h));
    area = static_cast<float>(w * h);
  }
  if (area < minArea || area > maxArea || w > width || h > height || w <= 0 ||
      h <= 0)
    return false;
  int64_t y = 0;
  if (h < height)
    y = random->uniform(static_cast<uint32_t>(height - h));
  int64_t x = 0;
  if (w < width)
    x = random->uniform(static_cast<uint32_t>(width - w));
  *crop = Rect{static_cast<int>(x), static_cast<int>(y),
               static_cast<int>(x + w), static_cast<int>(y + h)};
  return true;
}

/// `coordinate` (in [0, 1]) times `size` truncated to int32, as TF's
/// static_cast<int32>(float product); a product rounding up to 2^31 gives
/// INT32_MAX (UB in TF).
int32_t scaleCoordinate(float coordinate, int32_t size) {
  const float p = coordinate * static_cast<float>(size);
  if (p >= 2147483648.0f)
    return std::numeric_limits<int32_t>::max();
  return static_cast<int32_t>(p);
}

enum class BoxOp { V1, V2, Stateless };

/// SampleDistortedBoundingBox(image_size: T, bounding_boxes: float; seed,
/// seed2, min_object_covered, ...), SampleDistortedBoundingBoxV2 (the
/// minimum as input 2) and StatelessSampleDistortedBoundingBox(image_size,
/// bounding_boxes, min_object_covered, seed: Tseed): begin [3], size [3]
/// (T) and bboxes [1, 1, 4] (float) of a random crop, TF's sampler with
/// its messages; T in {uint8, int8, int16, int32, int64}.
template <typename T, BoxOp Op>
class SampleBoundingBoxKernel final : public OpKernel {
public:
  explicit SampleBoundingBoxKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    if (Op != BoxOp::Stateless)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, gen_.init(ctx));
    if (Op == BoxOp::V1) {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "min_object_covered", &minCovered_));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, minCovered_ >= 0,
          errorf("Min object covered must be non-negative: %s", minCovered_));
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "use_image_if_no_bounding_boxes",
                             &useImageIfNoBoxes_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "aspect_ratio_range", &aspectRange_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, aspectRange_.size() == 2,
        errorf("Aspect ratio range field must specify 2 dimensions"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, aspectRange_[0] > 0 && aspectRange_[1] > 0,
        errorf("Aspect ratio range must be non-negative: [%s, %s]",
               aspectRange_[0], aspectRange_[1]));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "area_range", &areaRange_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, areaRange_.size() == 2,
        errorf("Area range field must specify 2 dimensions"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, areaRange_[0] > 0 && areaRange_[1] > 0,
        errorf("Area range must be non-negative: [%s, %s]", areaRange_[0],
               areaRange_[1]));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, areaRange_[0] <= 1 && areaRange_[1] <= 1,
        errorf("Area range must be less then or equal to 1.0: [%s, %s]",
               areaRange_[0], areaRange_[1]));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "max_attempts", &maxAttempts_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, maxAttempts_ > 0,
        errorf("Max attempts must be non-negative: %d", maxAttempts_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    Philox rng;
    if (Op == BoxOp::Stateless)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   streamFromSeed(*this, ctx->input(3), &rng));
    else
      rng = gen_.reserveCalls(static_cast<uint64_t>(maxAttempts_));

    for (int i = 1; i < ctx->numInputs(); ++i)
      if (Op == BoxOp::V1 || i < 3)
        TFRT_FALLBACK_OP_REQUIRES_OK(
            ctx, checkInputDType(*this, ctx, i, DType::F32));
    const Tensor &imageSize = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, imageSize.rank() == 1,
                              errorf("image_size must be 1-dimensional%s",
                                     imageSize.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, imageSize.dim(0) == 3,
                              errorf("image_size must contain 3 elements%s",
                                     imageSize.shape().toString()));
    const uint64_t heightRaw = static_cast<uint64_t>(imageSize.data<T>()[0]);
    const uint64_t widthRaw = static_cast<uint64_t>(imageSize.data<T>()[1]);
    constexpr uint64_t kInt32Max = std::numeric_limits<int32_t>::max();
    TFRT_FALLBACK_OP_REQUIRES(ctx, heightRaw < kInt32Max,
                              errorf("image height cannot be >= int32 max"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, widthRaw < kInt32Max,
                              errorf("image width cannot be >= int32 max"));
    const int32_t height = static_cast<int32_t>(heightRaw);
    const int32_t width = static_cast<int32_t>(widthRaw);

    const Tensor &inputBoxes = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, inputBoxes.rank() == 3,
        errorf("input boxes must be 3-dimensional [batch, num_boxes, "
               "coords]: %s",
               inputBoxes.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, inputBoxes.dim(2) == 4,
        errorf("bounding boxes must have shape [4] or [*, 4], got %s",
               inputBoxes.shape().toString()));

    float minCovered = minCovered_;
    if (Op != BoxOp::V1) {
      const Tensor &t = ctx->input(2);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, t.rank() == 0,
          errorf("min_object_covered must be 0-D, got shape %s",
                 t.shape().toString()));
      minCovered = t.data<float>()[0];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, minCovered >= 0,
          errorf("Min object covered must be non-negative: %s", minCovered));
    }

    std::vector<Rect> boxes;
    const float *pb = inputBoxes.data<float>();
    for (int64_t b = 0; b < inputBoxes.numElements() / 4; ++b) {
      for (int i = 0; i < 4; ++i) {
        const float v = pb[b * 4 + i];
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, v >= 0.0f && v <= 1.0f,
            errorf("All bounding box coordinates must be in [0.0, 1.0]: %s",
                   v));
      }
      boxes.push_back(Rect{scaleCoordinate(pb[b * 4 + 1], width),
                           scaleCoordinate(pb[b * 4 + 0], height),
                           scaleCoordinate(pb[b * 4 + 3], width),
                           scaleCoordinate(pb[b * 4 + 2], height)});
    }
    const Rect image{0, 0, width, height};
    if (boxes.empty()) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, useImageIfNoBoxes_,
          errorf("No bounding boxes provided as input. One must enable "
                 "use_image_if_no_bounding_boxes if you wish to not provide "
                 "any bounding boxes."));
      boxes.push_back(image);
    }

    SimplePhilox random(&rng);
    Rect crop;
    bool generated = false;
    for (int32_t i = 0; i < maxAttempts_; ++i) {
      const float aspect =
          random.randFloat() * (aspectRange_[1] - aspectRange_[0]) +
          aspectRange_[0];
      if (generateRandomCrop(width, height, areaRange_[0], areaRange_[1],
                             aspect, &random, &crop) &&
          satisfiesOverlap(crop, minCovered, boxes)) {
        generated = true;
        break;
      }
    }
    if (!generated)
      crop = image;

    Tensor *begin = nullptr, *size = nullptr, *bboxes = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{3}, &begin));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape{3}, &size));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2, TensorShape{1, 1, 4}, &bboxes));
    T *pBegin = begin->data<T>(), *pSize = size->data<T>();
    pBegin[0] = static_cast<T>(crop.minY);
    pSize[0] = static_cast<T>(crop.maxY - crop.minY);
    pBegin[1] = static_cast<T>(crop.minX);
    pSize[1] = static_cast<T>(crop.maxX - crop.minX);
    pBegin[2] = T(0);
    pSize[2] = static_cast<T>(-1);
    float *pBoxes = bboxes->data<float>();
    pBoxes[0] = static_cast<float>(crop.minY) / static_cast<float>(height);
    pBoxes[1] = static_cast<float>(crop.minX) / static_cast<float>(width);
    pBoxes[2] = static_cast<float>(crop.maxY) / static_cast<float>(height);
    pBoxes[3] = static_cast<float>(crop.maxX) / static_cast<float>(width);
  }

private:
  GuardedPhilox gen_;
  float minCovered_ = 0.1f;
  bool useImageIfNoBoxes_ = false;
  std::vector<float> aspectRange_ = {0.75f, 1.33f};
  std::vector<float> areaRange_ = {0.05f, 1.0f};
  int32_t maxAttempts_ = 100;
};

template <typename T> using SampleBoxV1 = SampleBoundingBoxKernel<T, BoxOp::V1>;
template <typename T> using SampleBoxV2 = SampleBoundingBoxKernel<T, BoxOp::V2>;
template <typename T>
using StatelessSampleBox = SampleBoundingBoxKernel<T, BoxOp::Stateless>;
template <typename T> using StatelessGammaV2 = StatelessGammaKernel<T, false>;
template <typename T> using StatelessGammaV3 = StatelessGammaKernel<T, true>;

} // namespace

void registerRandomDistributionKernels(KernelRegistry &registry) {
  registerKernel<OpId::kRandomGamma, RandomGammaKernel, half, float, double>(
      registry);
  registerByAttr<OpId::kStatelessRandomGammaV2, StatelessGammaV2, half, bf16,
                 float, double>(registry, "dtype");
  registerByAttr<OpId::kStatelessRandomGammaV3, StatelessGammaV3, half, bf16,
                 float, double>(registry, "dtype");
  // RandomPoisson: rate and output of one dtype (half, float, double).
  registerKernel<OpId::kRandomPoisson, PoissonKernel<false>>(
      registry, {{"dtype", {DType::F16, DType::F32, DType::F64}}});
  registerKernel<OpId::kRandomPoissonV2, PoissonKernel<false>>(
      registry, {{"R", kPoissonTypes}, {"dtype", kPoissonTypes}});
  registerKernel<OpId::kStatelessRandomPoisson, PoissonKernel<true>>(
      registry, {{"Rtype", kPoissonTypes}, {"dtype", kPoissonTypes}});
  registerKernel<OpId::kRandomShuffle, RandomShuffleKernel<false>>(
      registry, {{"T", kAllDTypes}});
  registerStringKernel<OpId::kRandomShuffle, RandomShuffleKernel<true>>(
      registry);
  registerKernel<OpId::kSampleDistortedBoundingBox, SampleBoxV1, uint8_t,
                 int8_t, int16_t, int32_t, int64_t>(registry);
  registerKernel<OpId::kSampleDistortedBoundingBoxV2, SampleBoxV2, uint8_t,
                 int8_t, int16_t, int32_t, int64_t>(registry);
  registerKernel<OpId::kStatelessSampleDistortedBoundingBox, StatelessSampleBox,
                 uint8_t, int8_t, int16_t, int32_t, int64_t>(registry);
}

} // namespace tfrt_fallback::rt
