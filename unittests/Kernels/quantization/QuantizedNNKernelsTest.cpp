//===- QuantizedNNKernelsTest.cpp - QuantizedConv2D, MatMul, ... *- C++ -*-===//
//
// The quantized NN ops against values worked out by hand from TF's
// reference formulas (quantized_conv_ops.cc's ReferenceConvFunctor,
// quantization_utils.h): with an operand range of [0, 255] code c is c, in
// [-128, 127] it is c - 128, so the integer results are small products and
// sums. Ops whose output range is derived (BiasAdd, batch norm) are checked
// against a float reference within a quantization step. And TF's errors.
//
//===----------------------------------------------------------------------===//

#include "QuantizedTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// The documented real value of a qint32 code in [min, max].
double real32(int32_t code, double min, double max) {
  return min + (code + 2147483648.0) * (max - min) / 4294967295.0;
}

const std::vector<DType> kQ32Out3 = {DType::QI32, DType::F32, DType::F32};
const std::vector<DType> kQ8Out3 = {DType::QU8, DType::F32, DType::F32};
// One level of a [0, 255] and a [-128, 127] operand is 1.0: the product's
// range is [-2^31, 2^31].
const double kProductMin = -2147483648.0, kProductMax = 2147483648.0;

//===----------------------------------------------------------------------===//
// QuantizedConv2D
//===----------------------------------------------------------------------===//

AttrMap convAttrs(const char *padding, int64_t stride = 1) {
  return AttrMap{{"Tinput", DType::QU8},
                 {"Tfilter", DType::QU8},
                 {"out_type", DType::QI32},
                 {"strides", std::vector<int64_t>{1, stride, stride, 1}},
                 {"padding", padding}};
}

