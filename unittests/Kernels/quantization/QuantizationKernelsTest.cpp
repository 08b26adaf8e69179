//===- QuantizationKernelsTest.cpp - QuantizeV2, Dequantize, ... *- C++ -*-===//
//
// QuantizeV2, Dequantize, Requantize, RequantizationRange,
// QuantizeDownAndShrinkRange, QuantizedAdd, QuantizedMul, QuantizedReshape
// and QuantizedConcat against values worked out by hand from TF's formulas
// (tf.quantization.quantize / dequantize documentation, quantize_op.cc,
// quantization_utils.h) or against a float reference (the documented
// meaning of a code, min + (code - lowest) * (max - min) / (2^bits - 1),
// within one quantization step), and TF's errors.
//
//===----------------------------------------------------------------------===//

#include "QuantizedTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// The documented real value of `code` of a `bits`-bit type with lowest
/// value `lowest` in [min, max].
double realOf(double code, double lowest, int bits, double min, double max) {
  return min + (code - lowest) * (max - min) / (std::ldexp(1.0, bits) - 1);
}

const std::vector<DType> kQOut3 = {DType::QU8, DType::F32, DType::F32};

//===----------------------------------------------------------------------===//
// QuantizeV2
//===----------------------------------------------------------------------===//

TEST(QuantizeV2, MinCombinedUnsignedTruncatesAfterAddingHalf) {
  // [0, 255]: scale 1; (x - 0) * 1 + 0.5 truncated, clamped to the range.
  auto out = runKernelN(
      "QuantizeV2", AttrMap{{"T", DType::QU8}},
      {f32({6}, {0, 1.4f, 1.5f, 254.6f, 300, -3}), sc(0), sc(255)}, kQOut3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {6}, {0, 1, 2, 255, 255, 0});
  expectValues<float>((*out)[1], {}, {0});
  expectValues<float>((*out)[2], {}, {255});
}

