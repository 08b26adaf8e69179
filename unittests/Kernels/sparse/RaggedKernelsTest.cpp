//===- RaggedKernelsTest.cpp - Ragged tensor kernels ------------*- C++ -*-===//
//
// RaggedRange, RaggedGather, RaggedTensorToSparse, RaggedTensorToTensor and
// the variant encoding (RaggedTensorToVariant / RaggedTensorFromVariant)
// against results worked out by hand from the ops' documentation
// (tf.ragged.range, tf.gather on ragged params, RaggedTensor.to_sparse,
// RaggedTensor.to_tensor, tf.map_fn's ragged encoding), and TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <string>
#include <string_view>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

Tensor strs(TensorShape shape, std::vector<std::string_view> values) {
  return *makeStringTensor(shape, values);
}

void expectStrings(const Tensor &t, std::vector<std::string_view> expected) {
  ASSERT_EQ(t.dtype(), DType::String);
  auto values = stringElements(t);
  ASSERT_EQ(values.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(values[i], expected[i]) << "at " << i;
}

//===----------------------------------------------------------------------===//
// RaggedRange
//===----------------------------------------------------------------------===//

StatusOr<std::vector<Tensor>> range(Tensor starts, Tensor limits, Tensor deltas,
                                    DType splits = DType::I64) {
  const DType t = starts.dtype();
  return runKernelN("RaggedRange", AttrMap{{"T", t}, {"Tsplits", splits}},
                    {std::move(starts), std::move(limits), std::move(deltas)},
                    {splits, t});
}

TEST(RaggedRange, TheDocumentationsExample) {
  // tf.ragged.range([2, 5, 8], [3, 5, 12]) = [[2], [], [8, 9, 10, 11]].
  auto out = range(i32({3}, {2, 5, 8}), i32({3}, {3, 5, 12}), i32({}, {1}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {4}, {0, 1, 1, 5});
  expectValues<int32_t>((*out)[1], {5}, {2, 8, 9, 10, 11});
  // Negative deltas, a scalar start, int32 splits: [[5, 3, 1], [5, 2]].
  out = range(i64({}, {5}), i64({2}, {0, 1}), i64({2}, {-2, -3}), DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>((*out)[0], {3}, {0, 3, 5});
  expectValues<int64_t>((*out)[1], {5}, {5, 3, 1, 5, 2});
  // Floats: ceil(1 / 0.25) = 4 values; all scalars make one row.
  out = range(f32({}, {0}), f32({}, {1}), f32({}, {0.25}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2}, {0, 4});
  expectValues<float>((*out)[1], {4}, {0, 0.25, 0.5, 0.75});
}

TEST(RaggedRange, Errors) {
  EXPECT_EQ(range(i32({}, {0}), i32({}, {3}), i32({}, {0})).status().message(),
            opError("RaggedRange", "Requires delta != 0"));
  EXPECT_EQ(range(i32({2}, {0, 1}), i32({3}, {3, 4, 5}), i32({}, {1}))
                .status()
                .message(),
            opError("RaggedRange",
                    "starts, limits, and deltas must have the same shape"));
  EXPECT_EQ(
      range(i32({1, 1}, {0}), i32({}, {3}), i32({}, {1})).status().message(),
      opError("RaggedRange", "starts must be a scalar or vector"));
  EXPECT_EQ(
      range(i64({}, {0}), i64({}, {int64_t(1) << 40}), i64({}, {1}), DType::I32)
          .status()
          .message(),
      opError("RaggedRange",
              "Requires ((limit - start) / delta) <= 2147483647"));
  EXPECT_EQ(range(i64({2}, {0, 0}), i64({}, {int64_t(1) << 30}), i64({}, {1}),
                  DType::I32)
                .status()
                .message(),
            opError("RaggedRange", "The total range size overflowed. Consider "
                                   "using int64 instead of int32 for "
                                   "row_splits_dtype."));
  float nan = std::nanf("");
  EXPECT_EQ(
      range(f32({}, {0}), f32({}, {nan}), f32({}, {1})).status().message(),
      opError("RaggedRange", "Requires ((limit - start) / delta) <= "
                             "9223372036854775807"));
}

//===----------------------------------------------------------------------===//
// RaggedGather
//===----------------------------------------------------------------------===//

StatusOr<std::vector<Tensor>> gather(std::vector<Tensor> splits, Tensor values,
                                     Tensor indices) {
  const int64_t paramsRank = static_cast<int64_t>(splits.size());
  const int64_t outRank = paramsRank + indices.rank() - 1;
  const DType tv = values.dtype(), ti = indices.dtype(), ts = splits[0].dtype();
  std::vector<Tensor> in = std::move(splits);
  in.push_back(std::move(values));
  in.push_back(std::move(indices));
  std::vector<DType> out(outRank, ts);
  out.push_back(tv);
  return runKernelN("RaggedGather",
                    AttrMap{{"Tvalues", tv},
                            {"Tindices", ti},
                            {"Tsplits", ts},
                            {"PARAMS_RAGGED_RANK", paramsRank},
                            {"OUTPUT_RAGGED_RANK", outRank}},
                    std::move(in), out);
}

TEST(RaggedGather, RowsOfParams) {
  // params = [['a', 'b', 'c'], ['d'], [], ['e']], indices [3, 1, 2, 1, 0]
  // -> [['e'], ['d'], [], ['d'], ['a', 'b', 'c']].
  auto params = [] { return strs({5}, {"a", "b", "c", "d", "e"}); };
  auto out =
      gather({i64({5}, {0, 3, 4, 4, 5})}, params(), i32({5}, {3, 1, 2, 1, 0}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {6}, {0, 1, 2, 2, 3, 6});
  expectStrings((*out)[1], {"e", "d", "d", "a", "b", "c"});
  // 2-D indices [[0, 3], [1, 1]]: a uniform outer dim.
  out =
      gather({i64({5}, {0, 3, 4, 4, 5})}, params(), i64({2, 2}, {0, 3, 1, 1}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3}, {0, 2, 4});
  expectValues<int64_t>((*out)[1], {5}, {0, 3, 4, 5, 6});
  expectStrings((*out)[2], {"a", "b", "c", "e", "d", "d"});
  // Ragged rank 2, int32 splits, values with an inner dim: params
  // [[[1], [2, 3]], [], [[4]]] (values [[1, 10], ...]); gather [2, 0].
  auto nested =
      gather({i32({4}, {0, 2, 2, 3}), i32({4}, {0, 1, 3, 4})},
             f32({4, 2}, {1, 10, 2, 20, 3, 30, 4, 40}), i32({2}, {2, 0}));
  ASSERT_TRUE(nested.ok()) << nested.status();
  expectValues<int32_t>((*nested)[0], {3}, {0, 1, 3});
  expectValues<int32_t>((*nested)[1], {4}, {0, 1, 2, 4});
  expectValues<float>((*nested)[2], {4, 2}, {4, 40, 1, 10, 2, 20, 3, 30});
  // A scalar index: params' row 0 as a dense tensor.
  auto one = gather({i64({5}, {0, 3, 4, 4, 5})}, f32({5}, {1, 2, 3, 4, 5}),
                    i32({}, {0}));
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_EQ(one->size(), 1u);
  expectValues<float>((*one)[0], {3}, {1, 2, 3});
}

TEST(RaggedGather, Errors) {
  EXPECT_EQ(gather({i64({3}, {0, 1, 2})}, f32({2}, {1, 2}), i32({2}, {1, 2}))
                .status()
                .message(),
            opError("RaggedGather", "indices[1] = 2 is not in [0, 2)"));
  EXPECT_EQ(gather({i64({3}, {0, 2, 1})}, f32({2}, {1, 2}), i32({1}, {0}))
                .status()
                .message(),
            opError("RaggedGather", "Ragged splits must be sorted"));
  EXPECT_EQ(
      gather({i64({3}, {0, 1, 3})}, f32({2}, {1, 2}), i32({1}, {0}))
          .status()
          .message(),
      opError("RaggedGather", "Ragged splits must not point past values"));
  // Ours: an inner splits vector pointing one past its next level (TF
  // allows it and reads past the next splits).
  EXPECT_EQ(
      gather({i64({2}, {0, 2}), i64({2}, {0, 1})}, f32({1}, {1}), i32({1}, {0}))
          .status()
          .message(),
      opError("RaggedGather", "Ragged splits must not point past values"));
}

//===----------------------------------------------------------------------===//
// RaggedTensorToSparse
//===----------------------------------------------------------------------===//

TEST(RaggedTensorToSparse, EnumeratesElements) {
  // [[[1, 2], [3]], [], [[4]]].
  auto out = runKernelN(
      "RaggedTensorToSparse",
      AttrMap{{"T", DType::I32}, {"Tsplits", DType::I64}, {"RAGGED_RANK", 2}},
      {i64({4}, {0, 2, 2, 3}), i64({4}, {0, 2, 3, 4}), i32({4}, {1, 2, 3, 4})},
      {DType::I64, DType::I32, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {4, 3},
                        {0, 0, 0, 0, 0, 1, 0, 1, 0, 2, 0, 0});
  expectValues<int32_t>((*out)[1], {4}, {1, 2, 3, 4});
  expectValues<int64_t>((*out)[2], {3}, {3, 2, 2});
  // Values with an inner dim: [[[1, 2]], [[3, 4]]], int32 splits.
  out = runKernelN(
      "RaggedTensorToSparse",
      AttrMap{{"T", DType::F32}, {"Tsplits", DType::I32}, {"RAGGED_RANK", 1}},
      {i32({3}, {0, 1, 2}), f32({2, 2}, {1, 2, 3, 4})},
      {DType::I64, DType::F32, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {4, 3},
                        {0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1});
  expectValues<float>((*out)[1], {4}, {1, 2, 3, 4});
  expectValues<int64_t>((*out)[2], {3}, {2, 1, 2});
  auto bad = runKernelN(
      "RaggedTensorToSparse",
      AttrMap{{"T", DType::F32}, {"Tsplits", DType::I64}, {"RAGGED_RANK", 1}},
      {i64({2}, {1, 2}), f32({2}, {1, 2})},
      {DType::I64, DType::F32, DType::I64});
  EXPECT_EQ(bad.status().message(),
            opError("RaggedTensorToSparse",
                    "First value of ragged splits must be 0."));
  bad = runKernelN(
      "RaggedTensorToSparse",
      AttrMap{{"T", DType::F32}, {"Tsplits", DType::I64}, {"RAGGED_RANK", 1}},
      {i64({2}, {0, 3}), f32({2}, {1, 2})},
      {DType::I64, DType::F32, DType::I64});
  EXPECT_EQ(bad.status().message(),
            opError("RaggedTensorToSparse",
                    "Final value of ragged splits must match the length the "
                    "corresponding ragged values."));
}

//===----------------------------------------------------------------------===//
// RaggedTensorToTensor
//===----------------------------------------------------------------------===//

StatusOr<Tensor> toTensor(Tensor shape, Tensor values, Tensor defaultValue,
                          std::vector<Tensor> partitions,
                          std::vector<std::string> types) {
  const DType t = values.dtype(), ti = partitions[0].dtype(),
              ts = shape.dtype();
  const int64_t n = static_cast<int64_t>(partitions.size());
  std::vector<Tensor> in = {std::move(shape), std::move(values),
                            std::move(defaultValue)};
  for (Tensor &p : partitions)
    in.push_back(std::move(p));
  return runKernel("RaggedTensorToTensor",
                   AttrMap{{"T", t},
                           {"Tindex", ti},
                           {"Tshape", ts},
                           {"num_row_partition_tensors", n},
                           {"row_partition_types", types}},
                   std::move(in), t);
}

TEST(RaggedTensorToTensor, PadsAndCuts) {
  // tf.ragged.constant([[9, 8, 7], [], [6, 5], [4]]).to_tensor() =
  // [[9, 8, 7], [0, 0, 0], [6, 5, 0], [4, 0, 0]].
  auto values = [] { return f32({6}, {9, 8, 7, 6, 5, 4}); };
  auto out = toTensor(i64({}, {-1}), values(), f32({}, {0}),
                      {i64({5}, {0, 3, 3, 5, 6})}, {"ROW_SPLITS"});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4, 3}, {9, 8, 7, 0, 0, 0, 6, 5, 0, 4, 0, 0});
  // The same from value_rowids and the row count, default -1.
  out = toTensor(i64({2}, {-1, -1}), values(), f32({}, {-1}),
                 {i64({}, {4}), i64({6}, {0, 0, 0, 2, 2, 3})},
                 {"FIRST_DIM_SIZE", "VALUE_ROWIDS"});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4, 3}, {9, 8, 7, -1, -1, -1, 6, 5, -1, 4, -1, -1});
  // shape [2, 2] cuts; [5, 4] pads (int32 shape and splits).
  out = toTensor(i32({2}, {2, 2}), values(), f32({}, {0}),
                 {i32({5}, {0, 3, 3, 5, 6})}, {"ROW_SPLITS"});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {9, 8, 0, 0});
  out = toTensor(i32({2}, {5, -1}), values(), f32({}, {0}),
                 {i32({5}, {0, 3, 3, 5, 6})}, {"ROW_SPLITS"});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5, 3},
                      {9, 8, 7, 0, 0, 0, 6, 5, 0, 4, 0, 0, 0, 0, 0});
}

