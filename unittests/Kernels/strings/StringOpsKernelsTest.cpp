//===- StringOpsKernelsTest.cpp - TF's string ops ---------------*- C++ -*-===//
//
// The string families (StringOpsKernels.cpp, StringConvertKernels.cpp,
// StringHashKernels.cpp, RegexKernels.cpp) through the executor. Expected
// values are written out by hand from TF's documented semantics, the
// examples in TF's API docs (the hash buckets) and published test vectors
// (SipHash-2-4's, farmhash's empty-string value).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <cmath>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

Tensor str(TensorShape shape, std::vector<std::string> values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  return *makeStringTensor(shape, views);
}

Tensor str(std::string value) { return str({}, {std::move(value)}); }

std::vector<std::string> stringsOf(const Tensor &t) {
  std::vector<std::string> out;
  for (std::string_view s : stringElements(t))
    out.emplace_back(s);
  return out;
}

void expectStrings(const StatusOr<Tensor> &t, const TensorShape &shape,
                   const std::vector<std::string> &values) {
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->dtype(), DType::String);
  EXPECT_EQ(t->shape(), shape) << t->shape().toString();
  EXPECT_EQ(stringsOf(*t), values);
}

StatusOr<Tensor> run(const std::string &op, const AttrMap &attrs,
                     std::vector<Tensor> in, DType out = DType::String) {
  return runKernel(op, attrs, std::move(in), out);
}

std::string errorOf(const StatusOr<Tensor> &t) {
  return t.ok() ? "ok" : std::string(t.status().message());
}

//===----------------------------------------------------------------------===//
// Joins
//===----------------------------------------------------------------------===//

TEST(StringJoin, BroadcastsScalars) {
  expectStrings(run("StringJoin",
                    AttrMap{{"N", int64_t(3)}, {"separator", std::string("-")}},
                    {str({2}, {"a", "b"}), str("x"), str({2}, {"1", ""})}),
                {2}, {"a-x-1", "b-x-"});
  expectStrings(
      run("StringJoin", AttrMap{{"N", int64_t(2)}}, {str("ab"), str("cd")}), {},
      {"abcd"});
  EXPECT_EQ(errorOf(run("StringJoin", AttrMap{{"N", int64_t(2)}},
                        {str({2}, {"a", "b"}), str({3}, {"a", "b", "c"})})),
            opError("StringJoin", "Input shapes do not match: [2] vs. [3]"));
}

TEST(ReduceJoin, JoinsAlongDimsInOrder) {
  Tensor x = str({2, 2}, {"a", "b", "c", "d"});
  auto join = [&](std::vector<int32_t> axes, bool keep = false) {
    const int64_t n = static_cast<int64_t>(axes.size());
    return run("ReduceJoin",
               AttrMap{{"keep_dims", keep}, {"separator", std::string(",")}},
               {x, i32({n}, axes)});
  };
  expectStrings(join({1}), {2}, {"a,b", "c,d"});
  expectStrings(join({0}), {2}, {"a,c", "b,d"});
  expectStrings(join({-1}, true), {2, 1}, {"a,b", "c,d"});
  // The first listed dim varies fastest.
  expectStrings(join({0, 1}), {}, {"a,c,b,d"});
  expectStrings(join({1, 0}), {}, {"a,b,c,d"});
  expectStrings(join({}), {2, 2}, {"a", "b", "c", "d"});
  EXPECT_EQ(errorOf(join({2})),
            opError("ReduceJoin",
                    "Invalid reduction dimension 2 for input with 2 "
                    "dimension(s)"));
  EXPECT_EQ(errorOf(join({1, -1})),
            opError("ReduceJoin", "Duplicate reduction dimension -1"));
}

