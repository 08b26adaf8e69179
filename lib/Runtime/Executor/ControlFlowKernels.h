//===- ControlFlowKernels.h - Control flow as kernels -----------*- C++ -*-===//
//
// The control flow of a program runs as kernels, as in TFRT
// (control_flow_kernels.cc): the loader turns each call, If, Case and While
// instruction of a binary program into a kernel instruction whose kernel
// calls the instruction's functions through the FunctionRunner of its
// context, so the executor knows no control-flow opcode. Only builds with
// control flow (Features.h) have them.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_EXECUTOR_CONTROLFLOWKERNELS_H
#define TFRT_FALLBACK_LIB_RUNTIME_EXECUTOR_CONTROLFLOWKERNELS_H

#include "tfrt_fallback/Runtime/BinaryFormat.h"
#include "tfrt_fallback/Runtime/OpKernel.h"

#include "absl/types/span.h"

#include <cstdint>
#include <memory>

namespace tfrt_fallback::rt {

/// The op name of the kernel of a control-flow opcode, for messages: "If",
/// "Case", "While" or "Call".
const char *controlFlowOpName(bef::Opcode opcode);

/// The kernel of a control-flow instruction with opcode `opcode` (Call,
/// If, Case or While) calling functions `callees` (the callee of a call;
/// then and else; the branches; the condition and the body). Its inputs
/// and outputs are the instruction's without its chain:
///   Call   the callee's arguments; its results
///   If     the predicate, then the branches' arguments; their results
///   Case   the i32 branch index, then the branches' arguments; their
///          results (an index out of range runs the last branch)
///   While  the initial loop values; the final ones
/// A callee that takes a chain gets an empty tensor for it, and its chain
/// result is dropped. The loader has checked that the callees fit
/// (docs/BinaryFormat.md).
std::unique_ptr<OpKernel>
createControlFlowKernel(bef::Opcode opcode, absl::Span<const uint32_t> callees,
                        OpKernelConstructionInterface *construction);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_LIB_RUNTIME_EXECUTOR_CONTROLFLOWKERNELS_H