TEST(QuantizeV2, MinCombinedSignedSubtractsHalfRange) {
  // qint8 [-1, 1]: (x + 1) * 127.5 - 128, rounded half away from zero:
  // -1 -> -128, 0 -> -0.5 -> -1, 1 -> 127, 0.5 -> 63.25 -> 63.
  auto out = runKernelN("QuantizeV2", AttrMap{{"T", DType::QI8}},
                        {f32({4}, {-1, 0, 1, 0.5f}), sc(-1), sc(1)},
                        {DType::QI8, DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint8>((*out)[0], {4}, {-128, -1, 127, 63});
  expectValues<float>((*out)[1], {}, {-1});
  expectValues<float>((*out)[2], {}, {1});
}

TEST(QuantizeV2, EnsureMinimumRangeWidensAnEmptyRange) {
  // [0, 0]: epsilon = max(1, 0) * 0.01, so the range is [0, 0.01].
  auto out = runKernelN("QuantizeV2", AttrMap{{"T", DType::QU8}},
                        {f32({2}, {0, 1}), sc(0), sc(0)}, kQOut3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {2}, {0, 255});
  expectValues<float>((*out)[2], {}, {0.01f});
}

TEST(QuantizeV2, MinFirst) {
  // quint8 [-1, 1]: round(x * 127.5) - round(-127.5) = round(x * 127.5) +
  // 128, clamped: 0 -> 128, 1 -> 256 -> 255, -1 -> 0, 0.5 -> 64 + 128.
  auto out = runKernelN("QuantizeV2",
                        AttrMap{{"T", DType::QU8}, {"mode", "MIN_FIRST"}},
                        {f32({4}, {0, 1, -1, 0.5f}), sc(-1), sc(1)}, kQOut3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {4}, {128, 255, 0, 192});
}

TEST(QuantizeV2, ScaledRoundModes) {
  // qint8, [-1, 127]: scale = min(-128 / -1, 127 / 127) = 1, output range
  // [-128, 127]; x * 1 rounded, clamped to the range.
  const std::vector<float> in = {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 200, -200};
  auto away = runKernelN(
      "QuantizeV2", AttrMap{{"T", DType::QI8}, {"mode", "SCALED"}},
      {f32({7}, in), sc(-1), sc(127)}, {DType::QI8, DType::F32, DType::F32});
  ASSERT_TRUE(away.ok()) << away.status();
  expectValues<qint8>((*away)[0], {7}, {1, 2, 3, -1, -3, 127, -128});
  expectValues<float>((*away)[1], {}, {-128});
  expectValues<float>((*away)[2], {}, {127});
  auto even = runKernelN("QuantizeV2",
                         AttrMap{{"T", DType::QI8},
                                 {"mode", "SCALED"},
                                 {"round_mode", "HALF_TO_EVEN"}},
                         {f32({7}, in), sc(-1), sc(127)},
                         {DType::QI8, DType::F32, DType::F32});
  ASSERT_TRUE(even.ok()) << even.status();
  expectValues<qint8>((*even)[0], {7}, {0, 2, 2, 0, -2, 127, -128});
  // narrow_range: the lowest is -127, scale min(127, 1) = 1.
  auto narrow = runKernelN(
      "QuantizeV2",
      AttrMap{{"T", DType::QI8}, {"mode", "SCALED"}, {"narrow_range", true}},
      {f32({1}, {-200}), sc(-1), sc(127)},
      {DType::QI8, DType::F32, DType::F32});
  ASSERT_TRUE(narrow.ok()) << narrow.status();
  expectValues<qint8>((*narrow)[0], {1}, {-127});
  expectValues<float>((*narrow)[1], {}, {-127});
}

TEST(QuantizeV2, PerAxisScaled) {
  // Column 0 in [-1, 1]: scale min(128, 127) = 127; column 1 in [-10, 10]:
  // scale 12.7. Output mins -128 / scale.
  auto out = runKernelN(
      "QuantizeV2",
      AttrMap{{"T", DType::QI8}, {"mode", "SCALED"}, {"axis", int64_t(1)}},
      {f32({2, 2}, {1, 10, -1, -10}), f32({2}, {-1, -10}), f32({2}, {1, 10})},
      {DType::QI8, DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint8>((*out)[0], {2, 2}, {127, 127, -127, -127});
  expectValues<float>((*out)[1], {2}, {-128.0 / 127, -128.0 / 12.7}, 1e-6);
  expectValues<float>((*out)[2], {2}, {1, 10}, 1e-6);
}

TEST(QuantizeV2, OtherTypes) {
  // quint16 [0, 65535]: scale 1. qint32 SCALED [-1, 1]: scale 2^31 (the
  // highest code in float), 0.5 -> 2^30.
  auto u16 = runKernelN("QuantizeV2", AttrMap{{"T", DType::QU16}},
                        {f32({2}, {7, 70000}), sc(0), sc(65535)},
                        {DType::QU16, DType::F32, DType::F32});
  ASSERT_TRUE(u16.ok()) << u16.status();
  expectValues<quint16>((*u16)[0], {2}, {7, 65535});
  auto i16 =
      runKernelN("QuantizeV2", AttrMap{{"T", DType::QI16}, {"mode", "SCALED"}},
                 {f32({2}, {-1, 1}), sc(-32768), sc(32767)},
                 {DType::QI16, DType::F32, DType::F32});
  ASSERT_TRUE(i16.ok()) << i16.status();
  expectValues<qint16>((*i16)[0], {2}, {-1, 1});
  auto i32 =
      runKernelN("QuantizeV2", AttrMap{{"T", DType::QI32}, {"mode", "SCALED"}},
                 {f32({2}, {0.5f, 2}), sc(-1), sc(1)},
                 {DType::QI32, DType::F32, DType::F32});
  ASSERT_TRUE(i32.ok()) << i32.status();
  // max(1, 1) saturates at the highest code (TF's cast wraps here).
  expectValues<qint32>((*i32)[0], {2}, {1073741824, 2147483647}, 1e-9);
}

TEST(QuantizeV2, Errors) {
  auto run = [](AttrMap attrs, Tensor in, Tensor lo, Tensor hi) -> std::string {
    return std::string(runKernelN("QuantizeV2", attrs,
                                  {std::move(in), std::move(lo), std::move(hi)},
                                  kQOut3)
                           .status()
                           .message());
  };
  EXPECT_EQ(run(AttrMap{{"T", DType::QU8}, {"mode", "FOO"}}, f32({1}, {0}),
                sc(0), sc(1)),
            opError("QuantizeV2", "Mode string must be 'MIN_COMBINED', "
                                  "'MIN_FIRST', or 'SCALED', is 'FOO'"));
  EXPECT_EQ(run(AttrMap{{"T", DType::QU8}, {"round_mode", "HALF_TO_EVEN"}},
                f32({1}, {0}), sc(0), sc(1)),
            opError("QuantizeV2", "Round mode 'HALF_TO_EVEN' only supported "
                                  "for mode 'SCALED', b  ut mode is "
                                  "'MIN_COMBINED'."));
  EXPECT_EQ(run(AttrMap{{"T", DType::QU8}}, f32({1}, {0}), sc(2), sc(1)),
            opError("QuantizeV2",
                    "input_max_range must be larger than input_min_range."));
  EXPECT_EQ(
      run(AttrMap{{"T", DType::QU8}}, f32({1}, {0}), sc(0), sc(std::nanf(""))),
      opError("QuantizeV2",
              "input range [0, nan] must be finite with min <= max"));
  EXPECT_EQ(
      run(AttrMap{{"T", DType::QU8}}, f32({1}, {0}), f32({2}, {0, 0}), sc(1)),
      opError("QuantizeV2", "If axis is not specified, min_range must "
                            "contain a single float element, but it "
                            "contains 2 elements"));
  EXPECT_EQ(run(AttrMap{{"T", DType::QU8}, {"axis", int64_t(2)}},
                f32({1, 2}, {0, 0}), f32({2}, {0, 0}), f32({2}, {1, 1})),
            opError("QuantizeV2",
                    "Axis is on a zero-based index, so its value must always "
                    "be less than number of input's dims, but given axis "
                    "value was 2 and input's dims was 2"));
  // The OpDef fixes float: the loader refuses another dtype.
  auto f64 = runKernelN("QuantizeV2", AttrMap{{"T", DType::QU8}},
                        {makeTensor<double>({1}, {0}), sc(0), sc(1)}, kQOut3);
  EXPECT_EQ(
      f64.status().message(),
      "loc(test): op 'QuantizeV2' takes a f32 tensor as input #0 (its OpDef "
      "fixes it) but the program gives f64");
  auto minFirst = runKernelN(
      "QuantizeV2",
      AttrMap{{"T", DType::QU8}, {"mode", "MIN_FIRST"}, {"axis", int64_t(1)}},
      {f32({1, 2}, {0, 0}), f32({2}, {0, 0}), f32({2}, {1, 1})}, kQOut3);
  EXPECT_EQ(minFirst.status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(minFirst.status().message(),
            opError("QuantizeV2", "MIN_FIRST mode is not implemented for "
                                  "Quantize with axis != -1."));
}

//===----------------------------------------------------------------------===//
// Dequantize
//===----------------------------------------------------------------------===//

TEST(Dequantize, MinCombined) {
  // quint8 [-1, 1]: code * 2 / 255 - 1.
  auto u8 =
      runKernel("Dequantize", AttrMap{{"dtype", DType::F32}, {"T", DType::QU8}},
                {qu8({3}, {0, 128, 255}), sc(-1), sc(1)}, DType::F32);
  ASSERT_TRUE(u8.ok()) << u8.status();
  expectValues<float>(*u8, {3}, {-1, 128 * 2.0 / 255 - 1, 1}, 1e-6);
  // qint8 [-1, 1]: (code + 128) * 2 / 255 - 1.
  auto i8 =
      runKernel("Dequantize", AttrMap{{"dtype", DType::F32}, {"T", DType::QI8}},
                {qi8({3}, {-128, 127, -1}), sc(-1), sc(1)}, DType::F32);
  ASSERT_TRUE(i8.ok()) << i8.status();
  expectValues<float>(*i8, {3}, {-1, 1, 127 * 2.0 / 255 - 1}, 1e-6);
}

TEST(Dequantize, MinFirstAndScaled) {
  // MIN_FIRST quint8 [-1, 1]: the minimum rounded to a multiple of the
  // step 2 / 255 (in float just above 2 / 255, so -1 / step = -127.49..
  // rounds to -127 steps): code c is (c - 127) * 2 / 255.
  auto first = runKernel(
      "Dequantize",
      AttrMap{{"dtype", DType::F32}, {"T", DType::QU8}, {"mode", "MIN_FIRST"}},
      {qu8({3}, {128, 0, 255}), sc(-1), sc(1)}, DType::F32);
  ASSERT_TRUE(first.ok()) << first.status();
  expectValues<float>(*first, {3}, {2.0 / 255, -254.0 / 255, 256.0 / 255},
                      1e-6);
  // SCALED qint8 [-1, 2]: scale max(-1 / -128, 2 / 127) = 2 / 127.
  auto scaled = runKernel(
      "Dequantize",
      AttrMap{{"dtype", DType::F32}, {"T", DType::QI8}, {"mode", "SCALED"}},
      {qi8({2}, {127, -128}), sc(-1), sc(2)}, DType::F32);
  ASSERT_TRUE(scaled.ok()) << scaled.status();
  expectValues<float>(*scaled, {2}, {2, -256.0 / 127}, 1e-6);
  // SCALED quint8 [0, 2.55]: scale 2.55 / 255.
  auto u8 = runKernel(
      "Dequantize",
      AttrMap{{"dtype", DType::F32}, {"T", DType::QU8}, {"mode", "SCALED"}},
      {qu8({1}, {100}), sc(0), sc(2.55f)}, DType::F32);
  ASSERT_TRUE(u8.ok()) << u8.status();
  expectValues<float>(*u8, {1}, {1}, 1e-6);
}

TEST(Dequantize, PerAxisAndBfloat16) {
  auto axis =
      runKernel("Dequantize",
                AttrMap{{"dtype", DType::F32},
                        {"T", DType::QI8},
                        {"mode", "SCALED"},
                        {"axis", int64_t(0)}},
                {qi8({2, 1}, {127, 127}), f32({2}, {-1, -2}), f32({2}, {1, 2})},
                DType::F32);
  ASSERT_TRUE(axis.ok()) << axis.status();
  expectValues<float>(*axis, {2, 1}, {1, 2}, 1e-6);
  auto bf = runKernel("Dequantize",
                      AttrMap{{"T", DType::QU16}, {"dtype", DType::BF16}},
                      {q<quint16>({1}, {3}), sc(0), sc(65535)}, DType::BF16);
  ASSERT_TRUE(bf.ok()) << bf.status();
  expectValues<bf16>(*bf, {1}, {3});
}

TEST(Dequantize, RoundTripWithinOneStep) {
  // QuantizeV2 then Dequantize (MIN_COMBINED, quint8, [-2, 6]) moves each
  // value by at most half a step, 8 / 255 / 2.
  const std::vector<double> pattern = patternValues(64, 2);
  std::vector<float> in;
  for (double v : pattern)
    in.push_back(static_cast<float>(v) + 2.0f);
  auto quantized = runKernelN("QuantizeV2", AttrMap{{"T", DType::QU8}},
                              {f32({64}, in), sc(-2), sc(6)}, kQOut3);
  ASSERT_TRUE(quantized.ok()) << quantized.status();
  auto back = runKernel(
      "Dequantize", AttrMap{{"dtype", DType::F32}, {"T", DType::QU8}},
      {(*quantized)[0], (*quantized)[1], (*quantized)[2]}, DType::F32);
  ASSERT_TRUE(back.ok()) << back.status();
  for (int i = 0; i < 64; ++i)
    EXPECT_NEAR(back->data<float>()[i], in[i], 4.0 / 255 + 1e-6) << i;
}

TEST(Dequantize, Errors) {
  auto bf = runKernel(
      "Dequantize",
      AttrMap{{"T", DType::QU8}, {"dtype", DType::BF16}, {"mode", "SCALED"}},
      {qu8({1}, {0}), sc(0), sc(1)}, DType::BF16);
  EXPECT_EQ(bf.status().message(),
            opError("Dequantize", "When output type is bfloat16, Mode string "
                                  "must be 'MIN_COMBINED', is 'SCALED'"));
  auto axis = runKernel(
      "Dequantize",
      AttrMap{{"dtype", DType::F32}, {"T", DType::QU8}, {"axis", int64_t(3)}},
      {qu8({1, 1}, {0}), sc(0), sc(1)}, DType::F32);
  EXPECT_EQ(axis.status().message(),
            opError("Dequantize",
                    "Axis must be less than input dimension(2), got 3"));
  auto count =
      runKernel("Dequantize", AttrMap{{"dtype", DType::F32}, {"T", DType::QU8}},
                {qu8({1}, {0}), f32({2}, {0, 0}), sc(1)}, DType::F32);
  EXPECT_EQ(count.status().message(),
            opError("Dequantize", "input_min_tensor must have as many "
                                  "elements as input on the dequantization "
                                  "axis (-1), got 2, expected 1"));
  auto range =
      runKernel("Dequantize", AttrMap{{"dtype", DType::F32}, {"T", DType::QU8}},
                {qu8({1}, {0}), sc(1), sc(0)}, DType::F32);
  EXPECT_EQ(range.status().message(),
            opError("Dequantize",
                    "input range [1, 0] must be finite with min <= max"));
}

//===----------------------------------------------------------------------===//
// Requantize, RequantizationRange, QuantizeDownAndShrinkRange
//===----------------------------------------------------------------------===//

// qint32 in [-2^31, 2^31]: one code is one unit (the fixed-point path
// re-zeroes at the middle of the range).
const float kLo32 = -2147483648.0f, kHi32 = 2147483648.0f;

TEST(Requantize, To8BitFixedPoint) {
  // To quint8 [0, 255]: range_scale_fp = 2^48, so each code maps to
  // itself, clamped to [0, 255].
  auto out = runKernelN(
      "Requantize", AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QU8}},
      {qi32({6}, {0, 1, 100, 255, 300, -5}), sc(kLo32), sc(kHi32), sc(0),
       sc(255)},
      kQOut3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {6}, {0, 1, 100, 255, 255, 0});
  expectValues<float>((*out)[1], {}, {0});
  expectValues<float>((*out)[2], {}, {255});
}

TEST(Requantize, ToQint8ThroughFloat) {
  // Dequantized with scale 1 and base 0, requantized into [-128, 127] with
  // scale 1: round(x), clamped.
  auto out = runKernelN(
      "Requantize", AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QI8}},
      {qi32({5}, {0, 5, -7, 200, -300}), sc(kLo32), sc(kHi32), sc(-128),
       sc(127)},
      {DType::QI8, DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint8>((*out)[0], {5}, {0, 5, -7, 127, -128});
}

TEST(Requantize, Errors) {
  auto run = [](Tensor lo, Tensor outLo, Tensor outHi) -> std::string {
    return std::string(
        runKernelN("Requantize",
                   AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QU8}},
                   {qi32({1}, {0}), std::move(lo), sc(1), std::move(outLo),
                    std::move(outHi)},
                   kQOut3)
            .status()
            .message());
  };
  EXPECT_EQ(run(f32({1}, {0}), sc(0), sc(1)),
            opError("Requantize", "`input_min` must be rank 0 but is rank 1"));
  EXPECT_EQ(
      run(sc(0), sc(1), sc(2)),
      opError("Requantize", "requested_output_min must be <= 0, but got 1"));
  EXPECT_EQ(run(sc(0), sc(0), sc(-1)),
            opError("Requantize", "requested_output_max must be >= "
                                  "requested_output_min, but got -1 and 0"));
}

TEST(RequantizationRange, UsedRangeWithMinAtMostZero) {
  // Code q in [-2^31, 2^31] is -2^31 + (q + 2^31) * 2^32 / (2^32 - 1),
  // about q + 0.5.
  auto out = runKernelN("RequantizationRange", AttrMap{{"Tinput", DType::QI32}},
                        {qi32({3}, {-5, 10, 3}), sc(kLo32), sc(kHi32)},
                        {DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {}, {-4.5});
  expectValues<float>((*out)[1], {}, {10.5});
  out = runKernelN("RequantizationRange", AttrMap{{"Tinput", DType::QI32}},
                   {qi32({2}, {4, 10}), sc(kLo32), sc(kHi32)},
                   {DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {}, {0});
  auto bad = runKernelN("RequantizationRange", AttrMap{{"Tinput", DType::QI32}},
                        {qi32({1}, {0}), f32({0}, {}), sc(1)},
                        {DType::F32, DType::F32});
  EXPECT_EQ(bad.status().message(),
            opError("RequantizationRange", "Input min must not be empty."));
}

TEST(QuantizeDownAndShrinkRange, RequantizesToTheUsedRange) {
  // Used range [0, 200.5]; codes then map to round(q * 255 / 200.5):
  // 100 -> 127.2 -> 127, 200 -> 254.4 -> 254.
  auto out =
      runKernelN("QuantizeDownAndShrinkRange",
                 AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QU8}},
                 {qi32({3}, {0, 100, 200}), sc(kLo32), sc(kHi32)}, kQOut3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {3}, {0, 127, 254});
  expectValues<float>((*out)[1], {}, {0});
  expectValues<float>((*out)[2], {}, {200.5});
  auto bad =
      runKernelN("QuantizeDownAndShrinkRange",
                 AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QU8}},
                 {qi32({1}, {0}), sc(0), f32({1}, {1})}, kQOut3);
  EXPECT_EQ(bad.status().message(),
            opError("QuantizeDownAndShrinkRange",
                    "`input_max` must be rank 0 but is rank 1"));
}

