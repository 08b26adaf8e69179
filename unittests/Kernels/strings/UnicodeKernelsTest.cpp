//===- UnicodeKernelsTest.cpp - Unicode decode/encode/transcode -*- C++ -*-===//
//
// UnicodeKernels.cpp through the executor. Expected values are known code
// points and their encodings (U+00F6 = C3 B6, U+1F60A = F0 9F 98 8A = D8 3D
// DE 0A in UTF-16), the examples of TF's API docs (tf.strings.unicode_decode,
// unicode_encode, unicode_transcode) and the error-mode cases of TF's
// unicode_decode_op_test.py.
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

struct Ragged {
  std::vector<int64_t> splits;
  std::vector<int32_t> values;
  std::vector<int64_t> offsets;
};

/// Runs UnicodeDecodeWithOffsets (and UnicodeDecode, which must agree) on
/// `input` with `attrs` plus input_encoding.
StatusOr<Ragged> decode(std::vector<std::string> input, AttrMap attrs,
                        const char *encoding = "UTF-8",
                        DType splits = DType::I64) {
  attrs.set("input_encoding", std::string(encoding));
  attrs.set("Tsplits", splits);
  const int64_t n = static_cast<int64_t>(input.size());
  auto withOffsets =
      runKernelN("UnicodeDecodeWithOffsets", attrs, {str({n}, input)},
                 {splits, DType::I32, DType::I64});
  if (!withOffsets.ok())
    return withOffsets.status();
  auto plain = runKernelN("UnicodeDecode", attrs, {str({n}, input)},
                          {splits, DType::I32});
  if (!plain.ok())
    return plain.status();
  Ragged r;
  for (int64_t i = 0; i <= n; ++i)
    r.splits.push_back(splits == DType::I64
                           ? (*withOffsets)[0].data<int64_t>()[i]
                           : (*withOffsets)[0].data<int32_t>()[i]);
  r.values = valuesOf<int32_t>((*withOffsets)[1]);
  r.offsets = valuesOf<int64_t>((*withOffsets)[2]);
  EXPECT_EQ(valuesOf<int32_t>((*plain)[1]), r.values);
  return r;
}

TEST(UnicodeDecode, DocumentedExample) {
  // tf.strings.unicode_decode_with_offsets([b'G\xc3\xb6\xc3\xb6dnight',
  // b'\xf0\x9f\x98\x8a'], 'UTF-8').
  for (DType splits : {DType::I64, DType::I32}) {
    auto r = decode({"G\xc3\xb6\xc3\xb6"
                     "dnight",
                     "\xf0\x9f\x98\x8a"},
                    {}, "UTF-8", splits);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->splits, (std::vector<int64_t>{0, 9, 10}));
    EXPECT_EQ(r->values, (std::vector<int32_t>{71, 246, 246, 100, 110, 105, 103,
                                               104, 116, 128522}));
    EXPECT_EQ(r->offsets,
              (std::vector<int64_t>{0, 1, 3, 5, 6, 7, 8, 9, 10, 0}));
  }
}

TEST(UnicodeDecode, ErrorModesOfTfTests) {
  const std::vector<std::string> in = {"\xFE", "hello", "==\xFF==", "world"};
  auto replace = decode(in, {});
  ASSERT_TRUE(replace.ok()) << replace.status();
  EXPECT_EQ(replace->values,
            (std::vector<int32_t>{0xFFFD, 'h', 'e', 'l', 'l', 'o', '=', '=',
                                  0xFFFD, '=', '=', 'w', 'o', 'r', 'l', 'd'}));
  EXPECT_EQ(replace->splits, (std::vector<int64_t>{0, 1, 6, 11, 16}));
  auto zero = decode(in, {{"replacement_char", int64_t(0)}});
  ASSERT_TRUE(zero.ok()) << zero.status();
  EXPECT_EQ(zero->values[0], 0);
  EXPECT_EQ(zero->values[8], 0);
  // ignore: dropped, the offsets still count its byte.
  auto ignore = decode(in, {{"errors", std::string("ignore")}});
  ASSERT_TRUE(ignore.ok()) << ignore.status();
  EXPECT_EQ(ignore->splits, (std::vector<int64_t>{0, 0, 5, 9, 14}));
  EXPECT_EQ(std::vector<int64_t>(ignore->offsets.begin() + 5,
                                 ignore->offsets.begin() + 9),
            (std::vector<int64_t>{0, 1, 3, 4}));
  auto strict = decode({"\xFE"
                        "ED"},
                       {{"errors", std::string("strict")}});
  EXPECT_EQ(strict.status().message(),
            opError("UnicodeDecodeWithOffsets",
                    "Invalid formatting on input string"));
  // Control characters, C1 ones are kept.
  auto control =
      decode({std::string("\x00", 1), "==\x01==", "\xc2\x80\xc2\x9f"},
             {{"replace_control_characters", true}});
  ASSERT_TRUE(control.ok()) << control.status();
  EXPECT_EQ(control->values, (std::vector<int32_t>{0xFFFD, '=', '=', 0xFFFD,
                                                   '=', '=', 0x80, 0x9F}));
  // D8 needs a continuation byte; 01 is not one: D8 alone is replaced.
  auto lead = decode({"\xD8\x01"}, {{"replacement_char", int64_t(0x41)}});
  ASSERT_TRUE(lead.ok()) << lead.status();
  EXPECT_EQ(lead->values, (std::vector<int32_t>{0x41, 1}));
  EXPECT_EQ(lead->offsets, (std::vector<int64_t>{0, 1}));
}

