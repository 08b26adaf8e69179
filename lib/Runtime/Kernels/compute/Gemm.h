//===- Gemm.h - Packed single-precision GEMM with fused epilogues -*- C++
//-*-===//
//
// The runtime's own f32 matrix multiplication, used by the convolution and
// MatMul kernels instead of Eigen's contraction: C[m, n] = A[m, k] * B[k, n]
// (A or B optionally transposed), followed by a per-column epilogue (bias or
// batch norm, then an activation) applied to each tile of C while it is in
// registers, so C is written once and never zero-filled first.
//
// BLIS-style blocking: B is packed into panels of NR columns (once, for a
// kernel whose B is a program constant: PackedBCache); A is read in place; a
// register-blocked MR x NR microkernel sweeps a KC-deep block of A held in
// L1 across the panels of an L2-sized block of B. The microkernel is chosen
// at run time from the CPU's features (AVX-512F 14x32, AVX2+FMA 6x16, or a
// portable 6x8), so one binary runs every x86-64-v3 machine and uses AVX-512
// where it exists; TFRT_FALLBACK_ISA=avx2|portable forces a lower path.
// docs/Kernels.md ("The f32 GEMM") has the design and the measured speeds.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMM_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMM_H

#include "compute/GemmMicroKernels.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace Eigen {
struct ThreadPoolDevice;
} // namespace Eigen

namespace tfrt_fallback::rt::gemm {

//===----------------------------------------------------------------------===//
// Instruction sets
//===----------------------------------------------------------------------===//

/// The microkernel families, in increasing order of what they need (the
/// AArch64 ones rank below the x86 ones: a request for AVX2 or AVX-512 runs
/// NEON there, a request for NEON runs the portable path on x86). NeonFp16
/// is NEON with the ARMv8.2 half-precision arithmetic (FEAT_FP16): the f32
/// kernels run as on Neon, and the f16 ones compute in f16 (hgemm, the f16
/// depthwise rows) instead of widening to f32.
enum class Isa : uint8_t { Portable, Neon, NeonFp16, Avx2, Avx512 };

/// "portable", "neon", "neon-fp16", "avx2" or "avx512".
const char *isaName(Isa isa);

/// Whether this CPU and OS run `isa`'s code (AVX2 needs FMA too; AVX-512 is
/// AVX-512F with the OS saving the zmm state, as __builtin_cpu_supports
/// checks; NEON is part of every AArch64 CPU; NeonFp16 needs HWCAP_ASIMDHP
/// in getauxval(AT_HWCAP)). Portable is always supported; elsewhere it is
/// the only one.
bool isaSupported(Isa isa);

/// The best supported ISA that is not above `requested`.
Isa clampIsa(Isa requested);

/// The ISA the GEMM runs, decided once per process: the best this CPU
/// supports, lowered (never raised) by the environment variable
/// TFRT_FALLBACK_ISA=avx512|avx2|neon-fp16|neon|portable. An unknown value
/// is ignored.
Isa activeIsa();

/// Whether the f16 convolutions and matrix products compute in f16
/// (activeIsa() is Isa::NeonFp16) rather than in f32 (ComputeInF32.h).
inline bool halfArithmetic() { return activeIsa() == Isa::NeonFp16; }

/// Parses an ISA name as isaName() spells it.
bool parseIsa(std::string_view name, Isa *isa);

//===----------------------------------------------------------------------===//
// Epilogue
//===----------------------------------------------------------------------===//

/// The epilogue of one GEMM call: `tile` in the microkernel's registers,
/// then, for activations the microkernels lack (Elu, Sigmoid, Tanh),
/// `rowFn(rowCtx, row, col0, count)` on each finished row segment while it
/// is still in L1 (columns [col0, col0 + count) at `row`). T is the GEMM's
/// element (float; uint16_t, the half bits, for hgemm).
template <typename T> struct GemmEpilogueOf {
  detail::TileEpilogueOf<T> tile;
  void (*rowFn)(const void *ctx, T *row, int64_t col0, int64_t count) = nullptr;
  const void *rowCtx = nullptr;
};
using GemmEpilogue = GemmEpilogueOf<float>;

//===----------------------------------------------------------------------===//
// Packed B
//===----------------------------------------------------------------------===//

/// The constant of `dtype` the program binds to input `index` of the kernel
/// `ctx` builds, with `dims` giving its GEMM view (k, n and ldb from its
/// shape, or false when the kernel cannot use it); null when there is none
/// to pack (PackedBCache::prepack, PackedHalfB::prepack).
template <typename Dims>
const Tensor *constantB(OpKernelConstructionInterface *ctx, int index,
                        DType dtype, Dims &&dims, int64_t *k, int64_t *n,
                        int64_t *ldb) {
  const Tensor *b = ctx->constantInput(index);
  if (!ctx->status().ok() || !b || b->dtype() != dtype ||
      b->numElements() == 0 || !dims(*b, k, n, ldb))
    return nullptr;
  return b;
}

/// B [k, n] packed for the microkernel of one ISA: ceil(n / NR) panels, each
/// k rows of NR floats (zeros past column n), 64-byte aligned.
class PackedB {
public:
  /// Packs `b`: [k, n] with row stride ldb, or with `transB` [n, k].
  PackedB(const float *b, int64_t ldb, bool transB, int64_t k, int64_t n,
          Isa isa);