TEST(QuantizedConv2D, ValidAndSame) {
  // Input 1..9 in [0, 255] (3x3); filter values [[1, 2], [-1, 0]] as codes
  // c - 128 in [-128, 127].
  Tensor input = qu8({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor filter = qu8({2, 2, 1, 1}, {129, 130, 127, 128});
  // VALID: 1*1 + 2*2 - 4 = 1, 2 + 6 - 5 = 3, 4 + 10 - 7 = 7, 5 + 12 - 8 = 9.
  auto out =
      runKernelN("QuantizedConv2D", convAttrs("VALID"),
                 {input, filter, sc(0), sc(255), sc(-128), sc(127)}, kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {1, 2, 2, 1}, {1, 3, 7, 9});
  expectValues<float>((*out)[1], {}, {kProductMin});
  expectValues<float>((*out)[2], {}, {kProductMax});
  // SAME, stride 2: 2x2 windows at rows/cols 0 and 2 (offset 0), the
  // outside read as 0: 1, 3 - 6 = -3, 7 + 16 = 23, 9.
  out =
      runKernelN("QuantizedConv2D", convAttrs("SAME", 2),
                 {input, filter, sc(0), sc(255), sc(-128), sc(127)}, kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {1, 2, 2, 1}, {1, -3, 23, 9});
}

TEST(QuantizedConv2D, PaddingIsRealZero) {
  // Input in [-1, 1] (zero at code 128): code 130 is 2 levels. A 3x3 SAME
  // filter of 1s (code 129 in [-128, 127]) sees only the centre.
  auto out = runKernelN("QuantizedConv2D", convAttrs("SAME"),
                        {qu8({1, 1, 1, 1}, {130}),
                         qu8({3, 3, 1, 1}, std::vector<int64_t>(9, 129)),
                         sc(-1), sc(1), sc(-128), sc(127)},
                        kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {1, 1, 1, 1}, {2});
}

TEST(QuantizedConv2D, ChannelsAgainstAFloatReference) {
  // 2 input and 3 output channels, 4x4 input, 3x3 filter, SAME: the int32
  // result is the float convolution of the zero-shifted codes.
  const Dims in = {2, 4, 4, 2}, fd = {3, 3, 2, 3};
  std::vector<int64_t> inCodes, fCodes;
  for (int64_t i = 0; i < product(in); ++i)
    inCodes.push_back((i * 37) % 256);
  for (int64_t i = 0; i < product(fd); ++i)
    fCodes.push_back((i * 53 + 11) % 256);
  auto out = runKernelN("QuantizedConv2D", convAttrs("SAME"),
                        {qu8(shapeOf(in), inCodes), qu8(shapeOf(fd), fCodes),
                         sc(0), sc(255), sc(-128), sc(127)},
                        kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected;
  for (int b = 0; b < 2; ++b)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x)
        for (int oc = 0; oc < 3; ++oc) {
          double sum = 0;
          for (int fy = 0; fy < 3; ++fy)
            for (int fx = 0; fx < 3; ++fx)
              for (int ic = 0; ic < 2; ++ic) {
                const int iy = y + fy - 1, ix = x + fx - 1;
                if (iy < 0 || iy >= 4 || ix < 0 || ix >= 4)
                  continue;
                sum += inCodes[((b * 4 + iy) * 4 + ix) * 2 + ic] *
                       (fCodes[((fy * 3 + fx) * 2 + ic) * 3 + oc] - 128.0);
              }
          expected.push_back(sum);
        }
  expectValues<qint32>((*out)[0], {2, 4, 4, 3}, expected);
}

TEST(QuantizedConv2D, Errors) {
  auto run = [](AttrMap attrs, Tensor input, Tensor filter) -> std::string {
    return std::string(runKernelN("QuantizedConv2D", attrs,
                                  {std::move(input), std::move(filter), sc(0),
                                   sc(255), sc(-128), sc(127)},
                                  kQ32Out3)
                           .status()
                           .message());
  };
  AttrMap unequal = convAttrs("VALID");
  unequal.set("strides", std::vector<int64_t>{1, 2, 1, 1});
  EXPECT_EQ(run(unequal, qu8({1, 1, 1, 1}, {0}), qu8({1, 1, 1, 1}, {0})),
            opError("QuantizedConv2D",
                    "Current implementation only supports equal length "
                    "strides in the row and column dimensions."));
  EXPECT_EQ(run(convAttrs("VALID"), qu8({1, 1, 1, 1}, {0}),
                qu8({1, 1, 2, 1}, {0, 0})),
            opError("QuantizedConv2D",
                    "input and filter must have the same depth: 1 vs 2"));
  EXPECT_EQ(
      run(convAttrs("VALID"), qu8({1, 0, 1, 1}, {}), qu8({1, 1, 1, 1}, {0})),
      opError("QuantizedConv2D",
              "Invalid input: Shapes dimension cannot be 0."));
  EXPECT_EQ(
      run(convAttrs("VALID"), qu8({1, 1, 1}, {0}), qu8({1, 1, 1, 1}, {0})),
      opError("QuantizedConv2D", "input must be rank 4 but is rank 3"));
  EXPECT_EQ(run(convAttrs("VALID"), qu8({1, 1, 1, 1}, {0}),
                qu8({3, 3, 1, 1}, std::vector<int64_t>(9, 0))),
            opError("QuantizedConv2D",
                    "Computed output size would be negative: -1 [input_size: "
                    "1, effective_filter_size: 3, stride: 1]"));
  // TF CHECK-fails on an empty output.
  EXPECT_EQ(run(convAttrs("VALID"), qu8({1, 1, 1, 1}, {0}),
                qu8({2, 2, 1, 1}, {0, 0, 0, 0})),
            opError("QuantizedConv2D",
                    "output shape [1,0,0,1] must have positive dims"));
}

//===----------------------------------------------------------------------===//
// QuantizedMatMul
//===----------------------------------------------------------------------===//

AttrMap matMulAttrs(bool ta = false, bool tb = false) {
  return AttrMap{{"T1", DType::QU8},
                 {"T2", DType::QU8},
                 {"Toutput", DType::QI32},
                 {"transpose_a", ta},
                 {"transpose_b", tb}};
}

TEST(QuantizedMatMul, Transposes) {
  // A = [[1, 2], [3, 4]] in [0, 255]; B = [[1, 2], [-1, 0]] in [-128, 127].
  Tensor a = qu8({2, 2}, {1, 2, 3, 4});
  Tensor b = qu8({2, 2}, {129, 130, 127, 128});
  auto run = [&](bool ta, bool tb) {
    return runKernelN("QuantizedMatMul", matMulAttrs(ta, tb),
                      {a, b, sc(0), sc(255), sc(-128), sc(127)}, kQ32Out3);
  };
  auto out = run(false, false);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {2, 2}, {-1, 2, -1, 6});
  expectValues<float>((*out)[1], {}, {kProductMin});
  expectValues<float>((*out)[2], {}, {kProductMax});
  out = run(true, false);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {2, 2}, {-2, 2, -2, 4});
  out = run(false, true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {2, 2}, {5, -1, 11, -3});
  // [1, 3] x [3, 2].
  out = runKernelN("QuantizedMatMul", matMulAttrs(),
                   {qu8({1, 3}, {1, 2, 3}),
                    qu8({3, 2}, {129, 128, 128, 129, 130, 127}), sc(0), sc(255),
                    sc(-128), sc(127)},
                   kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {1, 2}, {7, -1});
}