TEST(RaggedTensorToTensor, DefaultValueBroadcastsToAValueRow) {
  // [[[1, 2], [3, 4]], [], [[5, 6]]] with default [-1, -2].
  auto out =
      toTensor(i64({}, {-1}), f32({3, 2}, {1, 2, 3, 4, 5, 6}),
               f32({2}, {-1, -2}), {i64({4}, {0, 2, 2, 3})}, {"ROW_SPLITS"});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 2, 2},
                      {1, 2, 3, 4, -1, -2, -1, -2, 5, 6, -1, -2});
  // Value rows [2, 3], default [[7], [8]] broadcast along the last dim.
  out = toTensor(i64({}, {-1}), f32({1, 2, 3}, {1, 2, 3, 4, 5, 6}),
                 f32({2, 1}, {7, 8}), {i64({3}, {0, 1, 1})}, {"ROW_SPLITS"});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 7, 7, 8, 8, 8});
  // Strings, two ragged dims: [[['a'], ['b', 'c']], [[]]] -> [2, 2, 2].
  auto s = toTensor(i64({}, {-1}), strs({3}, {"a", "b", "c"}), strs({}, {"_"}),
                    {i64({3}, {0, 2, 3}), i64({4}, {0, 1, 3, 3})},
                    {"ROW_SPLITS", "ROW_SPLITS"});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->shape(), (TensorShape{2, 2, 2}));
  expectStrings(*s, {"a", "_", "b", "c", "_", "_", "_", "_"});
}