//===----------------------------------------------------------------------===//
// QuantizedAdd, QuantizedMul
//===----------------------------------------------------------------------===//

const AttrMap kBinaryAttrs = {
    {"T1", DType::QU8}, {"T2", DType::QU8}, {"Toutput", DType::QI32}};
const std::vector<DType> kQ32Out3 = {DType::QI32, DType::F32, DType::F32};

/// Checks QuantizedAdd of x [xs] in [xMin, xMax] and y [ys] in [yMin, yMax]
/// against the float sum of the dequantized operands (broadcast as NumPy),
/// within one input step.
void checkAdd(const Dims &xs, std::vector<int64_t> xc, float xMin, float xMax,
              const Dims &ys, std::vector<int64_t> yc, float yMin, float yMax,
              const Dims &outDims) {
  auto out = runKernelN("QuantizedAdd", kBinaryAttrs,
                        {qu8(shapeOf(xs), xc), qu8(shapeOf(ys), yc), sc(xMin),
                         sc(xMax), sc(yMin), sc(yMax)},
                        kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  const double range = std::max({std::fabs(xMin), std::fabs(xMax),
                                 std::fabs(yMin), std::fabs(yMax)}) *
                       16384.0;
  expectValues<float>((*out)[1], {}, {-range});
  expectValues<float>((*out)[2], {}, {range});
  ASSERT_EQ((*out)[0].shape(), shapeOf(outDims));
  const qint32 *z = (*out)[0].data<qint32>();
  int64_t flat = 0;
  const double step = std::max(xMax - xMin, yMax - yMin) / 255.0;
  forEachIndex(outDims, [&](const std::vector<int64_t> &idx) {
    const double x = realOf(xc[broadcastOffset(xs, idx)], 0, 8, xMin, xMax);
    const double y = realOf(yc[broadcastOffset(ys, idx)], 0, 8, yMin, yMax);
    const double actual =
        realOf(z[flat].value, -2147483648.0, 32, -range, range);
    EXPECT_NEAR(actual, x + y, step) << "at " << flat;
    ++flat;
  });
}

TEST(QuantizedAdd, ScalarVectorAndBroadcast) {
  checkAdd({4}, {0, 64, 128, 255}, -1, 1, {}, {200}, 0, 2, {4});
  checkAdd({}, {10}, 0, 1, {3}, {0, 100, 255}, -4, 4, {3});
  checkAdd({3}, {1, 2, 3}, 0, 255, {3}, {250, 128, 0}, -5, 5, {3});
  checkAdd({2, 3}, {0, 50, 100, 150, 200, 250}, 0, 10, {3}, {0, 128, 255}, -1,
           1, {2, 3});
  // [2, 3] + [2, 1]: TF indexes the smaller operand as i % 2 here; this
  // broadcasts it.
  checkAdd({2, 3}, {0, 50, 100, 150, 200, 250}, 0, 10, {2, 1}, {0, 255}, -1, 1,
           {2, 3});
}

TEST(QuantizedAdd, Errors) {
  auto run = [](Tensor x, Tensor y, float maxX) {
    return runKernelN(
               "QuantizedAdd", kBinaryAttrs,
               {std::move(x), std::move(y), sc(0), sc(maxX), sc(0), sc(1)},
               kQ32Out3)
        .status();
  };
  EXPECT_EQ(run(qu8({2}, {0, 0}), qu8({3}, {0, 0, 0}), 1).message(),
            opError("QuantizedAdd", "Incompatible shapes: [2] vs. [3]"));
  EXPECT_EQ(run(qu8({2}, {0, 0}), qu8({2}, {0, 0}), 0).message(),
            opError("QuantizedAdd", "max_x must be larger than min_x."));
  Status status = run(qu8({2, 1, 3}, std::vector<int64_t>(6, 0)),
                      qu8({1, 3, 1}, {0, 0, 0}), 1);
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented);
  EXPECT_EQ(status.message(),
            opError("QuantizedAdd", "Broadcast between [2,1,3] and [1,3,1] "
                                    "is not supported yet."));
}

