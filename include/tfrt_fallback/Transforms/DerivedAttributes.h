//===- DerivedAttributes.h - TF attributes implied by types -----*- C++ -*-===//
//
// TensorFlow's MLIR leaves the type and number attributes of an op implicit
// when its operand and result types determine them (TF's ODS marks them
// derived: `T`, `N`, `Tidx`, `SrcT`/`DstT`, `out_type`, `[T]` lists, ...).
// The kernels need them written: deriveTFAttributes() computes them from the
// op's signature in the op table (tfrt_fallback/Runtime/OpTable.def).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_TRANSFORMS_DERIVEDATTRIBUTES_H
#define TFRT_FALLBACK_TRANSFORMS_DERIVEDATTRIBUTES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace tfrt_fallback {

/// Adds to `attrs` (the TF attributes of `op`, a `tf.*` op named `opName`
/// without the dialect prefix) every type attribute (`T = f32`), type-list
/// attribute (`T = [f32, i32]`) and number attribute (`N = 2 : i64`) that
/// the op table's signature of `opName` derives from the operand and result
/// types. `op`'s `operandSegmentSizes` / `resultSegmentSizes`, when they
/// have one entry per argument of the signature, say how many tensors each
/// variadic argument has; otherwise the attributes present do, and a single
/// variadic argument without one takes the tensors the others leave.
///
/// An attribute already in `attrs` is kept; when it contradicts the types,
/// or the types contradict each other (two operands of one `T` with
/// different dtypes), emits an error at `op` naming both and fails. Ops the
/// table does not list get nothing.
mlir::LogicalResult
deriveTFAttributes(mlir::Operation *op, llvm::StringRef opName,
                   llvm::SmallVectorImpl<mlir::NamedAttribute> &attrs);

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_TRANSFORMS_DERIVEDATTRIBUTES_H
