//===- SerializationKernelsTest.cpp - Tensors to and from bytes -*- C++ -*-===//
//
// SerializationKernels.cpp through the executor. StringFormat against the
// expected strings of TF's string_format_op_test.py; SerializeTensor
// against TensorProto bytes assembled here from protobuf's wire format
// (tag = field << 3 | wire type, varint lengths), the same bytes as
// `protoc --encode=tfrt_fallback.graphdef.TensorProto graph.proto` gives
// for the text protos of the first four cases; DecodeRaw and
// DecodePaddedRaw against little- and big-endian encodings written out by
// hand; ReadFile and WriteFile on a temporary directory.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

Tensor str(TensorShape shape, std::vector<std::string> values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  return *makeStringTensor(shape, views);
}

Tensor str(std::string value) { return str({}, {std::move(value)}); }

std::string scalarString(const StatusOr<Tensor> &t) {
  EXPECT_TRUE(t.ok()) << t.status();
  if (!t.ok())
    return "";
  EXPECT_EQ(t->shape(), TensorShape());
  return std::string(stringElements(*t)[0]);
}

/// Tensor with values 0, 1, ..., n - 1 of `dims`, int32.
Tensor range(std::vector<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  std::vector<int32_t> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = static_cast<int32_t>(i);
  return makeTensor<int32_t>(TensorShape(absl::MakeConstSpan(dims)), v);
}

StatusOr<Tensor> format(std::vector<Tensor> inputs, const std::string &text,
                        int64_t summarize = 3,
                        const std::string &placeholder = "{}") {
  std::vector<DType> types;
  for (const Tensor &t : inputs)
    types.push_back(t.dtype());
  return runKernel("StringFormat",
                   AttrMap{{"T", types},
                           {"template", text},
                           {"placeholder", placeholder},
                           {"summarize", summarize}},
                   std::move(inputs), DType::String);
}

TEST(StringFormat, TfTestsOneDim) {
  EXPECT_EQ(scalarString(format({range({10})}, "{}")), "[0 1 2 ... 7 8 9]");
  EXPECT_EQ(scalarString(format({range({6})}, "{}", 3)), "[0 1 2 3 4 5]");
  EXPECT_EQ(scalarString(format({range({6})}, "{}", -1)), "[0 1 2 3 4 5]");
  EXPECT_EQ(scalarString(format({range({6})}, "{}", 1)), "[0 ... 5]");
  EXPECT_EQ(scalarString(format({range({6})}, "{}", 2)), "[0 1 ... 4 5]");
  EXPECT_EQ(scalarString(format({range({5})}, "{}", 3)), "[0 1 2 3 4]");
  EXPECT_EQ(
      scalarString(format(
          {f32({8}, {0.0f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f})}, "{}")),
      "[0 0.1 0.2 ... 0.5 0.6 0.7]");
  EXPECT_EQ(scalarString(format({f32({}, {3.14f}), range({10})}, "{}, {}")),
            "3.14, [0 1 2 ... 7 8 9]");
}

TEST(StringFormat, TfTestsTwoAndThreeDims) {
  EXPECT_EQ(scalarString(format({range({2, 2})}, "{}")), "[[0 1]\n [2 3]]");
  EXPECT_EQ(
      scalarString(format({range({10, 10})}, "tensor summary: %t%", 3, "%t%")),
      "tensor summary: [[0 1 2 ... 7 8 9]\n"
      " [10 11 12 ... 17 18 19]\n"
      " [20 21 22 ... 27 28 29]\n"
      " ...\n"
      " [70 71 72 ... 77 78 79]\n"
      " [80 81 82 ... 87 88 89]\n"
      " [90 91 92 ... 97 98 99]]");
  EXPECT_EQ(scalarString(format({range({10, 10})}, "{}", 2)),
            "[[0 1 ... 8 9]\n"
            " [10 11 ... 18 19]\n"
            " ...\n"
            " [80 81 ... 88 89]\n"
            " [90 91 ... 98 99]]");
  const std::string three = scalarString(format({range({10, 10, 10})}, "{}"));
  const std::string start = "[[[0 1 2 ... 7 8 9]\n"
                            "  [10 11 12 ... 17 18 19]\n"
                            "  [20 21 22 ... 27 28 29]\n"
                            "  ...\n"
                            "  [70 71 72 ... 77 78 79]\n"
                            "  [80 81 82 ... 87 88 89]\n"
                            "  [90 91 92 ... 97 98 99]]\n"
                            "\n"
                            " [[100 101 102 ... 107 108 109]\n";
  EXPECT_EQ(three.substr(0, start.size()), start);
  EXPECT_EQ(three.substr(three.size() - 33),
            "  [990 991 992 ... 997 998 999]]]");
}

