//===- ExampleParsingKernelsTest.cpp - ParseExample, V2, Single -*- C++ -*-===//
//
// tf.Example protos serialized by an encoder in this file, written from
// the protobuf wire-format specification (varints, length-delimited and
// fixed32 fields, packed and unpacked repeated fields), parsed by
// ParseSingleExample, ParseExample, ParseExampleV2 and
// ParseSequenceExampleV2; expected values
// worked out by hand from tf.io.parse_example's documentation (dense
// defaults, variable-length padding, sparse indices and dense shape, ragged
// row splits). Hostile bytes (every truncation and byte flip of a valid
// proto) must give a value or an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <cstring>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

//===----------------------------------------------------------------------===//
// A protobuf wire-format encoder for tf.Example
//===----------------------------------------------------------------------===//

std::string varint(uint64_t v) {
  std::string out;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    out.push_back(static_cast<char>(b | (v ? 0x80 : 0)));
  } while (v);
  return out;
}
/// Field `num` of wire type 2 holding `payload`.
std::string delimited(int num, const std::string &payload) {
  return varint(num << 3 | 2) + varint(payload.size()) + payload;
}
std::string fixed32(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  std::string out;
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>(bits >> (8 * i) & 0xff));
  return out;
}
/// Feature { float_list = 2 { value = 1 } }.
std::string floats(const std::vector<float> &values, bool packed = true) {
  std::string list;
  if (packed) {
    std::string raw;
    for (float f : values)
      raw += fixed32(f);
    list = delimited(1, raw);
  } else {
    for (float f : values)
      list += varint(1 << 3 | 5) + fixed32(f);
  }
  return delimited(2, list);
}
/// Feature { int64_list = 3 { value = 1 } }.
std::string ints(const std::vector<int64_t> &values, bool packed = true) {
  std::string list;
  if (packed) {
    std::string raw;
    for (int64_t v : values)
      raw += varint(static_cast<uint64_t>(v));
    list = delimited(1, raw);
  } else {
    for (int64_t v : values)
      list += varint(1 << 3 | 0) + varint(static_cast<uint64_t>(v));
  }
  return delimited(3, list);
}
/// Feature { bytes_list = 1 { value = 1 } }.
std::string bytes(const std::vector<std::string> &values) {
  std::string list;
  for (const std::string &v : values)
    list += delimited(1, v);
  return delimited(1, list);
}
/// Example { features = 1 { feature = 1 (map entry: key 1, value 2) } }.
std::string
example(const std::vector<std::pair<std::string, std::string>> &features) {
  std::string map;
  for (const auto &[key, feature] : features)
    map += delimited(1, delimited(1, key) + delimited(2, feature));
  return delimited(1, map);
}

/// The shape of a scalar (PartialShape{} is the unknown rank).
PartialShape scalarShape() { return PartialShape(absl::Span<const int64_t>()); }

Tensor strings(TensorShape shape, const std::vector<std::string> &values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  StatusOr<Tensor> t = makeStringTensor(shape, views);
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}
std::vector<std::string> stringsOf(const Tensor &t) {
  std::vector<std::string> out;
  for (std::string_view v : stringElements(t))
    out.emplace_back(v);
  return out;
}

//===----------------------------------------------------------------------===//
// ParseSingleExample
//===----------------------------------------------------------------------===//

/// Sparse int64 "s"; dense float "a" [2], int64 "b" [] (default 7), string
/// "c" [-1] (variable length).
AttrMap singleAttrs() {
  return AttrMap{
      {"num_sparse", int64_t(1)},
      {"sparse_keys", std::vector<std::string>{"s"}},
      {"dense_keys", std::vector<std::string>{"a", "b", "c"}},
      {"sparse_types", std::vector<DType>{DType::I64}},
      {"Tdense", std::vector<DType>{DType::F32, DType::I64, DType::String}},
      {"dense_shapes", std::vector<PartialShape>{PartialShape{2}, scalarShape(),
                                                 PartialShape{-1}}}};
}
const std::vector<DType> kSingleOut = {DType::I64, DType::I64, DType::I64,
                                       DType::F32, DType::I64, DType::String};

