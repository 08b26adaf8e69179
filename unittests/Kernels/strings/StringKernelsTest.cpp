//===- StringKernelsTest.cpp - kernels on string tensors --------*- C++ -*-===//
//
// The string forms of Identity, Reshape, Shape, ExpandDims, Squeeze,
// ConcatV2, Pack, GatherV2, StridedSlice and Fill, through the executor.
// Expected values are written out by hand from TensorFlow's semantics (the
// same ops on numbers); every output must be a tensor of its own, not a
// view that keeps an input alive, unless it is a whole run of its input.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

Tensor str(TensorShape shape, std::vector<std::string> values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  return *makeStringTensor(shape, views);
}

std::vector<std::string> stringsOf(const Tensor &t) {
  std::vector<std::string> out;
  for (std::string_view s : stringElements(t))
    out.emplace_back(s);
  return out;
}

void expectStrings(const Tensor &t, const TensorShape &shape,
                   const std::vector<std::string> &values) {
  EXPECT_EQ(t.dtype(), DType::String);
  EXPECT_EQ(t.shape(), shape) << t.shape().toString();
  EXPECT_EQ(stringsOf(t), values);
}

/// Whether every byte of `t`'s elements lies in `t`'s own buffer.
bool ownsItsBytes(const Tensor &t) {
  const char *begin = static_cast<const char *>(t.buffer()->data());
  const char *end = begin + t.buffer()->size();
  for (std::string_view s : stringElements(t))
    if (!s.empty() && (s.data() < begin || s.data() + s.size() > end))
      return false;
  return true;
}

const AttrMap kT{{"T", DType::String}};

TEST(StringKernels, ViewsShareTheInput) {
  Tensor x = str({2, 2}, {"a", "bb", "", "dddd"});
  auto id = runKernel("Identity", kT, {x}, DType::String);
  ASSERT_TRUE(id.ok()) << id.status();
  expectStrings(*id, {2, 2}, {"a", "bb", "", "dddd"});
  EXPECT_EQ(id->buffer().get(), x.buffer().get());
  auto reshaped = runKernel(
      "Reshape", AttrMap{{"T", DType::String}, {"Tshape", DType::I32}},
      {x, i32({1}, {-1})}, DType::String);
  ASSERT_TRUE(reshaped.ok()) << reshaped.status();
  expectStrings(*reshaped, {4}, {"a", "bb", "", "dddd"});
  auto expanded = runKernel("ExpandDims",
                            AttrMap{{"T", DType::String}, {"Tdim", DType::I32}},
                            {x, i32({}, {1})}, DType::String);
  ASSERT_TRUE(expanded.ok()) << expanded.status();
  expectStrings(*expanded, {2, 1, 2}, {"a", "bb", "", "dddd"});
  auto squeezed = runKernel(
      "Squeeze",
      AttrMap{{"T", DType::String}, {"squeeze_dims", std::vector<int64_t>{1}}},
      {*expanded}, DType::String);
  ASSERT_TRUE(squeezed.ok()) << squeezed.status();
  expectStrings(*squeezed, {2, 2}, {"a", "bb", "", "dddd"});
  auto shape = runKernel(
      "Shape", AttrMap{{"T", DType::String}, {"out_type", DType::I64}}, {x},
      DType::I64);
  ASSERT_TRUE(shape.ok()) << shape.status();
  expectValues<int64_t>(*shape, {2}, {2, 2});
}