TEST(UnicodeDecode, MaximalSubparts) {
  // Surrogates encoded in UTF-8 (ED A0 BD): ED's second byte must be
  // 80..9F, so each byte is an error (TF's test expects three U+FFFD).
  auto surrogates = decode({"\xed\xa0\xbd", "\xed\xa0\xbd\xed\xb8\x80"}, {});
  ASSERT_TRUE(surrogates.ok()) << surrogates.status();
  EXPECT_EQ(surrogates->splits, (std::vector<int64_t>{0, 3, 9}));
  // E2 82 truncated at the end is one error of two bytes; an overlong C0 AF
  // is two; F4 90 (past U+10FFFF) breaks after F4.
  auto r = decode({"a\xe2\x82", "\xc0\xaf", "\xf4\x90\x80\x80"}, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->values, (std::vector<int32_t>{'a', 0xFFFD, 0xFFFD, 0xFFFD,
                                             0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD}));
  EXPECT_EQ(r->splits, (std::vector<int64_t>{0, 2, 4, 8}));
  EXPECT_EQ(r->offsets, (std::vector<int64_t>{0, 1, 0, 1, 0, 1, 2, 3}));
}

TEST(UnicodeDecode, Utf16AndUtf32BigEndian) {
  // U+1F60A as the pair D83D DE0A, then 'A'; a lone low surrogate; an odd
  // trailing byte.
  auto r16 = decode({std::string("\xD8\x3D\xDE\x0A\x00\x41", 6),
                     std::string("\xDC\x00\x00\x42", 4),
                     std::string("\x00\x43\x00", 3)},
                    {}, "UTF-16-BE");
  ASSERT_TRUE(r16.ok()) << r16.status();
  EXPECT_EQ(r16->values,
            (std::vector<int32_t>{0x1F60A, 'A', 0xFFFD, 'B', 'C', 0xFFFD}));
  EXPECT_EQ(r16->offsets, (std::vector<int64_t>{0, 4, 0, 2, 0, 2}));
  // A lead surrogate and one more byte at the end: one error of 3 bytes.
  auto truncated =
      decode({std::string("\x00\x41\xD8\x3D\xDE", 5)}, {}, "UTF-16-BE");
  ASSERT_TRUE(truncated.ok()) << truncated.status();
  EXPECT_EQ(truncated->values, (std::vector<int32_t>{'A', 0xFFFD}));
  EXPECT_EQ(truncated->offsets, (std::vector<int64_t>{0, 2}));
  // ICU's name matching: utf-16be, UTF16BE.
  EXPECT_TRUE(decode({"ab"}, {}, "utf-16be").ok());
  auto r32 = decode({std::string("\x00\x01\xF6\x0A\x00\x00\x00\x41", 8),
                     std::string("\x00\x11\x00\x00\x00\x00\xD8\x00\x00", 9)},
                    {}, "UTF-32-BE");
  ASSERT_TRUE(r32.ok()) << r32.status();
  EXPECT_EQ(r32->values,
            (std::vector<int32_t>{0x1F60A, 'A', 0xFFFD, 0xFFFD, 0xFFFD}));
  EXPECT_EQ(r32->offsets, (std::vector<int64_t>{0, 4, 0, 4, 8}));
}