TEST(UnsortedSegmentJoin, JoinsRowsOfEachSegment) {
  // Segment 0: rows 1 and 3; segment 1: row 0; segment 2: none.
  auto out = run("UnsortedSegmentJoin",
                 AttrMap{{"separator", std::string(":")},
                         {"Tindices", DType::I32},
                         {"Tnumsegments", DType::I64}},
                 {str({4, 2}, {"a", "b", "c", "d", "e", "", "g", "h"}),
                  i32({4}, {1, 0, 2, 0}), i64({}, {4})});
  expectStrings(out, {4, 2}, {"c:g", "d:h", "a", "b", "e", "", "", ""});
  // An empty prefix takes no separator (TF appends it only after text).
  expectStrings(
      run("UnsortedSegmentJoin",
          AttrMap{{"separator", std::string(":")},
                  {"Tindices", DType::I32},
                  {"Tnumsegments", DType::I32}},
          {str({3}, {"", "x", "y"}), i32({3}, {0, 0, 0}), i32({}, {1})}),
      {1}, {"x:y"});
  EXPECT_EQ(errorOf(run(
                "UnsortedSegmentJoin",
                AttrMap{{"Tindices", DType::I32}, {"Tnumsegments", DType::I32}},
                {str({2}, {"a", "b"}), i32({2}, {0, 2}), i32({}, {2})})),
            opError("UnsortedSegmentJoin",
                    "segment_ids are not allowed to exceed num_segments or to "
                    "have negative values."));
}

//===----------------------------------------------------------------------===//
// Splits
//===----------------------------------------------------------------------===//

struct Sparse {
  std::vector<int64_t> indices;
  std::vector<std::string> values;
  std::vector<int64_t> shape;
};

Sparse split(const std::string &op, const AttrMap &attrs,
             std::vector<std::string> in, const std::string &sep) {
  const int64_t n = static_cast<int64_t>(in.size());
  auto out = runKernelN(op, attrs, {str({n}, in), str(sep)},
                        {DType::I64, DType::String, DType::I64});
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok())
    return {};
  return {valuesOf<int64_t>((*out)[0]), stringsOf((*out)[1]),
          valuesOf<int64_t>((*out)[2])};
}

