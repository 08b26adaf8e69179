//===- Kernels.h - Built-in fallback kernel registration --------*- C++ -*-===//
//
// Explicit registration functions for the built-in TF op kernels, declared
// from the family table KernelFamilies.def: one per family
// (lib/Runtime/Kernels/<library>/<Name>Kernels.cpp) and one per kernel
// library, which registers the library's families (its static library
// TFRTFallbackKernels<Library>, as TFRT's kernels/<library>/
// static_registration.cc). There are no static constructors: a runtime (or
// a test) builds a KernelRegistry and calls registerAllKernels(), or only
// the libraries or families it needs, and links only those. The table's
// comments give examples; docs/Kernels.md lists each family's ops, dtypes
// and TensorFlow semantics, and `fallback-run --list-kernels` prints the
// registry.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_KERNELS_H
#define TFRT_FALLBACK_RUNTIME_KERNELS_H

#include "tfrt_fallback/Runtime/KernelRegistry.h"

namespace tfrt_fallback::rt {

/// Registers every library of KernelFamilies.def, in the table's order.
void registerAllKernels(KernelRegistry &registry);

/// register<Name>Kernels() for each family of KernelFamilies.def, where a
/// comment above each row says what it registers, and
/// register<Library>KernelLibrary() for each library (declared once per
/// row: a function may be declared again).
#define TFRT_FALLBACK_KERNEL_FAMILY(Library, Name)                             \
  void register##Name##Kernels(KernelRegistry &registry);                      \
  void register##Library##KernelLibrary(KernelRegistry &registry);
#include "tfrt_fallback/Runtime/KernelFamilies.def"

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_KERNELS_H
