//===- MatMulKernels.cpp - Matrix multiplication ----------------*- C++ -*-===//
//
// MatMul, _FusedMatMul and BatchMatMul / V2 / V3 on the context's
// thread-pool device: f32 through the runtime's GEMM (Gemm.h: fused
// epilogues in the microkernel's registers, constant weights packed once per
// kernel), other dtypes as Eigen tensor contractions (_FusedMatMul's
// epilogue in the contraction's output kernel).
//
//===----------------------------------------------------------------------===//

// Eigen 3.4's thread-pool contraction schedules work with std::bind, whose
// libstdc++ implementation uses the C++17-deprecated std::result_of; the
// warning fires inside <functional> when the contraction is instantiated
// here, so it is silenced for this file before any header is read.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "common/Checks.h"
#include "common/FusedOps.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "compute/ComputeInF16.h"
#include "compute/GemmEpilogue.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Whether T's MatMul runs in the runtime's GEMM: f32 (sgemm), and f16
/// where hgemm runs it (kHalfGemm).
template <typename T>
inline constexpr bool kRuntimeGemm = std::is_same_v<T, float> || kHalfGemm<T>;

/// out = op(a) * op(b) for rank-2 a and b through gemm::sgemm (f32) or
/// gemm::hgemm (f16), with `epilogue`; b's packing comes from `cache` when
/// b is a program constant.
template <typename T>
void gemmMatMul(OpKernelContextInterface *ctx, const Tensor &a, const Tensor &b,
                bool transposeA, bool transposeB, int64_t m, int64_t n,
                Tensor *out,
                const gemm::GemmEpilogueOf<typename GemmElement<T>::type> &ep,
                PackedConstantB<T> &cache) {
  const int64_t k = a.dim(transposeA ? 0 : 1);
  const bool constantB = ctx->isInputConstant(1);
  if constexpr (std::is_same_v<T, float>) {
    const gemm::PackedB *packed = nullptr;
    if (constantB) {
      bool packedNow = false;
      packed = cache.get(b.data<float>(), b.dim(1), transposeB, k, n,
                         gemm::activeIsa(), &packedNow);
      if (packedNow)
        ctx->releaseConstantInput(1);
    }
    gemm::sgemm(ctx->eigenDevice(), m, n, k, a.data<float>(), a.dim(1),
                transposeA, b.data<float>(), b.dim(1), transposeB,
                out->data<float>(), n, ep, packed);
#if defined(__aarch64__)
  } else if constexpr (kHalfGemm<T>) {
    const uint16_t *packed =
        constantB ? cache.get(b.rawData(), k, n, transposeB) : nullptr;
    // hgemm reads A by rows: a transposed A is copied first.
    auto bits = [](const Tensor &t) {
      return reinterpret_cast<uint16_t *>(t.data<T>());
    };
    gemm::hgemm(ctx->eigenDevice(), m, n, k, bits(a), a.dim(1), transposeA,
                bits(b), b.dim(1), transposeB, bits(*out), n, ep, packed);
#endif
  }
}

/// Packs MatMul's constant b ([k, n], or [n, k] when transposed) when the
/// kernel is built (gemm::PackedBCache::prepack and its f16 form).
template <typename Cache>
void prepackMatMulB(OpKernelConstructionInterface *ctx, bool transposeB,
                    Cache &cache) {
  cache.prepack(ctx, 1, transposeB,
                [&](const Tensor &b, int64_t *k, int64_t *n, int64_t *ldb) {
                  if (b.rank() != 2)
                    return false;
                  *k = b.dim(transposeB ? 1 : 0);
                  *n = b.dim(transposeB ? 0 : 1);
                  *ldb = b.dim(1);
                  return true;
                });
}

/// The contracted dims and the output shape [m, n] of MatMul-like ops,
/// after checking that a and b are matrices whose contracted dims agree.
struct MatMulDims {
  int contractA = 1, contractB = 0;
  int64_t m = 0, n = 0;
};

Status getMatMulDims(const OpKernel &kernel, const Tensor &a, const Tensor &b,
                     bool transposeA, bool transposeB, MatMulDims *dims) {
  if (a.rank() != 2)
    return kernel.errorf("In[0] is not a matrix. Instead it has shape %s",
                         a.shape().toString());
  if (b.rank() != 2)
    return kernel.errorf("In[1] is not a matrix. Instead it has shape %s",
                         b.shape().toString());
  dims->contractA = transposeA ? 0 : 1;
  dims->contractB = transposeB ? 1 : 0;
  if (a.dim(dims->contractA) != b.dim(dims->contractB))
    return kernel.errorf("Matrix size-incompatible: In[0]: %s, In[1]: %s",
                         a.shape().toString(), b.shape().toString());
  dims->m = a.dim(1 - dims->contractA);
  dims->n = b.dim(1 - dims->contractB);
  return OkStatus();
}