StatusOr<std::vector<Tensor>> parseSingle(const std::string &serialized) {
  return runKernelN("ParseSingleExample", singleAttrs(),
                    {strings({}, {serialized}), f32({0}, {}), i64({}, {7}),
                     strings({}, {"pad"})},
                    kSingleOut);
}

TEST(ParseSingleExample, DenseSparseAndVariableLength) {
  auto out = parseSingle(example({{"a", floats({1.5f, -2})},
                                  {"s", ints({5, -1}, /*packed=*/false)},
                                  {"c", bytes({"x", "yz"})},
                                  {"unused", ints({1})}}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 1}, {0, 1});
  expectValues<int64_t>((*out)[1], {2}, {5, -1});
  expectValues<int64_t>((*out)[2], {1}, {2});
  expectValues<float>((*out)[3], {2}, {1.5, -2});
  expectValues<int64_t>((*out)[4], {}, {7}); // Missing: the default.
  EXPECT_EQ((*out)[5].shape(), TensorShape({2}));
  EXPECT_EQ(stringsOf((*out)[5]), (std::vector<std::string>{"x", "yz"}));

  // Unpacked floats, packed int64; the last entry of a key wins; sparse
  // and variable-length features may be missing.
  out = parseSingle(example({{"a", floats({9, 9})},
                             {"b", ints({3})},
                             {"a", floats({3, 4}, /*packed=*/false)}}));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), TensorShape({0, 1}));
  expectValues<int64_t>((*out)[2], {1}, {0});
  expectValues<float>((*out)[3], {2}, {3, 4});
  expectValues<int64_t>((*out)[4], {}, {3});
  EXPECT_EQ((*out)[5].shape(), TensorShape({0}));
}

TEST(ParseSingleExample, Errors) {
  auto message = [](const std::string &serialized) {
    return std::string(parseSingle(serialized).status().message());
  };
  const char *op = "ParseSingleExample";
  EXPECT_EQ(message(example({})),
            opError(op, "Feature: a (data type: float) is required but could "
                        "not be found."));
  EXPECT_EQ(message(example({{"a", ints({1, 2})}})),
            opError(op, "Key: a.  Data types don't match. Data type: int64 "
                        "but expected type: float"));
  EXPECT_EQ(message(example({{"a", floats({1, 2, 3})}})),
            opError(op, "Key: a.  Can't parse serialized Example: Some "
                        "float_list slice was not parsed."));
  EXPECT_EQ(message(example({{"a", floats({1, 2})}, {"s", floats({1})}})),
            opError(op, "Key: s.  Data types don't match. Expected type: "
                        "int64, Actual type: float"));
  EXPECT_EQ(message(example({{"a", floats({1, 2})}, {"s", "\x22\x00"}})),
            opError(op, "Unsupported datatype."));
  const std::string truncated = example({{"a", floats({1, 2})}}).substr(0, 5);
  EXPECT_EQ(
      message(truncated),
      opError(op, "Could not parse example input, value: '" + truncated + "'"));
}

TEST(ParseSingleExample, HostileBytesNeverCrash) {
  const std::string valid = example({{"a", floats({1.5f, -2})},
                                     {"s", ints({5, -1, int64_t(1) << 62})},
                                     {"c", bytes({"x", "yz"})}});
  ASSERT_TRUE(parseSingle(valid).ok());
  // Every truncation, and every byte set to 0x00, 0x7f, 0x80 and 0xff.
  for (size_t n = 0; n < valid.size(); ++n)
    (void)parseSingle(valid.substr(0, n));
  for (size_t i = 0; i < valid.size(); ++i)
    for (char b : {'\x00', '\x7f', '\x80', '\xff'}) {
      std::string bad = valid;
      bad[i] = b;
      (void)parseSingle(bad);
    }
  // Lengths far beyond the data, a group, an overlong varint.
  EXPECT_FALSE(parseSingle("\x0a\xff\xff\xff\xff\x0f").ok());
  EXPECT_FALSE(parseSingle(std::string("\x0b\x0c", 2)).ok());
  EXPECT_FALSE(
      parseSingle(
          std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12))
          .ok());
  // Unknown fields of Example are skipped.
  auto out = parseSingle(varint(2 << 3 | 0) + varint(300) + valid);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[3], {2}, {1.5, -2});
}

