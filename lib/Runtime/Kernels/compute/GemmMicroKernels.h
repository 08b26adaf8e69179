//===- GemmMicroKernels.h - The GEMM's per-ISA microkernels -----*- C++ -*-===//
//
// Private to the GEMM (Gemm.cpp and the per-ISA files GemmAvx2.cpp,
// GemmAvx512.cpp, GemmNeon.cpp, GemmNeonFp16.cpp): what one register-blocked
// microkernel computes and how the driver finds the microkernel of an
// instruction set. The per-ISA files are compiled with that ISA's flags while
// everything else keeps the runtime's, so this header holds plain data and
// declarations only: an inline function defined here and compiled into an
// AVX-512 file could be the copy the linker keeps for the whole program, and
// then run on a CPU without AVX-512.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMMICROKERNELS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMMICROKERNELS_H

#include <cstddef>
#include <cstdint>

namespace tfrt_fallback::rt::gemm::detail {

/// The activations a microkernel applies in registers.
enum class TileActivation : uint8_t {
  None,
  Relu,      // max(x, 0)
  Relu6,     // min(max(x, 0), 6)
  LeakyRelu, // x > 0 ? x : x * alpha (also scalar Prelu)
  Prelu,     // x > 0 ? x : x * prelu[column]
};

/// What a microkernel applies to its tile after the last k step, while the
/// sums are still in registers. Per-column arrays are indexed by the output
/// column (the microkernel adds its first column, `col0`); null when absent.
/// Both NaN-propagating like the Eigen expressions they replace (Relu(NaN)
/// is NaN). T is the GEMM's element: float, or uint16_t for the IEEE half
/// bits of the f16 GEMM (the arrays then hold halves too).
template <typename T> struct TileEpilogueOf {
  /// x + bias[j].
  const T *bias = nullptr;
  /// Batch norm: (x - bnMean[j]) * bnFactor[j] + bnOffset[j] (TF's order).
  const T *bnMean = nullptr;
  const T *bnFactor = nullptr;
  const T *bnOffset = nullptr;
  /// Then x + the element of another matrix laid out like C, `addendOffset`
  /// bytes from the element of C (a residual connection: fused "Add").
  bool addend = false;
  ptrdiff_t addendOffset = 0;
  TileActivation activation = TileActivation::None;
  float alpha = 0;
  const T *prelu = nullptr;
};
using TileEpilogue = TileEpilogueOf<float>;

/// One microkernel call: c[mr x nr] = (accumulate ? c : 0) + a * b, where a
/// is mr rows of kc elements read in place (row stride lda) and b is a
/// packed panel of kc rows of NR elements (zero beyond the matrix's last
/// column).
/// Then, if `epilogue` is non-null, the tile epilogue for columns
/// [col0, col0 + nr). 1 <= mr <= MR and 1 <= nr <= NR; c has row stride
/// ldc and only its mr x nr elements are read (when accumulating) and
/// written.
template <typename T> struct MicroTileOf {
  int64_t kc;
  const T *a;
  int64_t lda;
  const T *b;
  T *c;
  int64_t ldc;
  int mr, nr;
  bool accumulate;
  const TileEpilogueOf<T> *epilogue;
  int64_t col0;
};
using MicroTile = MicroTileOf<float>;

/// A microkernel and the blocking it was tuned with.
template <typename T> struct MicroKernelInfoOf {
  const char *name;
  /// Tile rows and columns: registers hold an MR x NR block of C.
  int mr, nr;
  /// The k chunk: an MR x KC block of A and a KC x NR panel of B stay in L1.
  int kc;
  void (*kernel)(const MicroTileOf<T> &tile);
};
using MicroKernelInfo = MicroKernelInfoOf<float>;

/// The portable C++ microkernel (GCC/Clang vector extensions, what CPUs
/// without AVX2 or NEON run, and TFRT_FALLBACK_ISA=portable).
extern const MicroKernelInfo kPortableMicroKernel;
#if defined(__x86_64__) || defined(_M_X64)
/// 6x16, AVX2 + FMA (GemmAvx2.cpp).
extern const MicroKernelInfo kAvx2MicroKernel;
/// 14x32, AVX-512F (GemmAvx512.cpp).
extern const MicroKernelInfo kAvx512MicroKernel;
#endif
#if defined(__aarch64__)
/// 8x8, NEON with lane FMAs (GemmNeon.cpp).
extern const MicroKernelInfo kNeonMicroKernel;
/// 8x16 halves, NEON with ARMv8.2 FP16 arithmetic (GemmNeonFp16.cpp; only
/// where isaSupported(Isa::NeonFp16)).
extern const MicroKernelInfoOf<uint16_t> kNeonFp16MicroKernel;
#endif

} // namespace tfrt_fallback::rt::gemm::detail

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMMMICROKERNELS_H
