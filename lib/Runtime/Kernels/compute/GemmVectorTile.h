//===- GemmVectorTile.h - The GEMM microkernel per vector -------*- C++ -*-===//
//
// Private to the per-ISA GEMM files (GemmAvx2.cpp, GemmAvx512.cpp,
// GemmNeon.cpp, GemmNeonFp16.cpp), each compiled for its instruction set:
// everything here is in an anonymous namespace, so every file that includes it
// gets its own copy compiled with its own flags (a template shared across those
// files would let the linker keep one instruction set's copy for all of them;
// GemmMicroKernels.h). It is written over a vector trait (Avx2Vec.h,
// Avx512Vec.h, NeonVec.h, NeonHalfVec.h), which gives:
//
//   Elem                     the GEMM's element (float; uint16_t: halves)
//   Type, kLanes             the vector of kLanes elements
//   Mask, mask(count)        the first `count` (0..kLanes) lanes
//   zero(), set1(float x), broadcast(p), load(p)
//   maskLoad(m, p)           masked lanes read, the others zero
//   maskStore(p, m, v)       masked lanes written
//   fma(a, b, c) = a * b + c, add, sub, mul, max, min
//   leaky(x, alpha)          x > 0 ? x : x * alpha (NaN: x * alpha)
//
// A tile is MR rows by NV vectors (NR = 2 * kLanes columns: NV = 1 for
// tiles of at most kLanes columns, which then cost half the FMAs, the
// panel's other half being zeros). Registers: MR * NV accumulators, NV for
// the B row, one for the broadcast A value.
//
// A trait with a lane FMA (kLaneFma = true and fmaLane<L>(a, b, c) =
// c + b * a[L]: NeonVec.h, NeonHalfVec.h) takes kLanes k steps at a time
// instead: one load of kLanes consecutive A values per row, then per k step
// the B row and MR * NV lane FMAs; with loadX4 (four vectors per load) one
// B load serves two k steps. Registers: MR * NV accumulators, MR for
// A, and for B two k steps' NV vectors in each of two banks (the 8x8 NEON
// tile and the 8x16 f16 one: 16 + 8 + 8 of 32).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMVECTORTILE_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMVECTORTILE_H

#include "compute/GemmMicroKernels.h"
#include "compute/Unroll.h"
#include "compute/VecTraits.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace tfrt_fallback::rt::gemm::detail {
namespace {

/// Whether the trait Vec has the lane FMA (Vec::kLaneFma).
template <typename Vec, typename = void> struct HasLaneFma : std::false_type {};
template <typename Vec>
struct HasLaneFma<Vec, std::void_t<decltype(Vec::kLaneFma)>>
    : std::bool_constant<Vec::kLaneFma> {};

/// k step L of Vec::kLanes on the B row `bv`: acc[r][h] += bv[h] * a[r][L]
/// (= when Start).
template <typename Vec, int MR, int NV, int L, bool Start>
__attribute__((always_inline)) inline void
laneStep(typename Vec::Type (&acc)[MR][NV], const typename Vec::Type (&av)[MR],
         const typename Vec::Type *bv) {
  TFRT_FALLBACK_UNROLL
  for (int r = 0; r < MR; ++r)
    TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h)
    acc[r][h] = Start ? Vec::template mulLane<L>(av[r], bv[h])
                      : Vec::template fmaLane<L>(av[r], bv[h], acc[r][h]);
}

