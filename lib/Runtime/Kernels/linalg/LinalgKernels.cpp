//===- LinalgKernels.cpp - Decompositions, solves, diagonals ----*- C++ -*-===//
//
// TensorFlow linear-algebra ops with TF's CPU semantics, dtype sets and
// error messages:
//   - Eigen decompositions over the innermost two dims, batched over the
//     leading ones: MatrixInverse, MatrixDeterminant, LogMatrixDeterminant
//     (PartialPivLU), Cholesky (LLT), MatrixSolve (PartialPivLU) and
//     MatrixTriangularSolve (triangular views; batch dims broadcast);
//   - data movement along diagonals and bands: MatrixBandPart, Diag,
//     DiagPart, MatrixDiag / MatrixDiagPart / MatrixSetDiag and their V2 /
//     V3 forms (a band of diagonals k, padding, alignment).
// Each kernel states the TF rules it implements at the top of its class.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

template <typename T>
using RowMatrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T> using MatrixMap = Eigen::Map<RowMatrix<T>>;
template <typename T> using ConstMatrixMap = Eigen::Map<const RowMatrix<T>>;

/// The number of matrices in `shape` (the product of all but the last two
/// dims; rank >= 2).
int64_t batchCount(const TensorShape &shape) {
  int64_t n = 1;
  for (int i = 0; i + 2 < shape.rank(); ++i)
    n *= shape.dim(i);
  return n;
}

/// `shape` without its last `count` dims.
TensorShape::Dims leadingDims(const TensorShape &shape, int count) {
  return TensorShape::Dims(shape.dims().begin(),
                           shape.dims().end() - std::min(count, shape.rank()));
}

/// Cost of one n x n decomposition for parallelFor (about n^3 / 3 FMAs).
template <typename T> Eigen::TensorOpCost decompositionCost(int64_t n) {
  const double n3 = static_cast<double>(n) * n * n;
  return Eigen::TensorOpCost(n * n * sizeof(T), n * n * sizeof(T), n3);
}

/// TF's LinearAlgebraOp checks for one square input matrix:
/// "Input tensor 0 must have rank >= 2, got 1", "Input matrix must be
/// square.".
Status checkSquareInput(const OpKernel &kernel, const Tensor &in) {
  if (in.rank() < 2)
    return kernel.errorf("Input tensor 0 must have rank >= 2, got %d",
                         in.rank());
  if (in.dim(in.rank() - 1) != in.dim(in.rank() - 2))
    return kernel.errorf("Input matrix must be square.");
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// LU-based: MatrixInverse, MatrixDeterminant, LogMatrixDeterminant,
// MatrixSolve
//===----------------------------------------------------------------------===//

/// MatrixInverse(input: T[..., M, M]) -> T[..., M, M], attribute adjoint
/// (default false: inverts each matrix, true: its adjoint). Eigen's
/// PartialPivLU as TF; an exact zero pivot fails with "Input is not
/// invertible." (TF's guard; near-singular matrices give large values).
/// Empty inputs give empty outputs.
template <typename T> class MatrixInverseKernel final : public OpKernel {
public:
  explicit MatrixInverseKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "adjoint", &adjoint_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkSquareInput(*this, in));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    const int64_t n = in.dim(in.rank() - 1);
    if (in.numElements() == 0)
      return;
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    std::atomic<bool> singular{false};
    const bool adjoint = adjoint_;
    kernels::parallelFor(
        ctx->eigenDevice(), batchCount(in.shape()), decompositionCost<T>(n),
        [&](Eigen::Index first, Eigen::Index last) {
          Eigen::PartialPivLU<RowMatrix<T>> lu(n);
          for (Eigen::Index b = first; b < last; ++b) {
            ConstMatrixMap<T> a(src + b * n * n, n, n);
            if (adjoint)
              lu.compute(a.adjoint());
            else
              lu.compute(a);
            if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0))) {
              singular = true;
              return;
            }
            MatrixMap<T>(dst + b * n * n, n, n).noalias() = lu.inverse();
          }
        });
    TFRT_FALLBACK_OP_REQUIRES(ctx, !singular,
                              errorf("Input is not invertible."));
  }

private:
  bool adjoint_ = false;
};

/// TF's SLogDet: PartialPivLU; sign = det(P) * prod(u_ii / |u_ii|),
/// log_abs_det = sum(log |u_ii|); a non-finite log_abs_det gives sign 0 and
/// log_abs_det -inf (or +inf when it overflowed upwards). An empty matrix
/// has determinant 1.
template <typename T> void sLogDet(ConstMatrixMap<T> a, T *sign, T *logAbsDet) {
  T logAbs = 0;
  *sign = 1;
  if (a.size() > 0) {
    Eigen::PartialPivLU<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> lu(a);
    auto diag = lu.matrixLU().diagonal().array().eval();
    auto absDiag = diag.cwiseAbs().eval();
    logAbs += absDiag.log().sum();
    *sign = static_cast<T>(lu.permutationP().determinant());
    *sign *= (diag / absDiag).prod();
  }
  if (!std::isfinite(logAbs)) {
    *sign = 0;
    logAbs = logAbs > 0 ? -std::log(T(0)) : std::log(T(0));
  }
  *logAbsDet = logAbs;
}