TEST(StringFormat, ElementsAndErrors) {
  // Strings quoted and C-escaped, bools as 1/0, doubles with up to 17
  // digits when 15 do not round-trip, a scalar with summarize 0 as "...".
  EXPECT_EQ(scalarString(format({str({2}, {"a\"b", "\n\xc3\xa9"})}, "{}")),
            "[\"a\\\"b\" \"\\n\xc3\xa9\"]");
  EXPECT_EQ(scalarString(format({makeTensor<bool>({2}, {true, false})}, "{}")),
            "[1 0]");
  EXPECT_EQ(
      scalarString(format({makeTensor<double>({2}, {0.1, 1.0 / 3})}, "x={}")),
      "x=[0.1 0.33333333333333331]");
  EXPECT_EQ(scalarString(format({i32({}, {7})}, "<{}>", 0)), "<...>");
  EXPECT_EQ(scalarString(format({}, "no placeholders")), "no placeholders");
  auto bad = format({range({2})}, "{} and {}");
  EXPECT_EQ(bad.status().message(),
            opError("StringFormat", "num placeholders in template and num "
                                    "inputs must match: 2 vs. 1"));
}

/// A varint.
std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

/// A length-delimited field.
std::string field(int number, const std::string &bytes) {
  return varint(number << 3 | 2) + varint(bytes.size()) + bytes;
}

/// TensorShapeProto dims of `sizes`.
std::string shapeProto(std::vector<int64_t> sizes) {
  std::string s;
  for (int64_t d : sizes)
    s += field(2, d ? varint(1 << 3) + varint(d) : std::string());
  return field(2, s);
}

TEST(SerializeTensor, TensorProtoWireFormat) {
  // int32 [2, 3]: dtype 3, dims 2 and 3, tensor_content 24 bytes.
  auto out = runKernel("SerializeTensor", AttrMap{{"T", DType::I32}},
                       {range({2, 3})}, DType::String);
  std::string content;
  for (int32_t v = 0; v < 6; ++v)
    content += std::string(reinterpret_cast<const char *>(&v), 4);
  EXPECT_EQ(scalarString(out), std::string("\x08\x03", 2) + shapeProto({2, 3}) +
                                   field(4, content));
  // Scalar float 1.0: an empty shape message, content 00 00 80 3F.
  out = runKernel("SerializeTensor", AttrMap{{"T", DType::F32}},
                  {f32({}, {1.0f})}, DType::String);
  EXPECT_EQ(scalarString(out), std::string("\x08\x01\x12\x00\x22\x04\x00\x00"
                                           "\x80\x3f",
                                           10));
  // No elements: a zero dim is an empty dim message, no content.
  out = runKernel("SerializeTensor", AttrMap{{"T", DType::I64}},
                  {i64({0, 2}, {})}, DType::String);
  EXPECT_EQ(scalarString(out), std::string("\x08\x09", 2) + shapeProto({0, 2}));
  // Strings: string_val (field 8) per element, the empty one too.
  out = runKernel("SerializeTensor", AttrMap{{"T", DType::String}},
                  {str({2}, {"ab", ""})}, DType::String);
  EXPECT_EQ(scalarString(out), std::string("\x08\x07", 2) + shapeProto({2}) +
                                   field(8, "ab") + field(8, ""));
  // A dim of 300 takes a two-byte varint (AC 02); bool content is bytes.
  std::vector<bool> bits(300, false);
  bits[1] = true;
  out = runKernel("SerializeTensor", AttrMap{{"T", DType::Bool}},
                  {makeTensor<bool>({300}, bits)}, DType::String);
  std::string boolContent(300, '\0');
  boolContent[1] = 1;
  EXPECT_EQ(scalarString(out), std::string("\x08\x0a", 2) +
                                   field(2, field(2, "\x08\xac\x02")) +
                                   field(4, boolContent));
}