/// The k steps L of Vec::kLanes that one B load at `b` feeds (the first
/// starts the sums when Start), then `b` past what was loaded: with loadX4
/// and two vectors per B row, steps L and L + 1 from one load (none for an
/// odd L, which its pair did); else step L alone. (The pointer advanced
/// with each load becomes post-indexed loads: no add of its own.)
template <typename Vec, int MR, int NV, int L, bool Start>
__attribute__((always_inline)) inline void
laneLoadAndStep(typename Vec::Type (&acc)[MR][NV],
                const typename Vec::Type (&av)[MR],
                const typename Vec::Elem *&b) {
  using V = typename Vec::Type;
  constexpr int kNR = 2 * Vec::kLanes;
  if constexpr (NV == 2 && simd::kHasLoadX4<Vec>) {
    if constexpr (L % 2 == 0) {
      V bv[4];
      Vec::template loadX4Advance<L / 2 % 2>(b, bv);
      laneStep<Vec, MR, NV, L, Start && L == 0>(acc, av, bv);
      laneStep<Vec, MR, NV, L + 1, false>(acc, av, bv + 2);
    }
  } else {
    V bv[NV];
    TFRT_FALLBACK_UNROLL
    for (int h = 0; h < NV; ++h)
      bv[h] = Vec::load(b + Vec::kLanes * h);
    b += kNR;
    laneStep<Vec, MR, NV, L, Start && L == 0>(acc, av, bv);
  }
}

/// The Vec::kLanes k steps of one A load (the first starts the sums when
/// Start), advancing `b` past them.
template <typename Vec, int MR, int NV, bool Start, int... L>
__attribute__((always_inline)) inline void
laneSteps(typename Vec::Type (&acc)[MR][NV], const typename Vec::Type (&av)[MR],
          const typename Vec::Elem *&b, std::integer_sequence<int, L...>) {
  (laneLoadAndStep<Vec, MR, NV, L, Start>(acc, av, b), ...);
}

/// The tile epilogue (TileEpilogue) on the MR x NV sums in registers.
template <typename Vec, int MR, int NV>
__attribute__((always_inline)) inline void
applyEpilogue(typename Vec::Type (&acc)[MR][NV],
              const TileEpilogueOf<typename Vec::Elem> &ep, int64_t col0,
              const typename Vec::Mask (&masks)[2], const typename Vec::Elem *c,
              int64_t ldc) {
  using V = typename Vec::Type;
  using E = typename Vec::Elem;
  const E *addend =
      ep.addend ? reinterpret_cast<const E *>(
                      reinterpret_cast<const char *>(c) + ep.addendOffset)
                : nullptr;
  TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h) {
    const int64_t j = col0 + Vec::kLanes * h;
    const typename Vec::Mask &mask = masks[h];
    if (ep.bias) {
      const V bias = Vec::maskLoad(mask, ep.bias + j);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = Vec::add(acc[r][h], bias);
    } else if (ep.bnMean) {
      const V mean = Vec::maskLoad(mask, ep.bnMean + j);
      const V factor = Vec::maskLoad(mask, ep.bnFactor + j);
      const V offset = Vec::maskLoad(mask, ep.bnOffset + j);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] =
            Vec::add(Vec::mul(Vec::sub(acc[r][h], mean), factor), offset);
    }
    if (addend) {
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = Vec::add(
            acc[r][h], Vec::maskLoad(mask, addend + r * ldc + Vec::kLanes * h));
    }
    const V zero = Vec::zero();
    switch (ep.activation) {
    case TileActivation::None:
      break;
    case TileActivation::Relu:
      // max(0, x) returns its second operand, x, when either is NaN.
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = Vec::max(zero, acc[r][h]);
      break;
    case TileActivation::Relu6: {
      const V six = Vec::set1(6.0f);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = Vec::min(six, Vec::max(zero, acc[r][h]));
      break;
    }
    case TileActivation::LeakyRelu:
    case TileActivation::Prelu: {
      const V alpha = ep.activation == TileActivation::Prelu
                          ? Vec::maskLoad(mask, ep.prelu + j)
                          : Vec::set1(ep.alpha);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = Vec::leaky(acc[r][h], alpha);
      break;
    }
    }
  }
}