/// MatrixDeterminant(input: T[..., M, M]) -> T[...]: sign *
/// exp(log_abs_det) of TF's SLogDet, as TF's CPU kernel (so a singular
/// matrix, or one holding NaN, gives 0; a determinant beyond T's range gives
/// +-inf, not an error).
template <typename T> class MatrixDeterminantKernel final : public OpKernel {
public:
  explicit MatrixDeterminantKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkSquareInput(*this, in));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(0, TensorShape(leadingDims(in.shape(), 2)), &out));
    const int64_t n = in.dim(in.rank() - 1);
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), out->numElements(), decompositionCost<T>(n),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index b = first; b < last; ++b) {
            T sign, logAbs;
            sLogDet<T>(ConstMatrixMap<T>(src + b * n * n, n, n), &sign,
                       &logAbs);
            dst[b] = sign * std::exp(logAbs);
          }
        });
  }
};

/// LogMatrixDeterminant(input: T[..., M, M]) -> (sign: T[...],
/// log_abs_determinant: T[...]): TF's SLogDet per matrix (sign 0 and -inf
/// for a singular matrix; an empty matrix gives 1 and 0).
template <typename T> class LogMatrixDeterminantKernel final : public OpKernel {
public:
  explicit LogMatrixDeterminantKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkSquareInput(*this, in));
    const TensorShape outShape(leadingDims(in.shape(), 2));
    Tensor *sign = nullptr, *logAbs = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &sign));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, outShape, &logAbs));
    const int64_t n = in.dim(in.rank() - 1);
    const T *src = in.data<T>();
    T *signs = sign->data<T>();
    T *logs = logAbs->data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), outShape.numElements(), decompositionCost<T>(n),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index b = first; b < last; ++b)
            sLogDet<T>(ConstMatrixMap<T>(src + b * n * n, n, n), signs + b,
                       logs + b);
        });
  }
};

/// MatrixSolve(matrix: T[..., M, M], rhs: T[..., M, K]) -> T[..., M, K],
/// attribute adjoint (solve with the adjoint of each matrix). Equal ranks
/// and batch dims (no broadcasting, as TF's LinearAlgebraOp). PartialPivLU;
/// an exact zero pivot fails with "Input matrix is not invertible.". Empty
/// systems give empty outputs. TF's messages for bad shapes.
template <typename T> class MatrixSolveKernel final : public OpKernel {
public:
  explicit MatrixSolveKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "adjoint", &adjoint_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &rhs = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, a.rank() >= 2,
        errorf("Input tensor 0 must have rank >= 2, got %d", a.rank()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, a.rank() == rhs.rank(),
        errorf("All input tensors must have the same rank."));
    for (int d = 0; d + 2 < a.rank(); ++d)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, a.dim(d) == rhs.dim(d),
          errorf("All input tensors must have the same outer dimensions."));
    const int r = a.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, a.dim(r - 1) == a.dim(r - 2),
        errorf("First input (lhs) must be a square matrix."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, a.dim(r - 2) == rhs.dim(r - 2),
                              errorf("Input matrix and rhs are incompatible."));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, rhs.shape(), &out));
    const int64_t n = a.dim(r - 1), k = rhs.dim(r - 1);
    if (n == 0 || k == 0 || out->numElements() == 0)
      return;
    const T *pa = a.data<T>();
    const T *pb = rhs.data<T>();
    T *dst = out->data<T>();
    std::atomic<bool> singular{false};
    const bool adjoint = adjoint_;
    kernels::parallelFor(
        ctx->eigenDevice(), batchCount(a.shape()), decompositionCost<T>(n),
        [&](Eigen::Index first, Eigen::Index last) {
          Eigen::PartialPivLU<RowMatrix<T>> lu(n);
          for (Eigen::Index b = first; b < last; ++b) {
            ConstMatrixMap<T> m(pa + b * n * n, n, n);
            if (adjoint)
              lu.compute(m.adjoint());
            else
              lu.compute(m);
            if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0))) {
              singular = true;
              return;
            }
            MatrixMap<T>(dst + b * n * k, n, k).noalias() =
                lu.solve(ConstMatrixMap<T>(pb + b * n * k, n, k));
          }
        });
    TFRT_FALLBACK_OP_REQUIRES(ctx, !singular,
                              errorf("Input matrix is not invertible."));
  }

private:
  bool adjoint_ = false;
};

//===----------------------------------------------------------------------===//
// Cholesky, MatrixTriangularSolve
//===----------------------------------------------------------------------===//

