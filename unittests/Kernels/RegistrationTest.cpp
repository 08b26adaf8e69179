//===- RegistrationTest.cpp - Kernel family registration tests --*- C++ -*-===//
//
// registerAllKernels() is the union of the families of KernelFamilies.def,
// each of which registers something, and of its libraries, each the union
// of its families; every op the kernel library promises
// (the list below is written from the issue, not read from the registry) is
// registered, and the manifest says so.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <map>
#include <set>
#include <sstream>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(Registration, AllIsTheUnionOfTheFamilies) {
  size_t total = 0;
  for (void (*family)(KernelRegistry &) : {
#define TFRT_FALLBACK_KERNEL_FAMILY(Library, Name) register##Name##Kernels,
#include "tfrt_fallback/Runtime/KernelFamilies.def"
       }) {
    KernelRegistry registry;
    family(registry);
    EXPECT_GT(registry.size(), 0u);
    total += registry.size();
  }
  EXPECT_EQ(kernelRegistry().size(), total);
}

TEST(Registration, EachLibraryIsTheUnionOfItsFamilies) {
  std::map<std::string, size_t> familyDefs;
#define TFRT_FALLBACK_KERNEL_FAMILY(Library, Name)                             \
  {                                                                            \
    KernelRegistry registry;                                                   \
    register##Name##Kernels(registry);                                         \
    familyDefs[#Library] += registry.size();                                   \
  }
#include "tfrt_fallback/Runtime/KernelFamilies.def"
  size_t total = 0;
  std::set<std::string> seen;
#define TFRT_FALLBACK_KERNEL_FAMILY(Library, Name)                             \
  if (seen.insert(#Library).second) {                                          \
    KernelRegistry registry;                                                   \
    register##Library##KernelLibrary(registry);                                \
    EXPECT_EQ(registry.size(), familyDefs[#Library]) << #Library;              \
    total += registry.size();                                                  \
  }
#include "tfrt_fallback/Runtime/KernelFamilies.def"
  EXPECT_EQ(seen.size(), 11u);
  EXPECT_EQ(kernelRegistry().size(), total);
}

TEST(Registration, EveryPromisedOpIsRegistered) {
  std::set<std::string> ops;
  for (const KernelDef *def : kernelRegistry().listKernels())
    ops.insert(def->opName());
  for (const char *op :
       {// Elementwise binary.
        "Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod",
        "Maximum", "Minimum", "SquaredDifference", "Pow", "Atan2", "Equal",
        "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
        "LogicalAnd", "LogicalOr", "LogicalNot", "Select", "SelectV2",
        // Unary.
        "Abs", "Neg", "Exp", "Log", "Sqrt", "Rsqrt", "Square", "Reciprocal",
        "Floor", "Ceil", "Round", "Sin", "Cos", "Tanh", "Sigmoid", "Relu",
        "Relu6", "Elu", "LeakyRelu", "Softplus", "Cast", "ZerosLike",
        "OnesLike",
        // Neural network.
        "Conv2D", "Conv2DBackpropInput", "DepthwiseConv2dNative", "MatMul",
        "BatchMatMulV2", "BiasAdd", "MaxPool", "AvgPool", "Softmax",
        "LogSoftmax", "FusedBatchNormV3", "ResizeBilinear",
        "ResizeNearestNeighbor", "DepthToSpace", "SpaceToDepth",
        "SpaceToBatchND", "BatchToSpaceND", "_FusedConv2D",
        "_FusedDepthwiseConv2dNative", "FusedDepthwiseConv2dNative",
        "_FusedMatMul", "Prelu",
        // Reductions.
        "Mean", "Sum", "Max", "Min", "Prod", "All", "Any", "ArgMax", "ArgMin",
        "TopKV2",
        // Shape and data movement.
        "Reshape", "Transpose", "ConcatV2", "Pack", "Unpack", "Split", "SplitV",
        "Slice", "StridedSlice", "GatherV2", "GatherNd", "ScatterNd", "Pad",
        "PadV2", "MirrorPad", "Tile", "ExpandDims", "Squeeze", "Shape", "Size",
        "Rank", "Fill", "Range", "BroadcastTo", "Identity", "IdentityN", "AddN",
        "SparseToDense", "Where", "StopGradient", "NonMaxSuppressionV3",
        "NonMaxSuppressionV5",
        // Math.
        "Cumsum", "Cumprod", "CumulativeLogsumexp", "Erfc", "Xlogy", "Xlog1py",
        "DivNoNan", "MulNoNan", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
        "Invert", "LeftShift", "RightShift", "PopulationCount", "Bucketize",
        "LinSpace", "ApproximateEqual",
        // Linalg.
        "MatrixInverse", "MatrixDeterminant", "LogMatrixDeterminant",
        "Cholesky", "MatrixSolve", "MatrixTriangularSolve", "MatrixBandPart",
        "Diag", "DiagPart", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag",
        "MatrixDiagV2", "MatrixDiagPartV2", "MatrixSetDiagV2", "MatrixDiagV3",
        "MatrixDiagPartV3", "MatrixSetDiagV3",
        // NN additions.
        "Softsign", "LRN", "BatchNormWithGlobalNormalization",
        // CTC, image transforms, fused pad + conv, example parsing.
        "CTCGreedyDecoder", "CTCBeamSearchDecoder", "CombinedNonMaxSuppression",
        "ImageProjectiveTransformV2", "ImageProjectiveTransformV3",
        "TensorStridedSliceUpdate", "FusedPadConv2D", "FusedResizeAndPadConv2D",
        "ParseExample", "ParseExampleV2", "ParseSingleExample",
        "ParseSequenceExample", "ParseSequenceExampleV2",
        "ParseSingleSequenceExample"})
    EXPECT_TRUE(ops.count(op)) << op << " is not registered";
}

TEST(Registration, InputCountsComeFromTheOpTable) {
  const KernelRegistry &r = kernelRegistry();
  EXPECT_EQ(r.checkInputArity("Squeeze", 2).message(),
            "op 'Squeeze' takes 1 input, got 2");
  // TensorFlow's ConcatV2 joins N >= 2 values along an axis.
  EXPECT_EQ(r.checkInputArity("ConcatV2", 2).message(),
            "op 'ConcatV2' takes at least 3 inputs, got 2");
  EXPECT_TRUE(r.checkInputArity("ConcatV2", 5).ok());
  EXPECT_EQ(r.checkInputArity("NoSuchOp", 1).message(),
            "op 'NoSuchOp' has kernels but neither a row in the op table nor "
            "an input count");
}

/// A kernel that is never run: registrations for the checks below.
class UnusedKernel : public OpKernel {
public:
  explicit UnusedKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *) override {}
};

TEST(Registration, OwnOpsDeclareTheirInputCount) {
  KernelRegistry r;
  registerKernel<UnusedKernel>(r, KernelDefBuilder(kOpRow<OpId::kRelu>));
  r.setInputArity("MyOp", 1, 2);
  r.setInputArity("Relu", 0, 5); // The op table's row wins.
  EXPECT_TRUE(r.checkInputArity("MyOp", 2).ok());
  EXPECT_EQ(r.checkInputArity("MyOp", 3).message(),
            "op 'MyOp' takes 1 to 2 inputs, got 3");
  EXPECT_EQ(r.checkInputArity("Relu", 2).message(),
            "op 'Relu' takes 1 input, got 2");
  // An own op's T types every input and output.
  EXPECT_TRUE(r.checkTypeBindings("MyOp", {{"T", DType::F32}},
                                  {DType::F32, DType::F32}, {DType::F32})
                  .ok());
  EXPECT_EQ(r.checkTypeBindings("MyOp", {{"T", DType::F32}}, {DType::F32},
                                {DType::I32})
                .message(),
            "op 'MyOp' has T=f32 but its output #0 is i32");
}

TEST(Registration, TypeAttributesMustMatchOperands) {
  const KernelRegistry &r = kernelRegistry();
  using D = DType;
  // Default: T types every input and output.
  EXPECT_TRUE(
      r.checkTypeBindings("AddV2", {{"T", D::F32}}, {D::F32, D::F32}, {D::F32})
          .ok());
  EXPECT_EQ(
      r.checkTypeBindings("AddV2", {{"T", D::F32}}, {D::F32, D::F64}, {D::F32})
          .message(),
      "op 'AddV2' has T=f32 but its input #1 is f64");
  EXPECT_EQ(r.checkTypeBindings("Relu", {{"T", D::F64}}, {D::F32}, {D::F32})
                .message(),
            "op 'Relu' has T=f64 but its input #0 is f32");
  // Axes, conditions, indices and comparison results are not T.
  EXPECT_TRUE(r.checkTypeBindings("ConcatV2", {{"T", D::F32}},
                                  {D::F32, D::F32, D::F32, D::I32}, {D::F32})
                  .ok());
  EXPECT_EQ(r.checkTypeBindings("ConcatV2", {{"T", D::F32}},
                                {D::F32, D::I64, D::I32}, {D::F32})
                .message(),
            "op 'ConcatV2' has T=f32 but its input #1 is i64");
  EXPECT_TRUE(r.checkTypeBindings("SelectV2", {{"T", D::I32}},
                                  {D::Bool, D::I32, D::I32}, {D::I32})
                  .ok());
  EXPECT_TRUE(
      r.checkTypeBindings("Less", {{"T", D::F32}}, {D::F32, D::F32}, {D::Bool})
          .ok());
  EXPECT_TRUE(r.checkTypeBindings("Split", {{"T", D::F32}}, {D::I32, D::F32},
                                  {D::F32, D::F32, D::F32})
                  .ok());
  // Other type attributes.
  EXPECT_TRUE(r.checkTypeBindings("Cast", {{"SrcT", D::F32}, {"DstT", D::I32}},
                                  {D::F32}, {D::I32})
                  .ok());
  EXPECT_EQ(r.checkTypeBindings("Cast", {{"SrcT", D::F32}, {"DstT", D::I32}},
                                {D::F32}, {D::I64})
                .message(),
            "op 'Cast' has DstT=i32 but its output #0 is i64");
  EXPECT_EQ(r.checkTypeBindings("Mean", {{"T", D::F32}, {"Tidx", D::I64}},
                                {D::F32, D::I32}, {D::F32})
                .message(),
            "op 'Mean' has Tidx=i64 but its input #1 is i32");
  // NonMaxSuppressionV5's thresholds are T too.
  EXPECT_EQ(
      r.checkTypeBindings("NonMaxSuppressionV5", {{"T", D::F16}},
                          {D::F16, D::F16, D::I32, D::F32, D::F16, D::F16},
                          {D::I32, D::F16, D::I32})
          .message(),
      "op 'NonMaxSuppressionV5' has T=f16 but its input #3 is f32");
  // Variadic arguments are sized by their attributes: ShapeN's N values of
  // T, then its N shapes of out_type (ShapeN has no kernel: its row comes
  // with a registration of the test's).
  KernelRegistry shapeN;
  registerKernel<UnusedKernel>(shapeN, KernelDefBuilder(kOpRow<OpId::kShapeN>));
  EXPECT_EQ(shapeN
                .checkTypeBindings(
                    "ShapeN", {{"N", 2}, {"T", D::F32}, {"out_type", D::I32}},
                    {D::F32, D::F32}, {D::I32, D::I64})
                .message(),
            "op 'ShapeN' has out_type=i32 but its output #1 is i64");
  // _FusedConv2D's args are a list of types (the kernel checks them); its
  // host args are floats.
  EXPECT_TRUE(r.checkTypeBindings("_FusedConv2D",
                                  {{"T", D::F16},
                                   {"TArgs", std::vector<DType>{D::F16}},
                                   {"num_host_args", 1}},
                                  {D::F16, D::F16, D::F16, D::F32}, {D::F16})
                  .ok());
  EXPECT_EQ(r.checkTypeBindings("_FusedConv2D", {{"T", D::F16}},
                                {D::F16, D::F32, D::F16}, {D::F16})
                .message(),
            "op '_FusedConv2D' has T=f16 but its input #1 is f32");
}

TEST(Registration, ManifestListsEveryKernel) {
  const std::string manifest = kernelRegistry().manifest();
  EXPECT_EQ(manifest.rfind("# tfrt-fallback kernel manifest v1\n", 0), 0u);
  for (const char *line :
       {"kernel AddV2 T=f32\n", "kernel MatMul T=f64\n", "kernel Relu T=i8\n",
        "kernel BiasAdd T=i32\n", "kernel Softmax T=f16\n",
        "kernel Neg T=i64\n", "kernel _FusedConv2D T=f32\n",
        "kernel Less T=i32\n"})
    EXPECT_NE(manifest.find(line), std::string::npos) << line;
  size_t lines = 0;
  for (char c : manifest)
    lines += c == '\n';
  // The header, a line per kernel, and the five feature lines.
  EXPECT_EQ(lines, kernelRegistry().size() + 6);
  EXPECT_NE(manifest.find("\nfeature control-flow\nfeature strings\n"
                          "feature memory-plan\nfeature signatures\n"
                          "feature memmapped-package\n"),
            std::string::npos);
}

} // namespace
