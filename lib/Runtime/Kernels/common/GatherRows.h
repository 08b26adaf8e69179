//===- GatherRows.h - Outputs made of picked rows of an input ---*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: what the sparse and ragged families share
// to move values of any dtype, strings included. An output is made of rows
// of an input (a row is `rowSize` elements: one value of a SparseTensor, or
// one inner slice of a ragged tensor's flat values), picked by row number.
// Numeric rows move as raw bytes; string rows are copied into a string
// tensor of its own (makeStringTensor), so the output never keeps the
// input's buffer alive.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_GATHERROWS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_GATHERROWS_H

#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include "absl/types/span.h"

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt::kernels {

/// Sets output `index` of `ctx` to a tensor of `shape` with `in`'s dtype
/// whose row r is row rows[r] of `in`, each row `rowSize` elements. The
/// caller has checked every row number against `in` and that `shape` holds
/// rows.size() * rowSize elements.
inline Status emitGatheredRows(OpKernelContextInterface *ctx, int index,
                               const Tensor &in, absl::Span<const int64_t> rows,
                               int64_t rowSize, const TensorShape &shape) {
  if (in.dtype() == DType::String) {
    const absl::Span<const std::string_view> src = stringElements(in);
    std::vector<std::string_view> views;
    views.reserve(rows.size() * rowSize);
    for (int64_t row : rows)
      views.insert(views.end(), src.begin() + row * rowSize,
                   src.begin() + (row + 1) * rowSize);
    StatusOr<Tensor> out = makeStringTensor(shape, views);
    if (!out.ok())
      return out.status();
    ctx->setOutput(index, *std::move(out));
    return OkStatus();
  }
  Tensor *out = nullptr;
  if (Status status = ctx->allocateOutput(index, shape, &out); !status.ok())
    return status;
  const size_t rowBytes = rowSize * dtypeSize(in.dtype());
  if (rowBytes == 0)
    return OkStatus();
  const char *src = static_cast<const char *>(in.rawData());
  char *dst = static_cast<char *>(out->rawData());
  for (size_t r = 0; r < rows.size(); ++r)
    std::memcpy(dst + r * rowBytes, src + rows[r] * rowBytes, rowBytes);
  return OkStatus();
}

/// Every dtype a tensor of values can hold, strings included: what the
/// kernels that move values (TF's TF_CALL_ALL_TYPES registrations) accept.
inline constexpr DType kAllValueDTypes[] = {
#define TFRT_FALLBACK_DTYPE(Enum, ...) DType::Enum,
#include "tfrt_fallback/Runtime/DTypes.def"
    DType::String};

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_GATHERROWS_H
