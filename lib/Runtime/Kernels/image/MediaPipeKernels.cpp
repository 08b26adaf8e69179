//===- MediaPipeKernels.cpp - MediaPipe's TFLite custom ops
//----------------===//
//
// The custom operators MediaPipe's face-landmark model with attention
// (face_landmark_with_attention.tflite) uses, version 2 of each, with the
// semantics of MediaPipe's CPU kernels (mediapipe/util/tflite/operations/
// landmarks_to_transform_matrix.cc, transform_tensor_bilinear.cc,
// transform_landmarks.cc) and the option names of TFLite's GPU delegate
// parsers (tensorflow/lite/delegates/gpu/common/mediapipe/). The TFLite
// importer makes each `tf.<custom code>` with the FlexBuffer-map options as
// attributes. Every value is computed in float in MediaPipe's order; a 4x4
// matrix is row-major, and only its first two rows are read.
//
//===----------------------------------------------------------------------===//

#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cmath>
#include <cstdint>
#include <vector>

// MediaPipe's float expressions, each rounded as written (no fused
// multiply-add where the build's target has one).
#pragma clang fp contract(off)

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// A row-major n x n float matrix product, MediaPipe's Mat3/Mat4 operator*:
/// each element summed from 0 over k in order.
template <int N> void matMul(const float *a, const float *b, float *out) {
  float result[N * N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < N; ++k)
        sum += a[i * N + k] * b[k * N + j];
      result[i * N + j] = sum;
    }
  std::copy(result, result + N * N, out);
}

/// Mat3 times a 3-vector, summed from 0 in order.
void matVec3(const float *m, const float *v, float *out) {
  float result[3];
  for (int i = 0; i < 3; ++i) {
    float sum = 0.0f;
    for (int k = 0; k < 3; ++k)
      sum += m[i * 3 + k] * v[k];
    result[i] = sum;
  }
  std::copy(result, result + 3, out);
}

/// l.x * r.x + l.y * r.y + l.z * r.z + l.w * r.w, left to right.
float dot4(const float *l, const float *r) {
  float sum = l[0] * r[0];
  sum += l[1] * r[1];
  sum += l[2] * r[2];
  sum += l[3] * r[3];
  return sum;
}

/// Checks that `matrix` holds at least the 8 values of two rows.
Status checkMatrix(const OpKernel &kernel, const Tensor &matrix) {
  if (matrix.numElements() < 8)
    return kernel.errorf("the transform matrix must be [1, 4, 4], got %s",
                         matrix.shape().toString());
  return OkStatus();
}