TEST(QuantizedMatMul, Errors) {
  auto run = [](Tensor a, Tensor b, float maxA) -> std::string {
    return std::string(
        runKernelN("QuantizedMatMul", matMulAttrs(),
                   {std::move(a), std::move(b), sc(0), sc(maxA), sc(0), sc(1)},
                   kQ32Out3)
            .status()
            .message());
  };
  EXPECT_EQ(run(qu8({2, 2}, {0, 0, 0, 0}), qu8({3, 2}, {0, 0, 0, 0, 0, 0}), 1),
            opError("QuantizedMatMul", "Matrix size-incompatible: In[0]: "
                                       "[2,2], In[1]: [3,2]"));
  EXPECT_EQ(run(qu8({2}, {0, 0}), qu8({2, 2}, {0, 0, 0, 0}), 1),
            opError("QuantizedMatMul", "In[0] is not a matrix"));
  EXPECT_EQ(run(qu8({1, 1}, {0}), qu8({1, 1}, {0}), 0),
            opError("QuantizedMatMul", "max_a must be larger than min_a."));
}

//===----------------------------------------------------------------------===//
// QuantizedBiasAdd
//===----------------------------------------------------------------------===//

TEST(QuantizedBiasAdd, TFsFloatRequantization) {
  // quint8 in [0, 255] plus bias in [-1, 1]: range +-R, R = 255 * 2^17.
  // TF's QUANTIZE_WITH_EIGEN into qint32 works in float: scale =
  // float((2^32 - 1) / 2R) = 64.2509765625, round(-R * scale) in float is
  // -2147483520, so code(v) = round(v * scale) - 128 (the float range loses
  // the low bits of 2^31). The bias codes 0 and 255 dequantize (with TF's
  // minimum rounded to -127 steps) to -0.99607849 and 1.00392151: codes -192
  // and -63; the inputs 10, 20, 30, 40: 515, 1157, 1800, 2442; the code of
  // 0.0 (double arithmetic) is 0.
  auto out = runKernelN("QuantizedBiasAdd",
                        AttrMap{{"T1", DType::QU8},
                                {"T2", DType::QU8},
                                {"out_type", DType::QI32}},
                        {qu8({2, 2}, {10, 20, 30, 40}), qu8({2}, {0, 255}),
                         sc(0), sc(255), sc(-1), sc(1)},
                        kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  const double range = 255.0 * 131072;
  expectValues<float>((*out)[1], {}, {-range});
  expectValues<float>((*out)[2], {}, {range});
  expectValues<qint32>((*out)[0], {2, 2},
                       {515 - 192, 1157 - 63, 1800 - 192, 2442 - 63});
  // qint8: [-1, 1] each; code 127 is about 1, -128 about -1 (TF rounds
  // the minimum to a whole number of steps: within two steps).
  out = runKernelN("QuantizedBiasAdd",
                   AttrMap{{"T1", DType::QI8},
                           {"T2", DType::QI8},
                           {"out_type", DType::QI32}},
                   {qi8({1, 2}, {127, -128}), qi8({2}, {-128, -128}), sc(-1),
                    sc(1), sc(-1), sc(1)},
                   kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_NEAR(real32((*out)[0].data<qint32>()[0].value, -131072, 131072), 0,
              4.0 / 255);
  EXPECT_NEAR(real32((*out)[0].data<qint32>()[1].value, -131072, 131072), -2,
              4.0 / 255);
}

TEST(QuantizedBiasAdd, Errors) {
  auto run = [](Tensor input, Tensor bias) -> std::string {
    return std::string(runKernelN("QuantizedBiasAdd",
                                  AttrMap{{"T1", DType::QU8},
                                          {"T2", DType::QU8},
                                          {"out_type", DType::QI32}},
                                  {std::move(input), std::move(bias), sc(0),
                                   sc(1), sc(0), sc(1)},
                                  kQ32Out3)
                           .status()
                           .message());
  };
  EXPECT_EQ(
      run(qu8({2}, {0, 0}), qu8({2}, {0, 0})),
      opError("QuantizedBiasAdd", "Input tensor must be at least 2D: [2]"));
  EXPECT_EQ(run(qu8({1, 2}, {0, 0}), qu8({3}, {0, 0, 0})),
            opError("QuantizedBiasAdd",
                    "Must provide as many biases as the last dimension of the "
                    "input tensor: [3] vs. [1,2]"));
}

//===----------------------------------------------------------------------===//
// QuantizedRelu, QuantizedRelu6
//===----------------------------------------------------------------------===//

TEST(QuantizedRelu, ClampsAtTheCodeOfZero) {
  // quint8 [-1, 1]: 0.0 is code 128.
  auto out =
      runKernelN("QuantizedRelu",
                 AttrMap{{"Tinput", DType::QU8}, {"out_type", DType::QU8}},
                 {qu8({5}, {0, 100, 128, 200, 255}), sc(-1), sc(1)}, kQ8Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {5}, {128, 128, 128, 200, 255});
  expectValues<float>((*out)[1], {}, {-1});
  expectValues<float>((*out)[2], {}, {1});
  // qint32 [-1000, 1000]: 0.0 is code 0.
  out = runKernelN("QuantizedRelu",
                   AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QI32}},
                   {qi32({3}, {-100000, 50, 100000}), sc(-1000), sc(1000)},
                   kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {3}, {0, 50, 100000});
}

