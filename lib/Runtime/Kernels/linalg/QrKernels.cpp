//===- QrKernels.cpp - QR decomposition -------------------------*- C++ -*-===//
//
// Qr (tensorflow/core/kernels/linalg/qr_op_impl.h): Eigen's HouseholderQR
// of each innermost matrix, batched over the leading dims, as TF's CPU
// kernel computes it (same signs: no normalization of R's diagonal). Its
// own file: Eigen's QR is heavy to compile.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <Eigen/QR>

#include <algorithm>
#include <cstdint>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

template <typename T>
using RowMatrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T> using MatrixMap = Eigen::Map<RowMatrix<T>>;
template <typename T> using ConstMatrixMap = Eigen::Map<const RowMatrix<T>>;

/// Qr(input: T[..., M, N]; full_matrices = false) -> (q, r): input = q * r
/// with q orthonormal columns and r upper triangular. With full_matrices, q
/// is [M, M] and r [M, N]; otherwise q is [M, P] and r [P, N], P = min(M,
/// N). "Input tensor 0 must have rank >= 2, got 1" (TF's LinearAlgebraOp).
template <typename T> class QrKernel final : public OpKernel {
public:
  explicit QrKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "full_matrices", &full_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.rank() >= 2,
        errorf("Input tensor 0 must have rank >= 2, got %d", in.rank()));
    const int64_t m = in.dim(in.rank() - 2), n = in.dim(in.rank() - 1);
    const int64_t p = std::min(m, n);
    const int64_t qCols = full_ ? m : p, rRows = full_ ? m : p;
    TensorShape::Dims qDims(in.shape().dims().begin(),
                            in.shape().dims().end() - 2);
    TensorShape::Dims rDims = qDims;
    qDims.push_back(m);
    qDims.push_back(qCols);
    rDims.push_back(rRows);
    rDims.push_back(n);
    Tensor *q = nullptr, *r = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(qDims), &q));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape(rDims), &r));
    if (in.numElements() == 0) {
      // An empty matrix: q is the identity of its shape, r zeros.
      T *pq = q->data<T>();
      for (int64_t i = 0; i < q->numElements(); ++i)
        pq[i] = T(0);
      const int64_t batch = m * qCols == 0 ? 0 : q->numElements() / (m * qCols);
      for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < std::min(m, qCols); ++i)
          pq[b * m * qCols + i * qCols + i] = T(1);
      std::fill(r->data<T>(), r->data<T>() + r->numElements(), T(0));
      return;
    }
    const int64_t batch = in.numElements() / (m * n);
    const T *src = in.data<T>();
    T *pq = q->data<T>(), *pr = r->data<T>();
    const double cost = double(m) * n * p * 2;
    kernels::parallelFor(
        ctx->eigenDevice(), batch,
        Eigen::TensorOpCost(m * n * sizeof(T),
                            (m * qCols + rRows * n) * sizeof(T), cost),
        [&](Eigen::Index first, Eigen::Index last) {
          Eigen::HouseholderQR<RowMatrix<T>> qr(m, n);
          for (Eigen::Index b = first; b < last; ++b) {
            qr.compute(ConstMatrixMap<T>(src + b * m * n, m, n));
            MatrixMap<T>(pq + b * m * qCols, m, qCols) =
                qr.householderQ() * RowMatrix<T>::Identity(m, qCols);
            MatrixMap<T>(pr + b * rRows * n, rRows, n) =
                qr.matrixQR()
                    .topRows(std::min(rRows, m))
                    .template triangularView<Eigen::Upper>();
          }
        });
  }

private:
  bool full_ = false;
};

} // namespace

void registerQrKernels(KernelRegistry &registry) {
  registerKernel<OpId::kQr, QrKernel, float, double>(registry);
}

} // namespace tfrt_fallback::rt