/// Landmarks2TransformMatrix (v2): landmarks [1, N, 3] (read as N points of
/// 3 floats) -> the [1, 4, 4] matrix that maps a crop of output_width x
/// output_height pixels, rotated so that the line from landmark
/// left_rotation_idx to right_rotation_idx points at
/// target_rotation_radians, and scaled by scale_x / scale_y around the
/// box of the `subset_idxs` landmarks, into landmark coordinates.
class Landmarks2TransformMatrixKernel final : public OpKernel {
public:
  explicit Landmarks2TransformMatrixKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("subset_idxs", &subset_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("left_rotation_idx", &left_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("right_rotation_idx", &right_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("target_rotation_radians", &targetRotation_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_height", &height_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_width", &width_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("scale_x", &scaleX_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("scale_y", &scaleY_));
    // MediaPipe's checks, in its order.
    TFRT_FALLBACK_OP_REQUIRES(ctx, left_ >= 0,
                              errorf("Incorrect left_rotation_idx: %d", left_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, right_ >= 0, errorf("Incorrect right_rotation_idx: %d", right_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, height_ > 0,
                              errorf("Incorrect output_height: %d", height_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, width_ > 0,
                              errorf("Incorrect output_width: %d", width_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, scaleX_ > 0,
                              errorf("Incorrect scale_x: %s", scaleX_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, scaleY_ > 0,
                              errorf("Incorrect scale_y: %s", scaleY_));
    for (size_t i = 0; i < subset_.size(); ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, subset_[i] >= 0,
          errorf("Incorrect subset value: index = %d, value = %d", i,
                 subset_[i]));
    // MediaPipe reads the first point of an empty subset (undefined).
    TFRT_FALLBACK_OP_REQUIRES(ctx, !subset_.empty(),
                              errorf("subset_idxs must not be empty"));
    // Pairs; an odd count repeats its last index (no effect on the box).
    if (subset_.size() % 2)
      subset_.push_back(subset_.back());
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.rank() == 3,
        errorf("landmarks must be 3-D: %s", in.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, in.dtype() == DType::F32,
                              errorf("landmarks must be float32"));
    const float *lm = in.data<float>();
    int64_t numPoints = in.numElements() / 3;
    int64_t highest = std::max<int64_t>(left_, right_);
    for (int64_t index : subset_)
      highest = std::max(highest, index);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, highest < numPoints,
        errorf("landmark index %d is out of range: the input holds %d "
               "landmarks of 3 values",
               highest, numPoints));

    // EstimateRotationRadians.
    const float *l = lm + 3 * left_, *r = lm + 3 * right_;
    float rotation = std::atan2(r[1] - l[1], r[0] - l[0]);
    rotation = targetRotation_ - rotation;

    // EstimateCenterAndSize: the box of the rotated subset, its centre
    // rotated back.
    const float c = std::cos(rotation), s = std::sin(rotation);
    const float cn = std::cos(-rotation), sn = std::sin(-rotation);
    const float rot[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
    const float rotInverse[9] = {cn, -sn, 0, sn, cn, 0, 0, 0, 1};
    float maxXY[3], minXY[3];
    for (size_t i = 0; i < subset_.size(); ++i) {
      float p[3] = {lm[3 * subset_[i]], lm[3 * subset_[i] + 1], 1.0f};
      matVec3(rot, p, p);
      if (i == 0) {
        std::copy(p, p + 3, maxXY);
        std::copy(p, p + 3, minXY);
        continue;
      }
      if (maxXY[0] < p[0])
        maxXY[0] = p[0];
      if (maxXY[1] < p[1])
        maxXY[1] = p[1];
      if (minXY[0] > p[0])
        minXY[0] = p[0];
      if (minXY[1] > p[1])
        minXY[1] = p[1];
    }
    const float cropWidth = maxXY[0] - minXY[0];
    const float cropHeight = maxXY[1] - minXY[1];
    float centre[3] = {minXY[0], minXY[1], minXY[2]};
    centre[0] += maxXY[0];
    centre[1] += maxXY[1];
    centre[0] /= 2;
    centre[1] /= 2;
    matVec3(rotInverse, centre, centre);

    // I * shift(centre) * rotation(-rotation) * scale * shift(-size / 2).
    float t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const float shift[16] = {1, 0, 0, centre[0], 0, 1, 0, centre[1],
                             0, 0, 1, 0,         0, 0, 0, 1};
    matMul<4>(t, shift, t);
    const float back = -rotation;
    const float cb = std::cos(back), sb = std::sin(back);
    const float rotation4[16] = {cb, -sb, 0, 0, sb, cb, 0, 0,
                                 0,  0,   1, 0, 0,  0,  0, 1};
    matMul<4>(t, rotation4, t);
    const float scaleX = scaleX_ * cropWidth / width_;
    const float scaleY = scaleY_ * cropHeight / height_;
    const float scale[16] = {scaleX, 0, 0, 0, 0, scaleY, 0, 0,
                             0,      0, 1, 0, 0, 0,      0, 1};
    matMul<4>(t, scale, t);
    const float shiftX = -1.0 * (width_ / 2.0);
    const float shiftY = -1.0 * (height_ / 2.0);
    const float shift2[16] = {1, 0, 0, shiftX, 0, 1, 0, shiftY,
                              0, 0, 1, 0,      0, 0, 0, 1};
    matMul<4>(t, shift2, t);

    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape({1, 4, 4}), &out));
    std::copy(t, t + 16, out->data<float>());
  }

private:
  std::vector<int64_t> subset_;
  int64_t left_ = 0, right_ = 0, height_ = 0, width_ = 0;
  float targetRotation_ = 0, scaleX_ = 0, scaleY_ = 0;
};

/// TransformTensorBilinear (v2): data [N, H, W, C] and a [1, 4, 4] matrix
/// -> [N, output_height, output_width, C]: output pixel (x, y) samples the
/// input bilinearly at the matrix's image of its centre (x + 0.5,
/// y + 0.5), minus 0.5; a sample outside [0, W - 1] x [0, H - 1] is 0 in
/// every channel (MediaPipe reads batch 0 only; every batch uses the
/// matrix here).
class TransformTensorBilinearKernel final : public OpKernel {
public:
  explicit TransformTensorBilinearKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_height", &height_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_width", &width_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, height_ > 0 && width_ > 0,
        errorf("output_height and output_width must be positive: %d x %d",
               height_, width_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &data = ctx->input(0);
    const Tensor &matrix = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, data.rank() == 4,
        errorf("data must be 4-D: %s", data.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, data.dtype() == DType::F32 && matrix.dtype() == DType::F32,
        errorf("data and matrix must be float32"));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkMatrix(*this, matrix));
    const int64_t batch = data.dim(0), inH = data.dim(1), inW = data.dim(2),
                  channels = data.dim(3);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(
                 0, TensorShape({batch, height_, width_, channels}), &out));
    const float *m = matrix.data<float>();
    float xt[4] = {m[0], m[1], m[2], m[3]};
    float yt[4] = {m[4], m[5], m[6], m[7]};
    // The align-corners correction, in double as MediaPipe's float +=
    // double expression.
    xt[3] += xt[0] * 0.5 + xt[1] * 0.5 - 0.5;
    yt[3] += yt[0] * 0.5 + yt[1] * 0.5 - 0.5;
    const float *in = data.data<float>();
    float *dst = out->data<float>();
    for (int64_t b = 0; b < batch; ++b) {
      const float *image = in + b * inH * inW * channels;
      for (int64_t y = 0; y < height_; ++y)
        for (int64_t x = 0; x < width_; ++x) {
          float *pixel = dst + ((b * height_ + y) * width_ + x) * channels;
          const float coord[4] = {static_cast<float>(x), static_cast<float>(y),
                                  0.0f, 1.0f};
          const float tx = dot4(xt, coord), ty = dot4(yt, coord);
          // NaN compares false everywhere: treated as outside.
          if (!(tx >= 0.0f && tx <= inW - 1 && ty >= 0.0f && ty <= inH - 1)) {
            std::fill(pixel, pixel + channels, 0.0f);
            continue;
          }
          const float fx = std::floor(tx), fy = std::floor(ty);
          const int64_t ix = static_cast<int64_t>(fx);
          const int64_t iy = static_cast<int64_t>(fy);
          auto read = [&](int64_t h, int64_t w, int64_t z) {
            if (h < 0 || w < 0 || h >= inH || w >= inW)
              return 0.0f;
            return image[(h * inW + w) * channels + z];
          };
          const float right = tx - fx, lowerWeight = ty - fy;
          for (int64_t z = 0; z < channels; ++z) {
            const float q11 = read(iy, ix, z), q21 = read(iy, ix + 1, z);
            const float q12 = read(iy + 1, ix, z),
                        q22 = read(iy + 1, ix + 1, z);
            const float upper = (1.0 - right) * q11 + right * q21;
            const float lower = (1.0 - right) * q12 + right * q22;
            pixel[z] = lowerWeight * lower + (1.0 - lowerWeight) * upper;
          }
        }
    }
  }

private:
  int64_t height_ = 0, width_ = 0;
};

/// TransformLandmarks (v2): landmarks [1, N, D] (D 2 or 3) and a [1, 4, 4]
/// matrix -> the landmarks with x' = m0 x + m1 y + m3, y' = m4 x + m5 y +
/// m7 (z unchanged).
class TransformLandmarksKernel final : public OpKernel {
public:
  using OpKernel::OpKernel;

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &matrix = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.rank() == 3,
        errorf("landmarks must be 3-D: %s", in.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.dtype() == DType::F32 && matrix.dtype() == DType::F32,
        errorf("landmarks and matrix must be float32"));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkMatrix(*this, matrix));
    const int64_t dims = in.dim(2);
    TFRT_FALLBACK_OP_REQUIRES(ctx, dims == 2 || dims == 3,
                              errorf("Incorrect dimensions size: %d", dims));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    const float *m = matrix.data<float>();
    const float xt[4] = {m[0], m[1], m[2], m[3]};
    const float yt[4] = {m[4], m[5], m[6], m[7]};
    const float *src = in.data<float>();
    float *dst = out->data<float>();
    for (int64_t i = 0, n = in.numElements() / dims; i < n; ++i) {
      const float *p = src + i * dims;
      const float v[4] = {p[0], p[1], 0.0f, 1.0f};
      float *q = dst + i * dims;
      const float x = dot4(xt, v), y = dot4(yt, v);
      q[0] = x;
      q[1] = y;
      if (dims == 3)
        q[2] = p[2];
    }
  }
};

} // namespace

void registerMediaPipeKernels(KernelRegistry &registry) {
  registerKernel<OpId::kLandmarks2TransformMatrix,
                 Landmarks2TransformMatrixKernel>(registry);
  registerKernel<OpId::kTransformTensorBilinear, TransformTensorBilinearKernel>(
      registry);
  registerKernel<OpId::kTransformLandmarks, TransformLandmarksKernel>(registry);
}

} // namespace tfrt_fallback::rt
