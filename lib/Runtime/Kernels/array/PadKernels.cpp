//===- PadKernels.cpp - Pad, PadV2, MirrorPad -------------------*- C++ -*-===//
//
// Pad / PadV2 (constant padding) and MirrorPad (REFLECT, SYMMETRIC). A
// padding of zeros shares the input buffer.
//
// Every kernel here moves raw elements (StridedCopy.h) and is registered
// for every dtype. Index operands may be int32 or int64: their type
// attributes type them (the op table), which the loader checks when a node
// has them; they default to int32 and may be left out of a graph, so they
// are not registration constraints.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/StridedCopy.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Shape/Pad.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Reads a [rank, 2] int32/int64 paddings operand into `before` and
/// `after`, and the padded shape (shape::paddedShape, the compiler's rule)
/// into `outShape`.
template <typename Kernel>
Status readPaddings(const Kernel &kernel, const Tensor &input,
                    const Tensor &paddings, Dims *before, Dims *after,
                    TensorShape *outShape) {
  const int rank = input.rank();
  if (paddings.rank() != 2 || paddings.dim(1) != 2 || !isIndexTensor(paddings))
    return kernel.errorf("paddings must be a matrix with 2 columns: %s",
                         paddings.shape().toString());
  if (paddings.dim(0) != rank)
    return kernel.errorf("The first dimension of paddings must be the rank "
                         "of inputs%s %s",
                         paddings.shape().toString(), input.shape().toString());
  Dims flat(2 * rank);
  for (int i = 0; i < 2 * rank; ++i)
    flat[i] = indexAt(paddings, i);
  StatusOr<PartialShape> padded =
      shape::paddedShape(PartialShape(input.shape().dims()), flat);
  if (!padded.ok())
    return opError(kernel, padded.status());
  StatusOr<TensorShape> shape = padded->toTensorShape();
  if (!shape.ok())
    return opError(kernel, shape.status());
  *outShape = *std::move(shape);
  before->resize(rank);
  after->resize(rank);
  for (int d = 0; d < rank; ++d) {
    (*before)[d] = flat[2 * d];
    (*after)[d] = flat[2 * d + 1];
  }
  return OkStatus();
}

/// Pad(input, paddings) and PadV2(input, paddings, constant_values): each
/// dim d grows by paddings[d, 0] elements before and paddings[d, 1] after
/// (non-negative, [rank, 2] int32/int64, Tpaddings), filled with 0 or the
/// scalar constant_values. Dims without padding are merged into the dim
/// before them so each output row is one fill-copy-fill pass.
class PadKernel final : public OpKernel {
public:
  explicit PadKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    Dims before, after;
    TensorShape outShape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readPaddings(*this, input, ctx->input(1),
                                                   &before, &after, &outShape));
    const int rank = input.rank();
    const size_t esize = dtypeSize(input.dtype());
    uint64_t pad = 0;
    if (ctx->numInputs() > 2) {
      const Tensor &value = ctx->input(2);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, value.numElements() == 1 && value.rank() == 0,
          errorf("constant_values must be a scalar. Shape of "
                 "constant_values: %s",
                 value.shape().toString()));
      std::memcpy(&pad, value.rawData(), esize);
    }
    if (outShape.numElements() == input.numElements() && rank > 0 &&
        std::all_of(before.begin(), before.end(),
                    [](int64_t p) { return p == 0; }) &&
        std::all_of(after.begin(), after.end(),
                    [](int64_t p) { return p == 0; })) {
      ctx->setOutput(0, input);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
    if (out->numElements() == 0)
      return;
    if (rank == 0) {
      std::memcpy(out->rawData(), input.rawData(), esize);
      return;
    }
    // Merge unpadded dims into their predecessor.
    Dims inD, padB, padA;
    for (int d = 0; d < rank; ++d) {
      if (d > 0 && before[d] == 0 && after[d] == 0) {
        inD.back() *= input.dim(d);
        padB.back() *= input.dim(d);
        padA.back() *= input.dim(d);
        continue;
      }
      inD.push_back(input.dim(d));
      padB.push_back(before[d]);
      padA.push_back(after[d]);
    }
    const int r = static_cast<int>(inD.size());
    Dims oD(r);
    for (int d = 0; d < r; ++d)
      oD[d] = inD[d] + padB[d] + padA[d];
    const Dims inStrides = stridesOf(inD);
    const int64_t inner = oD[r - 1], inInner = inD[r - 1];
    const int64_t rows = out->numElements() / inner;
    dispatchElementSize(input.dtype(), [&](auto e) {
      using E = decltype(e);
      E v;
      std::memcpy(&v, &pad, sizeof(E));
      const E *src = static_cast<const E *>(input.rawData());
      E *dst = static_cast<E *>(out->rawData());
      const double rowBytes = double(inner) * sizeof(E);
      kernels::parallelFor(
          ctx->eigenDevice(), rows, Eigen::TensorOpCost(rowBytes, rowBytes, 0),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index row = first; row < last; ++row) {
              E *o = dst + row * inner;
              int64_t rem = row, offset = 0;
              bool inside = input.numElements() > 0;
              for (int d = r - 2; d >= 0 && inside; --d) {
                const int64_t c = rem % oD[d] - padB[d];
                rem /= oD[d];
                inside = c >= 0 && c < inD[d];
                offset += c * inStrides[d];
              }
              if (!inside) {
                std::fill(o, o + inner, v);
                continue;
              }
              std::fill(o, o + padB[r - 1], v);
              std::memcpy(o + padB[r - 1], src + offset, inInner * sizeof(E));
              std::fill(o + padB[r - 1] + inInner, o + inner, v);
            }
          });
    });
  }
};