/// Cholesky(input: T[..., M, M]) -> T[..., M, M]: the lower factor L of
/// each matrix (L * L^T = A; zeros above the diagonal). Eigen's LLT reads
/// only the lower triangle, as TF. A failed decomposition (not positive
/// definite) fails with TF's "Cholesky decomposition was not successful.
/// The input might not be valid.".
template <typename T> class CholeskyKernel final : public OpKernel {
public:
  explicit CholeskyKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkSquareInput(*this, in));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    const int64_t n = in.dim(in.rank() - 1);
    if (in.numElements() == 0)
      return;
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    std::atomic<bool> failed{false};
    kernels::parallelFor(
        ctx->eigenDevice(), batchCount(in.shape()), decompositionCost<T>(n),
        [&](Eigen::Index first, Eigen::Index last) {
          Eigen::LLT<RowMatrix<T>, Eigen::Lower> llt(n);
          for (Eigen::Index b = first; b < last; ++b) {
            llt.compute(ConstMatrixMap<T>(src + b * n * n, n, n));
            if (llt.info() != Eigen::Success) {
              failed = true;
              return;
            }
            MatrixMap<T>(dst + b * n * n, n, n) = llt.matrixL();
          }
        });
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, !failed,
        errorf("Cholesky decomposition was not successful. The input might "
               "not be valid."));
  }
};

/// MatrixTriangularSolve(matrix: T[..., M, M], rhs: T[..., M, K]) ->
/// T[..., M, K], attributes lower (default true) and adjoint (default
/// false): solves with the lower (or upper) triangle of each matrix, or its
/// adjoint; the other triangle is ignored. Batch dims broadcast (TF's v2
/// MatMulBCast). No singularity check (a zero diagonal gives inf/NaN, as
/// TF). TF's messages: "In[0] ndims must be >= 2: 1", "In[0] matrices in
/// the last dimensions must be square (3 =/= 2)", "In[0] and In[1] must have
/// compatible batch dimensions: [2,3,3] vs. [4,3,1]", "In[0] mismatch In[1]
/// shape: 3 vs. 2: [3,3] [2,1] 1 0".
template <typename T>
class MatrixTriangularSolveKernel final : public OpKernel {
public:
  explicit MatrixTriangularSolveKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "lower", &lower_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "adjoint", &adjoint_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, a.rank() >= 2,
                              errorf("In[0] ndims must be >= 2: %d", a.rank()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, b.rank() >= 2,
                              errorf("In[1] ndims must be >= 2: %d", b.rank()));
    const int64_t n = a.dim(a.rank() - 1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, n == a.dim(a.rank() - 2),
        errorf("In[0] matrices in the last dimensions must be square (%d =/= "
               "%d)",
               n, a.dim(a.rank() - 2)));
    // Broadcast the batch dims, right-aligned.
    const int ra = a.rank() - 2, rb = b.rank() - 2;
    const int rank = std::max(ra, rb);
    TensorShape::Dims outDims(rank);
    std::vector<int64_t> strideA(rank, 0), strideB(rank, 0);
    bool valid = true;
    int64_t sa = 1, sb = 1;
    for (int i = rank - 1; i >= 0; --i) {
      const int ia = i - (rank - ra), ib = i - (rank - rb);
      const int64_t da = ia >= 0 ? a.dim(ia) : 1;
      const int64_t db = ib >= 0 ? b.dim(ib) : 1;
      if (da != db && da != 1 && db != 1)
        valid = false;
      outDims[i] = da == 1 ? db : da;
      strideA[i] = da == 1 ? 0 : sa;
      strideB[i] = db == 1 ? 0 : sb;
      sa *= da;
      sb *= db;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, valid,
        errorf("In[0] and In[1] must have compatible batch dimensions: %s vs. "
               "%s",
               a.shape().toString(), b.shape().toString()));
    const int64_t m = b.dim(b.rank() - 2), k = b.dim(b.rank() - 1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, n == m,
        errorf("In[0] mismatch In[1] shape: %d vs. %d: %s %s %d %d", n, m,
               a.shape().toString(), b.shape().toString(), lower_ ? 1 : 0,
               adjoint_ ? 1 : 0));
    int64_t batches = 1;
    for (int64_t d : outDims)
      batches *= d;
    outDims.push_back(n);
    outDims.push_back(k);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
    if (out->numElements() == 0)
      return;
    const T *pa = a.data<T>();
    const T *pb = b.data<T>();
    T *dst = out->data<T>();
    const bool lower = lower_, adjoint = adjoint_;
    kernels::parallelFor(
        ctx->eigenDevice(), batches,
        Eigen::TensorOpCost(n * n * sizeof(T), n * k * sizeof(T),
                            static_cast<double>(n) * n * k),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index batch = first; batch < last; ++batch) {
            int64_t offA = 0, offB = 0, rest = batch;
            for (int i = rank - 1; i >= 0; --i) {
              const int64_t idx = rest % outDims[i];
              rest /= outDims[i];
              offA += idx * strideA[i];
              offB += idx * strideB[i];
            }
            ConstMatrixMap<T> m(pa + offA * n * n, n, n);
            ConstMatrixMap<T> r(pb + offB * n * k, n, k);
            MatrixMap<T> x(dst + batch * n * k, n, k);
            if (lower) {
              auto tri = m.template triangularView<Eigen::Lower>();
              if (adjoint)
                x.noalias() = tri.adjoint().solve(r);
              else
                x.noalias() = tri.solve(r);
            } else {
              auto tri = m.template triangularView<Eigen::Upper>();
              if (adjoint)
                x.noalias() = tri.adjoint().solve(r);
              else
                x.noalias() = tri.solve(r);
            }
          }
        });
  }

