//===- Unroll.h - Full unrolling of a fixed-count loop ----------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: TFRT_FALLBACK_UNROLL before a loop over a
// compile-time count (a microkernel's rows, vectors or pixels) asks the
// compiler to unroll it, so that its arrays of vectors stay in registers.
// Only a macro: the files compiled for one instruction set (GemmAvx2.cpp,
// GemmAvx512.cpp, DepthwiseAvx512.cpp) may include it.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_UNROLL_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_UNROLL_H

#if defined(__clang__)
#define TFRT_FALLBACK_UNROLL _Pragma("unroll")
#else
#define TFRT_FALLBACK_UNROLL _Pragma("GCC unroll 16")
#endif

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_UNROLL_H
