//===- ShapeAgreementTest.cpp - Compiler and kernels agree -----*- C++ -*-===//
//-*-===//
//
// The compiler's shape inference (--tfrt-fallback-infer-shapes) and the
// kernels compute result shapes with the same shape layer
// (lib/Runtime/Shape). Each case here is a small TF function with static
// argument shapes: its result types after shape inference must be the
// shapes the runtime's kernels produce when the same function, lowered
// without shape inference, runs on zero-filled arguments.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Target/BinaryProgram.h"
#include "tfrt_fallback/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

namespace tfrt_fallback {
namespace {

using Dims = std::vector<int64_t>;

class ShapeAgreement : public ::testing::Test {
protected:
  ShapeAgreement() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    rt::registerAllKernels(kernels);
  }

  mlir::OwningOpRef<mlir::ModuleOp> parse(const std::string &source) {
    return mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  }

  /// The result shapes of @main as shape inference types them; empty
  /// dims mark a result it leaves unranked.
  std::vector<Dims> inferredShapes(const std::string &source) {
    auto module = parse(source);
    EXPECT_TRUE(module);
    mlir::PassManager pm(&context);
    pm.addPass(createTFRTFallbackInferShapes());
    EXPECT_TRUE(mlir::succeeded(pm.run(*module)));
    auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
    std::vector<Dims> shapes;
    for (mlir::Type type : main.getFunctionType().getResults()) {
      auto ranked = mlir::dyn_cast<mlir::RankedTensorType>(type);
      std::string printed;
      llvm::raw_string_ostream os(printed);
      os << type;
      EXPECT_TRUE(ranked && ranked.hasStaticShape())
          << "shape inference left " << printed;
      if (ranked)
        shapes.emplace_back(ranked.getShape().begin(), ranked.getShape().end());
    }
    return shapes;
  }

  /// The shapes of @main's results when the kernels run it, lowered
  /// without shape inference, on zero-filled f32 arguments of its
  /// argument shapes.
  std::vector<Dims> kernelShapes(const std::string &source) {
    auto module = parse(source);
    EXPECT_TRUE(module);
    std::vector<rt::Tensor> inputs;
    auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
    for (mlir::Type type : main.getFunctionType().getInputs()) {
      auto ranked = mlir::cast<mlir::RankedTensorType>(type);
      auto shape = rt::TensorShape::create(
          absl::MakeConstSpan(ranked.getShape().data(), ranked.getRank()));
      EXPECT_TRUE(shape.ok());
      auto tensor = rt::Tensor::allocate(rt::DType::F32, *shape);
      EXPECT_TRUE(tensor.ok());
      std::memset(tensor->rawData(), 0, shape->numElements() * sizeof(float));
      inputs.push_back(*std::move(tensor));
    }
    mlir::PassManager pm(&context);
    pm.addPass(createTFToTFRTFallback());
    EXPECT_TRUE(mlir::succeeded(pm.run(*module)));
    std::vector<uint8_t> bytes;
    EXPECT_TRUE(mlir::succeeded(writeBinaryProgram(*module, bytes)));
    auto program = rt::Program::load(
        absl::Span<const uint8_t>(bytes.data(), bytes.size()), kernels);
    EXPECT_TRUE(program.ok()) << program.status();
    if (!program.ok())
      return {};
    rt::HostContext host(/*numThreads=*/0);
    rt::Executor executor(**program, host);
    auto results =
        executor.run(*(*program)->lookupFunction("main"), std::move(inputs));
    EXPECT_TRUE(results.ok()) << results.status();
    std::vector<Dims> shapes;
    if (!results.ok())
      return shapes;
    for (const rt::ResultValue &value : *results) {
      EXPECT_TRUE(value.ok()) << value.status();
      if (value.ok())
        shapes.emplace_back(value->shape().dims().begin(),
                            value->shape().dims().end());
    }
    return shapes;
  }