private:
  bool lower_ = true;
  bool adjoint_ = false;
};

//===----------------------------------------------------------------------===//
// MatrixBandPart, Diag, DiagPart
//===----------------------------------------------------------------------===//

/// MatrixBandPart(input: T[..., M, N], num_lower: Tindex, num_upper:
/// Tindex) -> T[..., M, N]: keeps element (m, n) when (num_lower < 0 ||
/// m - n <= num_lower) && (num_upper < 0 || n - m <= num_upper), zeros the
/// rest; a band covering everything returns the input itself. One class
/// for every dtype (moves element bits). TF's checks:
/// "input must be at least 2-dim, received shape: [3]", "num_lower must be
/// scalar, got shape [1]", "num_lower must be negative or less or equal to
/// number of rows (2) got: 3" (num_upper: "... number of columns ...").
class MatrixBandPartKernel final : public OpKernel {
public:
  explicit MatrixBandPartKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.rank() >= 2,
        errorf("input must be at least 2-dim, received shape: %s",
               in.shape().toString()));
    const int64_t rows = in.dim(in.rank() - 2), cols = in.dim(in.rank() - 1);
    int64_t bounds[2];
    static const char *const kNames[] = {"num_lower", "num_upper"};
    static const char *const kWhat[] = {"rows", "columns"};
    for (int i = 0; i < 2; ++i) {
      const Tensor &t = ctx->input(1 + i);
      TFRT_FALLBACK_OP_REQUIRES(ctx, t.rank() == 0,
                                errorf("%s must be scalar, got shape %s",
                                       kNames[i], t.shape().toString()));
      TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(t),
                                errorf("%s must be int32 or int64, not %s",
                                       kNames[i], dtypeName(t.dtype())));
      bounds[i] = indexAt(t, 0);
      const int64_t limit = i == 0 ? rows : cols;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, bounds[i] <= limit,
          errorf("%s must be negative or less or equal to number of %s (%d) "
                 "got: %d",
                 kNames[i], kWhat[i], limit, bounds[i]));
    }
    const int64_t lower = bounds[0], upper = bounds[1];
    // Nothing to clear: the output is the input (TF's set_output).
    if (in.numElements() == 0 ||
        ((lower < 0 || lower == rows) && (upper < 0 || upper == cols))) {
      ctx->setOutput(0, in);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    dispatchElementSize(in.dtype(), [&](auto zero) {
      using E = decltype(zero);
      const E *src = static_cast<const E *>(in.rawData());
      E *dst = static_cast<E *>(out->rawData());
      kernels::parallelFor(
          ctx->eigenDevice(), batchCount(in.shape()) * rows,
          elementCost<E>(1, 1, 1) * static_cast<double>(cols),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index row = first; row < last; ++row) {
              const int64_t m = row % rows;
              // Columns kept: [m - lower, m + upper] within [0, cols).
              const int64_t begin =
                  lower < 0 ? 0 : std::max<int64_t>(0, m - lower);
              const int64_t end =
                  upper < 0 ? cols : std::min<int64_t>(cols, m + upper + 1);
              const E *s = src + row * cols;
              E *d = dst + row * cols;
              for (int64_t n = 0; n < cols; ++n)
                d[n] = n >= begin && n < end ? s[n] : E(0);
            }
          });
    });
  }
};

/// Diag(diagonal: T[D1..Dk]) -> T[D1..Dk, D1..Dk]: zeros except
/// output[i1..ik, i1..ik] = diagonal[i1..ik]. Rank 0 fails with "Input must
/// be at least rank 1, got 0".
class DiagKernel final : public OpKernel {
public:
  explicit DiagKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, in.rank() != 0,
                              errorf("Input must be at least rank 1, got 0"));
    TensorShape::Dims dims(in.shape().dims().begin(), in.shape().dims().end());
    dims.insert(dims.end(), in.shape().dims().begin(), in.shape().dims().end());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(dims), &out));
    const int64_t n = in.numElements();
    if (n == 0)
      return;
    dispatchElementSize(in.dtype(), [&](auto zero) {
      using E = decltype(zero);
      const E *src = static_cast<const E *>(in.rawData());
      E *dst = static_cast<E *>(out->rawData());
      kernels::parallelFor(ctx->eigenDevice(), n,
                           elementCost<E>(1, 1, 1) * static_cast<double>(n),
                           [&](Eigen::Index first, Eigen::Index last) {
                             for (Eigen::Index i = first; i < last; ++i) {
                               std::fill_n(dst + i * n, n, E(0));
                               dst[i * n + i] = src[i];
                             }
                           });
    });
  }
};