TEST(QuantizedMul, ProductOfZeroShiftedCodes) {
  // x in [0, 255]: zero at code 0; y in [-128, 127]: zero at code 128. One
  // level of each is 1.0, so the output range is [-2^31, 2^31].
  auto out = runKernelN("QuantizedMul", kBinaryAttrs,
                        {qu8({2}, {2, 3}), qu8({2}, {130, 120}), sc(0), sc(255),
                         sc(-128), sc(127)},
                        kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {2}, {4, -24});
  expectValues<float>((*out)[1], {}, {-2147483648.0});
  expectValues<float>((*out)[2], {}, {2147483648.0});
  // Scalar and row broadcasts.
  out = runKernelN("QuantizedMul", kBinaryAttrs,
                   {qu8({2, 2}, {1, 2, 3, 4}), qu8({}, {131}), sc(0), sc(255),
                    sc(-128), sc(127)},
                   kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {2, 2}, {3, 6, 9, 12});
  out = runKernelN("QuantizedMul", kBinaryAttrs,
                   {qu8({2, 2}, {1, 2, 3, 4}), qu8({2}, {129, 126}), sc(0),
                    sc(255), sc(-128), sc(127)},
                   kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {2, 2}, {1, -4, 3, -8});
  out = runKernelN("QuantizedMul", kBinaryAttrs,
                   {qu8({2, 2}, {1, 2, 3, 4}), qu8({2, 1}, {129, 126}), sc(0),
                    sc(255), sc(-128), sc(127)},
                   kQ32Out3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<qint32>((*out)[0], {2, 2}, {1, 2, -6, -8});
}

TEST(QuantizedMul, Errors) {
  auto bad = runKernelN(
      "QuantizedMul", kBinaryAttrs,
      {qu8({1}, {0}), qu8({1}, {0}), sc(0), sc(1), sc(1), sc(1)}, kQ32Out3);
  EXPECT_EQ(bad.status().message(),
            opError("QuantizedMul", "max_x must be larger than min_b."));
  bad = runKernelN(
      "QuantizedMul", kBinaryAttrs,
      {qu8({1}, {0}), qu8({1}, {0}), f32({1}, {0}), sc(1), sc(0), sc(1)},
      kQ32Out3);
  EXPECT_EQ(bad.status().message(),
            opError("QuantizedMul", "min_x must be a scalar"));
}

//===----------------------------------------------------------------------===//
// QuantizedReshape, QuantizedConcat
//===----------------------------------------------------------------------===//

TEST(QuantizedReshape, ReshapesAndPassesTheRange) {
  auto out = runKernelN("QuantizedReshape",
                        AttrMap{{"T", DType::QU8}, {"Tshape", DType::I32}},
                        {qu8({2, 3}, {1, 2, 3, 4, 5, 6}), i32({2}, {3, -1}),
                         sc(-1), f32({1}, {2})},
                        kQOut3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {3, 2}, {1, 2, 3, 4, 5, 6});
  expectValues<float>((*out)[1], {}, {-1});
  expectValues<float>((*out)[2], {}, {2});
  auto bad = runKernelN(
      "QuantizedReshape", AttrMap{{"T", DType::QI32}, {"Tshape", DType::I64}},
      {qi32({2}, {1, 2}), i64({1}, {2}), f32({2}, {0, 0}), sc(1)}, kQ32Out3);
  EXPECT_EQ(bad.status().message(),
            opError("QuantizedReshape",
                    "input_min must be a scalar or a vector of 1 element"));
  bad = runKernelN("QuantizedReshape",
                   AttrMap{{"T", DType::QI32}, {"Tshape", DType::I64}},
                   {qi32({2}, {1, 2}), i64({1}, {3}), sc(0), sc(1)}, kQ32Out3);
  EXPECT_EQ(bad.status().message(),
            opError("QuantizedReshape", "Input to reshape is a tensor with 2 "
                                        "values, but the requested shape has "
                                        "3"));
}

TEST(QuantizedConcat, SameRangesCopyOthersRequantize) {
  // Both in [0, 255]: copied.
  auto out = runKernelN("QuantizedConcat",
                        AttrMap{{"T", DType::QU8}, {"N", int64_t(2)}},
                        {i32({}, {0}), qu8({1, 2}, {1, 2}), qu8({1, 2}, {3, 4}),
                         sc(0), sc(0), sc(255), sc(255)},
                        kQOut3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {2, 2}, {1, 2, 3, 4});
  // [0, 255] and [0, 510] along dim 1: output [0, 510], the first input
  // requantized to round(code * 0.5): 10 -> 5, 11 -> 5.5 -> 6.
  out = runKernelN("QuantizedConcat",
                   AttrMap{{"T", DType::QU8}, {"N", int64_t(2)}},
                   {i32({}, {1}), qu8({1, 2}, {10, 11}), qu8({1, 2}, {1, 2}),
                    sc(0), sc(0), sc(255), sc(510)},
                   kQOut3);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<quint8>((*out)[0], {1, 4}, {5, 6, 1, 2});
  expectValues<float>((*out)[1], {}, {0});
  expectValues<float>((*out)[2], {}, {510});
  // qint32: symmetric around 0.
  auto sym = runKernelN("QuantizedConcat",
                        AttrMap{{"T", DType::QI32}, {"N", int64_t(2)}},
                        {i32({}, {0}), qi32({1}, {7}), qi32({1}, {8}), sc(-1),
                         sc(-2), sc(1), sc(3)},
                        kQ32Out3);
  ASSERT_TRUE(sym.ok()) << sym.status();
  expectValues<float>((*sym)[1], {}, {-3});
  expectValues<float>((*sym)[2], {}, {3});
}

TEST(QuantizedConcat, Errors) {
  auto run = [](int32_t dim, Tensor b) -> std::string {
    return std::string(runKernelN("QuantizedConcat",
                                  AttrMap{{"T", DType::QU8}, {"N", int64_t(2)}},
                                  {i32({}, {dim}), qu8({1, 2}, {1, 2}),
                                   std::move(b), sc(0), sc(0), sc(1), sc(1)},
                                  kQOut3)
                           .status()
                           .message());
  };
  EXPECT_EQ(run(2, qu8({1, 2}, {1, 2})),
            opError("QuantizedConcat", "ConcatOp : Expected concatenating "
                                       "dimensions in the range [0, 2), but "
                                       "got 2"));
  EXPECT_EQ(run(0, qu8({1, 3}, {1, 2, 3})),
            opError("QuantizedConcat",
                    "ConcatOp : Dimensions of inputs should match: shape[0] = "
                    "[1,2] vs. shape[1] = [1,3]"));
  auto dim64 = runKernelN(
      "QuantizedConcat", AttrMap{{"T", DType::QU8}, {"N", int64_t(2)}},
      {i64({}, {0}), qu8({1}, {1}), qu8({1}, {2}), sc(0), sc(0), sc(1), sc(1)},
      kQOut3);
  EXPECT_EQ(
      dim64.status().message(),
      opError("QuantizedConcat", "input #0 must be a i32 tensor, got i64"));
  auto range8 = runKernelN("QuantizedConcat",
                           AttrMap{{"T", DType::QU8}, {"N", int64_t(2)}},
                           {i32({}, {0}), qu8({1}, {1}), qu8({1}, {2}), sc(0),
                            sc(0), sc(1), makeTensor<int8_t>({}, {1})},
                           kQOut3);
  EXPECT_EQ(
      range8.status().message(),
      "loc(test): op 'QuantizedConcat' takes a f32 tensor as input #6 (its "
      "OpDef fixes it) but the program gives i8");
  EXPECT_EQ(run(0, qu8({2}, {1, 2})),
            opError("QuantizedConcat",
                    "ConcatOp : Ranks of all input tensors should match: "
                    "shape[0] = [1,2] vs. shape[1] = [2]"));
}

} // namespace