TEST(DecodeRaw, LittleAndBigEndian) {
  // "\x01\x02\x03\x04" as int16: 0x0201, 0x0403 little-endian; 0x0102,
  // 0x0304 big-endian.
  auto le = runKernel(
      "DecodeRaw", AttrMap{{"out_type", DType::I16}},
      {str({2}, {"\x01\x02\x03\x04", std::string("\xff\xff\x00\x80", 4)})},
      DType::I16);
  ASSERT_TRUE(le.ok()) << le.status();
  EXPECT_EQ(le->shape(), (TensorShape{2, 2}));
  EXPECT_EQ(valuesOf<int16_t>(*le),
            (std::vector<int16_t>{0x0201, 0x0403, -1, -32768}));
  auto be = runKernel(
      "DecodeRaw", AttrMap{{"out_type", DType::I16}, {"little_endian", false}},
      {str({1}, {"\x01\x02\x03\x04"})}, DType::I16);
  ASSERT_TRUE(be.ok()) << be.status();
  EXPECT_EQ(valuesOf<int16_t>(*be), (std::vector<int16_t>{0x0102, 0x0304}));
  // float 1.0 = 00 00 80 3F; a scalar string gives a vector.
  auto f = runKernel("DecodeRaw", AttrMap{{"out_type", DType::F32}},
                     {str(std::string("\x00\x00\x80\x3f", 4))}, DType::F32);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->shape(), (TensorShape{1}));
  EXPECT_EQ(valuesOf<float>(*f)[0], 1.0f);
  // Bytes other than 0 and 1 are true.
  auto b = runKernel("DecodeRaw", AttrMap{{"out_type", DType::Bool}},
                     {str(std::string("\x00\x07", 2))}, DType::Bool);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(valuesOf<bool>(*b), (std::vector<bool>{false, true}));
  // Empty strings: a last dim of 0.
  auto empty = runKernel("DecodeRaw", AttrMap{{"out_type", DType::I32}},
                         {str({3}, {"", "", ""})}, DType::I32);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), (TensorShape{3, 0}));
  auto sizes = runKernel("DecodeRaw", AttrMap{{"out_type", DType::U8}},
                         {str({2}, {"abcd", "abc"})}, DType::U8);
  EXPECT_EQ(sizes.status().message(),
            opError("DecodeRaw", "DecodeRaw requires input strings to all be "
                                 "the same size, but element 1 has size 4 "
                                 "!= 3"));
  auto multiple = runKernel("DecodeRaw", AttrMap{{"out_type", DType::F32}},
                            {str({1}, {"abc"})}, DType::F32);
  EXPECT_EQ(multiple.status().message(),
            opError("DecodeRaw", "Input to DecodeRaw has length 3 that is not "
                                 "a multiple of 4, the size of float"));
}