  Isa isa() const { return isa_; }
  int64_t k() const { return k_; }
  int64_t n() const { return n_; }
  int nr() const { return nr_; }
  /// Panel `p` (columns [p * NR, p * NR + NR)).
  const float *panel(int64_t p) const { return data_.get() + p * k_ * nr_; }
  size_t bytes() const { return bytes_; }

private:
  struct Free {
    void operator()(float *p) const { std::free(p); }
  };
  Isa isa_;
  int64_t k_, n_;
  int nr_;
  size_t bytes_;
  std::unique_ptr<float, Free> data_;
};

/// B packed once per (data, shape, transposition, ISA) for a kernel whose B
/// operand is a program constant (OpKernelContextInterface::isInputConstant):
/// its data never changes while the program, and so the kernel, lives, so
/// the data pointer is a safe key. Kernels that pack the same constant the
/// same way share one packing (the steps of an unrolled loop share their
/// weights): it lives while a kernel holds it. Safe for concurrent runs.
class PackedBCache {
public:
  PackedBCache() = default;
  PackedBCache(const PackedBCache &) = delete;
  PackedBCache &operator=(const PackedBCache &) = delete;

  /// The packing of `b` (as PackedB's constructor takes it), made at the
  /// first call, when `*packedNow` is set (the caller may then release the
  /// constant: OpKernelContextInterface::releaseConstantInput); nullptr when
  /// this cache already holds kMaxEntries others (one kernel called on many
  /// constants: the caller packs per call).
  const PackedB *get(const float *b, int64_t ldb, bool transB, int64_t k,
                     int64_t n, Isa isa, bool *packedNow = nullptr);

  /// Packs input `index` of the kernel `ctx` builds now, when the program
  /// binds an f32 constant to it (OpKernelConstructionInterface::
  /// constantInput), and releases the constant's pages: the first run then
  /// finds the packing here, and the copy and the original never share the
  /// peak of a run. `b` is that constant viewed as [k, n] (or [n, k] when
  /// `transB`) with leading dimension `ldb`; `dims` gives k, n and ldb from
  /// the constant's shape, or returns false when the kernel cannot use it
  /// (the run then reports the error).
  template <typename Dims>
  void prepack(OpKernelConstructionInterface *ctx, int index, bool transB,
               Dims &&dims) {
    int64_t k = 0, n = 0, ldb = 0;
    const Tensor *b = constantB(ctx, index, DType::F32, dims, &k, &n, &ldb);
    if (!b)
      return;
    bool packedNow = false;
    get(b->data<float>(), ldb, transB, k, n, activeIsa(), &packedNow);
    if (packedNow)
      ctx->releaseConstantInput(index);
  }

  static constexpr size_t kMaxEntries = 4;

private:
  struct Entry {
    const float *data;
    int64_t ldb, k, n;
    bool transB;
    std::shared_ptr<const PackedB> packed;
  };
  bool matches(const Entry &e, const float *b, int64_t ldb, bool transB,
               int64_t k, int64_t n, Isa isa) const {
    return e.data == b && e.ldb == ldb && e.transB == transB && e.k == k &&
           e.n == n && e.packed->isa() == isa;
  }