/// MatMul(a, b): a * b for rank-2 a and b, with transpose_a / transpose_b
/// (default false) transposing an operand first. With a' = op(a) of shape
/// [m, k] and b' = op(b) of shape [k, n] the output is [m, n]; k == 0
/// yields zeros. Errors: "In[0] is not a matrix. Instead it has shape [..]"
/// (likewise In[1]) and "Matrix size-incompatible: In[0]: [..], In[1]: [..]"
/// when the contracted dims differ. The output never aliases an input.
template <typename T> class MatMulKernel final : public OpKernel {
public:
  explicit MatMulKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "transpose_a", &transposeA_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "transpose_b", &transposeB_));
    if constexpr (kRuntimeGemm<T>)
      prepackMatMulB(ctx, transposeB_, packedB_);
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    MatMulDims shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getMatMulDims(*this, a, b, transposeA_, transposeB_, &shape));
    const int contractA = shape.contractA, contractB = shape.contractB;
    const int64_t m = shape.m, n = shape.n;
    // [m, n] of two inputs without elements can still overflow int64
    // (a [2^56, 0] input times its transpose).
    const int64_t outDims[] = {m, n};
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outDims, &out));
    if (out->numElements() == 0)
      return;
    if constexpr (kRuntimeGemm<T>) {
      gemmMatMul<T>(ctx, a, b, transposeA_, transposeB_, m, n, out, {},
                    packedB_);
    } else {
      auto result = out->tensor<T, 2>();
      const Eigen::ThreadPoolDevice &device = ctx->eigenDevice();
      if (a.dim(contractA) == 0) {
        result.device(device) = result.constant(T(0));
        return;
      }
      Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims = {
          Eigen::IndexPair<Eigen::DenseIndex>(contractA, contractB)};
      result.device(device) = a.tensor<T, 2>().contract(b.tensor<T, 2>(), dims);
    }
  }

private:
  bool transposeA_ = false;
  bool transposeB_ = false;
  /// b packed for the GEMM when it is a program constant (kRuntimeGemm).
  PackedConstantB<T> packedB_;
};

//===----------------------------------------------------------------------===//
// _FusedMatMul
//===----------------------------------------------------------------------===//

/// _FusedMatMul(a, b, args...): MatMul (transpose_a / transpose_b as for
/// MatMul) followed by `fused_ops` applied to each output row inside the
/// contraction's output kernel: BiasAdd (bias of n values) or
/// FusedBatchNorm (scale, offset, mean, variance, `epsilon`), then an
/// optional Relu, Relu6, Elu, LeakyRelu (`leakyrelu_alpha`), Sigmoid, Tanh
/// or Prelu (one more arg). `num_args` must match the list.
template <typename T> class FusedMatMulKernel final : public OpKernel {
public:
  explicit FusedMatMulKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "transpose_a", &transposeA_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "transpose_b", &transposeB_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readFusedAttrs(*this, ctx, &spec_, &epsilon_, &leakyAlpha_));
    // TF's CPU _FusedMatMul has no residual Add.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, !spec_.add, errorf("Fusion is not implemented: [BiasAdd,Add]"));
    if constexpr (kRuntimeGemm<T>)
      prepackMatMulB(ctx, transposeB_, packedB_);
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    MatMulDims shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getMatMulDims(*this, a, b, transposeA_, transposeB_, &shape));
    const int contractA = shape.contractA, contractB = shape.contractB;
    const int64_t m = shape.m, n = shape.n;
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->numInputs() >= 2 + spec_.numArgs,
                              errorf("expected %d extra arguments, got %d",
                                     spec_.numArgs, ctx->numInputs() - 2));
    const Tensor *args[5];
    for (int i = 0; i < spec_.numArgs; ++i)
      args[i] = &ctx->input(2 + i);
    Epilogue<T> epilogue;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, epilogue.init(*this, spec_, absl::MakeSpan(args, spec_.numArgs), n,
                           epsilon_, leakyAlpha_));
    const int64_t outDims[] = {m, n};
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outDims, &out));
    if (out->numElements() == 0)
      return;
    if constexpr (kRuntimeGemm<T>) {
      gemmMatMul<T>(ctx, a, b, transposeA_, transposeB_, m, n, out,
                    gemmEpilogue(epilogue), packedB_);
    } else {
      T *po = out->data<T>();
      if (a.dim(contractA) == 0) {
        std::fill(po, po + m * n, T(0));
        for (int64_t r = 0; r < m; ++r)
          epilogue.apply(po + r * n, 0, n);
        return;
      }
      Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims = {
          Eigen::IndexPair<Eigen::DenseIndex>(contractA, contractB)};
      out->tensor<T, 2>().device(ctx->eigenDevice()) =
          a.tensor<T, 2>().contract(b.tensor<T, 2>(), dims,
                                    EpilogueOutputKernel<T>{&epilogue});
    }
  }