TEST(UnicodeDecode, AttributeErrors) {
  auto range = decode({"x"}, {{"replacement_char", int64_t(11141111)}});
  EXPECT_EQ(range.status().message(),
            opError("UnicodeDecodeWithOffsets",
                    "replacement_char out of unicode codepoint range"));
  auto policy = decode({"x"}, {{"errors", std::string("oranguatan")}});
  EXPECT_EQ(policy.status().message(),
            opError("UnicodeDecodeWithOffsets",
                    "errors policy must be one of 'strict', 'replace', or "
                    "'ignore'"));
  auto latin1 = decode({"x"}, {}, "ISO-8859-1");
  EXPECT_EQ(latin1.status().message(),
            opError("UnicodeDecodeWithOffsets",
                    "Could not create converter for input encoding: "
                    "ISO-8859-1 (tfrt-fallback decodes UTF-8, UTF-16-BE and "
                    "UTF-32-BE)"));
}

StatusOr<Tensor> encode(std::vector<int32_t> values,
                        std::vector<int64_t> splits, const char *encoding,
                        AttrMap attrs = {}) {
  attrs.set("output_encoding", std::string(encoding));
  attrs.set("Tsplits", DType::I64);
  const int64_t m = static_cast<int64_t>(values.size());
  const int64_t n = static_cast<int64_t>(splits.size());
  return runKernel("UnicodeEncode", attrs, {i32({m}, values), i64({n}, splits)},
                   DType::String);
}

TEST(UnicodeEncode, DocumentedExampleAndEncodings) {
  auto out = encode({71, 246, 246, 100, 110, 105, 103, 104, 116, 128522},
                    {0, 9, 10}, "UTF-8");
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(stringsOf(*out), (std::vector<std::string>{"G\xc3\xb6\xc3\xb6"
                                                       "dnight",
                                                       "\xf0\x9f\x98\x8a"}));
  auto u16 = encode({0x1F60A, 'A'}, {0, 2}, "UTF-16-BE");
  ASSERT_TRUE(u16.ok()) << u16.status();
  EXPECT_EQ(stringsOf(*u16)[0], std::string("\xD8\x3D\xDE\x0A\x00\x41", 6));
  auto u32 = encode({0x1F60A, 'A'}, {0, 1, 1, 2}, "UTF-32-BE");
  ASSERT_TRUE(u32.ok()) << u32.status();
  EXPECT_EQ(stringsOf(*u32),
            (std::vector<std::string>{std::string("\x00\x01\xF6\x0A", 4), "",
                                      std::string("\x00\x00\x00\x41", 4)}));
  // int32 splits.
  auto i32splits =
      runKernel("UnicodeEncode",
                AttrMap{{"output_encoding", std::string("UTF-8")},
                        {"Tsplits", DType::I32}},
                {i32({2}, {0x20AC, 0xE9}), i32({3}, {0, 1, 2})}, DType::String);
  ASSERT_TRUE(i32splits.ok()) << i32splits.status();
  EXPECT_EQ(stringsOf(*i32splits),
            (std::vector<std::string>{"\xe2\x82\xac", "\xc3\xa9"}));
}

TEST(UnicodeEncode, InvalidCodePointsAndSplits) {
  // -1, a surrogate and 0x110000 are replaced, dropped, or an error.
  auto replaced = encode({'a', -1, 0xD800, 0x110000}, {0, 4}, "UTF-8");
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_EQ(stringsOf(*replaced)[0], "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  auto ignored = encode({'a', -1, 'b'}, {0, 3}, "UTF-8",
                        {{"errors", std::string("ignore")}});
  ASSERT_TRUE(ignored.ok()) << ignored.status();
  EXPECT_EQ(stringsOf(*ignored)[0], "ab");
  auto strict = encode({'a', 0xDC00}, {0, 2}, "UTF-8",
                       {{"errors", std::string("strict")}});
  EXPECT_EQ(strict.status().message(),
            opError("UnicodeEncode", "Code point is out of range for "
                                     "Unicode, or is a surrogate."));
  // A surrogate replacement_char stays a lone UTF-16 unit: U+FFFD in UTF-8,
  // the unit in UTF-16-BE.
  auto lone = encode({-1}, {0, 1}, "UTF-16-BE",
                     {{"replacement_char", int64_t(0xD800)}});
  ASSERT_TRUE(lone.ok()) << lone.status();
  EXPECT_EQ(stringsOf(*lone)[0], std::string("\xD8\x00", 2));
  EXPECT_EQ(
      encode({'a'}, {1, 1}, "UTF-8").status().message(),
      opError("UnicodeEncode", "First value in input_splits must be zero."));
  EXPECT_EQ(encode({'a'}, {0, 2}, "UTF-8").status().message(),
            opError("UnicodeEncode", "Last value in input_splits must be "
                                     "equal to length of input_tensor."));
  EXPECT_EQ(encode({'a', 'b'}, {0, 3, 2}, "UTF-8").status().message(),
            opError("UnicodeEncode", "Values in input_splits must be less "
                                     "than or equal to input_tensor length."));
  EXPECT_EQ(encode({'a', 'b'}, {0, 2, 1, 2}, "UTF-8").status().message(),
            opError("UnicodeEncode", "Values in input_splits must be equal "
                                     "or in ascending order."));
  EXPECT_EQ(encode({}, {}, "UTF-8").status().message(),
            opError("UnicodeEncode",
                    "Input_splits should contain elements, but given "
                    "input_values has 0 elements"));
  EXPECT_EQ(encode({'a'}, {0, 1}, "UTF-7").status().message(),
            opError("UnicodeEncode", "Invalid encoding \"UTF-7\": Should be "
                                     "one of: UTF-8, UTF-16-BE, UTF-32-BE"));
}

