//===- SpatialKernels.cpp - Space / depth / batch rearrangements -*- C++
//-*-===//
//
// DepthToSpace and SpaceToDepth (NHWC), SpaceToBatchND / BatchToSpaceND and
// their v1 forms SpaceToBatch / BatchToSpace:
// pure data movement, copying contiguous runs of elements with memcpy.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// DepthToSpace / SpaceToDepth
//===----------------------------------------------------------------------===//

/// DepthToSpace(input) with block_size b >= 2 (NHWC): input [n, h, w, c]
/// with c divisible by b * b, output [n, h * b, w * b, c / (b * b)] with
/// out[n, y * b + i, x * b + j, k] = in[n, y, x, (i * b + j) * c' + k].
/// SpaceToDepth is the inverse: input [n, h, w, c] with h and w divisible
/// by b, output [n, h / b, w / b, c * b * b]. Other data formats are
/// rejected.
template <typename T, bool ToSpace>
class DepthSpaceKernel final : public OpKernel {
public:
  explicit DepthSpaceKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("block_size", &block_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, block_ > 1,
        errorf("Block size should be > 1, but was: %d", block_));
    std::string format = "NHWC";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "data_format", &format));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, format == "NHWC",
        errorf("Only NHWC data_format is supported, got '%s'", format));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() == 4,
        errorf("Input rank should be: 4 instead of: %d", input.rank()));
    const int64_t b = block_, n = input.dim(0);
    int64_t h = input.dim(1), w = input.dim(2), c = input.dim(3);
    if constexpr (ToSpace) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, c % (b * b) == 0,
          errorf("Input depth dimension %d should be divisible by: %d", c,
                 b * b));
    } else {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, h % b == 0 && w % b == 0,
          errorf("Image width %d and height %d should be divisible by "
                 "block_size: %d",
                 w, h, b));
    }
    // Work in the "space" geometry: [n, H, W, C] space side, depth side
    // [n, H / b, W / b, C * b * b].
    int64_t sh, sw, sc;
    if constexpr (ToSpace) {
      sh = h * b;
      sw = w * b;
      sc = c / (b * b);
    } else {
      sh = h;
      sw = w;
      sc = c;
    }
    const TensorShape outShape =
        ToSpace ? TensorShape{n, sh, sw, sc}
                : TensorShape{n, sh / b, sw / b, sc * b * b};
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
    if (out->numElements() == 0)
      return;
    const T *in = input.data<T>();
    T *po = out->data<T>();
    const int64_t dh = sh / b, dw = sw / b, dc = sc * b * b;
    for (int64_t bi = 0; bi < n; ++bi)
      for (int64_t y = 0; y < sh; ++y)
        for (int64_t x = 0; x < sw; ++x) {
          const int64_t spaceOff = ((bi * sh + y) * sw + x) * sc;
          const int64_t depthOff = ((bi * dh + y / b) * dw + x / b) * dc +
                                   ((y % b) * b + x % b) * sc;
          if constexpr (ToSpace)
            std::memcpy(po + spaceOff, in + depthOff, sc * sizeof(T));
          else
            std::memcpy(po + depthOff, in + spaceOff, sc * sizeof(T));
        }
  }

private:
  int64_t block_ = 0;
};

//===----------------------------------------------------------------------===//
// SpaceToBatchND / BatchToSpaceND
//===----------------------------------------------------------------------===//

/// Reads an int32/int64 tensor into a vector.
std::vector<int64_t> readInts(const Tensor &t) {
  std::vector<int64_t> v(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i)
    v[i] =
        t.dtype() == DType::I32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
  return v;
}

