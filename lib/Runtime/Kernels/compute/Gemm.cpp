//===- Gemm.cpp - Packed single-precision GEMM driver -----------*- C++ -*-===//
//
// ISA selection, B packing, the blocking loops around the microkernels, the
// split over threads, and the portable microkernel. The x86 microkernels are
// in GemmAvx2.cpp and GemmAvx512.cpp, compiled with their ISA's flags.
//
//===----------------------------------------------------------------------===//

// Eigen 3.4's thread pool uses std::bind, whose libstdc++ implementation uses
// the C++17-deprecated std::result_of.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "compute/Gemm.h"

#include "common/ParallelFor.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

namespace tfrt_fallback::rt::gemm {
using detail::MicroKernelInfo;
using detail::MicroTile;
using detail::TileActivation;
using detail::TileEpilogue;

//===----------------------------------------------------------------------===//
// Instruction sets
//===----------------------------------------------------------------------===//

const char *isaName(Isa isa) {
  switch (isa) {
  case Isa::Portable:
    return "portable";
  case Isa::Neon:
    return "neon";
  case Isa::NeonFp16:
    return "neon-fp16";
  case Isa::Avx2:
    return "avx2";
  case Isa::Avx512:
    return "avx512";
  }
  return "portable";
}

bool parseIsa(std::string_view name, Isa *isa) {
  for (Isa candidate :
       {Isa::Portable, Isa::Neon, Isa::NeonFp16, Isa::Avx2, Isa::Avx512})
    if (name == isaName(candidate)) {
      *isa = candidate;
      return true;
    }
  return false;
}

#if defined(__x86_64__)
namespace {
/// What CPUID and XCR0 say, as __builtin_cpu_supports does: AVX2 and FMA
/// with the OS saving the ymm state, AVX-512F with the zmm state too.
/// CPUID is read here rather than with __builtin_cpu_supports, whose
/// libgcc object (cpuinfo.o, ~5.4 KB) runs a constructor and so stays in
/// every binary that links this file, even a runner without the GEMM.
struct X86Features {
  bool avx2 = false;
  bool avx512f = false;
};

X86Features readX86Features() {
  X86Features features;
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
    return features;
  if (!(ecx & bit_OSXSAVE) || !(ecx & bit_AVX) || !(ecx & bit_FMA))
    return features;
  unsigned xcr0Low, xcr0High;
  __asm__("xgetbv" : "=a"(xcr0Low), "=d"(xcr0High) : "c"(0));
  // XCR0: x87 (bit 0), SSE (1), AVX (2); opmask and zmm (5, 6, 7).
  if ((xcr0Low & 0x6) != 0x6 || __get_cpuid_max(0, nullptr) < 7)
    return features;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  features.avx2 = ebx & bit_AVX2;
  features.avx512f =
      features.avx2 && (ebx & bit_AVX512F) && (xcr0Low & 0xe6) == 0xe6;
  return features;
}
} // namespace
#endif

bool isaSupported(Isa isa) {
  switch (isa) {
  case Isa::Portable:
    return true;
#if defined(__x86_64__)
  case Isa::Avx2:
  case Isa::Avx512: {
    static const X86Features features = readX86Features();
    return isa == Isa::Avx2 ? features.avx2 : features.avx512f;
  }
#elif defined(__aarch64__)
  case Isa::Neon:
    return true;
  case Isa::NeonFp16: {
    // FEAT_FP16's vector half (ASIMDHP, bit 10 of AT_HWCAP on Linux and
    // Android; <asm/hwcap.h>'s name, spelled out for older headers).
    constexpr unsigned long kHwcapAsimdHp = 1ul << 10;
    static const bool fp16 = getauxval(AT_HWCAP) & kHwcapAsimdHp;
    return fp16;
  }
#endif
  default:
    return false;
  }
  return false;
}

Isa clampIsa(Isa requested) {
  for (Isa isa : {Isa::Avx512, Isa::Avx2, Isa::NeonFp16, Isa::Neon})
    if (isa <= requested && isaSupported(isa))
      return isa;
  return Isa::Portable;
}

Isa activeIsa() {
  static const Isa active = [] {
    Isa requested = Isa::Avx512;
    if (const char *env = std::getenv("TFRT_FALLBACK_ISA"))
      parseIsa(env, &requested);
    return clampIsa(requested);
  }();
  return active;
}

namespace {

const MicroKernelInfo &microKernel(Isa isa) {
#if defined(__x86_64__)
  if (isa == Isa::Avx512)
    return detail::kAvx512MicroKernel;
  if (isa == Isa::Avx2)
    return detail::kAvx2MicroKernel;
#elif defined(__aarch64__)
  // The f32 kernels of NeonFp16 are NEON's.
  if (isa == Isa::Neon || isa == Isa::NeonFp16)
    return detail::kNeonMicroKernel;
#else
  (void)isa;
#endif
  return detail::kPortableMicroKernel;
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

/// Writes B's panels of NR columns to `dst` (ceil(n / nr) * k * nr
/// elements): panel p holds columns [p * nr, p * nr + nr) as k rows of nr,
/// zeros past column n (the all-zero bits: +0 for float and half).
template <typename T>
void packB(const T *b, int64_t ldb, bool transB, int64_t k, int64_t n, int nr,
           T *dst) {
  for (int64_t j0 = 0; j0 < n; j0 += nr, dst += k * nr) {
    const int64_t cols = std::min<int64_t>(nr, n - j0);
    if (!transB) {
      for (int64_t p = 0; p < k; ++p) {
        std::memcpy(dst + p * nr, b + p * ldb + j0, cols * sizeof(T));
        std::fill(dst + p * nr + cols, dst + p * nr + nr, T(0));
      }
      continue;
    }
    // b[j][p] is column j of op(b): read each row of b contiguously.
    for (int64_t j = 0; j < cols; ++j) {
      const T *src = b + (j0 + j) * ldb;
      for (int64_t p = 0; p < k; ++p)
        dst[p * nr + j] = src[p];
    }
    for (int64_t p = 0; p < k; ++p)
      std::fill(dst + p * nr + cols, dst + p * nr + nr, T(0));
  }
}

size_t packedBElements(int64_t k, int64_t n, int nr) {
  return static_cast<size_t>((n + nr - 1) / nr) * k * nr;
}

/// 64-byte aligned memory for `count` elements (at least one cache line).
template <typename T> T *alignedElements(size_t count) {
  size_t bytes = std::max<size_t>(count * sizeof(T), 64);
  bytes = (bytes + 63) & ~size_t(63);
  return static_cast<T *>(std::aligned_alloc(64, bytes));
}

/// A per-thread aligned scratch buffer of at least `count` elements, reused
/// across calls (Slot tells apart buffers live at the same time).
template <int Slot, typename T = float> T *scratch(size_t count) {
  struct Buffer {
    T *data = nullptr;
    size_t size = 0;
    ~Buffer() { std::free(data); }
  };
  thread_local Buffer buffer;
  if (buffer.size < count) {
    std::free(buffer.data);
    buffer.size = std::max(count, buffer.size * 2);
    buffer.data = alignedElements<T>(buffer.size);
  }
  return buffer.data;
}

} // namespace

PackedB::PackedB(const float *b, int64_t ldb, bool transB, int64_t k, int64_t n,
                 Isa isa)
    : isa_(isa), k_(k), n_(n), nr_(microKernel(isa).nr) {
  const size_t floats = packedBElements(k, n, nr_);
  bytes_ = floats * sizeof(float);
  data_.reset(alignedElements<float>(floats));
  packB(b, ldb, transB, k, n, nr_, data_.get());
}

namespace {

/// The packings kernels hold, by what they pack: a kernel that packs a
/// constant another kernel already packed the same way shares its packing.
/// Weak references: a packing goes with the last kernel that holds it (and
/// while one does, its program, and so the constant at the key's address,
/// lives). Expired entries are swept whenever the table has doubled since
/// the last sweep.
class SharedPackings {
public:
  std::shared_ptr<const PackedB> get(const float *b, int64_t ldb, bool transB,
                                     int64_t k, int64_t n, Isa isa) {
    const Key key{b, ldb, k, n, transB, isa};
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = packings_.try_emplace(key);
    if (!inserted)
      if (std::shared_ptr<const PackedB> packed = it->second.lock())
        return packed;
    auto packed = std::make_shared<const PackedB>(b, ldb, transB, k, n, isa);
    it->second = packed;
    if (packings_.size() >= 2 * sizeAfterSweep_) {
      for (auto e = packings_.begin(); e != packings_.end();)
        e = e->second.expired() ? packings_.erase(e) : std::next(e);
      sizeAfterSweep_ = std::max<size_t>(packings_.size(), 16);
    }
    return packed;
  }

private:
  using Key = std::tuple<const float *, int64_t, int64_t, int64_t, bool, Isa>;
  std::mutex mutex_;
  std::map<Key, std::weak_ptr<const PackedB>> packings_;
  size_t sizeAfterSweep_ = 16;
};

SharedPackings &sharedPackings() {
  static auto *packings = new SharedPackings;
  return *packings;
}

} // namespace

const PackedB *PackedBCache::get(const float *b, int64_t ldb, bool transB,
                                 int64_t k, int64_t n, Isa isa,
                                 bool *packedNow) {
  if (packedNow)
    *packedNow = false;
  const Entry *last = last_.load(std::memory_order_acquire);
  if (last && matches(*last, b, ldb, transB, k, n, isa))
    return last->packed.get();
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::unique_ptr<Entry> &entry : entries_)
    if (matches(*entry, b, ldb, transB, k, n, isa)) {
      last_.store(entry.get(), std::memory_order_release);
      return entry->packed.get();
    }
  if (entries_.size() >= kMaxEntries)
    return nullptr;
  // Packed now by this kernel or earlier by another: either way the caller
  // holds a packing and need not read the constant again.
  entries_.push_back(std::make_unique<Entry>(Entry{
      b, ldb, k, n, transB, sharedPackings().get(b, ldb, transB, k, n, isa)}));
  last_.store(entries_.back().get(), std::memory_order_release);
  if (packedNow)
    *packedNow = true;
  return entries_.back()->packed.get();
}

//===----------------------------------------------------------------------===//
// Portable microkernel
//===----------------------------------------------------------------------===//

namespace detail {
namespace {

constexpr int kPortableMR = 6, kPortableNR = 8;
typedef float Float4 __attribute__((vector_size(16)));

/// The scalar epilogue of one value of column j (same formulas as the
/// vector microkernels).
inline float epilogueScalar(float x, const TileEpilogue &ep, int64_t j,
                            const float *c) {
  if (ep.bias)
    x += ep.bias[j];
  else if (ep.bnMean)
    x = (x - ep.bnMean[j]) * ep.bnFactor[j] + ep.bnOffset[j];
  if (ep.addend)
    x += *reinterpret_cast<const float *>(reinterpret_cast<const char *>(c) +
                                          ep.addendOffset);
  switch (ep.activation) {
  case TileActivation::None:
    break;
  case TileActivation::Relu:
    x = x < 0.0f ? 0.0f : x;
    break;
  case TileActivation::Relu6:
    x = x < 0.0f ? 0.0f : x;
    x = x > 6.0f ? 6.0f : x;
    break;
  case TileActivation::LeakyRelu:
    x = x > 0.0f ? x : x * ep.alpha;
    break;
  case TileActivation::Prelu:
    x = x > 0.0f ? x : x * ep.prelu[j];
    break;
  }
  return x;
}

template <int MR> void portableKernel(const MicroTile &t) {
  Float4 acc[MR][2];
  for (int r = 0; r < MR; ++r)
    acc[r][0] = acc[r][1] = Float4{0, 0, 0, 0};
  const float *b = t.b;
  for (int64_t p = 0; p < t.kc; ++p, b += kPortableNR) {
    Float4 b0, b1;
    std::memcpy(&b0, b, sizeof(b0));
    std::memcpy(&b1, b + 4, sizeof(b1));
    for (int r = 0; r < MR; ++r) {
      const float x = t.a[r * t.lda + p];
      acc[r][0] += x * b0;
      acc[r][1] += x * b1;
    }
  }
  float tile[MR][kPortableNR];
  std::memcpy(tile, acc, sizeof(tile));
  for (int r = 0; r < MR; ++r) {
    float *c = t.c + r * t.ldc;
    for (int j = 0; j < t.nr; ++j) {
      float x = tile[r][j];
      if (t.accumulate)
        x += c[j];
      if (t.epilogue)
        x = epilogueScalar(x, *t.epilogue, t.col0 + j, c + j);
      c[j] = x;
    }
  }
}

void portableMicroKernel(const MicroTile &t) {
  switch (t.mr) {
  case 1:
    return portableKernel<1>(t);
  case 2:
    return portableKernel<2>(t);
  case 3:
    return portableKernel<3>(t);
  case 4:
    return portableKernel<4>(t);
  case 5:
    return portableKernel<5>(t);
  default:
    return portableKernel<6>(t);
  }
}

} // namespace

const MicroKernelInfo kPortableMicroKernel = {
    "portable 6x8", kPortableMR, kPortableNR, 256, portableMicroKernel};

} // namespace detail

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

namespace {

/// Bytes of packed B the blocking keeps hot in L2 while a block of A rows
/// sweeps it (half of a 1 MiB L2, which the machines have at least).
constexpr int64_t kL2BlockBytes = 512 * 1024;

/// One GEMM call, ready to run over blocks of C (T: float, or the half
/// bits).
template <typename T> struct GemmPlan {
  const detail::MicroKernelInfoOf<T> *mk;
  int64_t m, n, k;
  const T *a;
  int64_t lda;
  const T *bPanels;
  T *c;
  int64_t ldc;
  const GemmEpilogueOf<T> *epilogue;
  /// k chunk and columns per L2 block.
  int64_t kc, nc;

  const T *panel(int64_t j) const {
    return bPanels + (j / mk->nr) * k * mk->nr;
  }

  /// Computes C's rows [m0, m1) and columns [n0, n1) (n0 a multiple of NR).
  void run(int64_t m0, int64_t m1, int64_t n0, int64_t n1) const {
    const int MR = mk->mr, NR = mk->nr;
    const detail::TileEpilogueOf<T> *tileEpilogue = &epilogue->tile;
    detail::MicroTileOf<T> tile;
    tile.lda = lda;
    tile.ldc = ldc;
    for (int64_t jc = n0; jc < n1; jc += nc) {
      const int64_t jEnd = std::min(jc + nc, n1);
      for (int64_t ir = m0; ir < m1; ir += MR) {
        tile.mr = static_cast<int>(std::min<int64_t>(MR, m1 - ir));
        // k == 0 still makes one pass: the tiles are the epilogue of zeros.
        int64_t pc = 0;
        do {
          tile.kc = std::min(kc, k - pc);
          tile.a = a + ir * lda + pc;
          tile.accumulate = pc > 0;
          tile.epilogue = pc + tile.kc >= k ? tileEpilogue : nullptr;
          for (int64_t jr = jc; jr < jEnd; jr += NR) {
            tile.b = panel(jr) + pc * NR;
            tile.c = c + ir * ldc + jr;
            tile.nr = static_cast<int>(std::min<int64_t>(NR, jEnd - jr));
            tile.col0 = jr;
            mk->kernel(tile);
          }
          pc += tile.kc;
        } while (pc < k);
        if (epilogue->rowFn)
          for (int r = 0; r < tile.mr; ++r)
            epilogue->rowFn(epilogue->rowCtx, c + (ir + r) * ldc + jc, jc,
                            jEnd - jc);
      }
    }
  }
};

/// c[m, n] = a[m, k] (read in place) * the packed panels of B, then the
/// epilogue: the blocking and the split over threads of sgemm and hgemm.
template <typename T>
void runGemm(const Eigen::ThreadPoolDevice &device,
             const detail::MicroKernelInfoOf<T> &mk, int64_t m, int64_t n,
             int64_t k, const T *a, int64_t lda, const T *bPanels, T *c,
             int64_t ldc, const GemmEpilogueOf<T> &epilogue) {
  GemmPlan<T> plan{&mk, m, n, k, a, lda, bPanels, c, ldc, &epilogue, 0, 0};

  // k in equal chunks of at most KC; columns in blocks whose packed B fits
  // the L2 budget.
  const int64_t chunks = k > 0 ? (k + mk.kc - 1) / mk.kc : 1;
  plan.kc = std::max<int64_t>((k + chunks - 1) / chunks, 1);
  const int64_t panelBytes = std::max<int64_t>(k, 1) * mk.nr * sizeof(T);
  plan.nc = std::max<int64_t>(kL2BlockBytes / panelBytes, 1) * mk.nr;

  const int threads = device.numThreads();
  if (threads <= 1) {
    plan.run(0, m, 0, n);
    return;
  }
  // Tasks: blocks of rows (whole MR tiles), and blocks of columns when there
  // are too few row tiles to keep every thread busy. Each row block streams
  // all of B's columns it covers: when B is larger than A and than the L2
  // block, columns first, so that B is read once (the last 1x1 convolution
  // of MobileNetV2, 49 x 448 x 1792: 3.2 MB of packed B against 88 KB of A,
  // 1.43x faster on two threads than on one when every thread streamed all
  // of B per row block, 2.3x by columns). Otherwise rows: a thread then
  // writes the same rows of every layer and finds them in its cache for the
  // next one (kernels::parallelFor).
  const int64_t rowTiles = (m + mk.mr - 1) / mk.mr;
  const int64_t colPanels = (n + mk.nr - 1) / mk.nr;
  const int64_t wanted = 4 * int64_t(threads);
  int64_t rowBlocks, colBlocks;
  if (n > m && k * n * int64_t(sizeof(T)) > kL2BlockBytes) {
    colBlocks = std::min(colPanels, wanted);
    rowBlocks = std::min(rowTiles, std::max<int64_t>(1, wanted / colBlocks));
  } else {
    rowBlocks = std::min(rowTiles, wanted);
    colBlocks = std::min(colPanels, std::max<int64_t>(1, wanted / rowBlocks));
  }
  const int64_t tilesPerRowBlock = (rowTiles + rowBlocks - 1) / rowBlocks;
  const int64_t panelsPerColBlock = (colPanels + colBlocks - 1) / colBlocks;
  rowBlocks = (rowTiles + tilesPerRowBlock - 1) / tilesPerRowBlock;
  colBlocks = (colPanels + panelsPerColBlock - 1) / panelsPerColBlock;
  const int64_t rowsPerBlock = tilesPerRowBlock * mk.mr;
  const int64_t colsPerBlock = panelsPerColBlock * mk.nr;
  const double flopsPerTask =
      2.0 * double(rowsPerBlock) * double(colsPerBlock) * double(k + 1);
  kernels::parallelFor(device, rowBlocks * colBlocks,
                       // ~16 flops per cycle, well under the microkernels'
                       // peak, so that small GEMMs stay on one thread.
                       Eigen::TensorOpCost(0, 0, flopsPerTask / 16),
                       [&](Eigen::Index first, Eigen::Index last) {
                         for (Eigen::Index task = first; task < last; ++task) {
                           const int64_t rb = task / colBlocks,
                                         cb = task % colBlocks;
                           const int64_t m0 = rb * rowsPerBlock,
                                         n0 = cb * colsPerBlock;
                           plan.run(m0, std::min(m, m0 + rowsPerBlock), n0,
                                    std::min(n, n0 + colsPerBlock));
                         }
                       });
}

/// op(A) as the microkernels read it, by rows: `a` itself, or with `transA`
/// (a [k, m]) a per-thread copy transposed to [m, k], `*lda` becoming k.
template <typename T>
const T *rowsOfA(const T *a, int64_t *lda, bool transA, int64_t m, int64_t k) {
  if (!transA || k == 0)
    return a;
  T *at = scratch<0, T>(static_cast<size_t>(m) * k);
  for (int64_t p = 0; p < k; ++p)
    for (int64_t i = 0; i < m; ++i)
      at[i * k + p] = a[p * *lda + i];
  *lda = k;
  return at;
}

} // namespace

void sgemm(const Eigen::ThreadPoolDevice &device, int64_t m, int64_t n,
           int64_t k, const float *a, int64_t lda, bool transA, const float *b,
           int64_t ldb, bool transB, float *c, int64_t ldc,
           const GemmEpilogue &epilogue, const PackedB *packed, Isa isa) {
  if (m <= 0 || n <= 0)
    return;
  isa = clampIsa(isa);
  const MicroKernelInfo &mk = microKernel(isa);

  a = rowsOfA(a, &lda, transA, m, k);
  const float *bPanels;
  if (packed) {
    assert(packed->isa() == isa && packed->k() == k && packed->n() == n &&
           "a packing of another B");
    bPanels = packed->panel(0);
  } else {
    float *dst = scratch<1>(packedBElements(k, n, mk.nr));
    packB(b, ldb, transB, k, n, mk.nr, dst);
    bPanels = dst;
  }
  runGemm(device, mk, m, n, k, a, lda, bPanels, c, ldc, epilogue);
}

#if defined(__aarch64__)
size_t packedHalfBElements(int64_t k, int64_t n) {
  return packedBElements(k, n, detail::kNeonFp16MicroKernel.nr);
}

void packHalfB(const uint16_t *b, int64_t ldb, bool transB, int64_t k,
               int64_t n, uint16_t *dst) {
  packB(b, ldb, transB, k, n, detail::kNeonFp16MicroKernel.nr, dst);
}

void hgemm(const Eigen::ThreadPoolDevice &device, int64_t m, int64_t n,
           int64_t k, const uint16_t *a, int64_t lda, bool transA,
           const uint16_t *b, int64_t ldb, bool transB, uint16_t *c,
           int64_t ldc, const GemmEpilogueOf<uint16_t> &epilogue,
           const uint16_t *packedB) {
  if (m <= 0 || n <= 0)
    return;
  a = rowsOfA(a, &lda, transA, m, k);
  if (!packedB) {
    uint16_t *dst = scratch<1, uint16_t>(packedHalfBElements(k, n));
    packHalfB(b, ldb, transB, k, n, dst);
    packedB = dst;
  }
  runGemm(device, detail::kNeonFp16MicroKernel, m, n, k, a, lda, packedB, c,
          ldc, epilogue);
}
#endif

} // namespace tfrt_fallback::rt::gemm
