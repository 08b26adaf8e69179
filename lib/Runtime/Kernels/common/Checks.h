//===- Checks.h - Errors and attributes of a kernel -------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. What every kernel checks, with one error text
// each: the shape layer's errors as the op's, optional attributes, input
// dtypes.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_CHECKS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_CHECKS_H

#include "tfrt_fallback/Runtime/Limits.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <string>
#include <utility>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// `status` (an error of the shape layer, lib/Runtime/Shape, which names
/// no op) as the error of `kernel`: "<op> '<node>': <message>", same code.
inline Status opError(const OpKernel &kernel, const Status &status) {
  return makeOpError(status.code(), kernel.opName(), kernel.nodeName(),
                     status.message());
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

/// Reads optional attribute `name` into `*value`, keeping the TF default
/// already stored there when the attribute is absent.
template <typename T>
Status getOptionalAttr(OpKernelConstructionInterface *ctx,
                       std::string_view name, T *value) {
  if (!ctx->hasAttr(name))
    return OkStatus();
  return ctx->getAttr(name, value);
}

/// Input `index` must have `dtype`: the loader checks the dtypes that type
/// attributes bind, a kernel those its OpDef fixes. InvalidArgument "input
/// 1 must be int32, got int64" naming `op` otherwise.
inline Status checkInputDType(const OpKernel &op, OpKernelContextInterface *ctx,
                              int index, DType dtype) {
  const DType got = ctx->input(index).dtype();
  if (got != dtype)
    return op.errorf("input %d must be %s, got %s", index, dtypeName(dtype),
                     dtypeName(got));
  return OkStatus();
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_CHECKS_H