/// SpaceToBatchND(input, block_shape, paddings) and
/// BatchToSpaceND(input, block_shape, crops): block_shape [M] (int32 or
/// int64, all >= 1), paddings / crops [M, 2] nonnegative, input
/// [batch, spatial (M dims)..., rest...]. SpaceToBatchND zero-pads each
/// spatial dim (padded size divisible by its block) and moves the block
/// offsets into the batch: output [batch * prod(block), padded_i /
/// block_i..., rest...], output batch (o_0 .. o_M-1 row-major) * batch + b
/// holding padded[b, p_i * block_i + o_i]. BatchToSpaceND inverts it
/// (input batch divisible by prod(block)) and then crops: output [batch /
/// prod(block), in_i * block_i - crop_start_i - crop_end_i..., rest...].
/// The v1 ops SpaceToBatch(input, paddings) and BatchToSpace(input, crops)
/// take the block from the block_size attribute (>= 2) for both spatial
/// dims of a 4-D NHWC input ("Input rank should be: 4instead of: 3", TF's
/// text). The work moves element bytes (shared by every dtype).
void spaceBatch(const OpKernel &op, OpKernelContextInterface *ctx, bool toBatch,
                const Tensor &input, const std::vector<int64_t> &block,
                const std::vector<int64_t> &pads) {
  const char *padName = toBatch ? "paddings" : "crops";
  const int m = static_cast<int>(block.size());
  TFRT_FALLBACK_OP_REQUIRES(
      ctx, input.rank() >= 1 + m,
      op.errorf("input rank should be >= %d instead of %d", 1 + m,
                input.rank()));
  int64_t blockProduct = 1;
  for (int i = 0; i < m; ++i) {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, block[i] >= 1,
        op.errorf("All values in block_shape must be positive, got value, %d "
                  "at index %d.",
                  block[i], i));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, pads[2 * i] >= 0 && pads[2 * i + 1] >= 0,
        op.errorf("All values in %s must be non-negative, got %d and %d at "
                  "index %d",
                  padName, pads[2 * i], pads[2 * i + 1], i));
    blockProduct *= block[i];
  }
  const size_t elem = dtypeSize(input.dtype());
  size_t rest = elem;
  for (int i = 1 + m; i < input.rank(); ++i)
    rest *= input.dim(i);
  // Geometry in SpaceToBatch terms: `space` is the (padded) spatial
  // size on the space side, `batch` the space-side batch.
  std::vector<int64_t> space(m);
  int64_t batch;
  TensorShape::Dims outDims(input.shape().dims().begin(),
                            input.shape().dims().end());
  if (toBatch) {
    batch = input.dim(0);
    for (int i = 0; i < m; ++i) {
      space[i] = input.dim(1 + i) + pads[2 * i] + pads[2 * i + 1];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, space[i] % block[i] == 0,
          op.errorf("padded_shape[%d]=%d is not divisible by block_shape[%d]="
                    "%d",
                    i, space[i], i, block[i]));
      outDims[1 + i] = space[i] / block[i];
    }
    outDims[0] = batch * blockProduct;
  } else {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.dim(0) % blockProduct == 0,
        op.errorf("Input batch dimension (%d) is not divisible by product of "
                  "block sizes (%d)",
                  input.dim(0), blockProduct));
    batch = input.dim(0) / blockProduct;
    for (int i = 0; i < m; ++i) {
      space[i] = input.dim(1 + i) * block[i];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, pads[2 * i] + pads[2 * i + 1] <= space[i],
          op.errorf("crops must not exceed the uncropped size: %d + %d > %d "
                    "at index %d",
                    pads[2 * i], pads[2 * i + 1], space[i], i));
      outDims[1 + i] = space[i] - pads[2 * i] - pads[2 * i + 1];
    }
    outDims[0] = batch;
  }
  Tensor *out = nullptr;
  TFRT_FALLBACK_OP_REQUIRES_OK(
      ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
  if (out->numElements() == 0)
    return;
  const char *in = static_cast<const char *>(input.rawData());
  char *po = static_cast<char *>(out->rawData());
  // Unpadded / cropped spatial sizes (the "real" space side).
  std::vector<int64_t> real(m);
  int64_t realRows = 1;
  for (int i = 0; i < m; ++i) {
    real[i] = space[i] - pads[2 * i] - pads[2 * i + 1];
    realRows *= real[i];
  }
  // Iterate over every (batch-side batch, blocked coords) row of `rest`
  // bytes: batch-side index ob = offset * batch + b.
  const int64_t batchSide = batch * blockProduct;
  std::vector<int64_t> coord(m, 0), off(m);
  int64_t rows = batchSide;
  for (int i = 0; i < m; ++i)
    rows *= space[i] / block[i];
  for (int64_t r = 0; r < rows; ++r) {
    // Decompose r into (ob, p_0..p_m-1).
    int64_t t = r;
    for (int i = m - 1; i >= 0; --i) {
      coord[i] = t % (space[i] / block[i]);
      t /= space[i] / block[i];
    }
    const int64_t ob = t, b = ob % batch;
    int64_t offset = ob / batch;
    int64_t spaceIndex = 0; // into the real (unpadded) space tensor
    bool inside = true;
    for (int i = m - 1; i >= 0; --i) {
      off[i] = offset % block[i];
      offset /= block[i];
    }
    for (int i = 0; i < m; ++i) {
      const int64_t s = coord[i] * block[i] + off[i] - pads[2 * i];
      inside = inside && s >= 0 && s < real[i];
      spaceIndex = spaceIndex * real[i] + s;
    }
    // r is the row-major index over the batch side.
    if (toBatch) {
      char *dst = po + r * rest;
      if (inside)
        std::memcpy(dst, in + (b * realRows + spaceIndex) * rest, rest);
      else
        std::memset(dst, 0, rest);
    } else if (inside) {
      std::memcpy(po + (b * realRows + spaceIndex) * rest, in + r * rest, rest);
    }
  }
}