  std::atomic<const Entry *> last_{nullptr};
  std::mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

//===----------------------------------------------------------------------===//
// GEMM
//===----------------------------------------------------------------------===//

/// c[m, n] (row stride ldc) = op(a) * op(b), then `epilogue` per column.
/// op(a) is a [m, k] with row stride lda, or with `transA` a [k, m]
/// transposed; op(b) likewise [k, n] or [n, k]. k may be 0 (C is then the
/// epilogue of zeros). When `packed` is given (it must be b's packing for
/// `isa`'s microkernel), b is not read. Work is split over `device`'s
/// threads by rows of C (and by columns when C has few rows). `isa` is
/// clamped to what this CPU supports.
void sgemm(const Eigen::ThreadPoolDevice &device, int64_t m, int64_t n,
           int64_t k, const float *a, int64_t lda, bool transA, const float *b,
           int64_t ldb, bool transB, float *c, int64_t ldc,
           const GemmEpilogue &epilogue, const PackedB *packed = nullptr,
           Isa isa = activeIsa());

#if defined(__aarch64__)
//===----------------------------------------------------------------------===//
// Half-precision GEMM (ARMv8.2 FP16)
//===----------------------------------------------------------------------===//

/// Elements of B [k, n] packed for hgemm: its panels of 16 halves.
size_t packedHalfBElements(int64_t k, int64_t n);

/// Packs B (halves: [k, n] with row stride ldb, or with `transB` [n, k])
/// into `dst` (packedHalfBElements(k, n) halves, 16-byte aligned) for
/// hgemm.
void packHalfB(const uint16_t *b, int64_t ldb, bool transB, int64_t k,
               int64_t n, uint16_t *dst);

/// sgemm in IEEE half precision (uint16_t holds a half's bits): the
/// products are summed in f16 registers (`fmla v.8h`: 8 MACs per
/// instruction, twice f32's), as XNNPACK's f16 GEMMs do, and the epilogue
/// runs in f16. Operands as sgemm takes them; B is `packedB` when given
/// (packHalfB's), else b, packed per call. Call only when
/// isaSupported(Isa::NeonFp16).
void hgemm(const Eigen::ThreadPoolDevice &device, int64_t m, int64_t n,
           int64_t k, const uint16_t *a, int64_t lda, bool transA,
           const uint16_t *b, int64_t ldb, bool transB, uint16_t *c,
           int64_t ldc, const GemmEpilogueOf<uint16_t> &epilogue,
           const uint16_t *packedB = nullptr);

/// hgemm's packing of a kernel's B operand when the program binds an f16
/// constant to it, made when the kernel is built (PackedBCache::prepack's
/// f16 form; each kernel holds its own).
class PackedHalfB {
public:
  /// Packs input `index` of the kernel `ctx` builds, when it is an f16
  /// constant, and releases the constant's pages; `dims` gives k, n and
  /// ldb from its shape, or returns false when the kernel cannot use it.
  template <typename Dims>
  void prepack(OpKernelConstructionInterface *ctx, int index, bool transB,
               Dims &&dims) {
    int64_t k = 0, n = 0, ldb = 0;
    const Tensor *b = constantB(ctx, index, DType::F16, dims, &k, &n, &ldb);
    if (!b)
      return;
    source_ = b->rawData();
    k_ = k, n_ = n, transB_ = transB;
    panels_.resize(packedHalfBElements(k, n));
    packHalfB(static_cast<const uint16_t *>(source_), ldb, transB, k, n,
              panels_.data());
    ctx->releaseConstantInput(index);
  }

  /// The packing of `b` (the data of a constant input at run time) when it
  /// is the one packed here, with this shape; null otherwise.
  const uint16_t *get(const void *b, int64_t k, int64_t n, bool transB) const {
    return !panels_.empty() && b == source_ && k == k_ && n == n_ &&
                   transB == transB_
               ? panels_.data()
               : nullptr;
  }

private:
  const void *source_ = nullptr;
  int64_t k_ = 0, n_ = 0;
  bool transB_ = false;
  std::vector<uint16_t> panels_;
};
#endif

} // namespace tfrt_fallback::rt::gemm

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_GEMM_H
