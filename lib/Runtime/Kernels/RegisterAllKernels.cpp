//===- RegisterAllKernels.cpp - Register every built-in kernel --*- C++ -*-===//
//
// registerAllKernels(): every kernel family, in a fixed order.
//
//===----------------------------------------------------------------------===//

#include "FusedPadConv.h"

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerAllKernels(KernelRegistry &registry) {
  registerElementwiseKernels(registry);
  registerUnaryKernels(registry);
  registerCastKernels(registry);
  registerMatMulKernels(registry);
  registerNNKernels(registry);
  registerConvKernels(registry);
  registerPoolingKernels(registry);
  registerImageKernels(registry);
  registerSpatialKernels(registry);
  registerShapeKernels(registry);
  registerTransposeKernels(registry);
  registerConcatSplitKernels(registry);
  registerSliceKernels(registry);
  registerPadKernels(registry);
  registerGatherScatterKernels(registry);
  registerReductionKernels(registry);
  registerNmsKernels(registry);
  registerListKernels(registry);
  registerMapKernels(registry);
  registerTensorArrayKernels(registry);
  registerResourceKernels(registry);
  registerLookupTableKernels(registry);
  registerMathKernels(registry);
  registerLinalgKernels(registry);
  registerPartitionKernels(registry);
  registerUniqueKernels(registry);
  registerArrayKernels(registry);
  registerShapeVectorKernels(registry);
  registerCheckKernels(registry);
  registerArithmeticKernels(registry);
  registerTensorScatterKernels(registry);
  registerBincountKernels(registry);
  registerFakeQuantKernels(registry);
  registerSparseSegmentKernels(registry);
  registerSparseKernels(registry);
  registerSetOpsKernels(registry);
  registerSparseCrossKernels(registry);
  registerRaggedKernels(registry);
  registerXentKernels(registry);
  registerQrKernels(registry);
  registerColorKernels(registry);
  registerPatchKernels(registry);
  registerRandomKernels(registry);
  registerConv3DKernels(registry);
  registerPooling3DKernels(registry);
  registerEinsumKernels(registry);
  registerStringOpsKernels(registry);
  registerStringConvertKernels(registry);
  registerStringHashKernels(registry);
  registerRegexKernels(registry);
  registerComplexKernels(registry);
  registerFftKernels(registry);
  registerCtcKernels(registry);
  registerImageTransformKernels(registry);
  registerFusedPadConvKernels(registry);
  registerExampleParsingKernels(registry);
  registerImmutableConstKernels(registry);
  registerRandomDistributionKernels(registry);
  registerUnicodeKernels(registry);
  registerSerializationKernels(registry);
  registerQuantizationKernels(registry);
  registerQuantizedNNKernels(registry);
  registerAudioKernels(registry);
  registerImageCodecKernels(registry);
  registerMediaPipeKernels(registry);
  registerTFLiteQuantizedKernels(registry);
}

} // namespace tfrt_fallback::rt
