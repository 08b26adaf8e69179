//===- Kernels.h - Built-in fallback kernel registration --------*- C++ -*-===//
//
// Explicit registration functions for the built-in TF op kernels, one per
// family (lib/Runtime/Kernels/<Family>Kernels.cpp). There are no static
// constructors: a runtime (or a test) builds a KernelRegistry and calls
// registerAllKernels(), or only the families it needs. The comments below
// give examples; docs/Kernels.md lists each family's ops, dtypes and
// TensorFlow semantics, and `fallback-run --list-kernels` prints the
// registry.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_KERNELS_H
#define TFRT_FALLBACK_RUNTIME_KERNELS_H

#include "tfrt_fallback/Runtime/KernelRegistry.h"

namespace tfrt_fallback::rt {

/// Registers every family below.
void registerAllKernels(KernelRegistry &registry);

/// Binary arithmetic, comparisons and logic with NumPy broadcasting (AddV2,
/// Less, LogicalAnd, ...), Select, AddN, Exp and Neg.
void registerElementwiseKernels(KernelRegistry &registry);
/// Unary math, predicates and activations (Abs, Sqrt, IsNan, Elu,
/// LeakyRelu, ZerosLike, ...).
void registerUnaryKernels(KernelRegistry &registry);
/// Cast.
void registerCastKernels(KernelRegistry &registry);
/// Matrix products (MatMul, _FusedMatMul, BatchMatMulV2, ...).
void registerMatMulKernels(KernelRegistry &registry);
/// Activations, softmax, bias and batch norm (Relu, Softmax, BiasAdd,
/// FusedBatchNormV3, ...).
void registerNNKernels(KernelRegistry &registry);
/// Convolutions (Conv2D, DepthwiseConv2dNative, their fused forms,
/// Conv2DBackpropInput, ...).
void registerConvKernels(KernelRegistry &registry);
/// Pooling (MaxPool, AvgPool, ...).
void registerPoolingKernels(KernelRegistry &registry);
/// Image resizing (ResizeBilinear, ResizeNearestNeighbor, ...).
void registerImageKernels(KernelRegistry &registry);
/// Moves between space, depth and batch (DepthToSpace, SpaceToBatchND,
/// ...).
void registerSpatialKernels(KernelRegistry &registry);
/// Views and shape queries (Reshape, Identity, Shape, ExpandDims, Fill,
/// ...).
void registerShapeKernels(KernelRegistry &registry);
/// Reordering and repeating elements (Transpose, Tile, ReverseV2, ...).
void registerTransposeKernels(KernelRegistry &registry);
/// Joining and cutting along an axis (ConcatV2, Pack, Split, ...).
void registerConcatSplitKernels(KernelRegistry &registry);
/// Slices (Slice, StridedSlice, ...).
void registerSliceKernels(KernelRegistry &registry);
/// Padding (Pad, PadV2, MirrorPad, ...).
void registerPadKernels(KernelRegistry &registry);
/// Indexed reads and writes (GatherV2, GatherNd, ScatterNd, Where, ...).
void registerGatherScatterKernels(KernelRegistry &registry);
/// Reductions along axes and selections (Sum, Mean, ArgMax, TopKV2, ...).
void registerReductionKernels(KernelRegistry &registry);
/// Non-max suppression (NonMaxSuppressionV3, NonMaxSuppressionV5, ...).
void registerNmsKernels(KernelRegistry &registry);
/// TensorLists (TensorListReserve, TensorListSetItem, TensorListStack, ...).
void registerListKernels(KernelRegistry &registry);
/// TensorMaps (EmptyTensorMap, TensorMapInsert, TensorMapLookup, ...;
/// MapKernels.cpp).
void registerMapKernels(KernelRegistry &registry);
/// TensorArrays, V3 and the deprecated V1 and V2 (TensorArrayV3,
/// TensorArrayWriteV3, TensorArrayReadV3, TensorArrayGatherV3, TensorArrayV2,
/// TensorArrayPack, ...; TensorArrayKernels.cpp).
void registerTensorArrayKernels(KernelRegistry &registry);
/// VarHandleOp, ReadVariableOp, AssignVariableOp, AssignAdd/SubVariableOp,
/// VarIsInitializedOp, DestroyResourceOp (ResourceKernels.cpp).
void registerResourceKernels(KernelRegistry &registry);
/// Lookup tables, resources of the ResourceManager (HashTableV2,
/// MutableHashTableV2, InitializeTableV2, LookupTableFindV2, ...;
/// LookupTableKernels.cpp, LookupInitKernels.cpp).
void registerLookupTableKernels(KernelRegistry &registry);
/// Math beyond the elementwise family: scans, safe and special functions,
/// bit operations, bucketing and segment reductions (Cumsum, Xlogy,
/// DivNoNan, BitwiseAnd, LeftShift, Bucketize, LinSpace, SegmentSum, ...).
void registerMathKernels(KernelRegistry &registry);
/// Linear algebra: Eigen decompositions and solves batched over leading dims,
/// bands and diagonals (MatrixInverse, MatrixDeterminant, Cholesky,
/// MatrixTriangularSolve, MatrixBandPart, Diag, MatrixDiagV3, ...).
void registerLinalgKernels(KernelRegistry &registry);
void registerPartitionKernels(KernelRegistry &registry);
void registerUniqueKernels(KernelRegistry &registry);
void registerArrayKernels(KernelRegistry &registry);
void registerShapeVectorKernels(KernelRegistry &registry);
void registerCheckKernels(KernelRegistry &registry);
void registerArithmeticKernels(KernelRegistry &registry);
void registerTensorScatterKernels(KernelRegistry &registry);
void registerBincountKernels(KernelRegistry &registry);
void registerFakeQuantKernels(KernelRegistry &registry);
void registerSparseSegmentKernels(KernelRegistry &registry);
void registerSparseKernels(KernelRegistry &registry);
void registerXentKernels(KernelRegistry &registry);
void registerQrKernels(KernelRegistry &registry);
void registerColorKernels(KernelRegistry &registry);
void registerPatchKernels(KernelRegistry &registry);
void registerRandomKernels(KernelRegistry &registry);
void registerConv3DKernels(KernelRegistry &registry);
void registerPooling3DKernels(KernelRegistry &registry);
void registerEinsumKernels(KernelRegistry &registry);
void registerStringOpsKernels(KernelRegistry &registry);
void registerStringConvertKernels(KernelRegistry &registry);
void registerStringHashKernels(KernelRegistry &registry);
void registerRegexKernels(KernelRegistry &registry);
/// Set operations on the last dimension of dense and sparse tensors
/// (DenseToDenseSetOperation, DenseToSparseSetOperation,
/// SparseToSparseSetOperation).
void registerSetOpsKernels(KernelRegistry &registry);
/// Feature crosses of sparse and dense columns (SparseCross,
/// SparseCrossHashed, SparseCrossV2).
void registerSparseCrossKernels(KernelRegistry &registry);
/// Ragged tensors as nested row splits plus flat values (RaggedRange,
/// RaggedGather, RaggedTensorToTensor, RaggedTensorToSparse, and the
/// variant encoding).
void registerRaggedKernels(KernelRegistry &registry);
/// Samplers beyond the uniform and normal ones: gamma, Poisson, shuffles and
/// distorted bounding boxes, stateful and stateless, on TF's Philox streams.
void registerRandomDistributionKernels(KernelRegistry &registry);
/// Unicode decoding, encoding and transcoding of string tensors (UTF-8,
/// UTF-16-BE, UTF-32-BE).
void registerUnicodeKernels(KernelRegistry &registry);
/// Tensors to and from bytes: StringFormat, SerializeTensor, DecodeRaw,
/// DecodePaddedRaw, ReadFile, WriteFile.
void registerSerializationKernels(KernelRegistry &registry);
/// tf.Example and tf.SequenceExample protobufs in string tensors
/// (ParseExample, ParseExampleV2, ParseSingleExample, ParseSequenceExample,
/// ParseSequenceExampleV2, ParseSingleSequenceExample).
void registerExampleParsingKernels(KernelRegistry &registry);
/// ImmutableConst: tensors over regions of the executor's memmapped
/// package (MemmappedPackage.h).
void registerImmutableConstKernels(KernelRegistry &registry);
/// CTC decoders (CTCGreedyDecoder, CTCBeamSearchDecoder).
void registerCtcKernels(KernelRegistry &registry);
/// Projective image transforms (ImageProjectiveTransformV2/V3).
void registerImageTransformKernels(KernelRegistry &registry);
/// Complex numbers: Complex, Real, Imag, Angle, Conj, ComplexAbs.
void registerComplexKernels(KernelRegistry &registry);
/// Fourier transforms in 1-3 dimensions (FFT, IFFT, RFFT, IRFFT and their
/// 2D and 3D forms).
void registerFftKernels(KernelRegistry &registry);
/// Audio features and the WAV codec: AudioSpectrogram, Mfcc, DecodeWav,
/// EncodeWav.
void registerAudioKernels(KernelRegistry &registry);
/// Image codecs on libjpeg-turbo, libpng and giflib: DecodeJpeg,
/// DecodeAndCropJpeg, DecodePng, DecodeGif, DecodeBmp, DecodeImage,
/// EncodeJpeg, EncodeJpegVariableQuality, EncodePng.
void registerImageCodecKernels(KernelRegistry &registry);
/// MediaPipe's TFLite custom ops: Landmarks2TransformMatrix,
/// TransformTensorBilinear, TransformLandmarks.
void registerMediaPipeKernels(KernelRegistry &registry);
/// TFLite's full-integer builtins no TF op computes: TFLiteQuantizedConv2D,
/// TFLiteQuantizedDepthwiseConv2D, TFLiteQuantizedFullyConnected,
/// TFLiteQuantizedAdd, TFLiteQuantizedMul, TFLiteQuantizedAvgPool,
/// TFLiteQuantizedMaxPool, TFLiteQuantize, TFLiteQuantizedLookup,
/// TFLiteQuantizedMean, TFLiteQuantizedSoftmax.
void registerTFLiteQuantizedKernels(KernelRegistry &registry);
/// Quantization and the quantized ops on quint8/qint8/qint32 tensors with
/// float ranges (QuantizeV2, Dequantize, Requantize, QuantizedConv2D,
/// QuantizedMatMul, QuantizedAdd, ...).
void registerQuantizationKernels(KernelRegistry &registry);
/// The quantized neural-network ops (QuantizedConv2D, QuantizedMatMul,
/// pooling, activations, batch norm, resize, bias, concat, reshape).
void registerQuantizedNNKernels(KernelRegistry &registry);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_KERNELS_H