/// DiagPart(input: T[D1..Dk, D1..Dk]) -> T[D1..Dk]: output[i1..ik] =
/// input[i1..ik, i1..ik] (a scalar is its own diagonal part: TF checks only
/// that the rank is even). TF's checks: "The rank of the tensor should be
/// even and positive, got shape [3]", "Invalid shape [2,3]: dimensions 0
/// and 1 do not match.".
class DiagPartKernel final : public OpKernel {
public:
  explicit DiagPartKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const int rank = in.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rank % 2 == 0,
        errorf("The rank of the tensor should be even and positive, got shape "
               "%s",
               in.shape().toString()));
    const int half = rank / 2;
    for (int i = 0; i < half; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, in.dim(i) == in.dim(i + half),
          errorf("Invalid shape %s: dimensions %d and %d do not match.",
                 in.shape().toString(), i, i + half));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(leadingDims(in.shape(), half)),
                                 &out));
    const int64_t n = out->numElements();
    dispatchElementSize(in.dtype(), [&](auto zero) {
      using E = decltype(zero);
      const E *src = static_cast<const E *>(in.rawData());
      E *dst = static_cast<E *>(out->rawData());
      for (int64_t i = 0; i < n; ++i)
        dst[i] = src[i * n + i];
    });
  }
};

//===----------------------------------------------------------------------===//
// MatrixDiag, MatrixDiagPart, MatrixSetDiag (V1, V2, V3)
//===----------------------------------------------------------------------===//

/// How a band of diagonals k = [lower, upper] is packed: diagonal d (d = n
/// - m) is row `upper - d` of the packed [num_diags, max_diag_len] block
/// (no row dim for one diagonal). A diagonal shorter than max_diag_len is
/// left-aligned (padding after) or right-aligned (padding before): V3's
/// `align` decides for superdiagonals (d >= 0, first word) and subdiagonals
/// (second word); V1 and V2 align both left ("LEFT_LEFT").
struct DiagBand {
  int64_t lower = 0, upper = 0;
  bool leftSuper = true, leftSub = true;

  int64_t numDiags() const { return upper - lower + 1; }
  /// The length of diagonal d in a rows x cols matrix.
  static int64_t length(int64_t d, int64_t rows, int64_t cols) {
    return std::min(rows + std::min<int64_t>(0, d),
                    cols - std::max<int64_t>(0, d));
  }
  /// Where diagonal d's first element sits in its packed row (TF's
  /// ComputeDiagLenAndContentOffset: the main diagonal is left-aligned if
  /// either word says LEFT).
  int64_t offset(int64_t d, int64_t rows, int64_t cols,
                 int64_t maxDiagLen) const {
    const bool left = (d >= 0 && leftSuper) || (d <= 0 && leftSub);
    return left ? 0 : maxDiagLen - length(d, rows, cols);
  }
};

/// Parses V3's `align` ("LEFT_RIGHT", "RIGHT_LEFT" (default), "LEFT_LEFT",
/// "RIGHT_RIGHT") into `band`.
Status readAlign(const OpKernel &kernel, OpKernelConstructionInterface *ctx,
                 DiagBand *band) {
  std::string align = "RIGHT_LEFT";
  if (Status status = getOptionalAttr(ctx, "align", &align); !status.ok())
    return status;
  if (align != "LEFT_RIGHT" && align != "RIGHT_LEFT" && align != "LEFT_LEFT" &&
      align != "RIGHT_RIGHT")
    return kernel.errorf("Attr align has invalid value %s", align);
  band->leftSuper = align.rfind("LEFT_", 0) == 0;
  band->leftSub = align.size() >= 4 && align.substr(align.size() - 4) == "LEFT";
  return OkStatus();
}

/// Reads TF's k operand (int32 scalar or vector of 1 or 2 elements) into
/// band->lower / band->upper.
Status readDiagIndex(const OpKernel &kernel, const Tensor &k, DiagBand *band) {
  if (k.rank() > 1)
    return kernel.errorf("diag_index must be a scalar or vector, received "
                         "shape: %s",
                         k.shape().toString());
  if (k.numElements() == 0)
    return kernel.errorf("Expected diag_index to have at least 1 element");
  if (k.rank() == 1 && k.dim(0) > 2)
    return kernel.errorf("diag_index must have only one or two elements, "
                         "received %d elements.",
                         k.dim(0));
  if (!isIndexTensor(k))
    return kernel.errorf("diag_index must be int32, not %s",
                         dtypeName(k.dtype()));
  band->lower = band->upper = indexAt(k, 0);
  if (k.numElements() == 2)
    band->upper = indexAt(k, 1);
  return OkStatus();
}

/// An int32 scalar operand (num_rows, num_cols).
int64_t scalarIndex(const Tensor &t) {
  return t.numElements() > 0 && isIndexTensor(t) ? indexAt(t, 0) : -1;
}