TEST(DecodePaddedRaw, PadsAndCuts) {
  // fixed_length 4 as uint16: "\x01\x02\x03" pads to 01 02 03 00,
  // "\x01\x02\x03\x04\x05" cuts to 01 02 03 04.
  auto le = runKernel(
      "DecodePaddedRaw", AttrMap{{"out_type", DType::U16}},
      {str({2}, {"\x01\x02\x03", "\x01\x02\x03\x04\x05"}), i32({}, {4})},
      DType::U16);
  ASSERT_TRUE(le.ok()) << le.status();
  EXPECT_EQ(le->shape(), (TensorShape{2, 2}));
  EXPECT_EQ(valuesOf<uint16_t>(*le),
            (std::vector<uint16_t>{0x0201, 0x0003, 0x0201, 0x0403}));
  // Big-endian: a short last element is zero-extended first: 03 -> 00 03
  // reversed into the element's end, 0x0300.
  auto be =
      runKernel("DecodePaddedRaw",
                AttrMap{{"out_type", DType::U16}, {"little_endian", false}},
                {str({1}, {"\x01\x02\x03"}), i32({}, {4})}, DType::U16);
  ASSERT_TRUE(be.ok()) << be.status();
  EXPECT_EQ(valuesOf<uint16_t>(*be), (std::vector<uint16_t>{0x0102, 0x0300}));
  auto notMultiple =
      runKernel("DecodePaddedRaw", AttrMap{{"out_type", DType::I32}},
                {str({1}, {"ab"}), i32({}, {6})}, DType::I32);
  EXPECT_EQ(notMultiple.status().message(),
            opError("DecodePaddedRaw", "fixed_length (6) must be a multiple "
                                       "of the size of out_type (4)"));
  auto zero = runKernel("DecodePaddedRaw", AttrMap{{"out_type", DType::I32}},
                        {str({1}, {"ab"}), i32({}, {0})}, DType::I32);
  EXPECT_EQ(zero.status().message(),
            opError("DecodePaddedRaw",
                    "fixed_length (0) must be greater than zero."));
  auto wideLength =
      runKernel("DecodePaddedRaw", AttrMap{{"out_type", DType::I8}},
                {str({1}, {"ab"}), i64({}, {2})}, DType::I8);
  EXPECT_EQ(wideLength.status().message(),
            opError("DecodePaddedRaw", "input 1 must be i32, got i64"));
  auto vector = runKernel("DecodePaddedRaw", AttrMap{{"out_type", DType::I8}},
                          {str({1}, {"ab"}), i32({2}, {1, 1})}, DType::I8);
  EXPECT_EQ(vector.status().message(),
            opError("DecodePaddedRaw", "k must be scalar, got shape [2]"));
}

TEST(ReadWriteFile, RoundTripAndErrors) {
  char tmpl[] = "/tmp/serialization-test-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  // WriteFile creates the missing parent directories.
  const std::string path = dir + "/a/b/file.bin";
  const std::string bytes("x\0y\xff", 4);
  auto written = runKernelN("WriteFile", AttrMap{}, {str(path), str(bytes)}, {},
                            /*ordered=*/true);
  ASSERT_TRUE(written.ok()) << written.status();
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  EXPECT_EQ(buffer.str(), bytes);
  EXPECT_EQ(scalarString(
                runKernel("ReadFile", AttrMap{}, {str(path)}, DType::String)),
            bytes);
  auto missing =
      runKernel("ReadFile", AttrMap{}, {str(dir + "/nothing")}, DType::String);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            opError("ReadFile", dir + "/nothing; No such file or directory"));
  auto shape =
      runKernel("ReadFile", AttrMap{}, {str({1}, {path})}, DType::String);
  EXPECT_EQ(shape.status().message(),
            opError("ReadFile", "Input filename tensor must be scalar, but "
                                "had shape: [1]"));
  auto contents =
      runKernelN("WriteFile", AttrMap{}, {str(path), str({2}, {"a", "b"})}, {},
                 /*ordered=*/true);
  EXPECT_EQ(contents.status().message(),
            opError("WriteFile",
                    "Contents tensor must be scalar, but had shape: [2]"));
  // A directory cannot be written as a file.
  auto isDir = runKernelN("WriteFile", AttrMap{}, {str(dir), str("x")}, {},
                          /*ordered=*/true);
  EXPECT_EQ(isDir.status().message(),
            opError("WriteFile", dir + "; Is a directory"));
  std::remove(path.c_str());
  rmdir((dir + "/a/b").c_str());
  rmdir((dir + "/a").c_str());
  rmdir(dir.c_str());
}

} // namespace