TEST(RaggedTensorToTensor, NoValuesGiveDefaultRows) {
  // Two empty rows of [0, 2] values, shape [2, 1, 2]: all default.
  auto out = toTensor(i64({3}, {2, 1, 2}), f32({0, 2}, {}), f32({2}, {5, 6}),
                      {i64({3}, {0, 0, 0})}, {"ROW_SPLITS"});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1, 2}, {5, 6, 5, 6});
}

TEST(RaggedTensorToTensor, UnsortedRowIdsPlaceEachValue) {
  // value_rowids [1, 0, 1]: values 1 and 3 in row 1, value 2 in row 0.
  // TF's copy assumes ascending positions; here each value lands at its own.
  auto out = toTensor(i64({}, {-1}), f32({3}, {1, 2, 3}), f32({}, {0}),
                      {i64({}, {2}), i64({3}, {1, 0, 1})},
                      {"FIRST_DIM_SIZE", "VALUE_ROWIDS"});
  ASSERT_TRUE(out.ok()) << out.status();
  // Widest run of equal ids: 1; the second row-1 run restarts at column 0.
  expectValues<float>(*out, {2, 1}, {2, 3});
}

TEST(RaggedTensorToTensor, Errors) {
  auto values = [] { return f32({3}, {1, 2, 3}); };
  EXPECT_EQ(toTensor(i64({}, {-1}), values(), f32({}, {0}),
                     {i64({3}, {0, 0, 1})}, {"VALUE_ROWIDS"})
                .status()
                .message(),
            opError("RaggedTensorToTensor",
                    "Cannot handle VALUE_ROWIDS in first dimension."));
  EXPECT_EQ(toTensor(i64({1}, {2}), values(), f32({}, {0}),
                     {i64({3}, {0, 1, 3})}, {"ROW_SPLITS"})
                .status()
                .message(),
            opError("RaggedTensorToTensor",
                    "rt_input.shape and shape=[2] are incompatible: "
                    "rt_input.rank = 2 but shape.rank = 1"));
  EXPECT_EQ(toTensor(i64({}, {-1}), f32({3, 2}, {1, 2, 3, 4, 5, 6}),
                     f32({3}, {0, 0, 0}), {i64({2}, {0, 3})}, {"ROW_SPLITS"})
                .status()
                .message(),
            opError("RaggedTensorToTensor",
                    "default_value.shape=[3] and rt_input.flat_values.shape="
                    "[3,2] are incompatible: default_value.shape[-1] = 3 but "
                    "rt_input.flat_values.shape[-1] = 2"));
  EXPECT_EQ(toTensor(i64({}, {-1}), values(), f32({}, {0}),
                     {i64({}, {2}), i64({3}, {0, 2, 1})},
                     {"FIRST_DIM_SIZE", "VALUE_ROWIDS"})
                .status()
                .message(),
            opError("RaggedTensorToTensor",
                    "Got next_value_rowid=2 which is not less than 2"));
  // Ours: a negative row id, splits that run past the values.
  EXPECT_EQ(
      toTensor(i64({}, {-1}), values(), f32({}, {0}),
               {i64({}, {2}), i64({3}, {0, -1, 1})},
               {"FIRST_DIM_SIZE", "VALUE_ROWIDS"})
          .status()
          .message(),
      opError("RaggedTensorToTensor", "value_rowids[1] = -1 is negative"));
  EXPECT_EQ(toTensor(i64({}, {-1}), values(), f32({}, {0}),
                     {i64({3}, {0, 1, 9})}, {"ROW_SPLITS"})
                .status()
                .message(),
            opError("RaggedTensorToTensor",
                    "row partition 0 has 9 items but the next level has 3"));
  EXPECT_EQ(toTensor(i64({}, {-1}), values(), f32({}, {0}),
                     {i64({1}, {2}), i64({3}, {0, 0, 1})},
                     {"FIRST_DIM_SIZE", "VALUE_ROWIDS"})
                .status()
                .message(),
            opError("RaggedTensorToTensor",
                    "FIRST_DIM_SIZE must be a scalar, got shape [1]"));
  auto unknown = toTensor(i64({}, {-1}), values(), f32({}, {0}),
                          {i64({3}, {0, 1, 3})}, {"ROW_LENGTHS"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find(
                "Unknown string for partition info type: ROW_LENGTHS"),
            std::string::npos)
      << unknown.status();
}

//===----------------------------------------------------------------------===//
// RaggedTensorToVariant, RaggedTensorFromVariant
//===----------------------------------------------------------------------===//

StatusOr<Tensor> toVariant(std::vector<Tensor> splits, Tensor values,
                           bool batched) {
  const int64_t k = static_cast<int64_t>(splits.size());
  const DType tv = values.dtype();
  std::vector<Tensor> in = std::move(splits);
  in.push_back(std::move(values));
  return runKernel("RaggedTensorToVariant",
                   AttrMap{{"Tvalues", tv},
                           {"Tsplits", DType::I64},
                           {"RAGGED_RANK", k},
                           {"batched_input", batched}},
                   std::move(in), DType::Variant);
}

StatusOr<std::vector<Tensor>> fromVariant(Tensor encoded, int64_t inputRank,
                                          int64_t outputRank,
                                          DType values = DType::I32) {
  std::vector<DType> out(outputRank, DType::I64);
  out.push_back(values);
  return runKernelN("RaggedTensorFromVariant",
                    AttrMap{{"Tvalues", values},
                            {"Tsplits", DType::I64},
                            {"input_ragged_rank", inputRank},
                            {"output_ragged_rank", outputRank}},
                    {std::move(encoded)}, out);
}

TEST(RaggedVariant, ScalarRoundTrip) {
  auto v = toVariant({i64({4}, {0, 2, 2, 3})}, i32({3}, {1, 2, 3}), false);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->dtype(), DType::Variant);
  EXPECT_EQ(v->shape(), TensorShape{});
  auto back = fromVariant(*v, 1, 1);
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<int64_t>((*back)[0], {4}, {0, 2, 2, 3});
  expectValues<int32_t>((*back)[1], {3}, {1, 2, 3});
}