//===----------------------------------------------------------------------===//
// ParseExample
//===----------------------------------------------------------------------===//

TEST(ParseExample, BatchOfDenseSparseAndVariableLength) {
  // Dense float "a" [2]; variable-length float "v" [-1] padded with -1;
  // sparse int64 "s".
  const std::vector<std::string> batch = {
      example({{"a", floats({1, 2})}, {"s", ints({5})}, {"v", floats({9})}}),
      example({{"a", floats({3, 4})}, {"s", ints({6, 7, 8})}}),
  };
  AttrMap attrs{{"Nsparse", int64_t(1)},
                {"Ndense", int64_t(2)},
                {"sparse_types", std::vector<DType>{DType::I64}},
                {"Tdense", std::vector<DType>{DType::F32, DType::F32}},
                {"dense_shapes",
                 std::vector<PartialShape>{PartialShape{2}, PartialShape{-1}}}};
  auto out =
      runKernelN("ParseExample", attrs,
                 {strings({2}, batch), strings({2}, {"first", "second"}),
                  strings({}, {"s"}), strings({}, {"a"}), strings({}, {"v"}),
                  f32({2}, {0, 0}), f32({}, {-1})},
                 {DType::I64, DType::I64, DType::I64, DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {4, 2}, {0, 0, 1, 0, 1, 1, 1, 2});
  expectValues<int64_t>((*out)[1], {4}, {5, 6, 7, 8});
  expectValues<int64_t>((*out)[2], {2}, {2, 3});
  expectValues<float>((*out)[3], {2, 2}, {1, 2, 3, 4});
  expectValues<float>((*out)[4], {2, 1}, {9, -1});

  // A missing required feature names the example.
  auto bad = runKernelN(
      "ParseExample", attrs,
      {strings({2}, {batch[0], example({{"s", ints({1})}})}),
       strings({2}, {"first", "second"}), strings({}, {"s"}),
       strings({}, {"a"}), strings({}, {"v"}), f32({0}, {}), f32({}, {-1})},
      {DType::I64, DType::I64, DType::I64, DType::F32, DType::F32});
  EXPECT_EQ(bad.status().message(),
            opError("ParseExample", "Name: second, Feature: a (data type: "
                                    "float) is required but could not be "
                                    "found."));
  // Too many values, without names.
  bad =
      runKernelN("ParseExample", attrs,
                 {strings({1}, {example({{"a", floats({1, 2, 3})}})}),
                  strings({0}, {}), strings({}, {"s"}), strings({}, {"a"}),
                  strings({}, {"v"}), f32({2}, {0, 0}), f32({}, {-1})},
                 {DType::I64, DType::I64, DType::I64, DType::F32, DType::F32});
  EXPECT_EQ(bad.status().message(),
            opError("ParseExample", "Name: <unknown>, Key: a, Index: 0.  "
                                    "Number of float values != expected.  "
                                    "Values size: 3 but output shape: [2]"));
  // The default's shape must fit dense_shapes.
  bad =
      runKernelN("ParseExample", attrs,
                 {strings({1}, {batch[0]}), strings({0}, {}),
                  strings({}, {"s"}), strings({}, {"a"}), strings({}, {"v"}),
                  f32({3}, {0, 0, 0}), f32({}, {-1})},
                 {DType::I64, DType::I64, DType::I64, DType::F32, DType::F32});
  EXPECT_EQ(bad.status().message(),
            opError("ParseExample", "def_value[0].shape() == [3] is not "
                                    "compatible with dense_shapes_[0] == [2]"));
}

//===----------------------------------------------------------------------===//
// ParseExampleV2
//===----------------------------------------------------------------------===//

TEST(ParseExampleV2, RaggedAndStrings) {
  // Ragged int64 "r" with int64 and int32 splits; dense string "d" [] with
  // default "none".
  AttrMap attrs{
      {"num_sparse", int64_t(0)},
      {"sparse_types", std::vector<DType>{}},
      {"Tdense", std::vector<DType>{DType::String}},
      {"dense_shapes", std::vector<PartialShape>{scalarShape()}},
      {"ragged_value_types", std::vector<DType>{DType::I64, DType::I64}},
      {"ragged_split_types", std::vector<DType>{DType::I64, DType::I32}}};
  const std::vector<std::string> batch = {
      example({{"r", ints({1, 2})}, {"d", bytes({"hi"})}}),
      example({}),
      example({{"r", ints({3})}}),
  };
  auto out = runKernelN(
      "ParseExampleV2", attrs,
      {strings({3}, batch), strings({0}, {}), strings({0}, {}),
       strings({1}, {"d"}), strings({2}, {"r", "r2"}), strings({}, {"none"})},
      {DType::String, DType::I64, DType::I64, DType::I64, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(stringsOf((*out)[0]),
            (std::vector<std::string>{"hi", "none", "none"}));
  expectValues<int64_t>((*out)[1], {3}, {1, 2, 3});
  EXPECT_EQ((*out)[2].shape(), TensorShape({0}));
  expectValues<int64_t>((*out)[3], {4}, {0, 2, 2, 3});
  expectValues<int32_t>((*out)[4], {4}, {0, 0, 0, 0});

  // A scalar input parses one example (no batch dim).
  out = runKernelN(
      "ParseExampleV2", attrs,
      {strings({}, {batch[0]}), strings({0}, {}), strings({0}, {}),
       strings({1}, {"d"}), strings({2}, {"r", "r2"}), strings({}, {"none"})},
      {DType::String, DType::I64, DType::I64, DType::I64, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), TensorShape({}));
  EXPECT_EQ(stringsOf((*out)[0]), (std::vector<std::string>{"hi"}));
  expectValues<int64_t>((*out)[1], {2}, {1, 2});

  auto bad = runKernelN(
      "ParseExampleV2", attrs,
      {strings({1, 1}, {batch[0]}), strings({0}, {}), strings({0}, {}),
       strings({1}, {"d"}), strings({2}, {"r", "r2"}), strings({}, {"none"})},
      {DType::String, DType::I64, DType::I64, DType::I64, DType::I32});
  EXPECT_EQ(bad.status().message(),
            opError("ParseExampleV2", "Expected serialized to be a scalar or "
                                      "vector, got shape: [1,1]"));
  bad = runKernelN(
      "ParseExampleV2", attrs,
      {strings({1}, {batch[0]}), strings({0}, {}), strings({0}, {}),
       strings({1}, {"d"}), strings({1}, {"r"}), strings({}, {"none"})},
      {DType::String, DType::I64, DType::I64, DType::I64, DType::I32});
  EXPECT_EQ(bad.status().message(),
            opError("ParseExampleV2", "Expected len(ragged_keys) == "
                                      "len(ragged_value_types) but got: 1 vs. "
                                      "2"));
}

TEST(ParseExampleV2, HostileBytesNeverCrash) {
  // Dense fixed and variable-length, sparse and ragged features of every
  // type over pseudo-random mutations of valid examples (xorshift).
  AttrMap attrs{
      {"num_sparse", int64_t(1)},
      {"sparse_types", std::vector<DType>{DType::String}},
      {"Tdense", std::vector<DType>{DType::F32, DType::I64}},
      {"dense_shapes",
       std::vector<PartialShape>{PartialShape{2}, PartialShape{-1, 2}}},
      {"ragged_value_types", std::vector<DType>{DType::F32}},
      {"ragged_split_types", std::vector<DType>{DType::I32}}};
  const std::string valid[2] = {
      example({{"a", floats({1, 2})},
               {"v", ints({1, 2, 3, 4})},
               {"s", bytes({"p", "q"})},
               {"r", floats({5}, /*packed=*/false)}}),
      example({{"v", ints({7, 8}, /*packed=*/false)}, {"r", floats({})}})};
  auto run = [&](const std::string &a, const std::string &b) {
    return runKernelN("ParseExampleV2", attrs,
                      {strings({2}, {a, b}), strings({0}, {}),
                       strings({1}, {"s"}), strings({2}, {"a", "v"}),
                       strings({1}, {"r"}), f32({2}, {0, 0}), i64({}, {-1})},
                      {DType::I64, DType::String, DType::I64, DType::F32,
                       DType::I64, DType::F32, DType::I32});
  };
  auto out = run(valid[0], valid[1]);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 2}, {0, 0, 0, 1});
  EXPECT_EQ(stringsOf((*out)[1]), (std::vector<std::string>{"p", "q"}));
  expectValues<int64_t>((*out)[2], {2}, {2, 2});
  expectValues<float>((*out)[3], {2, 2}, {1, 2, 0, 0});
  expectValues<int64_t>((*out)[4], {2, 2, 2}, {1, 2, 3, 4, 7, 8, -1, -1});
  expectValues<float>((*out)[5], {1}, {5});
  expectValues<int32_t>((*out)[6], {3}, {0, 1, 1});
  uint32_t state = 12345;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  for (int round = 0; round < 3000; ++round) {
    std::string a = valid[0], b = valid[1];
    std::string &m = round % 2 ? a : b;
    for (int edits = 1 + next() % 3; edits > 0; --edits) {
      switch (next() % 3) {
      case 0:
        m[next() % m.size()] = static_cast<char>(next());
        break;
      case 1:
        m.erase(next() % m.size(), 1 + next() % 3);
        break;
      default:
        m.insert(next() % (m.size() + 1), 1, static_cast<char>(next()));
        break;
      }
      if (m.empty())
        m = "\x0a";
    }
    (void)run(a, b);
  }
}

//===----------------------------------------------------------------------===//
// ParseSequenceExampleV2
//===----------------------------------------------------------------------===//

/// SequenceExample { context = 1 (Features); feature_lists = 2
/// { feature_list = 1 (map entry: key 1, FeatureList { feature = 1 }) } }.
std::string sequenceExample(
    const std::vector<std::pair<std::string, std::string>> &context,
    const std::vector<std::pair<std::string, std::vector<std::string>>>
        &lists) {
  std::string map;
  for (const auto &[key, rows] : lists) {
    std::string list;
    for (const std::string &row : rows)
      list += delimited(1, row);
    map += delimited(1, delimited(1, key) + delimited(2, list));
  }
  return example(context) + delimited(2, map);
}

TEST(ParseSequenceExampleV2, HostileBytesNeverCrash) {
  // Context dense, sparse and ragged features, feature-list dense, sparse
  // and ragged ones over pseudo-random mutations of valid examples.
  AttrMap attrs{
      {"Ncontext_sparse", int64_t(1)},
      {"Tcontext_dense", std::vector<DType>{DType::F32}},
      {"context_sparse_types", std::vector<DType>{DType::String}},
      {"context_ragged_value_types", std::vector<DType>{DType::I64}},
      {"context_ragged_split_types", std::vector<DType>{DType::I32}},
      {"context_dense_shapes", std::vector<PartialShape>{PartialShape{2}}},
      {"Nfeature_list_sparse", int64_t(1)},
      {"Nfeature_list_dense", int64_t(1)},
      {"feature_list_dense_types", std::vector<DType>{DType::I64}},
      {"feature_list_sparse_types", std::vector<DType>{DType::F32}},
      {"feature_list_ragged_value_types", std::vector<DType>{DType::String}},
      {"feature_list_ragged_split_types", std::vector<DType>{DType::I64}},
      {"feature_list_dense_shapes", std::vector<PartialShape>{scalarShape()}}};
  const std::string valid[2] = {
      sequenceExample(
          {{"a", floats({1, 2})}, {"s", bytes({"p"})}, {"r", ints({3, 4})}},
          {{"d", {ints({5}), ints({6}, /*packed=*/false)}},
           {"f", {floats({7}), "", floats({8, 9})}},
           {"g", {bytes({"x", "y"}), bytes({})}}}),
      sequenceExample({{"r", ints({})}}, {{"d", {}}, {"f", {}}})};
  Tensor noBools = makeTensor<bool>({1}, {true});
  auto run = [&](const std::string &a, const std::string &b) {
    return runKernelN(
        "ParseSequenceExampleV2", attrs,
        {strings({2}, {a, b}), strings({0}, {}), strings({1}, {"s"}),
         strings({1}, {"a"}), strings({1}, {"r"}), strings({1}, {"f"}),
         strings({1}, {"d"}), strings({1}, {"g"}), noBools, f32({2}, {0, 0})},
        {DType::I64, DType::String, DType::I64, DType::F32, DType::I64,
         DType::I32, DType::I64, DType::F32, DType::I64, DType::I64, DType::I64,
         DType::String, DType::I64, DType::I64});
  };
  auto out = run(valid[0], valid[1]);
  ASSERT_TRUE(out.ok()) << out.status();
  // Context: sparse "s" (0, 0) of [2, 1]; dense "a" with the second
  // example's default; ragged "r" [3, 4] split [0, 2, 2].
  expectValues<int64_t>((*out)[0], {1, 2}, {0, 0});
  expectValues<int64_t>((*out)[2], {2}, {2, 1});
  expectValues<float>((*out)[3], {2, 2}, {1, 2, 0, 0});
  expectValues<int64_t>((*out)[4], {2}, {3, 4});
  expectValues<int32_t>((*out)[5], {3}, {0, 2, 2});
  // Feature lists: sparse "f" rows [7], [], [8, 9] of [2, 3, 2]; dense "d"
  // rows 5, 6 and an empty second example padded with 0; ragged "g"
  // ["x", "y"], [] in one example.
  expectValues<int64_t>((*out)[6], {3, 3}, {0, 0, 0, 0, 2, 0, 0, 2, 1});
  expectValues<float>((*out)[7], {3}, {7, 8, 9});
  expectValues<int64_t>((*out)[8], {3}, {2, 3, 2});
  expectValues<int64_t>((*out)[9], {2, 2}, {5, 6, 0, 0});
  expectValues<int64_t>((*out)[10], {2}, {2, 0});
  EXPECT_EQ(stringsOf((*out)[11]), (std::vector<std::string>{"x", "y"}));
  expectValues<int64_t>((*out)[12], {3}, {0, 2, 2});
  expectValues<int64_t>((*out)[13], {3}, {0, 2, 2});
  uint32_t state = 54321;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  for (int round = 0; round < 3000; ++round) {
    std::string a = valid[0], b = valid[1];
    std::string &m = round % 2 ? a : b;
    for (int edits = 1 + next() % 3; edits > 0; --edits) {
      switch (next() % 3) {
      case 0:
        m[next() % m.size()] = static_cast<char>(next());
        break;
      case 1:
        m.erase(next() % m.size(), 1 + next() % 3);
        break;
      default:
        m.insert(next() % (m.size() + 1), 1, static_cast<char>(next()));
        break;
      }
      if (m.empty())
        m = "\x12";
    }
    (void)run(a, b);
  }
}

} // namespace
