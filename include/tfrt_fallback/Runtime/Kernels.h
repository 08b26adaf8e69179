//===- Kernels.h - Built-in fallback kernel registration --------*- C++ -*-===//
//
// Explicit registration functions for the built-in TF op kernels, one per
// family (lib/Runtime/Kernels/<Family>Kernels.cpp). There are no static
// constructors: a runtime (or a test) builds a KernelRegistry and calls
// registerAllKernels(), or only the families it needs. docs/Kernels.md
// lists each family's ops, dtypes and TensorFlow semantics;
// `fallback-run --list-kernels` prints the registry.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_KERNELS_H
#define TFRT_FALLBACK_RUNTIME_KERNELS_H

#include "tfrt_fallback/Runtime/KernelRegistry.h"

namespace tfrt_fallback::rt {

/// Registers every family below.
void registerAllKernels(KernelRegistry &registry);

/// Binary arithmetic and comparisons with NumPy broadcasting (AddV2, Mul,
/// FloorDiv, Pow, Less, ...), LogicalAnd / LogicalOr, Select / SelectV2,
/// AddN, Exp and Neg.
void registerElementwiseKernels(KernelRegistry &registry);
/// Unary math (Abs, Log, Sqrt, Sin, Erf, ...), the activations Elu, Selu,
/// Softplus and LeakyRelu, IsNan / IsInf / IsFinite, LogicalNot, ZerosLike
/// and OnesLike.
void registerUnaryKernels(KernelRegistry &registry);
/// Cast between every pair of dtypes.
void registerCastKernels(KernelRegistry &registry);
/// MatMul, _FusedMatMul and BatchMatMul (V1 to V3).
void registerMatMulKernels(KernelRegistry &registry);
/// Relu, Relu6, Sigmoid, Tanh, BiasAdd, Softmax, LogSoftmax, Prelu and
/// FusedBatchNorm (V1 to V3).
void registerNNKernels(KernelRegistry &registry);
/// Conv2D, DepthwiseConv2dNative, their fused forms and
/// Conv2DBackpropInput.
void registerConvKernels(KernelRegistry &registry);
/// MaxPool, MaxPoolV2, AvgPool.
void registerPoolingKernels(KernelRegistry &registry);
/// ResizeBilinear, ResizeNearestNeighbor.
void registerImageKernels(KernelRegistry &registry);
/// DepthToSpace, SpaceToDepth, SpaceToBatchND, BatchToSpaceND.
void registerSpatialKernels(KernelRegistry &registry);
/// Views and shape queries: Reshape, Identity, Shape, ExpandDims, Squeeze,
/// Fill, BroadcastTo, Range, ....
void registerShapeKernels(KernelRegistry &registry);
/// Transpose, Tile, ReverseV2, Reverse.
void registerTransposeKernels(KernelRegistry &registry);
/// ConcatV2, Concat, Pack, Unpack, Split, SplitV.
void registerConcatSplitKernels(KernelRegistry &registry);
/// Slice, StridedSlice.
void registerSliceKernels(KernelRegistry &registry);
/// Pad, PadV2, MirrorPad.
void registerPadKernels(KernelRegistry &registry);
/// GatherV2, Gather, GatherNd, ScatterNd, SparseToDense, Where.
void registerGatherScatterKernels(KernelRegistry &registry);
/// Sum, Mean, Prod, Max, Min, All, Any, ArgMax, ArgMin, TopKV2.
void registerReductionKernels(KernelRegistry &registry);
/// NonMaxSuppressionV3, NonMaxSuppressionV5.
void registerNmsKernels(KernelRegistry &registry);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_KERNELS_H