TEST(RaggedVariant, BatchedRowsStackBack) {
  // [[1, 2], [], [3]] -> three variants, each a dense row; stacked again
  // with one ragged dim (input_ragged_rank inferred: 1 - 1 = 0).
  auto v = toVariant({i64({4}, {0, 2, 2, 3})}, i32({3}, {1, 2, 3}), true);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->shape(), TensorShape{3});
  auto back = fromVariant(*v, -1, 1);
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<int64_t>((*back)[0], {4}, {0, 2, 2, 3});
  expectValues<int32_t>((*back)[1], {3}, {1, 2, 3});
  // Ragged rank 2: [[[1, 2], [3]], [[4, 5]]] -> rows [[1, 2], [3]] and
  // [[4, 5]], each of ragged rank 1.
  v = toVariant({i64({3}, {0, 2, 3}), i64({4}, {0, 2, 3, 5})},
                i32({5}, {1, 2, 3, 4, 5}), true);
  ASSERT_TRUE(v.ok()) << v.status();
  back = fromVariant(*v, 1, 2);
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<int64_t>((*back)[0], {3}, {0, 2, 3});
  expectValues<int64_t>((*back)[1], {4}, {0, 2, 3, 5});
  expectValues<int32_t>((*back)[2], {5}, {1, 2, 3, 4, 5});
  // Ragged rank 0 unbatched to rows and stacked densely again.
  v = toVariant({}, i32({2, 2}, {1, 2, 3, 4}), true);
  ASSERT_TRUE(v.ok()) << v.status();
  back = fromVariant(*v, 0, 0);
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<int32_t>((*back)[0], {2, 2}, {1, 2, 3, 4});
}