/// The bits of the scalar `padding` as an element E (zero without a
/// padding operand).
template <typename E> E paddingBits(const Tensor *padding) {
  E value{0};
  if (padding && padding->numElements() > 0)
    std::memcpy(&value, padding->rawData(), sizeof(E));
  return value;
}

/// MatrixDiag (V1: diagonal: T[..., N] -> T[..., N, N]), MatrixDiagV2 / V3
/// (diagonal, k: int32, num_rows: int32, num_cols: int32, padding_value: T;
/// V3 attribute align): a matrix holding the band of diagonals k (one
/// diagonal: diagonal[..., L]; several: diagonal[..., num_diags, L]),
/// padding_value elsewhere. num_rows / num_cols -1 are derived: min_rows =
/// L - min(upper, 0), min_cols = L + max(lower, 0), both -1 give a square
/// matrix of the larger. TF's checks and messages.
template <int Version> class MatrixDiagKernel final : public OpKernel {
public:
  explicit MatrixDiagKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    if (Version == 3)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readAlign(*this, ctx, &band_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &diag = ctx->input(0);
    DiagBand band = band_;
    int64_t rows = -1, cols = -1;
    const Tensor *padding = nullptr;
    if (Version > 1) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   readDiagIndex(*this, ctx->input(1), &band));
      TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(2).rank() == 0,
                                errorf("num_rows must be a scalar"));
      rows = scalarIndex(ctx->input(2));
      TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(3).rank() == 0,
                                errorf("num_cols must be a scalar"));
      cols = scalarIndex(ctx->input(3));
      padding = &ctx->input(4);
      TFRT_FALLBACK_OP_REQUIRES(ctx, padding->rank() == 0,
                                errorf("padding_value must be a scalar"));
    }
    const int rank = diag.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rank >= 1,
        errorf("diagonal must be at least 1-dim, received shape: %s",
               diag.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, band.lower <= band.upper,
        errorf("lower_diag_index must not be larger than upper_diag_index: "
               "%d > %d",
               band.lower, band.upper));
    const int64_t numDiags = band.numDiags();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numDiags == 1 || (rank >= 2 && diag.dim(rank - 2) == numDiags),
        errorf("The number of diagonals provided in the input does not match "
               "the lower_diag_index and upper_diag_index range."));
    const int64_t maxLen = diag.dim(rank - 1);
    const int64_t minRows = maxLen - std::min<int64_t>(band.upper, 0);
    const int64_t minCols = maxLen + std::max<int64_t>(band.lower, 0);
    if (rows == -1 && cols == -1) {
      rows = cols = std::max(minRows, minCols);
    } else if (rows == -1) {
      rows = minRows;
    } else if (cols == -1) {
      cols = minCols;
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, rows >= minRows,
                              errorf("The number of rows is too small."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, cols >= minCols,
                              errorf("The number of columns is too small."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rows == minRows || cols == minCols,
        errorf("The number of rows or columns is not consistent with the "
               "specified d_lower, d_upper, and diagonal."));
    TensorShape::Dims dims = leadingDims(diag.shape(), numDiags == 1 ? 1 : 2);
    dims.push_back(rows);
    dims.push_back(cols);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(dims), &out));
    if (out->numElements() == 0)
      return;
    const int64_t batches = out->numElements() / (rows * cols);
    dispatchElementSize(diag.dtype(), [&](auto zero) {
      using E = decltype(zero);
      const E pad = paddingBits<E>(padding);
      const E *src = static_cast<const E *>(diag.rawData());
      E *dst = static_cast<E *>(out->rawData());
      kernels::parallelFor(
          ctx->eigenDevice(), batches * rows,
          elementCost<E>(1, 1, 2) * static_cast<double>(cols),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index r = first; r < last; ++r) {
              const int64_t b = r / rows, m = r % rows;
              E *d = dst + r * cols;
              for (int64_t n = 0; n < cols; ++n) {
                const int64_t k = n - m;
                if (k < band.lower || k > band.upper) {
                  d[n] = pad;
                  continue;
                }
                const int64_t pos = n - std::max<int64_t>(k, 0) +
                                    band.offset(k, rows, cols, maxLen);
                d[n] = src[(b * numDiags + (band.upper - k)) * maxLen + pos];
              }
            }
          });
    });
  }

private:
  DiagBand band_;
};

/// Checks a band k against a rows x cols matrix as TF's MatrixDiagPart
/// and MatrixSetDiag: "lower_diag_index is out of bound: 3. It must be
/// between -2 and 2" (MatrixSetDiag and the upper index: "... 3 It must
/// be ..."), "lower_diag_index must not be larger than upper_diag_index:
/// 1 > 0".
Status checkBand(const OpKernel &kernel, const DiagBand &band, int64_t rows,
                 int64_t cols, bool lowerPeriod) {
  if (!((-rows < band.lower && band.lower < cols) || band.lower == 0))
    return kernel.errorf("lower_diag_index is out of bound: %d%s It must be "
                         "between %d and %d",
                         band.lower, lowerPeriod ? "." : "", -rows, cols);
  if (!((-rows < band.upper && band.upper < cols) || band.upper == 0))
    return kernel.errorf("upper_diag_index is out of bound: %d It must be "
                         "between %d and %d",
                         band.upper, -rows, cols);
  if (band.lower > band.upper)
    return kernel.errorf("lower_diag_index must not be larger than "
                         "upper_diag_index: %d > %d",
                         band.lower, band.upper);
  return OkStatus();
}

