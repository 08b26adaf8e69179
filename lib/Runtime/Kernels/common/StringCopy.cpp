//===- StringCopy.cpp - Element moves of string tensors ---------*- C++ -*-===//
//
// Concatenated rows and strided reads of string tensors.
//
//===----------------------------------------------------------------------===//

#include "common/StringCopy.h"

#include <vector>

namespace tfrt_fallback::rt::kernels {

void emitStringRows(OpKernelContextInterface *ctx,
                    absl::Span<const Tensor *const> inputs,
                    absl::Span<const int64_t> rowSizes, int64_t outer,
                    TensorShape shape) {
  std::vector<std::string_view> views;
  views.reserve(static_cast<size_t>(shape.numElements()));
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inputs.size(); ++i) {
      const std::string_view *row =
          inputs[i]->data<std::string_view>() + o * rowSizes[i];
      views.insert(views.end(), row, row + rowSizes[i]);
    }
  StatusOr<Tensor> out = makeStringTensor(shape, views);
  if (!out.ok())
    return ctx->ctxFailure(out.status());
  ctx->setOutput(0, *std::move(out));
}

void emitStringStridedView(OpKernelContextInterface *ctx, const Tensor &in,
                           int64_t base, const Dims &dims, const Dims &strides,
                           TensorShape shape) {
  if (shape.numElements() > 0 && isContiguousPlan(dims, strides)) {
    ctx->setOutput(0, stringSubTensor(in, base, std::move(shape)));
    return;
  }
  const int rank = static_cast<int>(dims.size());
  const std::string_view *src = in.data<std::string_view>();
  std::vector<std::string_view> views;
  views.reserve(static_cast<size_t>(shape.numElements()));
  // Row-major over the output, carrying an input offset per dim.
  Dims index(rank, 0);
  int64_t offset = base;
  for (int64_t n = shape.numElements(); n > 0; --n) {
    views.push_back(src[offset]);
    for (int d = rank - 1; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < dims[d])
        break;
      offset -= strides[d] * dims[d];
      index[d] = 0;
    }
  }
  StatusOr<Tensor> out = makeStringTensor(shape, views);
  if (!out.ok())
    return ctx->ctxFailure(out.status());
  ctx->setOutput(0, *std::move(out));
}

} // namespace tfrt_fallback::rt::kernels
