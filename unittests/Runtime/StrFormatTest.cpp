//===- StrFormatTest.cpp - strFormat, strAppendFormat, makeError ----------===//

#include "tfrt_fallback/Runtime/StrFormat.h"

#include "gtest/gtest.h"

#include <string>
#include <string_view>

namespace tfrt_fallback::rt {
namespace {

TEST(StrFormat, FormatsLikePrintf) {
  EXPECT_EQ(strFormat("%d-%s-%zu", 7, "x", size_t{12}), "7-x-12");
  EXPECT_EQ(strFormat("%g", 0.5), "0.5");
  EXPECT_EQ(strFormat("%s", ""), "");
  // A view into a longer string: only its characters.
  std::string_view view = std::string_view("abcdef").substr(1, 3);
  EXPECT_EQ(strFormat("[%.*s]", TFRT_FALLBACK_SV(view)), "[bcd]");
}

TEST(StrFormat, MessagesAroundTheStackBuffer) {
  // 255 characters fit the 256-byte buffer with its NUL; 256 and more are
  // written in place.
  for (size_t size : {255u, 256u, 257u, 1000u}) {
    std::string text(size, 'a');
    text.back() = 'z';
    EXPECT_EQ(strFormat("%s", text.c_str()), text) << size;
    std::string out = "ab";
    strAppendFormat(&out, "%s!", text.c_str());
    EXPECT_EQ(out, "ab" + text + "!") << size;
  }
}

Status prefixed(const char *format, ...) TFRT_FALLBACK_PRINTF(1, 2);
Status prefixed(const char *format, ...) {
  va_list args;
  va_start(args, format);
  Status status = makeErrorV(StatusCode::kDataLoss, "file 'f': ", format, args);
  va_end(args);
  return status;
}

TEST(StrFormat, MakeError) {
  Status error = makeError(StatusCode::kNotFound, "no kernel for '%s'", "Relu");
  EXPECT_EQ(error.code(), StatusCode::kNotFound);
  EXPECT_EQ(error.message(), "no kernel for 'Relu'");
  Status withPrefix = prefixed("%d bytes short", 3);
  EXPECT_EQ(withPrefix.code(), StatusCode::kDataLoss);
  EXPECT_EQ(withPrefix.message(), "file 'f': 3 bytes short");
  // kOk makes an OK status, as Status(code, message) does.
  EXPECT_TRUE(makeError(StatusCode::kOk, "dropped").ok());
}

} // namespace
} // namespace tfrt_fallback::rt