/// One MicroTile of MR rows by NV vectors.
template <typename Vec, int MR, int NV>
void tile(const MicroTileOf<typename Vec::Elem> &t) {
  using V = typename Vec::Type;
  using E = typename Vec::Elem;
  constexpr int kNR = 2 * Vec::kLanes;
  constexpr int kL = Vec::kLanes;
  constexpr auto kSteps = std::make_integer_sequence<int, kL>();
  V acc[MR][NV];
  const E *a = t.a;
  const E *b = t.b;
  const int64_t lda = t.lda;
  int64_t p = 0;
  // Whether the sums have a value yet (else they start at zero below).
  bool started = false;
  if constexpr (HasLaneFma<Vec>::value) {
    // A pointer per row, each stepped by its own load (Vec::loadAdvance):
    // computing the rows from one base costs an add per row and step.
    const E *row[MR];
    TFRT_FALLBACK_UNROLL
    for (int r = 0; r < MR; ++r)
      row[r] = a + r * lda;
    int64_t steps = t.kc / kL;
    if (steps > 0) {
      // The first k step starts the sums with a multiply: no zeroing.
      V av[MR];
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        av[r] = Vec::loadAdvance(row[r]);
      laneSteps<Vec, MR, NV, /*Start=*/true>(acc, av, b, kSteps);
      --steps;
      started = true;
    }
    // Counted down to zero: the loop's only other instructions are the
    // subtract and the branch.
    for (; steps != 0; --steps) {
      V av[MR];
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        av[r] = Vec::loadAdvance(row[r]);
      laneSteps<Vec, MR, NV, /*Start=*/false>(acc, av, b, kSteps);
    }
    p = t.kc / kL * kL;
    a += p;
  }
  if (!started)
    TFRT_FALLBACK_UNROLL
  for (int r = 0; r < MR; ++r)
    TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h)
    acc[r][h] = Vec::zero();
  for (; p < t.kc; ++p, b += kNR, ++a) {
    V bv[NV];
    TFRT_FALLBACK_UNROLL
    for (int h = 0; h < NV; ++h)
      bv[h] = Vec::load(b + Vec::kLanes * h);
    TFRT_FALLBACK_UNROLL
    for (int r = 0; r < MR; ++r) {
      const V x = Vec::broadcast(a + r * lda);
      TFRT_FALLBACK_UNROLL
      for (int h = 0; h < NV; ++h)
        acc[r][h] = Vec::fma(x, bv[h], acc[r][h]);
    }
  }
  const int nr = t.nr;
  const typename Vec::Mask masks[2] = {
      Vec::mask(nr >= Vec::kLanes ? Vec::kLanes : nr),
      Vec::mask(nr >= kNR          ? Vec::kLanes
                : nr > Vec::kLanes ? nr - Vec::kLanes
                                   : 0)};
  // In locals: the stores below may alias `t` as far as the compiler knows
  // (vector stores alias anything), which would reload t.ldc per row.
  E *const c = t.c;
  const int64_t ldc = t.ldc;
  if (t.accumulate) {
    TFRT_FALLBACK_UNROLL
    for (int r = 0; r < MR; ++r)
      TFRT_FALLBACK_UNROLL
    for (int h = 0; h < NV; ++h)
      acc[r][h] = Vec::add(
          acc[r][h], Vec::maskLoad(masks[h], c + r * ldc + Vec::kLanes * h));
  }
  if (t.epilogue)
    applyEpilogue<Vec, MR, NV>(acc, *t.epilogue, t.col0, masks, c, ldc);
  TFRT_FALLBACK_UNROLL
  for (int r = 0; r < MR; ++r)
    TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h)
    Vec::maskStore(c + r * ldc + Vec::kLanes * h, masks[h], acc[r][h]);
}

/// The tile of t.mr rows (MR for t.mr >= MR).
template <typename Vec, int MR, int NV>
void tileRows(const MicroTileOf<typename Vec::Elem> &t) {
  if constexpr (MR == 1) {
    tile<Vec, 1, NV>(t);
  } else {
    if (t.mr >= MR)
      return tile<Vec, MR, NV>(t);
    tileRows<Vec, MR - 1, NV>(t);
  }
}

/// The microkernel of MR x 2 * Vec::kLanes tiles.
template <typename Vec, int MR>
void vectorMicroKernel(const MicroTileOf<typename Vec::Elem> &t) {
  if (t.nr > Vec::kLanes)
    tileRows<Vec, MR, 2>(t);
  else
    tileRows<Vec, MR, 1>(t);
}

} // namespace
} // namespace tfrt_fallback::rt::gemm::detail

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMVECTORTILE_H