TEST(QuantizedRelu6, ClampsAtTheCodesOfZeroAndSix) {
  // quint8 [-10, 10]: 12.75 codes per unit, 0.0 is 128, 6.0 is round(76.5)
  // + 128 = 205.
  auto out =
      runKernelN("QuantizedRelu6",
                 AttrMap{{"Tinput", DType::QU8}, {"out_type", DType::QU8}},
                 {qu8({4}, {0, 150, 210, 255}), sc(-10), sc(10)}, kQ8Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {4}, {128, 150, 205, 205});
  // qint32 [-10, 10]: 6.0 is round(6 * (2^32 - 1) / 20) = 1288490189.
  out = runKernelN("QuantizedRelu6",
                   AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QI32}},
                   {qi32({3}, {-5, 7, 2000000000}), sc(-10), sc(10)}, kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {3}, {0, 7, 1288490189}, 1e-9);
  auto bad =
      runKernelN("QuantizedRelu6",
                 AttrMap{{"Tinput", DType::QU8}, {"out_type", DType::QU8}},
                 {qu8({1}, {0}), f32({1}, {0}), sc(1)}, kQ8Out3);
  EXPECT_EQ(
      bad.status().message(),
      opError("QuantizedRelu6", "`min_input` must be rank 0 but is rank 1"));
}

//===----------------------------------------------------------------------===//
// QuantizedMaxPool, QuantizedAvgPool
//===----------------------------------------------------------------------===//

