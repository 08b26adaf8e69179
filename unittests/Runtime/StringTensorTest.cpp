//===- StringTensorTest.cpp - string tensor storage -------------*- C++ -*-===//
//
// makeStringTensor copies, one buffer per tensor; makeStringTensorView keeps
// its owner alive exactly as long as the tensor; the numeric paths refuse
// strings; NumPy's fixed-width strings read and write.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/StringTensor.h"

#include "tfrt_fallback/Runtime/Npy.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {

std::vector<std::string> valuesOf(const Tensor &t) {
  std::vector<std::string> out;
  for (std::string_view s : stringElements(t))
    out.emplace_back(s);
  return out;
}

TEST(StringTensor, CopiesItsValuesIntoOneBuffer) {
  std::vector<std::string> source = {"hello", "", std::string("a\0b", 3),
                                     std::string(100, 'x')};
  std::vector<std::string_view> views(source.begin(), source.end());
  StatusOr<Tensor> t = makeStringTensor(TensorShape{2, 2}, views);
  ASSERT_TRUE(t.ok()) << t.status();
  std::vector<std::string> expected = source;
  source.assign(4, "overwritten");
  EXPECT_EQ(valuesOf(*t), expected);
  EXPECT_EQ(t->dtype(), DType::String);
  EXPECT_EQ(t->shape(), (TensorShape{2, 2}));
  // The views, then 5 + 0 + 3 + 100 bytes, in the tensor's own buffer.
  EXPECT_EQ(t->buffer()->size(), 4 * kStringElementSize + 108);
  const char *begin = static_cast<const char *>(t->buffer()->data());
  for (std::string_view s : stringElements(*t)) {
    EXPECT_GE(s.data(), begin);
    EXPECT_LE(s.data() + s.size(), begin + t->buffer()->size());
  }
  // A copy of the tensor shares the buffer; the bytes outlive the original.
  Tensor copy = *t;
  t->reset();
  EXPECT_EQ(valuesOf(copy), expected);
}

TEST(StringTensor, EmptyAndScalarTensors) {
  StatusOr<Tensor> empty = makeStringTensor(TensorShape{0, 3}, {});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->numElements(), 0);
  EXPECT_EQ(empty->debugString(), "[]");
  StatusOr<Tensor> scalar = makeStringTensor(TensorShape{}, {"tf"});
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->debugString(), "b'tf'");
}

TEST(StringTensor, RejectsAValueCountThatIsNotTheShapes) {
  EXPECT_EQ(makeStringTensor(TensorShape{3}, {"a", "b"}).status().message(),
            "shape [3] needs 3 strings, got 2");
}

TEST(StringTensor, ViewsKeepTheirOwnerAliveAndNoLonger) {
  bool released = false;
  std::string bytes = "abcde";
  RCReference<TensorBuffer> owner = TensorBuffer::wrapExternal(
      bytes.data(), bytes.size(), [&] { released = true; });
  Tensor view = makeStringTensorView(TensorShape{2},
                                     {std::string_view(bytes.data(), 2),
                                      std::string_view(bytes.data() + 2, 3)},
                                     owner);
  owner = nullptr;
  EXPECT_FALSE(released);
  // Views point into the owner's bytes: nothing was copied.
  EXPECT_EQ(stringElements(view)[1].data(), bytes.data() + 2);
  EXPECT_EQ(valuesOf(view), (std::vector<std::string>{"ab", "cde"}));
  Tensor slice = stringSubTensor(view, 1, TensorShape{});
  view.reset();
  EXPECT_FALSE(released);
  EXPECT_EQ(valuesOf(slice), (std::vector<std::string>{"cde"}));
  slice.reset();
  EXPECT_TRUE(released);
}

TEST(StringTensor, NumericPathsRefuseStrings) {
  EXPECT_FALSE(isBufferDType(DType::String));
  EXPECT_EQ(dtypeSize(DType::String), 0u);
  EXPECT_FALSE(Tensor::allocate(DType::String, TensorShape{2}).ok());
  bool called = false;
  EXPECT_FALSE(dispatchDType(DType::String, [&](auto) { called = true; }).ok());
  EXPECT_FALSE(called);
  EXPECT_EQ(dtypeTypeName(DType::String), "!tf_type.string");
  EXPECT_EQ(dtypeTypeName(DType::F32), "f32");
}

