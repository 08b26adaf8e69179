//===- FakeQuantKernelsTest.cpp - FakeQuantWithMinMax* ----------*- C++ -*-===//
//
// Rounding to the quantized levels and TF's range nudging, worked by hand:
// [0, 255] with 8 bits has scale 1 and zero point 0; [-0.25, 1.25] with 4
// bits has scale 0.1 and a zero point of 2.5 rounded to 3, which nudges the
// range to [-0.3, 1.2].
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(FakeQuantWithMinMaxArgs, RoundsAndClamps) {
  auto out = runKernel("FakeQuantWithMinMaxArgs",
                       AttrMap{{"min", 0.0f}, {"max", 255.0f}},
                       {f32({5}, {-1, 0.4f, 0.5f, 1.6f, 300})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {0, 0, 1, 2, 255});
  out = runKernel("FakeQuantWithMinMaxArgs",
                  AttrMap{{"min", -0.25f}, {"max", 1.25f}, {"num_bits", 4}},
                  {f32({5}, {-1, 0.04f, 0.06f, 0.52f, 1.25f})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {-0.3, 0, 0.1, 0.5, 1.2}, 1e-6);
  // narrow_range: levels 1..255 of [0, 254] (scale 1, zero point 1 - 0).
  out =
      runKernel("FakeQuantWithMinMaxArgs",
                AttrMap{{"min", 0.0f}, {"max", 254.0f}, {"narrow_range", true}},
                {f32({2}, {-5, 300})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {0, 254});
  out = runKernel("FakeQuantWithMinMaxArgs",
                  AttrMap{{"min", 1.0f}, {"max", 1.0f}}, {f32({1}, {0})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("FakeQuantWithMinMaxArgs",
                    "min has to be smaller than max, was: 1 >= 1"));
  out = runKernel("FakeQuantWithMinMaxArgs", AttrMap{{"num_bits", 1}},
                  {f32({1}, {0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("FakeQuantWithMinMaxArgs",
                    "num_bits must be between 2 and 16, inclusive"));
}

TEST(FakeQuantWithMinMaxVars, ScalarAndPerChannel) {
  auto out =
      runKernel("FakeQuantWithMinMaxVars", AttrMap{{"num_bits", 4}},
                {f32({3}, {-1, 0.06f, 2}), f32({}, {-0.25f}), f32({}, {1.25f})},
                DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {-0.3, 0.1, 1.2}, 1e-6);
  // min == max == 0 gives zeros.
  out = runKernel("FakeQuantWithMinMaxVars", AttrMap{},
                  {f32({2}, {3, -3}), f32({}, {0}), f32({}, {0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {0, 0});
  // Per channel (last dim 2): [0, 15] (scale 1) and [-0.25, 1.25].
  out = runKernel("FakeQuantWithMinMaxVarsPerChannel", AttrMap{{"num_bits", 4}},
                  {f32({2, 2}, {3.4f, 0.06f, 20, -1}), f32({2}, {0, -0.25f}),
                   f32({2}, {15, 1.25f})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {3, 0.1, 15, -0.3}, 1e-6);
  out = runKernel(
      "FakeQuantWithMinMaxVarsPerChannel", AttrMap{},
      {f32({2, 2}, {0, 0, 0, 0}), f32({3}, {0, 0, 0}), f32({2}, {1, 1})},
      DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("FakeQuantWithMinMaxVarsPerChannel",
                    "min has incorrect size, expected 2 was 3"));
  out = runKernel("FakeQuantWithMinMaxVars", AttrMap{},
                  {f32({1}, {0}), f32({1}, {0}), f32({}, {1})}, DType::F32);
  EXPECT_EQ(
      out.status().message(),
      opError("FakeQuantWithMinMaxVars", "`min` must be rank 0 but is rank 1"));
}

} // namespace