namespace {

TEST(QuantizationKernels, EdgeCasesStayDefined) {
  // Empty tensors, extreme finite ranges whose width overflows float and NaN
  // inputs: defined results, no errors beyond the documented ones.
  const float big = 3e38f;
  auto q = runKernelN("QuantizeV2", AttrMap{{"T", DType::QI32}},
                      {f32({3}, {std::nanf(""), -big, big}), sc(-big), sc(big)},
                      {DType::QI32, DType::F32, DType::F32});
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ((*q)[0].data<qint32>()[0].value, INT32_MIN); // NaN: the lowest.
  auto empty = runKernelN("QuantizeV2", AttrMap{{"T", DType::QU8}},
                          {f32({0, 3}, {}), sc(0), sc(1)}, kQOut3);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ((*empty)[0].shape(), TensorShape({0, 3}));
  auto add = runKernelN(
      "QuantizedAdd", kBinaryAttrs,
      {qu8({2}, {0, 255}), qu8({}, {7}), sc(-big), sc(big), sc(-big), sc(big)},
      kQ32Out3);
  ASSERT_TRUE(add.ok()) << add.status();
  auto mul = runKernelN(
      "QuantizedMul", kBinaryAttrs,
      {qu8({2, 0}, {}), qu8({2, 0}, {}), sc(-big), sc(big), sc(0), sc(1)},
      kQ32Out3);
  ASSERT_TRUE(mul.ok()) << mul.status();
  EXPECT_EQ((*mul)[0].shape(), TensorShape({2, 0}));
  // [2, 0] * [0] collapses to two dims with an empty operand: TF's error.
  mul = runKernelN("QuantizedMul", kBinaryAttrs,
                   {qu8({2, 0}, {}), qu8({0}, {}), sc(0), sc(1), sc(0), sc(1)},
                   kQ32Out3);
  EXPECT_EQ(mul.status().message(),
            opError("QuantizedMul", "vector must have at least 1 element"));
  auto range =
      runKernelN("RequantizationRange", AttrMap{{"Tinput", DType::QI32}},
                 {qi32({0}, {}), sc(-big), sc(big)}, {DType::F32, DType::F32});
  ASSERT_TRUE(range.ok()) << range.status();
  auto down = runKernelN(
      "QuantizeDownAndShrinkRange",
      AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QU8}},
      {qi32({2}, {INT32_MIN, INT32_MAX}), sc(-big), sc(big)}, kQOut3);
  ASSERT_TRUE(down.ok()) << down.status();
  auto req = runKernelN(
      "Requantize", AttrMap{{"Tinput", DType::QI32}, {"out_type", DType::QU8}},
      {qi32({2}, {INT32_MIN, INT32_MAX}), sc(-big), sc(big), sc(-1e-30f),
       sc(1e-30f)},
      kQOut3);
  ASSERT_TRUE(req.ok()) << req.status();
  auto concat = runKernelN(
      "QuantizedConcat", AttrMap{{"T", DType::QI32}, {"N", int64_t(2)}},
      {i32({}, {1}), qi32({2, 0}, {}), qi32({2, 1}, {1, 2}), sc(-big), sc(0),
       sc(big), sc(1)},
      kQ32Out3);
  ASSERT_TRUE(concat.ok()) << concat.status();
  EXPECT_EQ((*concat)[0].shape(), TensorShape({2, 1}));
}

} // namespace