AttrMap poolAttrs(const char *padding,
                  std::vector<int64_t> ksize = {1, 2, 2, 1}) {
  return AttrMap{{"T", DType::QU8},
                 {"ksize", std::move(ksize)},
                 {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                 {"padding", padding}};
}

TEST(QuantizedPool, MaxAndTruncatingAverage) {
  Tensor input = qu8({1, 2, 2, 1}, {1, 2, 3, 5});
  auto run = [&](const char *op, const char *padding) {
    return runKernelN(op, poolAttrs(padding), {input, sc(-1), sc(3)}, kQ8Out3);
  };
  auto max = run("QuantizedMaxPool", "VALID");
  ASSERT_TRUE(max.ok()) << max.status();
  expectValues<quint8>((*max)[0], {1, 1, 1, 1}, {5});
  expectValues<float>((*max)[1], {}, {-1});
  expectValues<float>((*max)[2], {}, {3});
  // 11 / 4 truncates to 2.
  auto avg = run("QuantizedAvgPool", "VALID");
  ASSERT_TRUE(avg.ok()) << avg.status();
  expectValues<quint8>((*avg)[0], {1, 1, 1, 1}, {2});
  // SAME: windows clipped at the bottom/right; the average of the valid
  // elements: 11 / 4, (2 + 5) / 2, (3 + 5) / 2, 5.
  avg = run("QuantizedAvgPool", "SAME");
  ASSERT_TRUE(avg.ok()) << avg.status();
  expectValues<quint8>((*avg)[0], {1, 2, 2, 1}, {2, 3, 4, 5});
  max = run("QuantizedMaxPool", "SAME");
  ASSERT_TRUE(max.ok()) << max.status();
  expectValues<quint8>((*max)[0], {1, 2, 2, 1}, {5, 5, 5, 5});
}

TEST(QuantizedPool, Errors) {
  auto batch = runKernelN("QuantizedAvgPool", poolAttrs("VALID", {2, 1, 1, 1}),
                          {qu8({1, 1, 1, 1}, {0}), sc(0), sc(1)}, kQ8Out3);
  EXPECT_EQ(batch.status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(batch.status().message(),
            opError("QuantizedAvgPool",
                    "Pooling is not yet supported on the batch dimension."));
  auto depth = runKernelN("QuantizedMaxPool", poolAttrs("VALID", {1, 1, 1, 2}),
                          {qu8({1, 1, 1, 2}, {0, 0}), sc(0), sc(1)}, kQ8Out3);
  EXPECT_EQ(depth.status().message(),
            opError("QuantizedMaxPool",
                    "Non-spatial pooling is not yet supported. Volunteers? "
                    ":)"));
  auto rank = runKernelN("QuantizedMaxPool", poolAttrs("VALID"),
                         {qu8({2, 2}, {0, 0, 0, 0}), sc(0), sc(1)}, kQ8Out3);
  EXPECT_EQ(rank.status().message(),
            opError("QuantizedMaxPool", "tensor_in must be 4-dimensional"));
  auto range = runKernelN(
      "QuantizedMaxPool", poolAttrs("VALID"),
      {qu8({1, 2, 2, 1}, {0, 0, 0, 0}), f32({1}, {0}), sc(1)}, kQ8Out3);
  EXPECT_EQ(range.status().message(),
            opError("QuantizedMaxPool", "min_input shape must be rank 0 but "
                                        "is rank 1, received shape: [1]"));
}

//===----------------------------------------------------------------------===//
// QuantizedBatchNormWithGlobalNormalization
//===----------------------------------------------------------------------===//

std::vector<Tensor> batchNormInputs(Tensor input, Tensor mean, Tensor var,
                                    Tensor beta, Tensor gamma) {
  // Every range [0, 255]: code c is c.
  return {std::move(input), sc(0), sc(255), std::move(mean), sc(0), sc(255),
          std::move(var),   sc(0), sc(255), std::move(beta), sc(0), sc(255),
          std::move(gamma), sc(0), sc(255)};
}

TEST(QuantizedBatchNorm, AgainstAFloatReference) {
  // x = [10, 20], mean [2, 4], var [4, 16], beta [1, 1], gamma [3, 2]:
  // (x - m) / sqrt(v) * g + b = [13, 9]; without gamma [5, 5]. Output
  // range [-2^20, 2^20].
  for (bool scaleAfter : {true, false}) {
    auto out = runKernelN("QuantizedBatchNormWithGlobalNormalization",
                          AttrMap{{"Tinput", DType::QU8},
                                  {"out_type", DType::QI32},
                                  {"variance_epsilon", 0.0f},
                                  {"scale_after_normalization", scaleAfter}},
                          batchNormInputs(qu8({1, 1, 1, 2}, {10, 20}),
                                          qu8({2}, {2, 4}), qu8({2}, {4, 16}),
                                          qu8({2}, {1, 1}), qu8({2}, {3, 2})),
                          kQ32Out3);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>((*out)[1], {}, {-1048576});
    expectValues<float>((*out)[2], {}, {1048576});
    const double expected[2][2] = {{5, 5}, {13, 9}};
    for (int i = 0; i < 2; ++i)
      EXPECT_NEAR(real32((*out)[0].data<qint32>()[i].value, -1048576, 1048576),
                  expected[scaleAfter][i], 0.01)
          << i;
  }
}

TEST(QuantizedBatchNorm, Errors) {
  auto run = [](Tensor mean) -> std::string {
    return std::string(
        runKernelN("QuantizedBatchNormWithGlobalNormalization",
                   AttrMap{{"Tinput", DType::QU8},
                           {"out_type", DType::QI32},
                           {"variance_epsilon", 0.0f},
                           {"scale_after_normalization", true}},
                   batchNormInputs(qu8({1, 1, 1, 2}, {10, 20}), std::move(mean),
                                   qu8({2}, {4, 16}), qu8({2}, {1, 1}),
                                   qu8({2}, {3, 2})),
                   kQ32Out3)
            .status()
            .message());
  };
  // TF requires more than one channel.
  EXPECT_EQ(run(qu8({1}, {2})),
            opError("QuantizedBatchNormWithGlobalNormalization",
                    "Must have at least a mean value[2]"));
  EXPECT_EQ(run(qu8({3}, {2, 2, 2})),
            opError("QuantizedBatchNormWithGlobalNormalization",
                    "Must provide as many means as the last dimension of the "
                    "input tensor: [3] vs. [1,1,1,2]"));
}

//===----------------------------------------------------------------------===//
// QuantizedInstanceNorm
//===----------------------------------------------------------------------===//

TEST(QuantizedInstanceNorm, NormalizesEachImageChannel) {
  // Codes [0, 255] in [0, 255]: mean 127.5, variance 127.5^2, so the
  // normalized values are -1 and 1 (to float rounding): codes 0 and 255
  // (or 254) in about [-1, 1].
  auto out = runKernelN("QuantizedInstanceNorm", AttrMap{{"T", DType::QU8}},
                        {qu8({1, 2, 1, 1}, {0, 255}), sc(0), sc(255)}, kQ8Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].data<quint8>()[0].value, 0);
  EXPECT_GE((*out)[0].data<quint8>()[1].value, 254);
  expectValues<float>((*out)[1], {}, {-1}, 1e-6);
  expectValues<float>((*out)[2], {}, {1}, 1e-6);
  // A given range [-2, 2]: round(+-1 * 63.75) + 128.
  out = runKernelN("QuantizedInstanceNorm",
                   AttrMap{{"T", DType::QU8},
                           {"output_range_given", true},
                           {"given_y_min", -2.0f},
                           {"given_y_max", 2.0f}},
                   {qu8({1, 2, 1, 1}, {0, 255}), sc(0), sc(255)}, kQ8Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {1, 2, 1, 1}, {64, 192});
  expectValues<float>((*out)[1], {}, {-2});
}

TEST(QuantizedInstanceNorm, Errors) {
  auto attrs = runKernelN("QuantizedInstanceNorm",
                          AttrMap{{"T", DType::QU8},
                                  {"output_range_given", true},
                                  {"given_y_min", 2.0f},
                                  {"given_y_max", 1.0f}},
                          {qu8({1, 1, 1, 1}, {0}), sc(0), sc(1)}, kQ8Out3);
  EXPECT_EQ(attrs.status().message(),
            opError("QuantizedInstanceNorm",
                    "given_y_min must be less than given_y_max : 2 >= 1"));
  auto range = runKernelN("QuantizedInstanceNorm", AttrMap{{"T", DType::QU8}},
                          {qu8({1, 1, 1, 1}, {0}), sc(1), sc(1)}, kQ8Out3);
  EXPECT_EQ(range.status().message(),
            opError("QuantizedInstanceNorm",
                    "input_min must be less than input_max : 1 >= 1"));
}

//===----------------------------------------------------------------------===//
// QuantizedResizeBilinear
//===----------------------------------------------------------------------===//

TEST(QuantizedResizeBilinear, Quint8FixedPoint) {
  // [0, 100] to width 4. Weights in 1/128ths, truncated: scale 0.5 gives
  // 64/128 -> (6400 + 64) / 128 = 50; align_corners (1/3, 2/3) gives 42 and
  // 85 -> 33, 66; half_pixel_centers (0.25, 0.75) -> 25, 75.
  auto run = [](AttrMap attrs) {
    attrs.set("T", DType::QU8);
    return runKernelN(
        "QuantizedResizeBilinear", attrs,
        {qu8({1, 1, 2, 1}, {0, 100}), i32({2}, {1, 4}), sc(0), sc(1)}, kQ8Out3);
  };
  auto out = run(AttrMap{});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {1, 1, 4, 1}, {0, 50, 100, 100});
  expectValues<float>((*out)[2], {}, {1});
  out = run(AttrMap{{"align_corners", true}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {1, 1, 4, 1}, {0, 33, 66, 100});
  out = run(AttrMap{{"half_pixel_centers", true}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {1, 1, 4, 1}, {0, 25, 75, 100});
}

TEST(QuantizedResizeBilinear, Qint32AndFloat) {
  auto i32out = runKernelN(
      "QuantizedResizeBilinear", AttrMap{{"T", DType::QI32}},
      {qi32({1, 1, 2, 1}, {0, 1000}), i32({2}, {1, 4}), sc(0), sc(1)},
      kQ32Out3);
  ASSERT_TRUE(i32out.ok()) << i32out.status();
  expectValues<qint32>((*i32out)[0], {1, 1, 4, 1}, {0, 500, 1000, 1000});
  // TF reads qint32 codes through float: 2^24 + 1 becomes 2^24.
  i32out = runKernelN("QuantizedResizeBilinear", AttrMap{{"T", DType::QI32}},
                      {qi32({1, 1, 2, 1}, {16777217, 16777217}),
                       i32({2}, {1, 4}), sc(0), sc(1)},
                      kQ32Out3);
  ASSERT_TRUE(i32out.ok()) << i32out.status();
  expectValues<qint32>((*i32out)[0], {1, 1, 4, 1},
                       {16777216, 16777216, 16777216, 16777216});
  auto fout = runKernelN(
      "QuantizedResizeBilinear",
      AttrMap{{"T", DType::F32}, {"align_corners", true}},
      {f32({1, 2, 2, 1}, {0, 100, 200, 300}), i32({2}, {3, 3}), sc(0), sc(1)},
      {DType::F32, DType::F32, DType::F32});
  ASSERT_TRUE(fout.ok()) << fout.status();
  expectValues<float>((*fout)[0], {1, 3, 3, 1},
                      {0, 50, 100, 100, 150, 200, 200, 250, 300});
}

TEST(QuantizedResizeBilinear, Errors) {
  auto run = [](Tensor size) -> std::string {
    return std::string(
        runKernelN("QuantizedResizeBilinear", AttrMap{{"T", DType::QU8}},
                   {qu8({1, 1, 1, 1}, {0}), std::move(size), sc(0), sc(1)},
                   kQ8Out3)
            .status()
            .message());
  };
  EXPECT_EQ(
      run(i32({3}, {1, 1, 1})),
      opError("QuantizedResizeBilinear", "shape_t must have two elements[3]"));
  EXPECT_EQ(
      run(i32({2}, {0, 2})),
      opError("QuantizedResizeBilinear", "output dimensions must be positive"));
  auto size64 = runKernelN(
      "QuantizedResizeBilinear", AttrMap{{"T", DType::QU8}},
      {qu8({1, 1, 1, 1}, {0}), i64({2}, {1, 1}), sc(0), sc(1)}, kQ8Out3);
  EXPECT_EQ(size64.status().message(),
            opError("QuantizedResizeBilinear",
                    "input #1 must be a i32 tensor, got i64"));
  auto scalar = runKernelN(
      "QuantizedResizeBilinear", AttrMap{{"T", DType::QU8}},
      {qu8({1, 1, 1, 1}, {0}), i32({2}, {1, 1}), f32({1}, {0}), sc(1)},
      kQ8Out3);
  EXPECT_EQ(scalar.status().message(),
            opError("QuantizedResizeBilinear", "min must be a scalar"));
}

} // namespace

namespace {

TEST(QuantizedNNKernels, EdgeCasesStayDefined) {
  const float big = 3e38f;
  auto mm =
      runKernelN("QuantizedMatMul", matMulAttrs(),
                 {qu8({0, 3}, {}), qu8({3, 2}, std::vector<int64_t>(6, 9)),
                  sc(-big), sc(big), sc(1e30f), sc(2e30f)},
                 kQ32Out3);
  ASSERT_TRUE(mm.ok()) << mm.status();
  EXPECT_EQ((*mm)[0].shape(), TensorShape({0, 2}));
  auto conv =
      runKernelN("QuantizedConv2D", convAttrs("SAME", 3),
                 {qu8({1, 2, 2, 1}, {0, 85, 170, 255}),
                  qu8({1, 1, 1, 2}, {0, 255}), sc(-big), sc(big), sc(5), sc(5)},
                 kQ32Out3);
  ASSERT_TRUE(conv.ok()) << conv.status();
  auto norm = runKernelN("QuantizedInstanceNorm", AttrMap{{"T", DType::QU8}},
                         {qu8({1, 0, 0, 1}, {}), sc(0), sc(1)}, kQ8Out3);
  ASSERT_TRUE(norm.ok()) << norm.status();
  // A constant image: variance 0, normalized to 0 (epsilon).
  norm = runKernelN("QuantizedInstanceNorm", AttrMap{{"T", DType::QU8}},
                    {qu8({1, 2, 1, 1}, {7, 7}), sc(0), sc(1)}, kQ8Out3);
  ASSERT_TRUE(norm.ok()) << norm.status();
  auto pool = runKernelN("QuantizedAvgPool", poolAttrs("SAME"),
                         {qu8({0, 2, 2, 0}, {}), sc(0), sc(1)}, kQ8Out3);
  ASSERT_TRUE(pool.ok()) << pool.status();
  auto resize = runKernelN(
      "QuantizedResizeBilinear",
      AttrMap{{"T", DType::QU8}, {"half_pixel_centers", true}},
      {qu8({1, 1, 3, 1}, {0, 128, 255}), i32({2}, {5, 100}), sc(-big), sc(big)},
      kQ8Out3);
  ASSERT_TRUE(resize.ok()) << resize.status();
  auto bn = runKernelN("QuantizedBatchNormWithGlobalNormalization",
                       AttrMap{{"Tinput", DType::QU8},
                               {"out_type", DType::QI32},
                               {"variance_epsilon", 0.0f},
                               {"scale_after_normalization", true}},
                       {qu8({1, 1, 1, 2}, {255, 255}), sc(0), sc(big),
                        qu8({2}, {0, 0}), sc(0), sc(1), qu8({2}, {0, 0}), sc(0),
                        sc(1), qu8({2}, {0, 0}), sc(0), sc(1),
                        qu8({2}, {255, 255}), sc(0), sc(big)},
                       kQ32Out3);
  ASSERT_TRUE(bn.ok()) << bn.status();
}

} // namespace
