//===- OpArity.cpp - input counts and typing of the ops ---------*- C++ -*-===//
//
// How many inputs each op takes and which operands its type attributes
// type, from TensorFlow's op definitions (tensorflow/core/ops/*.cc).
// Kernels read their inputs by position and as the C++ type of their
// attribute; the program loader checks every node against these first, so a
// graph that gives an op too few inputs, or an f32 tensor to a kernel built
// for f64, is an error, not an out-of-bounds read or write.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerOpInputArities(KernelRegistry &registry) {
  constexpr int kAny = -1;
  struct Entry {
    const char *op;
    int minInputs;
    int maxInputs;
  };
  static const Entry kEntries[] = {
      // One input.
      {"Abs", 1, 1},
      {"Acos", 1, 1},
      {"Asin", 1, 1},
      {"Atan", 1, 1},
      {"AvgPool", 1, 1},
      {"Cast", 1, 1},
      {"Ceil", 1, 1},
      {"Cos", 1, 1},
      {"Cosh", 1, 1},
      {"DepthToSpace", 1, 1},
      {"Elu", 1, 1},
      {"Erf", 1, 1},
      {"Exp", 1, 1},
      {"Expm1", 1, 1},
      {"Floor", 1, 1},
      {"Identity", 1, 1},
      {"Inv", 1, 1},
      {"IsFinite", 1, 1},
      {"IsInf", 1, 1},
      {"IsNan", 1, 1},
      {"LeakyRelu", 1, 1},
      {"Log", 1, 1},
      {"Log1p", 1, 1},
      {"LogSoftmax", 1, 1},
      {"LogicalNot", 1, 1},
      {"MaxPool", 1, 1},
      {"Neg", 1, 1},
      {"OnesLike", 1, 1},
      {"Rank", 1, 1},
      {"Reciprocal", 1, 1},
      {"Relu", 1, 1},
      {"Relu6", 1, 1},
      {"Round", 1, 1},
      {"Rsqrt", 1, 1},
      {"Selu", 1, 1},
      {"Shape", 1, 1},
      {"Sigmoid", 1, 1},
      {"Sign", 1, 1},
      {"Sin", 1, 1},
      {"Sinh", 1, 1},
      {"Size", 1, 1},
      {"Softmax", 1, 1},
      {"Softplus", 1, 1},
      {"SpaceToDepth", 1, 1},
      {"Sqrt", 1, 1},
      {"Square", 1, 1},
      {"Squeeze", 1, 1},
      {"StopGradient", 1, 1},
      {"Tan", 1, 1},
      {"Tanh", 1, 1},
      {"Unpack", 1, 1},
      {"Where", 1, 1},
      {"ZerosLike", 1, 1},
      // Two inputs.
      {"Add", 2, 2},
      {"AddV2", 2, 2},
      {"All", 2, 2},
      {"Any", 2, 2},
      {"ArgMax", 2, 2},
      {"ArgMin", 2, 2},
      {"Atan2", 2, 2},
      {"BatchMatMul", 2, 2},
      {"BatchMatMulV2", 2, 2},
      {"BatchMatMulV3", 2, 2},
      {"BiasAdd", 2, 2},
      {"BroadcastTo", 2, 2},
      {"Conv2D", 2, 2},
      {"DepthwiseConv2dNative", 2, 2},
      {"Div", 2, 2},
      {"Equal", 2, 2},
      {"ExpandDims", 2, 2},
      {"Fill", 2, 2},
      {"FloorDiv", 2, 2},
      {"FloorMod", 2, 2},
      {"Gather", 2, 2},
      {"GatherNd", 2, 2},
      {"Greater", 2, 2},
      {"GreaterEqual", 2, 2},
      {"Less", 2, 2},
      {"LessEqual", 2, 2},
      {"LogicalAnd", 2, 2},
      {"LogicalOr", 2, 2},
      {"MatMul", 2, 2},
      {"Max", 2, 2},
      {"Maximum", 2, 2},
      {"Mean", 2, 2},
      {"Min", 2, 2},
      {"Minimum", 2, 2},
      {"MirrorPad", 2, 2},
      {"Mul", 2, 2},
      {"NotEqual", 2, 2},
      {"Pad", 2, 2},
      {"Pow", 2, 2},
      {"Prelu", 2, 2},
      {"Prod", 2, 2},
      {"RealDiv", 2, 2},
      {"Reshape", 2, 2},
      {"ResizeBilinear", 2, 2},
      {"ResizeNearestNeighbor", 2, 2},
      {"Reverse", 2, 2},
      {"ReverseV2", 2, 2},
      {"Split", 2, 2},
      {"SquaredDifference", 2, 2},
      {"Sub", 2, 2},
      {"Sum", 2, 2},
      {"Tile", 2, 2},
      {"TopKV2", 2, 2},
      {"Transpose", 2, 2},
      // Three or more.
      {"BatchToSpaceND", 3, 3},
      {"Conv2DBackpropInput", 3, 3},
      {"GatherV2", 3, 3},
      {"MaxPoolV2", 3, 3},
      {"PadV2", 3, 3},
      {"Range", 3, 3},
      {"ScatterNd", 3, 3},
      {"Select", 3, 3},
      {"SelectV2", 3, 3},
      {"Slice", 3, 3},
      {"SpaceToBatchND", 3, 3},
      {"SplitV", 3, 3},
      {"SparseToDense", 4, 4},
      {"StridedSlice", 4, 4},
      {"FusedBatchNorm", 5, 5},
      {"FusedBatchNormV2", 5, 5},
      {"FusedBatchNormV3", 5, 5},
      {"NonMaxSuppressionV3", 5, 5},
      {"NonMaxSuppressionV5", 6, 6},
      // Variadic: N values (and an axis for the concatenations); the fused
      // ops take 2 + num_args inputs, which their kernels check.
      {"AddN", 1, kAny},
      {"Concat", 2, kAny},
      {"ConcatV2", 2, kAny},
      {"IdentityN", 1, kAny},
      {"Pack", 1, kAny},
      {"_FusedConv2D", 2, kAny},
      {"_FusedDepthwiseConv2dNative", 2, kAny},
      {"FusedDepthwiseConv2dNative", 2, kAny},
      {"_FusedMatMul", 2, kAny},
  };
  for (const Entry &entry : kEntries)
    registry.setInputArity(entry.op, entry.minInputs, entry.maxInputs);
}