TEST(RaggedVariant, Errors) {
  EXPECT_EQ(
      toVariant({i64({3}, {0, 2, 1})}, i32({1}, {1}), false).status().message(),
      opError("RaggedTensorToVariant",
              "Invalid ragged splits: ragged splits must be "
              "monotonically increasing, but ragged_splits[2]=1 is "
              "smaller than row_splits[1]=2"));
  EXPECT_EQ(toVariant({i64({2}, {0, 2})}, i32({3}, {1, 2, 3}), false)
                .status()
                .message(),
            opError("RaggedTensorToVariant",
                    "Invalid ragged splits: last element of ragged splits "
                    "must be the number of ragged values(3) but is 2"));
  auto v = toVariant({i64({2}, {0, 1})}, i32({1}, {7}), false);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(fromVariant(*v, 2, 2).status().message(),
            opError("RaggedTensorFromVariant",
                    "Encoded input RaggedTensorVariant has ragged_rank=1.  "
                    "Expected ragged_rank=2."));
  EXPECT_EQ(fromVariant(*v, 1, 1, DType::F32).status().message(),
            opError("RaggedTensorFromVariant",
                    "Expected values Tensor dtype: float, found: int32"));
  EXPECT_EQ(fromVariant(*v, 1, 3).status().message(),
            opError("RaggedTensorFromVariant",
                    "output_ragged_rank must be equal to input_ragged_rank + "
                    "encoded_ragged.dims(); output_ragged_rank: 3, "
                    "input_ragged_rank: 1, encoded_variant.dims(): 0."));
  // A TensorList is not a ragged tensor.
  auto list = runKernel(
      "TensorListReserve",
      AttrMap{{"element_dtype", DType::F32}, {"shape_type", DType::I32}},
      {i32({}, {-1}), i32({}, {1})}, DType::Variant);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(fromVariant(*list, 0, 0).status().message(),
            opError("RaggedTensorFromVariant",
                    "Input Variant element at index 0 doesn't hold a "
                    "RaggedTensorVariant: tensorflow::TensorList"));
}

TEST(RaggedKernels, ValueRowsWithoutElementsAreNotWalked) {
  // 2^40 value rows of no elements, all in one ragged row.
  const int64_t n = int64_t(1) << 40;
  auto gathered = gather({i64({2}, {0, n})}, f32({n, 0}, {}), i32({2}, {0, 0}));
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  expectValues<int64_t>((*gathered)[0], {3}, {0, double(n), double(2 * n)});
  EXPECT_EQ((*gathered)[1].shape(), (TensorShape{2 * n, 0}));
  auto sparse = runKernelN(
      "RaggedTensorToSparse",
      AttrMap{{"T", DType::F32}, {"Tsplits", DType::I64}, {"RAGGED_RANK", 1}},
      {i64({2}, {0, n}), f32({n, 0}, {})},
      {DType::I64, DType::F32, DType::I64});
  ASSERT_TRUE(sparse.ok()) << sparse.status();
  EXPECT_EQ((*sparse)[0].shape(), (TensorShape{0, 3}));
  expectValues<int64_t>((*sparse)[2], {3}, {1, double(n), 0});
  // Unbatching them would make 2^40 variants: refused, not attempted.
  EXPECT_FALSE(toVariant({}, f32({n, 0}, {}), true).ok());
}

} // namespace