template <typename T, bool ToBatch>
class SpaceBatchKernel final : public OpKernel {
public:
  explicit SpaceBatchKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &blockT = ctx->input(1);
    const Tensor &padT = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        blockT.rank() == 1 &&
            (blockT.dtype() == DType::I32 || blockT.dtype() == DType::I64),
        errorf("block_shape must be a 1-D int32/int64 tensor, got %s",
               blockT.shape().toString()));
    const int m = static_cast<int>(blockT.numElements());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        padT.rank() == 2 && padT.dim(0) == m && padT.dim(1) == 2 &&
            (padT.dtype() == DType::I32 || padT.dtype() == DType::I64),
        errorf("%s should have shape [%d, 2] instead of %s",
               ToBatch ? "paddings" : "crops", m, padT.shape().toString()));
    spaceBatch(*this, ctx, ToBatch, ctx->input(0), readInts(blockT),
               readInts(padT));
  }
};

/// SpaceToBatch / BatchToSpace (v1), see spaceBatch.
template <typename T, bool ToBatch>
class SpaceBatchV1Kernel final : public OpKernel {
public:
  explicit SpaceBatchV1Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("block_size", &block_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, block_ > 1,
                              errorf("Block size should be > 1: %d", block_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &padT = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() == 4,
        errorf("Input rank should be: 4instead of: %d", input.rank()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        padT.rank() == 2 && padT.dim(0) == 2 && padT.dim(1) == 2 &&
            isIndexTensor(padT),
        errorf("%s should have shape [2, 2] instead of %s",
               ToBatch ? "paddings" : "crops", padT.shape().toString()));
    spaceBatch(*this, ctx, ToBatch, input, {block_, block_}, readInts(padT));
  }

private:
  int64_t block_ = 0;
};

template <typename T> using DepthToSpace = DepthSpaceKernel<T, true>;
template <typename T> using SpaceToDepth = DepthSpaceKernel<T, false>;
template <typename T> using SpaceToBatchND = SpaceBatchKernel<T, true>;
template <typename T> using BatchToSpaceND = SpaceBatchKernel<T, false>;
template <typename T> using SpaceToBatch = SpaceBatchV1Kernel<T, true>;
template <typename T> using BatchToSpace = SpaceBatchV1Kernel<T, false>;

} // namespace

void registerSpatialKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
#define TFRT_FALLBACK_SPATIAL_TYPES                                            \
  float, double, half, bf16, int32_t, int64_t, uint8_t, int8_t, int16_t,       \
      uint16_t, bool
  registerKernel<OpId::kDepthToSpace, DepthToSpace,
                 TFRT_FALLBACK_SPATIAL_TYPES>(registry);
  registerKernel<OpId::kSpaceToDepth, SpaceToDepth,
                 TFRT_FALLBACK_SPATIAL_TYPES>(registry);
  registerKernel<OpId::kSpaceToBatchND, SpaceToBatchND,
                 TFRT_FALLBACK_SPATIAL_TYPES>(registry);
  registerKernel<OpId::kBatchToSpaceND, BatchToSpaceND,
                 TFRT_FALLBACK_SPATIAL_TYPES>(registry);
  registerKernel<OpId::kSpaceToBatch, SpaceToBatch,
                 TFRT_FALLBACK_SPATIAL_TYPES>(registry);
  registerKernel<OpId::kBatchToSpace, BatchToSpace,
                 TFRT_FALLBACK_SPATIAL_TYPES>(registry);
#undef TFRT_FALLBACK_SPATIAL_TYPES
}

} // namespace tfrt_fallback::rt