TEST(StringKernels, ConcatV2AlongEachAxis) {
  Tensor a = str({2, 2}, {"a0", "a1", "a2", "a3"});
  Tensor b = str({2, 1}, {"b0", "b1"});
  Tensor e = str({2, 0}, {});
  AttrMap attrs{{"T", DType::String}, {"N", 3}, {"Tidx", DType::I32}};
  auto out =
      runKernel("ConcatV2", attrs, {a, e, b, i32({}, {-1})}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {2, 3}, {"a0", "a1", "b0", "a2", "a3", "b1"});
  EXPECT_TRUE(ownsItsBytes(*out));
  out = runKernel(
      "ConcatV2", AttrMap{{"T", DType::String}, {"N", 2}, {"Tidx", DType::I32}},
      {a, str({1, 2}, {"", "long string, longer than a view"}), i32({}, {0})},
      DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(
      *out, {3, 2},
      {"a0", "a1", "a2", "a3", "", "long string, longer than a view"});
  EXPECT_TRUE(ownsItsBytes(*out));
  auto bad = runKernel(
      "ConcatV2", AttrMap{{"T", DType::String}, {"N", 2}, {"Tidx", DType::I32}},
      {a, str({3}, {"x", "y", "z"}), i32({}, {0})}, DType::String);
  EXPECT_EQ(bad.status().message(),
            opError("ConcatV2", "ConcatOp : Ranks of all input tensors should "
                                "match: shape[0] = [2,2] vs. shape[1] = [3]"));
}

TEST(StringKernels, PackOnANewAxis) {
  Tensor a = str({2}, {"a0", "a1"});
  Tensor b = str({2}, {"b0", "b1"});
  auto out = runKernel(
      "Pack", AttrMap{{"T", DType::String}, {"N", 2}, {"axis", int64_t(1)}},
      {a, b}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {2, 2}, {"a0", "b0", "a1", "b1"});
  out = runKernel("Pack",
                  AttrMap{{"T", DType::String}, {"N", 2}, {"axis", int64_t(0)}},
                  {a, b}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {2, 2}, {"a0", "a1", "b0", "b1"});
}

TEST(StringKernels, GatherV2WithAxesAndBatchDims) {
  Tensor p = str({2, 3}, {"p00", "p01", "p02", "p10", "p11", "p12"});
  AttrMap attrs{{"Tparams", DType::String},
                {"Tindices", DType::I32},
                {"Taxis", DType::I32}};
  auto out = runKernel("GatherV2", attrs,
                       {p, i32({3}, {2, 0, 2}), i32({}, {1})}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {2, 3}, {"p02", "p00", "p02", "p12", "p10", "p12"});
  EXPECT_TRUE(ownsItsBytes(*out));
  out = runKernel("GatherV2", attrs, {p, i32({1}, {1}), i32({}, {0})},
                  DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {1, 3}, {"p10", "p11", "p12"});
  // batch_dims = 1: row b picks from params row b.
  AttrMap batched = attrs;
  batched = AttrMap{{"Tparams", DType::String},
                    {"Tindices", DType::I32},
                    {"Taxis", DType::I32},
                    {"batch_dims", int64_t(1)}};
  out = runKernel("GatherV2", batched,
                  {p, i32({2, 2}, {2, 1, 0, 0}), i32({}, {1})}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {2, 2}, {"p02", "p01", "p10", "p10"});
  auto bad = runKernel("GatherV2", attrs, {p, i32({1}, {3}), i32({}, {1})},
                       DType::String);
  EXPECT_EQ(bad.status().message(),
            opError("GatherV2", "indices[0] = 3 is not in [0, 3)"));
}

TEST(StringKernels, StridedSliceCopiesOrViews) {
  Tensor x = str({3, 2}, {"a", "b", "c", "d", "e", "f"});
  AttrMap attrs{{"T", DType::String}, {"Index", DType::I32}};
  // Reversed rows and columns: x[::-1, ::-1].
  auto out =
      runKernel("StridedSlice", attrs,
                {x, i32({2}, {-1, -1}), i32({2}, {-4, -3}), i32({2}, {-1, -1})},
                DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {3, 2}, {"f", "e", "d", "c", "b", "a"});
  EXPECT_TRUE(ownsItsBytes(*out));
  // Every other column of rows 1..2: x[1:, ::2].
  out = runKernel("StridedSlice", attrs,
                  {x, i32({2}, {1, 0}), i32({2}, {3, 2}), i32({2}, {1, 2})},
                  DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {2, 1}, {"c", "e"});
  // Rows 1..2, a contiguous run: a view of x.
  out = runKernel("StridedSlice", attrs,
                  {x, i32({1}, {1}), i32({1}, {3}), i32({1}, {1})},
                  DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {2, 2}, {"c", "d", "e", "f"});
  EXPECT_EQ(out->buffer().get(), x.buffer().get());
  // shrink_axis_mask: x[2, 1], a scalar.
  out = runKernel("StridedSlice",
                  AttrMap{{"T", DType::String},
                          {"Index", DType::I32},
                          {"shrink_axis_mask", int64_t(3)}},
                  {x, i32({2}, {2, 1}), i32({2}, {3, 2}), i32({2}, {1, 1})},
                  DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {}, {"f"});
}

TEST(StringKernels, FillRepeatsTheValue) {
  auto out = runKernel(
      "Fill", AttrMap{{"T", DType::String}, {"index_type", DType::I32}},
      {i32({2}, {2, 3}), str({}, {"tf"})}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings(*out, {2, 3}, std::vector<std::string>(6, "tf"));
  EXPECT_TRUE(ownsItsBytes(*out));
  auto bad = runKernel(
      "Fill", AttrMap{{"T", DType::String}, {"index_type", DType::I32}},
      {i32({1}, {2}), str({2}, {"a", "b"})}, DType::String);
  EXPECT_EQ(bad.status().message(),
            opError("Fill", "value must be a scalar, got shape [2]"));
}

TEST(StringKernels, NumericKernelsDoNotTakeStrings) {
  Tensor x = str({2}, {"a", "b"});
  auto out = runKernel(
      "Tile", AttrMap{{"T", DType::String}, {"Tmultiples", DType::I32}},
      {x, i32({1}, {2})}, DType::String);
  EXPECT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("no kernel for op 'Tile' with "
                                        "T=string"),
            std::string::npos)
      << out.status().message();
}

} // namespace