/// MatrixDiagPart (V1: input: T[..., M, N] -> T[..., min(M, N)]),
/// MatrixDiagPartV2 / V3 (input, k: int32, padding_value: T; V3 attribute
/// align): the band of diagonals k packed into [..., num_diags,
/// max_diag_len] (no num_diags dim for one diagonal), max_diag_len =
/// min(M + min(upper, 0), N - max(lower, 0)), padding_value where a
/// diagonal is shorter.
template <int Version> class MatrixDiagPartKernel final : public OpKernel {
public:
  explicit MatrixDiagPartKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    if (Version == 3)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readAlign(*this, ctx, &band_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    DiagBand band = band_;
    const Tensor *padding = nullptr;
    if (Version > 1) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   readDiagIndex(*this, ctx->input(1), &band));
      padding = &ctx->input(2);
      TFRT_FALLBACK_OP_REQUIRES(ctx, padding->numElements() == 1,
                                errorf("Padding must be scalar."));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.rank() >= 2,
        errorf("input must be at least 2-dim, received shape: %s",
               in.shape().toString()));
    const int64_t rows = in.dim(in.rank() - 2), cols = in.dim(in.rank() - 1);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkBand(*this, band, rows, cols, true));
    const int64_t numDiags = band.numDiags();
    const int64_t maxLen =
        std::max<int64_t>(0, std::min(rows + std::min<int64_t>(band.upper, 0),
                                      cols - std::max<int64_t>(band.lower, 0)));
    TensorShape::Dims dims = leadingDims(in.shape(), 2);
    if (numDiags > 1)
      dims.push_back(numDiags);
    dims.push_back(maxLen);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(dims), &out));
    if (out->numElements() == 0)
      return;
    const int64_t batches = batchCount(in.shape());
    dispatchElementSize(in.dtype(), [&](auto zero) {
      using E = decltype(zero);
      const E pad = paddingBits<E>(padding);
      const E *src = static_cast<const E *>(in.rawData());
      E *dst = static_cast<E *>(out->rawData());
      for (int64_t b = 0; b < batches; ++b)
        for (int64_t i = 0; i < numDiags; ++i) {
          const int64_t k = band.upper - i;
          const int64_t len = DiagBand::length(k, rows, cols);
          const int64_t off = band.offset(k, rows, cols, maxLen);
          E *d = dst + (b * numDiags + i) * maxLen;
          for (int64_t j = 0; j < maxLen; ++j) {
            const int64_t p = j - off;
            d[j] = p >= 0 && p < len
                       ? src[b * rows * cols +
                             (p + std::max<int64_t>(-k, 0)) * cols + p +
                             std::max<int64_t>(k, 0)]
                       : pad;
          }
        }
    });
  }

private:
  DiagBand band_;
};

