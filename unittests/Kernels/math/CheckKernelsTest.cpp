//===- CheckKernelsTest.cpp - Assert, CheckNumerics -------------*- C++ -*-===//
//
// Assert's message (TF's SummarizeValue format, hand-derived), and
// CheckNumerics / CheckNumericsV2 on finite and non-finite inputs.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

AttrMap assertAttrs(std::vector<DType> types, int64_t summarize = 3) {
  return {{"T", types}, {"summarize", summarize}};
}

TEST(Assert, PassesAndFails) {
  auto out = runKernelN("Assert", assertAttrs({DType::F32}),
                        {makeTensor<bool>({}, {true}), f32({2}, {1, 2})}, {},
                        /*ordered=*/true);
  ASSERT_TRUE(out.ok()) << out.status();
  // Vectors print up to `summarize` values then "...", matrices nest.
  out = runKernelN("Assert", assertAttrs({DType::I32, DType::F32}),
                   {makeTensor<bool>({}, {false}), i32({5}, {1, 2, 3, 4, 5}),
                    f32({2, 2}, {0.5, 1, 2, 3})},
                   {}, /*ordered=*/true);
  EXPECT_EQ(
      out.status().message(),
      opError("Assert", "assertion failed: [1 2 3...] [[0.5 1][2...]...]"));
  out = runKernelN("Assert", assertAttrs({DType::Bool, DType::I64}, 10),
                   {makeTensor<bool>({}, {false}),
                    makeTensor<bool>({2}, {true, false}), i64({}, {-7})},
                   {}, /*ordered=*/true);
  EXPECT_EQ(out.status().message(),
            opError("Assert", "assertion failed: [1 0] [-7]"));
  out = runKernelN("Assert", assertAttrs({DType::F32}),
                   {makeTensor<bool>({1}, {true}), f32({1}, {1})}, {},
                   /*ordered=*/true);
  EXPECT_EQ(out.status().message(),
            opError("Assert", "In[0] should be a scalar: [1]"));
}

TEST(Assert, StringData) {
  // TF's usual message: a string tensor first, its bytes C-escaped.
  StatusOr<Tensor> text = makeStringTensor(
      TensorShape{}, std::vector<std::string_view>{"x must be \"small\"\n"});
  ASSERT_TRUE(text.ok());
  auto out = runKernelN("Assert", assertAttrs({DType::String, DType::I32}),
                        {makeTensor<bool>({}, {false}), *text, i32({}, {9})},
                        {}, /*ordered=*/true);
  EXPECT_EQ(
      out.status().message(),
      opError("Assert", "assertion failed: [x must be \\\"small\\\"\\n] [9]"));
}

TEST(CheckNumerics, Messages) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  AttrMap attrs{{"T", DType::F32}, {"message", std::string("bad")}};
  Tensor fine = f32({2}, {1, 2});
  auto out = runKernel("CheckNumerics", attrs, {fine}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), fine.rawData());
  out = runKernel("CheckNumerics", attrs, {f32({2}, {1, nan})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("CheckNumerics", "bad : Tensor had NaN values"));
  out = runKernel("CheckNumerics", attrs, {f32({3}, {-inf, nan, inf})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("CheckNumerics", "bad : Tensor had Inf and NaN values"));
  out = runKernel("CheckNumericsV2", attrs, {f32({3}, {-inf, nan, inf})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("CheckNumericsV2",
                    "bad : Tensor had -Inf, +Inf, and NaN values"));
  out = runKernel("CheckNumericsV2",
                  AttrMap{{"T", DType::F16}, {"message", std::string("m")}},
                  {makeTensorFrom<half>({1}, {65504.0 * 4})}, DType::F16);
  EXPECT_EQ(out.status().message(),
            opError("CheckNumericsV2", "m : Tensor had +Inf values"));
  out = runKernel("CheckNumerics",
                  AttrMap{{"T", DType::F64}, {"message", std::string("d")}},
                  {makeTensor<double>({1}, {-1e300 * 1e300})}, DType::F64);
  EXPECT_EQ(out.status().message(),
            opError("CheckNumerics", "d : Tensor had Inf values"));
}

} // namespace