private:
  bool transposeA_ = false;
  bool transposeB_ = false;
  /// b packed for the GEMM when it is a program constant (kRuntimeGemm).
  PackedConstantB<T> packedB_;
  FusedOpsSpec spec_;
  float epsilon_ = 1e-4f;
  float leakyAlpha_ = 0.2f;
};

//===----------------------------------------------------------------------===//
// BatchMatMul, BatchMatMulV2, BatchMatMulV3
//===----------------------------------------------------------------------===//

/// BatchMatMul{,V2,V3}(x, y): x [..., r_x, c_x] and y [..., r_y, c_y]
/// (rank >= 2); adj_x / adj_y (default false) transpose the last two dims
/// of an operand first. Each batch entry is a MatMul; V2 and V3 broadcast
/// the batch dims NumPy-style, V1 needs equal ranks and batch dims. The
/// output is [broadcast batch..., m, n]. Float batches of large matrices
/// use the GEMM (gemm::sgemm for f32, Eigen's contraction for f64), small
/// matrices and integers a direct loop, parallel over the batch.
template <typename T, bool Broadcast>
class BatchMatMulKernel final : public OpKernel {
public:
  explicit BatchMatMulKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "adj_x", &adjX_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "adj_y", &adjY_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    const Tensor &y = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, x.rank() >= 2,
                              errorf("In[0] ndims must be >= 2: %d", x.rank()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, y.rank() >= 2,
                              errorf("In[1] ndims must be >= 2: %d", y.rank()));
    const int rank = std::max(x.rank(), y.rank());
    TensorShape::Dims batch(rank - 2);
    bool compatible = Broadcast || x.rank() == y.rank();
    for (int i = 0; compatible && i < rank - 2; ++i) {
      const int xi = i - (rank - x.rank()), yi = i - (rank - y.rank());
      const int64_t dx = xi >= 0 ? x.dim(xi) : 1;
      const int64_t dy = yi >= 0 ? y.dim(yi) : 1;
      compatible = dx == dy || (Broadcast && (dx == 1 || dy == 1));
      batch[i] = dx == 1 ? dy : dx;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, compatible,
        errorf("In[0] and In[1] must have compatible batch dimensions: %s vs. "
               "%s",
               x.shape().toString(), y.shape().toString()));
    const int64_t xr = x.dim(x.rank() - 2), xc = x.dim(x.rank() - 1);
    const int64_t yr = y.dim(y.rank() - 2), yc = y.dim(y.rank() - 1);
    const int64_t k = adjX_ ? xr : xc;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, k == (adjY_ ? yc : yr),
        errorf("Matrix size-incompatible: In[0]: %s, In[1]: %s",
               x.shape().toString(), y.shape().toString()));
    const int64_t m = adjX_ ? xc : xr, n = adjY_ ? yr : yc;
    TensorShape::Dims outDims = batch;
    outDims.push_back(m);
    outDims.push_back(n);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
    if (out->numElements() == 0)
      return;
    // Offsets (in matrices) of each output batch entry in x and y.
    int64_t numBatches = 1;
    for (int64_t d : batch)
      numBatches *= d;
    std::vector<int64_t> xIndex(numBatches), yIndex(numBatches);
    for (int64_t b = 0; b < numBatches; ++b) {
      int64_t rest = b, xi = 0, yi = 0, xs = 1, ys = 1;
      for (int i = rank - 3; i >= 0; --i) {
        const int64_t idx = rest % batch[i];
        rest /= batch[i];
        const int xd = i - (rank - x.rank()), yd = i - (rank - y.rank());
        if (xd >= 0) {
          if (x.dim(xd) != 1)
            xi += idx * xs;
          xs *= x.dim(xd);
        }
        if (yd >= 0) {
          if (y.dim(yd) != 1)
            yi += idx * ys;
          ys *= y.dim(yd);
        }
      }
      xIndex[b] = xi;
      yIndex[b] = yi;
    }
    const T *px = x.data<T>();
    const T *py = y.data<T>();
    T *po = out->data<T>();
    const int64_t xSize = xr * xc, ySize = yr * yc, oSize = m * n;
    const bool adjX = adjX_, adjY = adjY_;
    if constexpr (std::is_same_v<T, float>) {
      if (m * n * k >= 32 * 32 * 32) {
        for (int64_t b = 0; b < numBatches; ++b)
          gemm::sgemm(ctx->eigenDevice(), m, n, k, px + xIndex[b] * xSize, xc,
                      adjX, py + yIndex[b] * ySize, yc, adjY, po + b * oSize, n,
                      gemm::GemmEpilogue());
        return;
      }
    } else if constexpr (std::is_floating_point_v<T>) {
      if (m * n * k >= 32 * 32 * 32) {
        Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims = {
            Eigen::IndexPair<Eigen::DenseIndex>(adjX ? 0 : 1, adjY ? 1 : 0)};
        for (int64_t b = 0; b < numBatches; ++b) {
          TensorMapND<T, 2> a(const_cast<T *>(px) + xIndex[b] * xSize, xr, xc);
          TensorMapND<T, 2> bm(const_cast<T *>(py) + yIndex[b] * ySize, yr, yc);
          TensorMapND<T, 2> o(po + b * oSize, m, n);
          o.device(ctx->eigenDevice()) = a.contract(bm, dims);
        }
        return;
      }
    }
    kernels::parallelFor(
        ctx->eigenDevice(), numBatches,
        Eigen::TensorOpCost(0, 0, static_cast<double>(2 * m * n * k)),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index b = first; b < last; ++b) {
            const T *a = px + xIndex[b] * xSize;
            const T *bm = py + yIndex[b] * ySize;
            T *o = po + b * oSize;
            std::fill(o, o + oSize, T(0));
            for (int64_t i = 0; i < m; ++i)
              for (int64_t p = 0; p < k; ++p) {
                const T av = adjX ? a[p * xc + i] : a[i * xc + p];
                T *orow = o + i * n;
                if (adjY)
                  for (int64_t j = 0; j < n; ++j)
                    orow[j] += av * bm[j * yc + p];
                else
                  for (int64_t j = 0; j < n; ++j)
                    orow[j] += av * bm[p * yc + j];
              }
          }
        });
  }

