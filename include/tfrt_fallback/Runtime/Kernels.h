//===- Kernels.h - Built-in fallback kernel registration --------*- C++ -*-===//
//
// Explicit registration functions for the built-in TF op kernels. There are
// no static constructors: a runtime (or a test) builds a KernelRegistry and
// calls registerAllKernels(), or only the families it needs.
//
// Families and ops:
//   registerElementwiseKernels: AddV2, Add, Sub, Mul, RealDiv, Div, Maximum,
//                               Minimum (NumPy broadcasting), Exp, Neg
//   registerMatMulKernels:      MatMul
//   registerNNKernels:          Relu, Relu6, Sigmoid, Tanh, BiasAdd, Softmax
//   registerShapeKernels:       Reshape, Identity
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_KERNELS_H
#define TFRT_FALLBACK_RUNTIME_KERNELS_H

#include "tfrt_fallback/Runtime/KernelRegistry.h"

namespace tfrt_fallback::rt {

/// Registers every family below.
void registerAllKernels(KernelRegistry &registry);

/// Binary arithmetic with broadcasting, Exp and Neg.
void registerElementwiseKernels(KernelRegistry &registry);
/// MatMul.
void registerMatMulKernels(KernelRegistry &registry);
/// Activations (Relu, Relu6, Sigmoid, Tanh), BiasAdd and Softmax.
void registerNNKernels(KernelRegistry &registry);
/// Reshape and Identity (zero-copy).
void registerShapeKernels(KernelRegistry &registry);
/// Unary math and activations: Abs, Log, Sqrt, Elu, LeakyRelu, ....
void registerUnaryKernels(KernelRegistry &registry);
/// Cast between the supported dtypes.
void registerCastKernels(KernelRegistry &registry);
/// Conv2D, Conv2DBackpropInput, DepthwiseConv2dNative and fused forms.
void registerConvKernels(KernelRegistry &registry);
/// MaxPool, AvgPool.
void registerPoolingKernels(KernelRegistry &registry);
/// ResizeBilinear, ResizeNearestNeighbor.
void registerImageKernels(KernelRegistry &registry);
/// DepthToSpace, SpaceToDepth, SpaceToBatchND, BatchToSpaceND.
void registerSpatialKernels(KernelRegistry &registry);
/// Transpose, Tile, ReverseV2, Reverse.
void registerTransposeKernels(KernelRegistry &registry);
/// ConcatV2, Concat, Pack, Unpack, Split, SplitV.
void registerConcatSplitKernels(KernelRegistry &registry);
/// Slice, StridedSlice.
void registerSliceKernels(KernelRegistry &registry);
/// Pad, PadV2, MirrorPad.
void registerPadKernels(KernelRegistry &registry);
/// GatherV2, GatherNd, ScatterNd, SparseToDense, Where.
void registerGatherScatterKernels(KernelRegistry &registry);
/// Mean, Sum, Max, Min, Prod, All, Any, ArgMax, ArgMin, TopKV2.
void registerReductionKernels(KernelRegistry &registry);
/// NonMaxSuppressionV3, NonMaxSuppressionV5.
void registerNmsKernels(KernelRegistry &registry);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_KERNELS_H