/// MirrorPad(input, paddings; mode): padding by reflection. REFLECT mirrors
/// without repeating the edge (paddings < dim), SYMMETRIC repeats it
/// (paddings <= dim).
class MirrorPadKernel final : public OpKernel {
public:
  explicit MirrorPadKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    std::string mode;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("mode", &mode));
    if (mode == "REFLECT")
      offset_ = 1;
    else
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, mode == "SYMMETRIC",
          errorf("mode must be either REFLECT or SYMMETRIC, got '%s'", mode));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    Dims before, after;
    TensorShape outShape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readPaddings(*this, input, ctx->input(1),
                                                   &before, &after, &outShape));
    const int rank = input.rank();
    TensorShape::Dims outDims(rank);
    std::vector<std::vector<int64_t>> maps(rank);
    for (int d = 0; d < rank; ++d) {
      const int64_t n = input.dim(d);
      if (offset_ == 0)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, before[d] <= n && after[d] <= n,
            errorf("paddings must be no greater than the dimension size: %d, "
                   "%d greater than %d",
                   before[d], after[d], n));
      else
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, before[d] < n && after[d] < n,
            errorf("paddings must be less than the dimension size: %d, %d not "
                   "less than %d",
                   before[d], after[d], n));
      outDims[d] = n + before[d] + after[d];
      maps[d].resize(outDims[d]);
      for (int64_t o = 0; o < outDims[d]; ++o) {
        int64_t i = o - before[d];
        if (i < 0)
          i = -i - 1 + offset_;
        else if (i >= n)
          i = 2 * n - i - 1 - offset_;
        maps[d][o] = i;
      }
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
    if (out->numElements() == 0)
      return;
    if (rank == 0) {
      std::memcpy(out->rawData(), input.rawData(), dtypeSize(input.dtype()));
      return;
    }
    const Dims inStrides = stridesOf(input.shape().dims());
    const int64_t inner = outDims[rank - 1];
    const int64_t rows = out->numElements() / inner;
    dispatchElementSize(input.dtype(), [&](auto e) {
      using E = decltype(e);
      const E *src = static_cast<const E *>(input.rawData());
      E *dst = static_cast<E *>(out->rawData());
      const int64_t *lastMap = maps[rank - 1].data();
      kernels::parallelFor(
          ctx->eigenDevice(), rows,
          Eigen::TensorOpCost(inner * sizeof(E), inner * sizeof(E), 1),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index row = first; row < last; ++row) {
              int64_t rem = row, offset = 0;
              for (int d = rank - 2; d >= 0; --d) {
                offset += maps[d][rem % outDims[d]] * inStrides[d];
                rem /= outDims[d];
              }
              E *o = dst + row * inner;
              const E *i = src + offset;
              for (int64_t j = 0; j < inner; ++j)
                o[j] = i[lastMap[j]];
            }
          });
    });
  }

private:
  int offset_ = 0;
};

} // namespace

void registerPadKernels(KernelRegistry &registry) {
  registerKernel<OpId::kPad, PadKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kPadV2, PadKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kMirrorPad, MirrorPadKernel>(registry,
                                                    {{"T", kAllDTypes}});
}

} // namespace tfrt_fallback::rt