private:
  bool adjX_ = false;
  bool adjY_ = false;
};

template <typename T> using BatchMatMulV1 = BatchMatMulKernel<T, false>;
template <typename T> using BatchMatMulV2 = BatchMatMulKernel<T, true>;

} // namespace

void registerMatMulKernels(KernelRegistry &registry) {
  registerKernel<OpId::kMatMul, MatMulKernel, float, double, int32_t, int64_t>(
      registry);
  registerKernel<OpId::k_FusedMatMul, FusedMatMulKernel, float, double>(
      registry);
  registerKernel<OpId::kBatchMatMul, BatchMatMulV1, float, double, int32_t>(
      registry);
  registerKernel<OpId::kBatchMatMulV2, BatchMatMulV2, float, double, int32_t>(
      registry);
  registerKernel<OpId::kBatchMatMulV3, BatchMatMulV2<float>>(
      registry, {{"Ta", {DType::F32}}, {"Tb", {DType::F32}}});
  registerKernel<OpId::kBatchMatMulV3, BatchMatMulV2<double>>(
      registry, {{"Ta", {DType::F64}}, {"Tb", {DType::F64}}});
  // f16 in f16 where the CPU has the arithmetic (ComputeInF16.h), else (and
  // bf16, and BatchMatMulV2) through the f32 kernels (ComputeInF32.h).
  registerKernel<OpId::kMatMul, InF16OrF32<MatMulKernel>::Kernel>(
      registry, HalfFloatTypes{});
  registerKernel<OpId::k_FusedMatMul, InF16OrF32<FusedMatMulKernel>::Kernel>(
      registry, HalfFloatTypes{});
  registerKernel<OpId::kBatchMatMulV2, InF32<BatchMatMulV2>::Kernel>(
      registry, HalfFloatTypes{});
}

} // namespace tfrt_fallback::rt
