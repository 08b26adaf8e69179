//===- WindowTest.cpp - Window output sizes and padding ---------*- C++ -*-===//
//
// shape::windowedOutputSize, parsePadding and parseDataFormat; expected
// sizes worked out by hand from TF's GetWindowedOutputSizeVerbose.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Window.h"

#include "gtest/gtest.h"

namespace tfrt_fallback::rt::shape {
namespace {

void expectWindow(StatusOr<WindowDim> window, int64_t out, int64_t before,
                  int64_t after) {
  ASSERT_TRUE(window.ok()) << window.status();
  EXPECT_EQ(window->out, out);
  EXPECT_EQ(window->padBefore, before);
  EXPECT_EQ(window->padAfter, after);
}

TEST(Window, Valid) {
  // (7 - 3 + 1) / 1 = 5; stride 2: (7 - 3 + 2) / 2 = 3.
  expectWindow(windowedOutputSize(7, 3, 1, 1, Padding::Valid), 5, 0, 0);
  expectWindow(windowedOutputSize(7, 3, 1, 2, Padding::Valid), 3, 0, 0);
  // Dilation 2 makes a 3-tap window 5 wide: (16 - 5 + 2) / 2 = 6.
  expectWindow(windowedOutputSize(16, 3, 2, 2, Padding::Valid), 6, 0, 0);
}

TEST(Window, Same) {
  // ceil(7 / 2) = 4; needed = (4 - 1) * 2 + 3 - 7 = 2: 1 before, 1 after.
  expectWindow(windowedOutputSize(7, 3, 1, 2, Padding::Same), 4, 1, 1);
  // ceil(8 / 2) = 4; needed = 3 * 2 + 3 - 8 = 1: the smaller half before.
  expectWindow(windowedOutputSize(8, 3, 1, 2, Padding::Same), 4, 0, 1);
  // A window narrower than the stride needs no padding.
  expectWindow(windowedOutputSize(8, 1, 1, 2, Padding::Same), 4, 0, 0);
}

TEST(Window, Explicit) {
  // (16 + 1 + 2 - 3 + 1) / 1 = 17.
  expectWindow(windowedOutputSize(16, 3, 1, 1, Padding::Explicit, 1, 2), 17, 1,
               2);
}

TEST(Window, UnknownInput) {
  expectWindow(windowedOutputSize(-1, 3, 1, 2, Padding::Same), -1, 0, 0);
  expectWindow(windowedOutputSize(-1, 3, 1, 1, Padding::Explicit, 2, 1), -1, 2,
               1);
}

TEST(Window, Errors) {
  EXPECT_EQ(windowedOutputSize(2, 4, 1, 1, Padding::Valid).status().message(),
            "Computed output size would be negative: -1 [input_size: 2, "
            "effective_filter_size: 4, stride: 1]");
  EXPECT_EQ(windowedOutputSize(2, 1, 1, 0, Padding::Valid).status().message(),
            "Stride must be > 0, but got 0");
  EXPECT_EQ(windowedOutputSize(2, 1, 0, 1, Padding::Valid).status().message(),
            "Dilation rate must be >= 1, but got 0");
}

TEST(Window, Attributes) {
  EXPECT_EQ(*parsePadding("SAME"), Padding::Same);
  EXPECT_EQ(*parsePadding("VALID"), Padding::Valid);
  EXPECT_EQ(*parsePadding("EXPLICIT"), Padding::Explicit);
  EXPECT_EQ(parsePadding("FULL").status().message(), "Invalid padding 'FULL'");
  EXPECT_EQ(
      parsePadding("EXPLICIT", /*allowExplicit=*/false).status().message(),
      "Invalid padding 'EXPLICIT'");
  DataFormat nhwc = *parseDataFormat("NHWC");
  EXPECT_EQ(nhwc.height(), 1);
  EXPECT_EQ(nhwc.channels(), 3);
  DataFormat nchw = *parseDataFormat("NCHW");
  EXPECT_EQ(nchw.channels(), 1);
  EXPECT_EQ(nchw.width(), 3);
  EXPECT_EQ(parseDataFormat("HWCN").status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(parseDataFormat("HWCN").status().message(), "Invalid data format");
}

} // namespace
} // namespace tfrt_fallback::rt::shape