TEST(StringSplit, SplitsAtAnyDelimiterByte) {
  Sparse s = split("StringSplit", {}, {"hello world", "a b c"}, " ");
  EXPECT_EQ(s.indices, (std::vector<int64_t>{0, 0, 0, 1, 1, 0, 1, 1, 1, 2}));
  EXPECT_EQ(s.values,
            (std::vector<std::string>{"hello", "world", "a", "b", "c"}));
  EXPECT_EQ(s.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(split("StringSplit", {}, {"a,b;;c"}, ",;").values,
            (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(
      split("StringSplit", AttrMap{{"skip_empty", false}}, {"a,b;;c"}, ",;")
          .values,
      (std::vector<std::string>{"a", "b", "", "c"}));
  // An empty delimiter splits into bytes; an empty string has no tokens.
  Sparse bytes = split("StringSplit", {}, {"abc", ""}, "");
  EXPECT_EQ(bytes.values, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(bytes.shape, (std::vector<int64_t>{2, 3}));
}

TEST(StringSplitV2, FollowsPythonSplit) {
  auto values = [](std::vector<std::string> in, const std::string &sep,
                   int64_t maxsplit = -1) {
    return split("StringSplitV2", AttrMap{{"maxsplit", maxsplit}}, in, sep)
        .values;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(values({"1<>2<>3"}, "<>"), (V{"1", "2", "3"}));
  EXPECT_EQ(values({"1,,2"}, ","), (V{"1", "", "2"}));
  EXPECT_EQ(values({""}, ","), (V{""}));
  EXPECT_EQ(values({"  a \t b  "}, ""), (V{"a", "b"}));
  EXPECT_EQ(values({"", "   "}, ""), (V{}));
  EXPECT_EQ(values({"a,b,c"}, ",", 1), (V{"a", "b,c"}));
  EXPECT_EQ(values({"a b  c "}, "", 1), (V{"a", "b  c "}));
  EXPECT_EQ(values({"a b"}, "", 0), (V{"a b"}));
  Sparse s = split("StringSplitV2", {}, {"pigs on the wing", "animals"}, "");
  EXPECT_EQ(s.indices, (std::vector<int64_t>{0, 0, 0, 1, 0, 2, 0, 3, 1, 0}));
  EXPECT_EQ(s.shape, (std::vector<int64_t>{2, 4}));
}

TEST(StringSplitV2, Errors) {
  auto out = runKernelN("StringSplitV2", {}, {str({}, {"a"}), str("")},
                        {DType::I64, DType::String, DType::I64});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("StringSplitV2", "input must be a vector, got shape: []"));
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

TEST(StringLength, BytesAndUtf8Characters) {
  // "été" is 5 bytes, 3 characters.
  Tensor x = str({2}, {"hello", "\xc3\xa9t\xc3\xa9"});
  auto bytes = run("StringLength", {}, {x}, DType::I32);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  expectValues<int32_t>(*bytes, {2}, {5, 5});
  auto chars = run("StringLength", AttrMap{{"unit", std::string("UTF8_CHAR")}},
                   {x}, DType::I32);
  ASSERT_TRUE(chars.ok()) << chars.status();
  expectValues<int32_t>(*chars, {2}, {5, 3});
  EXPECT_EQ(errorOf(run("StringLength", AttrMap{{"unit", std::string("CHAR")}},
                        {x}, DType::I32)),
            opError("StringLength",
                    "Invalid unit \"CHAR\": Should be one of: BYTE, "
                    "UTF8_CHAR"));
}

TEST(StringCase, AsciiLowerUpperStrip) {
  Tensor x = str({2}, {"HeLLo, World 1!", "\xc3\x84x"});
  expectStrings(run("StringLower", {}, {x}), {2},
                {"hello, world 1!", "\xc3\x84x"});
  expectStrings(run("StringUpper", {}, {x}), {2},
                {"HELLO, WORLD 1!", "\xc3\x84X"});
  expectStrings(run("StringStrip", {}, {str({3}, {" \t a b \n", "", "  "})}),
                {3}, {"a b", "", ""});
  EXPECT_EQ(errorOf(run("StringLower",
                        AttrMap{{"encoding", std::string("latin1")}}, {x})),
            opError("StringLower", "only utf-8 or '' (no encoding) is "
                                   "supported, received latin1"));
  EXPECT_FALSE(
      run("StringLower", AttrMap{{"encoding", std::string("utf-8")}}, {x})
          .ok());
}

TEST(Substr, BytesUtf8AndBroadcasting) {
  const AttrMap i32Attr{{"T", DType::I32}};
  expectStrings(
      run("Substr", i32Attr,
          {str({3}, {"Hello", "World", "ab"}), i32({}, {1}), i32({}, {3})}),
      {3}, {"ell", "orl", "b"});
  expectStrings(
      run("Substr", i32Attr,
          {str({2}, {"Hello", "World"}), i32({2}, {-3, 0}), i32({2}, {2, 10})}),
      {2}, {"ll", "World"});
  // pos and len [2, 1] broadcast against the input [3].
  expectStrings(run("Substr", i32Attr,
                    {str({3}, {"abc", "def", "ghi"}), i32({2, 1}, {0, 1}),
                     i32({2, 1}, {1, 2})}),
                {2, 3}, {"a", "d", "g", "bc", "ef", "hi"});
  // "ÄÖÜ": two bytes per character.
  const AttrMap utf8{{"T", DType::I64}, {"unit", std::string("UTF8_CHAR")}};
  expectStrings(
      run("Substr", utf8,
          {str({}, {"\xc3\x84\xc3\x96\xc3\x9c"}), i64({}, {1}), i64({}, {1})}),
      {}, {"\xc3\x96"});
  expectStrings(
      run("Substr", utf8,
          {str({}, {"\xc3\x84\xc3\x96\xc3\x9c"}), i64({}, {-2}), i64({}, {5})}),
      {}, {"\xc3\x96\xc3\x9c"});
  EXPECT_EQ(errorOf(run("Substr", i32Attr,
                        {str({1}, {"abc"}), i32({}, {4}), i32({}, {1})})),
            opError("Substr", "pos 4 out of range for string b'abc' at "
                              "index 0"));
  EXPECT_EQ(errorOf(run("Substr", utf8,
                        {str({1}, {"abc"}), i64({}, {4}), i64({}, {1})})),
            opError("Substr", "pos 4 out of range for string at index 0"));
  EXPECT_EQ(errorOf(run("Substr", i32Attr,
                        {str({1}, {"abc"}), i32({1}, {0}), i32({}, {1})})),
            opError("Substr", "pos and len should have the same shape, got: "
                              "[1] vs. []"));
}

TEST(Base64, WebSafeRoundTrip) {
  // "hello" in base64 is aGVsbG8=; bytes fb ff are +/8= in the standard
  // alphabet, -_8= in the web-safe one.
  Tensor x = str({3}, {"hello", "\xfb\xff", ""});
  expectStrings(run("EncodeBase64", {}, {x}), {3}, {"aGVsbG8", "-_8", ""});
  expectStrings(run("EncodeBase64", AttrMap{{"pad", true}}, {x}), {3},
                {"aGVsbG8=", "-_8=", ""});
  expectStrings(
      run("DecodeBase64", {}, {str({3}, {"aGVsbG8=", "-_8", "aGVsbG8"})}), {3},
      {"hello", "\xfb\xff", "hello"});
  EXPECT_EQ(errorOf(run("DecodeBase64", {}, {str({1}, {"a+b="})})),
            opError("DecodeBase64", "Invalid character found in base64."));
  EXPECT_EQ(
      errorOf(run("DecodeBase64", {}, {str({1}, {"abcde"})})),
      opError("DecodeBase64", "Base64 string length cannot be 1 modulo 4."));
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

TEST(AsString, FormatsAsPrintf) {
  auto as = [](Tensor x, AttrMap attrs) {
    return run("AsString", attrs, {std::move(x)});
  };
  Tensor ints = i64({3}, {-42, 0, 42});
  expectStrings(as(ints, AttrMap{{"T", DType::I64}}), {3}, {"-42", "0", "42"});
  expectStrings(as(ints, AttrMap{{"T", DType::I64},
                                 {"fill", std::string(" ")},
                                 {"width", int64_t(4)}}),
                {3}, {" -42", "   0", "  42"});
  expectStrings(as(ints, AttrMap{{"T", DType::I64},
                                 {"fill", std::string("-")},
                                 {"width", int64_t(4)}}),
                {3}, {"-42 ", "0   ", "42  "});
  expectStrings(as(ints, AttrMap{{"T", DType::I64},
                                 {"fill", std::string("0")},
                                 {"width", int64_t(4)}}),
                {3}, {"-042", "0000", "0042"});
  Tensor floats = f32({3}, {3.5f, -0.125f, 1e10f});
  expectStrings(as(floats, AttrMap{{"T", DType::F32}}), {3},
                {"3.500000", "-0.125000", "10000000000.000000"});
  expectStrings(
      as(floats, AttrMap{{"T", DType::F32}, {"precision", int64_t(2)}}), {3},
      {"3.50", "-0.12", "10000000000.00"});
  expectStrings(as(floats, AttrMap{{"T", DType::F32}, {"scientific", true}}),
                {3}, {"3.500000e+00", "-1.250000e-01", "1.000000e+10"});
  expectStrings(as(floats, AttrMap{{"T", DType::F32}, {"shortest", true}}), {3},
                {"3.5", "-0.125", "1e+10"});
  expectStrings(as(makeTensor<double>({1}, {0.1}),
                   AttrMap{{"T", DType::F64}, {"precision", int64_t(17)}}),
                {1}, {"0.10000000000000001"});
  expectStrings(
      as(makeTensor<bool>({2}, {true, false}), AttrMap{{"T", DType::Bool}}),
      {2}, {"true", "false"});
  expectStrings(as(makeTensor<uint8_t>({1}, {255}), AttrMap{{"T", DType::U8}}),
                {1}, {"255"});
  expectStrings(as(str({1}, {"ab"}),
                   AttrMap{{"T", DType::String}, {"width", int64_t(4)}}),
                {1}, {"  ab"});
  EXPECT_EQ(
      errorOf(as(ints, AttrMap{{"T", DType::I64}, {"precision", int64_t(2)}})),
      opError("AsString", "precision not supported for datatype int64"));
  EXPECT_EQ(
      errorOf(as(ints, AttrMap{{"T", DType::I64}, {"fill", std::string("s")}})),
      opError("AsString", "Fill argument not supported: \"s\""));
  EXPECT_EQ(errorOf(as(floats, AttrMap{{"T", DType::F32},
                                       {"scientific", true},
                                       {"shortest", true}})),
            opError("AsString",
                    "Cannot select both scientific and shortest notation"));
}

TEST(StringToNumber, ParsesAsTensorFlow) {
  auto toF32 = [](std::vector<std::string> s) {
    const int64_t n = static_cast<int64_t>(s.size());
    return run("StringToNumber", AttrMap{{"out_type", DType::F32}},
               {str({n}, s)}, DType::F32);
  };
  auto f = toF32(
      {"1.5", " -2.25 ", "0x1A", "INF", "-inf", "1e40", "1e-50", ".5", "+3"});
  ASSERT_TRUE(f.ok()) << f.status();
  const float inf = std::numeric_limits<float>::infinity();
  expectValues<float>(*f, {9}, {1.5, -2.25, 26, inf, -inf, inf, 0, 0.5, 3});
  auto nan = toF32({"nan"});
  ASSERT_TRUE(nan.ok());
  EXPECT_TRUE(std::isnan(nan->data<float>()[0]));
  auto i = run("StringToNumber", AttrMap{{"out_type", DType::I32}},
               {str({3}, {" 12 ", "-2147483648", "007"})}, DType::I32);
  ASSERT_TRUE(i.ok()) << i.status();
  expectValues<int32_t>(*i, {3}, {12, -2147483648.0, 7});
  for (const char *bad : {"", "12abc", "1e", "0x", "infinity"})
    EXPECT_EQ(errorOf(toF32({bad})),
              opError("StringToNumber",
                      std::string("StringToNumberOp could not correctly "
                                  "convert string: ") +
                          bad))
        << bad;
  for (const char *bad : {"2147483648", "+1", "1.0", "- 1"})
    EXPECT_FALSE(run("StringToNumber", AttrMap{{"out_type", DType::I32}},
                     {str({1}, {bad})}, DType::I32)
                     .ok())
        << bad;
  auto big = run("StringToNumber", AttrMap{{"out_type", DType::I64}},
                 {str({1}, {"-9223372036854775808"})}, DType::I64);
  ASSERT_TRUE(big.ok()) << big.status();
  EXPECT_EQ(big->data<int64_t>()[0], std::numeric_limits<int64_t>::min());
}

//===----------------------------------------------------------------------===//
// Hashes
//===----------------------------------------------------------------------===//

std::vector<int64_t> buckets(const std::string &op, AttrMap attrs,
                             std::vector<std::string> in) {
  const int64_t n = static_cast<int64_t>(in.size());
  auto out = run(op, attrs, {str({n}, in)}, DType::I64);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? valuesOf<int64_t>(*out) : std::vector<int64_t>{};
}

TEST(StringToHashBucket, MatchesTensorFlowDocs) {
  // The examples of tf.strings.to_hash_bucket_fast, to_hash_bucket and
  // to_hash_bucket_strong.
  const std::vector<std::string> words{"Hello", "TensorFlow", "2.x"};
  EXPECT_EQ(buckets("StringToHashBucketFast",
                    AttrMap{{"num_buckets", int64_t(3)}}, words),
            (std::vector<int64_t>{0, 2, 2}));
  EXPECT_EQ(buckets("StringToHashBucket", AttrMap{{"num_buckets", int64_t(3)}},
                    words),
            (std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(buckets("StringToHashBucketStrong",
                    AttrMap{{"num_buckets", int64_t(3)},
                            {"key", std::vector<int64_t>{1, 2}}},
                    {"Hello", "TF"}),
            (std::vector<int64_t>{2, 0}));
}

TEST(StringToHashBucket, SipHashTestVector) {
  // SipHash-2-4's published vector: key 00..0f, message 00..0e gives
  // 0xa129ca6149be45e5; modulo 2^63 - 1 that is 0x2129ca6149be45e6.
  std::string message;
  for (char c = 0; c < 15; ++c)
    message.push_back(c);
  EXPECT_EQ(
      buckets("StringToHashBucketStrong",
              AttrMap{{"num_buckets", std::numeric_limits<int64_t>::max()},
                      {"key", std::vector<int64_t>{0x0706050403020100,
                                                   0x0f0e0d0c0b0a0908}}},
              {message}),
      (std::vector<int64_t>{0x2129ca6149be45e6}));
  EXPECT_FALSE(run("StringToHashBucketStrong",
                   AttrMap{{"num_buckets", int64_t(3)},
                           {"key", std::vector<int64_t>{1}}},
                   {str({1}, {"a"})}, DType::I64)
                   .ok());
}

TEST(Fingerprint, Farmhash64OfRows) {
  // farmhash's Fingerprint64 of no bytes is its constant k2,
  // 0x9ae16a3b2f90404f, written little-endian.
  const std::vector<double> empty{0x4f, 0x40, 0x90, 0x2f,
                                  0x3b, 0x6a, 0xe1, 0x9a};
  auto strings = run("Fingerprint", AttrMap{{"T", DType::String}},
                     {str({2}, {"", ""}), str("farmhash64")}, DType::U8);
  ASSERT_TRUE(strings.ok()) << strings.status();
  std::vector<double> both = empty;
  both.insert(both.end(), empty.begin(), empty.end());
  expectValues<uint8_t>(*strings, {2, 8}, both);
  auto numbers =
      run("Fingerprint", AttrMap{{"T", DType::F32}},
          {makeTensor<float>({1, 0}, {}), str("farmhash64")}, DType::U8);
  ASSERT_TRUE(numbers.ok()) << numbers.status();
  expectValues<uint8_t>(*numbers, {1, 8}, empty);
  // A row's bytes are hashed whole: the same bytes as int32 or as uint8
  // rows fingerprint alike.
  auto asInt = run("Fingerprint", AttrMap{{"T", DType::I32}},
                   {i32({2, 1}, {0x04030201, 0x08070605}), str("farmhash64")},
                   DType::U8);
  auto asBytes = run("Fingerprint", AttrMap{{"T", DType::U8}},
                     {makeTensor<uint8_t>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}),
                      str("farmhash64")},
                     DType::U8);
  ASSERT_TRUE(asInt.ok() && asBytes.ok());
  EXPECT_EQ(valuesOf<uint8_t>(*asInt), valuesOf<uint8_t>(*asBytes));
  EXPECT_EQ(errorOf(run("Fingerprint", AttrMap{{"T", DType::F32}},
                        {makeTensor<float>({1}, {1}), str("md5")}, DType::U8)),
            opError("Fingerprint", "Unsupported fingerprint method: md5"));
}

//===----------------------------------------------------------------------===//
// Regular expressions
//===----------------------------------------------------------------------===//

TEST(Regex, ReplaceAndFullMatch) {
  Tensor x = str({2}, {"abcabc", "xyz"});
  expectStrings(run("RegexReplace", {}, {x, str("b+"), str("[\\0]")}), {2},
                {"a[b]ca[b]c", "xyz"});
  expectStrings(run("RegexReplace", AttrMap{{"replace_global", false}},
                    {x, str("(a)(b)"), str("\\2\\1")}),
                {2}, {"bacabc", "xyz"});
  expectStrings(run("StaticRegexReplace",
                    AttrMap{{"pattern", std::string("[ac]")},
                            {"rewrite", std::string("")}},
                    {x}),
                {2}, {"bb", "xyz"});
  auto match = run("RegexFullMatch", {}, {x, str("(abc)+")}, DType::Bool);
  ASSERT_TRUE(match.ok()) << match.status();
  expectValues<bool>(*match, {2}, {1, 0});
  auto staticMatch =
      run("StaticRegexFullMatch", AttrMap{{"pattern", std::string("x.z")}}, {x},
          DType::Bool);
  ASSERT_TRUE(staticMatch.ok()) << staticMatch.status();
  expectValues<bool>(*staticMatch, {2}, {0, 1});
  const std::string invalid =
      errorOf(run("RegexFullMatch", {}, {x, str("(")}, DType::Bool));
  EXPECT_NE(invalid.find("Invalid pattern: (, error: "), std::string::npos)
      << invalid;
  const std::string badRewrite =
      errorOf(run("RegexReplace", {}, {x, str("a"), str("\\1")}));
  EXPECT_NE(badRewrite.find("Invalid rewrite pattern: \\1, error: "),
            std::string::npos)
      << badRewrite;
  EXPECT_EQ(
      errorOf(run("RegexFullMatch", {}, {x, str({1}, {"a"})}, DType::Bool)),
      opError("RegexFullMatch", "Pattern must be scalar, but received [1]"));
}

} // namespace