StatusOr<Tensor> transcode(std::vector<std::string> in, const char *from,
                           const char *to, AttrMap attrs = {}) {
  attrs.set("input_encoding", std::string(from));
  attrs.set("output_encoding", std::string(to));
  const int64_t n = static_cast<int64_t>(in.size());
  return runKernel("UnicodeTranscode", attrs, {str({n}, in)}, DType::String);
}

TEST(UnicodeTranscode, DocumentedExampleAndRoundTrip) {
  // tf.strings.unicode_transcode(["Hello", "TensorFlow", "2.x"], "UTF-8",
  // "UTF-16-BE").
  auto out = transcode({"Hello", "TensorFlow", "2.x"}, "UTF-8", "UTF-16-BE");
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(stringsOf(*out)[0], std::string("\x00H\x00"
                                            "e\x00l\x00l\x00o",
                                            10));
  EXPECT_EQ(stringsOf(*out)[2], std::string("\x00"
                                            "2\x00.\x00x",
                                            6));
  auto u32 =
      transcode({std::string("\xD8\x3D\xDE\x0A", 4)}, "UTF-16-BE", "UTF-32-BE");
  ASSERT_TRUE(u32.ok()) << u32.status();
  EXPECT_EQ(stringsOf(*u32)[0], std::string("\x00\x01\xF6\x0A", 4));
  auto back =
      transcode({std::string("\x00\x01\xF6\x0A", 4)}, "UTF-32-BE", "UTF-8");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(stringsOf(*back)[0], "\xf0\x9f\x98\x8a");
}

TEST(UnicodeTranscode, ErrorPolicies) {
  auto replaced = transcode({"a\xFF"
                             "b"},
                            "UTF-8", "UTF-8");
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_EQ(stringsOf(*replaced)[0], "a\xef\xbf\xbd"
                                     "b");
  auto ignored =
      transcode({"a\xFF"
                 "b"},
                "UTF-8", "UTF-8", {{"errors", std::string("ignore")}});
  ASSERT_TRUE(ignored.ok()) << ignored.status();
  EXPECT_EQ(stringsOf(*ignored)[0], "ab");
  auto control = transcode({"a\tb"}, "UTF-8", "UTF-8",
                           {{"replace_control_characters", true},
                            {"replacement_char", int64_t('?')}});
  ASSERT_TRUE(control.ok()) << control.status();
  EXPECT_EQ(stringsOf(*control)[0], "a?b");
  auto strict = transcode({"ok", "a\xFF"}, "UTF-8", "UTF-16-BE",
                          {{"errors", std::string("strict")}});
  EXPECT_EQ(strict.status().message(),
            opError("UnicodeTranscode", "Invalid formatting on input string"));
  auto notStrings =
      runKernel("UnicodeTranscode",
                AttrMap{{"input_encoding", std::string("UTF-8")},
                        {"output_encoding", std::string("UTF-8")}},
                {i32({2}, {1, 2})}, DType::String);
  EXPECT_EQ(
      notStrings.status().message(),
      "loc(test): op 'UnicodeTranscode' takes a string tensor as input #0 "
      "(its OpDef fixes it) but the program gives i32");
  auto ascii = transcode({"A"}, "US ASCII", "UTF-8");
  EXPECT_EQ(ascii.status().message(),
            opError("UnicodeTranscode",
                    "Could not create converter for input encoding: US ASCII "
                    "(tfrt-fallback decodes UTF-8, UTF-16-BE and UTF-32-BE)"));
}

} // namespace