void registerOpTypeBindings(KernelRegistry &registry) {
  // Ops whose "T" does not type every input and output, and the other type
  // attributes kernels read their operands by (TensorFlow's OpDefs).
  struct Entry {
    const char *op;
    const char *attr;
    const char *inputs;
    const char *outputs;
  };
  static const Entry kEntries[] = {
      // T on the data operand; shapes, axes and indices are other types.
      {"Reshape", "T", "T.", "T"},
      {"ExpandDims", "T", "T.", "T"},
      {"Tile", "T", "T.", "T"},
      {"Pad", "T", "T.", "T"},
      {"PadV2", "T", "T.T", "T"},
      {"MirrorPad", "T", "T.", "T"},
      {"BroadcastTo", "T", "T.", "T"},
      {"Transpose", "T", "T.", "T"},
      {"Slice", "T", "T..", "T"},
      {"StridedSlice", "T", "T...", "T"},
      {"Split", "T", ".T", "T*"},
      {"SplitV", "T", "T..", "T*"},
      {"ConcatV2", "T", "T*.", "T"},
      {"Concat", "T", ".T*", "T"},
      {"Reverse", "T", "T.", "T"},
      {"ReverseV2", "T", "T.", "T"},
      {"SpaceToBatchND", "T", "T..", "T"},
      {"BatchToSpaceND", "T", "T..", "T"},
      {"MaxPoolV2", "T", "T..", "T"},
      {"Mean", "T", "T.", "T"},
      {"Sum", "T", "T.", "T"},
      {"Max", "T", "T.", "T"},
      {"Min", "T", "T.", "T"},
      {"Prod", "T", "T.", "T"},
      {"ArgMax", "T", "T.", "."},
      {"ArgMin", "T", "T.", "."},
      {"TopKV2", "T", "T.", "T."},
      {"Select", "T", ".TT", "T"},
      {"SelectV2", "T", ".TT", "T"},
      {"Fill", "T", ".T", "T"},
      {"ScatterNd", "T", ".T.", "T"},
      {"SparseToDense", "T", "..TT", "T"},
      {"Where", "T", "T", "."},
      {"Shape", "T", "T", "."},
      {"Size", "T", "T", "."},
      {"Rank", "T", "T", "."},
      {"Conv2DBackpropInput", "T", ".TT", "T"},
      {"ResizeBilinear", "T", "T.", "."},
      {"ResizeNearestNeighbor", "T", "T.", "T"},
      {"NonMaxSuppressionV3", "T", "TT...", "."},
      {"NonMaxSuppressionV5", "T", "TT....", ".T."},
      {"FusedBatchNormV2", "T", "T....", "T...."},
      {"FusedBatchNormV3", "T", "T....", "T....."},
      // Comparisons produce bool.
      {"Equal", "T", "TT", "."},
      {"NotEqual", "T", "TT", "."},
      {"Less", "T", "TT", "."},
      {"LessEqual", "T", "TT", "."},
      {"Greater", "T", "TT", "."},
      {"GreaterEqual", "T", "TT", "."},
      {"IsNan", "T", "T", "."},
      {"IsInf", "T", "T", "."},
      {"IsFinite", "T", "T", "."},
      // Other type attributes.
      {"GatherV2", "Tparams", "T..", "T"},
      {"GatherNd", "Tparams", "T.", "T"},
      {"Gather", "Tparams", "T.", "T"},
      {"Cast", "SrcT", "T", "."},
      {"Cast", "DstT", ".", "T"},
      {"BatchMatMulV3", "Ta", "T.", "."},
      {"BatchMatMulV3", "Tb", ".T", "."},
      {"BatchMatMulV3", "Tout", "..", "T"},
  };
  for (const Entry &entry : kEntries)
    registry.setTypeBinding(entry.op, entry.attr, entry.inputs, entry.outputs);
}

} // namespace tfrt_fallback::rt