  void expectAgreement(const std::string &source,
                       const std::vector<Dims> &expected) {
    std::vector<Dims> inferred = inferredShapes(source);
    EXPECT_EQ(inferred, expected) << "compiler";
    EXPECT_EQ(kernelShapes(source), expected) << "kernels";
  }

  mlir::MLIRContext context;
  rt::KernelRegistry kernels;
};

TEST_F(ShapeAgreement, ReshapeMinusOne) {
  // [2, 3, 4] to [-1, 4]; [0, 3] to [0, -1] and [3, 0, 2] to [-1, 0] (zero
  // dims left out of the inference, TF's kernel's rule); [0, 3] to [-1, 5].
  expectAgreement(R"mlir(
func.func @main(%x: tensor<2x3x4xf32>, %e: tensor<0x3xf32>, %f: tensor<3x0x2xf32>)
    -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %s0 = "tf.Const"() {dtype = i32, value = dense<[-1, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s1 = "tf.Const"() {dtype = i32, value = dense<[0, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2 = "tf.Const"() {dtype = i32, value = dense<[-1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s3 = "tf.Const"() {dtype = i32, value = dense<[-1, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%x, %s0) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<*xf32>
  %1 = "tf.Reshape"(%e, %s1) : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  %2 = "tf.Reshape"(%f, %s2) : (tensor<3x0x2xf32>, tensor<2xi32>) -> tensor<*xf32>
  %3 = "tf.Reshape"(%e, %s3) : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
})mlir",
                  {{6, 4}, {0, 3}, {6, 0}, {0, 5}});
}

TEST_F(ShapeAgreement, Broadcast) {
  // [3, 1, 5] with [4, 1] is [3, 4, 5]; [2, 1] with [0] is [2, 0] (1
  // against 0 is 0).
  expectAgreement(R"mlir(
func.func @main(%a: tensor<3x1x5xf32>, %b: tensor<4x1xf32>, %c: tensor<2x1xf32>, %d: tensor<0xf32>)
    -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.AddV2"(%a, %b) : (tensor<3x1x5xf32>, tensor<4x1xf32>) -> tensor<*xf32>
  %1 = "tf.Mul"(%c, %d) : (tensor<2x1xf32>, tensor<0xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
})mlir",
                  {{3, 4, 5}, {2, 0}});
}

TEST_F(ShapeAgreement, SameAsInputRows) {
  // Ops whose only rule in the compiler is their op table row's Shape
  // column (SameAsInput): TF's shape functions for Cumsum, ReverseV2,
  // FakeQuantWithMinMaxArgs and Bucketize are UnchangedShape, [2, 3].
  expectAgreement(R"mlir(
func.func @main(%x: tensor<2x3xf32>)
    -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>) {
  %axis = "tf.Const"() {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %axes = "tf.Const"() {dtype = i32, value = dense<[0]> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = "tf.Cumsum"(%x, %axis) {exclusive = false, reverse = false} : (tensor<2x3xf32>, tensor<i32>) -> tensor<*xf32>
  %1 = "tf.ReverseV2"(%x, %axes) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<*xf32>
  %2 = "tf.FakeQuantWithMinMaxArgs"(%x) {max = 6.0 : f32, min = -6.0 : f32, narrow_range = false, num_bits = 8 : i64} : (tensor<2x3xf32>) -> tensor<*xf32>
  %3 = "tf.Bucketize"(%x) {boundaries = [0.5 : f32]} : (tensor<2x3xf32>) -> tensor<*xi32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>
})mlir",
                  {{2, 3}, {2, 3}, {2, 3}, {2, 3}});
}

TEST_F(ShapeAgreement, StridedSameConvolution) {
  // SAME with stride 2: ceil(7 / 2) = 4 and ceil(8 / 2) = 4; a 3x3 max
  // pool of stride 2, VALID: (7 - 3) / 2 + 1 = 3, (8 - 3) / 2 + 1 = 3.
  expectAgreement(R"mlir(
func.func @main(%x: tensor<1x7x8x3xf32>, %w: tensor<3x3x3x5xf32>)
    -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.Conv2D"(%x, %w) {data_format = "NHWC", padding = "SAME", strides = [1, 2, 2, 1], dilations = [1, 1, 1, 1]} : (tensor<1x7x8x3xf32>, tensor<3x3x3x5xf32>) -> tensor<*xf32>
  %1 = "tf.MaxPool"(%x) {data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x7x8x3xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
})mlir",
                  {{1, 4, 4, 5}, {1, 3, 3, 3}});
}

TEST_F(ShapeAgreement, StridedSliceWithMasks) {
  // x[1:, ..., tf.newaxis, ::-2] of [4, 6, 8]: begin_mask leaves the last
  // begin open, the ellipsis keeps 6, a new axis, 8 walked backwards by 2
  // is 4: [3, 6, 1, 4]. x[2, :3] shrinks the first dim: [3, 8].
  expectAgreement(R"mlir(
func.func @main(%x: tensor<4x6x8xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %b = "tf.Const"() {dtype = i32, value = dense<[1, 0, 0, 0]> : tensor<4xi32>} : () -> tensor<4xi32>
  %e = "tf.Const"() {dtype = i32, value = dense<[0, 0, 0, 0]> : tensor<4xi32>} : () -> tensor<4xi32>
  %s = "tf.Const"() {dtype = i32, value = dense<[1, 1, 1, -2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "tf.StridedSlice"(%x, %b, %e, %s) {begin_mask = 8 : i64, end_mask = 9 : i64, ellipsis_mask = 2 : i64, new_axis_mask = 4 : i64, shrink_axis_mask = 0 : i64} : (tensor<4x6x8xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<*xf32>
  %b1 = "tf.Const"() {dtype = i32, value = dense<[2, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %e1 = "tf.Const"() {dtype = i32, value = dense<[3, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s1 = "tf.Const"() {dtype = i32, value = dense<[1, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.StridedSlice"(%x, %b1, %e1, %s1) {begin_mask = 0 : i64, end_mask = 0 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64} : (tensor<4x6x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
})mlir",
                  {{3, 6, 1, 4}, {3, 8}});
}

TEST_F(ShapeAgreement, Pad) {
  // [2, 3] padded by [[1, 2], [0, 4]] is [5, 7]; [0, 3] by [[1, 1], [2, 0]]
  // is [2, 5] (an empty input padded); MirrorPad SYMMETRIC of [2, 3] by
  // [[2, 0], [1, 3]] is [4, 7].
  expectAgreement(R"mlir(
func.func @main(%x: tensor<2x3xf32>, %e: tensor<0x3xf32>)
    -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %p0 = "tf.Const"() {dtype = i32, value = dense<[[1, 2], [0, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %p1 = "tf.Const"() {dtype = i64, value = dense<[[1, 1], [2, 0]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %p2 = "tf.Const"() {dtype = i32, value = dense<[[2, 0], [1, 3]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.Pad"(%x, %p0) : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<*xf32>
  %1 = "tf.Pad"(%e, %p1) : (tensor<0x3xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  %2 = "tf.MirrorPad"(%x, %p2) {mode = "SYMMETRIC"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
})mlir",
                  {{5, 7}, {2, 5}, {4, 7}});
}

TEST_F(ShapeAgreement, Concat) {
  // ConcatV2 of [2, 3], [2, 5] and [2, 0] on axis -1 is [2, 8]; Concat
  // (axis first) of [2, 3] and [4, 3] on axis 0 is [6, 3].
  expectAgreement(R"mlir(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<2x0xf32>, %d: tensor<4x3xf32>)
    -> (tensor<*xf32>, tensor<*xf32>) {
  %m1 = "tf.Const"() {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %z = "tf.Const"() {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ConcatV2"(%a, %b, %c, %m1) : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x0xf32>, tensor<i32>) -> tensor<*xf32>
  %1 = "tf.Concat"(%z, %a, %d) : (tensor<i32>, tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
})mlir",
                  {{2, 8}, {6, 3}});
}

} // namespace
} // namespace tfrt_fallback