/// MatrixSetDiag (V1: input: T[..., M, N], diagonal: T[..., min(M, N)]),
/// MatrixSetDiagV2 / V3 (input, diagonal, k: int32; V3 attribute align):
/// the input with the band of diagonals k replaced by diagonal, packed as
/// MatrixDiagPart's output (its padding positions are ignored). The
/// diagonal's shape must be exactly that packed shape (TF's message).
template <int Version> class MatrixSetDiagKernel final : public OpKernel {
public:
  explicit MatrixSetDiagKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    if (Version == 3)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readAlign(*this, ctx, &band_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &diag = ctx->input(1);
    DiagBand band = band_;
    if (Version > 1)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   readDiagIndex(*this, ctx->input(2), &band));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.rank() >= 2,
        errorf("input must be at least 2-dim, received shape: %s",
               in.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, diag.rank() >= 1,
        errorf("diagonal must be at least 1-dim, received shape: %s",
               diag.shape().toString()));
    const int64_t rows = in.dim(in.rank() - 2), cols = in.dim(in.rank() - 1);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkBand(*this, band, rows, cols, false));
    const int64_t numDiags = band.numDiags();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        numDiags == 1 || (diag.rank() > in.rank() - 2 &&
                          diag.dim(in.rank() - 2) == numDiags),
        errorf("The number of diagonals provided in `diag` is not consistent "
               "with `lower_diag_index` and `upper_diag_index`"));
    const int64_t maxLen =
        std::max<int64_t>(0, std::min(rows + std::min<int64_t>(band.upper, 0),
                                      cols - std::max<int64_t>(band.lower, 0)));
    TensorShape::Dims expected = leadingDims(in.shape(), 2);
    if (numDiags > 1)
      expected.push_back(numDiags);
    expected.push_back(maxLen);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, TensorShape(expected) == diag.shape(),
        errorf("Either first dimensions of diagonal don't match "
               "input.shape[:-2], or diagonal.shape[:-1] is not equal to the "
               "longests diagonal in range [lower_diag_index:upper_diag_"
               "index].\nInput shape: %s\nDiagonal shape: %s\nExpected "
               "diagonal shape: %s",
               in.shape().toString(), diag.shape().toString(),
               TensorShape(expected).toString()));
    if (in.numElements() == 0) {
      ctx->setOutput(0, in);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    const int64_t batches = batchCount(in.shape());
    dispatchElementSize(in.dtype(), [&](auto zero) {
      using E = decltype(zero);
      const E *src = static_cast<const E *>(in.rawData());
      const E *pd = static_cast<const E *>(diag.rawData());
      E *dst = static_cast<E *>(out->rawData());
      if (dst != src)
        std::memcpy(dst, src, in.numElements() * sizeof(E));
      for (int64_t b = 0; b < batches; ++b)
        for (int64_t i = 0; i < numDiags; ++i) {
          const int64_t k = band.upper - i;
          const int64_t len = DiagBand::length(k, rows, cols);
          const int64_t off = band.offset(k, rows, cols, maxLen);
          const E *s = pd + (b * numDiags + i) * maxLen;
          for (int64_t p = 0; p < len; ++p)
            dst[b * rows * cols + (p + std::max<int64_t>(-k, 0)) * cols + p +
                std::max<int64_t>(k, 0)] = s[p + off];
        }
    });
  }

private:
  DiagBand band_;
};

} // namespace

void registerLinalgKernels(KernelRegistry &registry) {
  registerKernel<OpId::kMatrixInverse, MatrixInverseKernel, float, double>(
      registry);
  registerKernel<OpId::kMatrixDeterminant, MatrixDeterminantKernel, float,
                 double>(registry);
  registerKernel<OpId::kLogMatrixDeterminant, LogMatrixDeterminantKernel, float,
                 double>(registry);
  registerKernel<OpId::kCholesky, CholeskyKernel, float, double>(registry);
  registerKernel<OpId::kMatrixSolve, MatrixSolveKernel, float, double>(
      registry);
  registerKernel<OpId::kMatrixTriangularSolve, MatrixTriangularSolveKernel,
                 float, double>(registry);
  // The deprecated Batch* names TF still registers for the same kernels.
  registerKernel<OpId::kBatchMatrixInverse, MatrixInverseKernel, float, double>(
      registry);
  registerKernel<OpId::kBatchMatrixDeterminant, MatrixDeterminantKernel, float,
                 double>(registry);
  registerKernel<OpId::kBatchCholesky, CholeskyKernel, float, double>(registry);
  registerKernel<OpId::kBatchMatrixTriangularSolve, MatrixTriangularSolveKernel,
                 float, double>(registry);

  // TF_CALL_POD_TYPES: every dtype of the runtime (complex aside).
  registerKernel<OpId::kMatrixBandPart, MatrixBandPartKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kBatchMatrixBandPart, MatrixBandPartKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kBatchMatrixDiag, MatrixDiagKernel<1>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kBatchMatrixDiagPart, MatrixDiagPartKernel<1>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kBatchMatrixSetDiag, MatrixSetDiagKernel<1>>(
      registry, {{"T", kAllDTypes}});
  // TF registers Diag / DiagPart for bf16, f16, f32, f64, i32, i64
  // (complex aside).
  static constexpr DType kDiagTypes[] = {DType::F32,  DType::F64, DType::F16,
                                         DType::BF16, DType::I32, DType::I64};
  registerKernel<OpId::kDiag, DiagKernel>(registry, {{"T", kDiagTypes}});
  registerKernel<OpId::kDiagPart, DiagPartKernel>(registry,
                                                  {{"T", kDiagTypes}});
  registerKernel<OpId::kMatrixDiag, MatrixDiagKernel<1>>(registry,
                                                         {{"T", kAllDTypes}});
  registerKernel<OpId::kMatrixDiagV2, MatrixDiagKernel<2>>(registry,
                                                           {{"T", kAllDTypes}});
  registerKernel<OpId::kMatrixDiagV3, MatrixDiagKernel<3>>(registry,
                                                           {{"T", kAllDTypes}});
  registerKernel<OpId::kMatrixDiagPart, MatrixDiagPartKernel<1>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kMatrixDiagPartV2, MatrixDiagPartKernel<2>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kMatrixDiagPartV3, MatrixDiagPartKernel<3>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kMatrixSetDiag, MatrixSetDiagKernel<1>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kMatrixSetDiagV2, MatrixSetDiagKernel<2>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kMatrixSetDiagV3, MatrixSetDiagKernel<3>>(
      registry, {{"T", kAllDTypes}});
}

} // namespace tfrt_fallback::rt