TEST(StringTensor, PrintsLikeNumpysRepr) {
  StatusOr<Tensor> t =
      makeStringTensor(TensorShape{2, 3},
                       {"plain", "it's", "say \"hi\"", std::string("\0\x7f", 2),
                        "tab\tnl\n", "back\\slash 'q' \"d\""});
  ASSERT_TRUE(t.ok());
  // Python's repr of the same bytes objects.
  EXPECT_EQ(
      t->debugString(),
      "[[b'plain', b\"it's\", b'say \"hi\"'],\n"
      " [b'\\x00\\x7f', b'tab\\tnl\\n', b'back\\\\slash \\'q\\' \"d\"']]");
  EXPECT_EQ(quoteBytes("\xc3\xa9"), "b'\\xc3\\xa9'");
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

/// A version 1.0 .npy file with `descr`, `shape` and raw `data`.
std::string npyFile(const std::string &descr, const std::string &shape,
                    const std::string &data) {
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string file = "\x93NUMPY\x01";
  file += '\0';
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  return file + header + data;
}

TEST(StringNpy, ReadsBytesAndUtf32Items) {
  StatusOr<Tensor> bytes =
      parseNpy(npyFile("|S3", "(2,)", std::string("ab\0x\0y", 6)), "s");
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  // Trailing NULs are padding; inner ones are kept (NumPy's rule).
  EXPECT_EQ(valuesOf(*bytes),
            (std::vector<std::string>{"ab", std::string("x\0y", 3)}));
  // U+00E9 'a', nothing, U+1F600 (padded): UTF-8 from UTF-32.
  std::string utf32;
  for (uint32_t unit : {0xe9u, 0x61u, 0u, 0u, 0x1f600u, 0u})
    utf32.append(reinterpret_cast<const char *>(&unit), 4);
  StatusOr<Tensor> text = parseNpy(npyFile("<U2", "(3,)", utf32), "u");
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(valuesOf(*text),
            (std::vector<std::string>{"\xc3\xa9"
                                      "a",
                                      "", "\xf0\x9f\x98\x80"}));
}

TEST(StringNpy, RejectsBadItems) {
  EXPECT_EQ(
      parseNpy(npyFile("<U1", "(1,)", std::string("\0\xd8\0\0", 4)), "u")
          .status()
          .message(),
      "invalid .npy file 'u': element 0 holds 55296, which is not a Unicode "
      "scalar value");
  EXPECT_FALSE(parseNpy(npyFile("|S0", "(1000000000,)", ""), "z").ok());
  EXPECT_EQ(parseNpy(npyFile("|S2", "(2,)", "abc"), "t").status().message(),
            "invalid .npy file 't': expected 4 bytes of data, found 3");
  EXPECT_FALSE(parseNpy(npyFile(">U1", "(1,)", "a\0\0\0"), "b").ok());
}

TEST(StringNpy, WritesBytesAsWideAsTheLongestElement) {
  StatusOr<Tensor> t = makeStringTensor(TensorShape{3}, {"ab", "", "cde"});
  ASSERT_TRUE(t.ok());
  StatusOr<std::string> file = encodeNpy(*t);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(*file, npyFile("|S3", "(3,)", std::string("ab\0\0\0\0cde", 9)));
  StatusOr<Tensor> back = parseNpy(*file, "back");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(valuesOf(*back), valuesOf(*t));
  // All empty: still one byte wide (NumPy has no '|S0' array to write).
  StatusOr<Tensor> blank = makeStringTensor(TensorShape{1}, {""});
  EXPECT_EQ(*encodeNpy(*blank), npyFile("|S1", "(1,)", std::string(1, '\0')));
}

} // namespace
} // namespace tfrt_fallback::rt
