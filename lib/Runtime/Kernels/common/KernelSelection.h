//===- KernelSelection.h - Which built-in kernels this build has -*- C++
//-*-===//
//
// Selective registration, decided at compile time (as TensorFlow's
// SHOULD_REGISTER_OP_KERNEL and print_selective_registration_header do). A
// build configured with -DTFRT_FALLBACK_KERNELS=FILE (a kernel manifest, as
// `fallback-translate --emit-kernel-manifest` writes for a program)
// generates SelectedKernels.inc from it (cmake/KernelSelection.cmake): one
// {op, dtype} row per kernel the manifest names. The registerKernel forms of
// Registration.h ask isKernelSelected() in an `if constexpr`, so a kernel the
// manifest leaves out is never instantiated and its code is not in the
// binary. Without the option every kernel is selected.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_KERNELSELECTION_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_KERNELSELECTION_H

#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/OpTable.h"

namespace tfrt_fallback::rt {
// Internal linkage: each translation unit has the selection it was compiled
// with (a test compiles its own).
namespace {
namespace selection {

/// A kernel a selective build keeps: op `op` with type attribute T = dtype
/// `dtype` (the manifest's short name, "f32"), or with every dtype when
/// `dtype` is null (a manifest line without T).
struct SelectedKernel {
  const char *op;
  const char *dtype;
};

constexpr bool equal(const char *a, const char *b) {
  while (*a && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

/// The manifest's name of `dtype` ("f32"), or "" for a dtype without one.
constexpr const char *shortName(DType dtype) {
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, ...)         \
  case DType::Enum:                                                            \
    return Name;
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, PyName, Name,    \
                                      Mlir)                                    \
  case DType::Enum:                                                            \
    return Name;
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    return "";
  }
}

#ifdef TFRT_FALLBACK_SELECTED_KERNELS
inline constexpr bool kSelective = true;
inline constexpr SelectedKernel kSelectedKernels[] = {
#include TFRT_FALLBACK_SELECTED_KERNELS
    {nullptr, nullptr}};
#else
inline constexpr bool kSelective = false;
inline constexpr SelectedKernel kSelectedKernels[] = {{nullptr, nullptr}};
#endif

} // namespace selection

/// Whether this build registers op `op`'s kernel for T = `dtype`.
constexpr bool isKernelSelected(OpId op, DType dtype) {
  if (!selection::kSelective)
    return true;
  for (const selection::SelectedKernel &k : selection::kSelectedKernels)
    if (k.op && selection::equal(k.op, opName(op)) &&
        (!k.dtype || selection::equal(k.dtype, selection::shortName(dtype))))
      return true;
  return false;
}

/// Whether this build registers any kernel of op `op` (for kernels that
/// serve every dtype of an op).
constexpr bool isOpSelected(OpId op) {
  if (!selection::kSelective)
    return true;
  for (const selection::SelectedKernel &k : selection::kSelectedKernels)
    if (k.op && selection::equal(k.op, opName(op)))
      return true;
  return false;
}

} // namespace
} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_KERNELSELECTION_H
