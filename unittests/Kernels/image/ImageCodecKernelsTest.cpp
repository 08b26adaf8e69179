//===- ImageCodecKernelsTest.cpp - JPEG, PNG, GIF and BMP codecs -*- C++ -*-=//
//
// The decoders on files written here by minimal encoders of our own (PNG
// with stored deflate blocks, GIF with uncompressed LZW codes, BMP, and
// baseline JPEG whose 8x8 blocks are constant: DC coefficients only, a
// quantization table of ones, so every IDCT returns the block's value
// exactly), the expected pixels worked out by hand from what was written
// and from the formats' rules (JFIF's YCbCr to RGB within 1, TF's CMYK
// formula, libpng's x * 257, TF's scales). The encoders' files are read
// back by these decoders and checked marker by marker against the JPEG
// and PNG specifications (DQT tables, SOF, JFIF density, XMP). Plus TF's
// messages.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

using Bytes = std::string;

void put16le(Bytes &b, uint32_t v) {
  b += char(v & 0xff);
  b += char(v >> 8 & 0xff);
}
void put32le(Bytes &b, uint32_t v) {
  put16le(b, v & 0xffff);
  put16le(b, v >> 16);
}
void put16be(Bytes &b, uint32_t v) {
  b += char(v >> 8 & 0xff);
  b += char(v & 0xff);
}
void put32be(Bytes &b, uint32_t v) {
  put16be(b, v >> 16);
  put16be(b, v & 0xffff);
}

Tensor str(const Bytes &bytes) {
  std::string_view view = bytes;
  return *makeStringTensor(TensorShape(), {&view, 1});
}

std::string scalarString(const Tensor &t) {
  return std::string(stringElements(t)[0]);
}

std::vector<double> bytesOf(const std::vector<int> &v) {
  return std::vector<double>(v.begin(), v.end());
}

/// A uint8 `actual` of `shape` within `tol` of `expected`, element by
/// element.
void expectNearBytes(const Tensor &actual, const TensorShape &shape,
                     const std::vector<double> &expected, double tol) {
  ASSERT_EQ(actual.dtype(), DType::U8);
  ASSERT_EQ(actual.shape(), shape);
  ASSERT_EQ(size_t(actual.numElements()), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual.data<uint8_t>()[i], expected[i], tol) << "at " << i;
}

//===----------------------------------------------------------------------===//
// PNG
//===----------------------------------------------------------------------===//

uint32_t crc32(const Bytes &data) {
  uint32_t crc = 0xffffffffu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int k = 0; k < 8; ++k)
      crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
  }
  return ~crc;
}

uint32_t adler32(const Bytes &data) {
  uint32_t a = 1, b = 0;
  for (unsigned char c : data) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  return b << 16 | a;
}

Bytes pngChunk(const std::string &type, const Bytes &data) {
  Bytes out;
  put32be(out, static_cast<uint32_t>(data.size()));
  out += type + data;
  put32be(out, crc32(type + data));
  return out;
}

/// A zlib stream of stored (uncompressed) deflate blocks.
Bytes zlibStored(const Bytes &data) {
  Bytes out = "\x78\x01";
  size_t at = 0;
  do {
    const size_t n = std::min<size_t>(65535, data.size() - at);
    out += char(at + n == data.size() ? 1 : 0);
    put16le(out, static_cast<uint32_t>(n));
    put16le(out, static_cast<uint32_t>(~n & 0xffff));
    out += data.substr(at, n);
    at += n;
  } while (at < data.size());
  put32be(out, adler32(data));
  return out;
}

/// A PNG of `scanlines` (each row with its filter byte) and `chunks`
/// before IDAT (PLTE, tRNS).
Bytes png(int width, int height, int depth, int colorType,
          const Bytes &scanlines, const Bytes &chunks = "",
          bool interlaced = false) {
  Bytes ihdr;
  put32be(ihdr, width);
  put32be(ihdr, height);
  ihdr += char(depth);
  ihdr += char(colorType);
  ihdr += '\0'; // Deflate.
  ihdr += '\0'; // Adaptive filtering.
  ihdr += char(interlaced ? 1 : 0);
  return "\x89PNG\r\n\x1a\n" + pngChunk("IHDR", ihdr) + chunks +
         pngChunk("IDAT", zlibStored(scanlines)) + pngChunk("IEND", "");
}

/// Rows of `rowBytes` bytes from `pixels`, each after filter byte 0.
Bytes scanlines(const std::vector<int> &pixels, size_t rowBytes) {
  Bytes out;
  for (size_t i = 0; i < pixels.size(); ++i) {
    if (i % rowBytes == 0)
      out += '\0';
    out += char(pixels[i]);
  }
  return out;
}

/// Adam7's seven passes of an 8-bit image of `bpp` bytes per pixel.
Bytes adam7(const std::vector<int> &pixels, int width, int height, int bpp) {
  static const int kPasses[7][4] = {{0, 0, 8, 8}, {0, 4, 8, 8}, {4, 0, 8, 4},
                                    {0, 2, 4, 4}, {2, 0, 4, 2}, {0, 1, 2, 2},
                                    {1, 0, 2, 1}};
  Bytes out;
  for (const auto &p : kPasses) {
    for (int y = p[0]; y < height; y += p[2]) {
      if (p[1] >= width)
        break;
      out += '\0';
      for (int x = p[1]; x < width; x += p[3])
        for (int c = 0; c < bpp; ++c)
          out += char(pixels[(y * width + x) * bpp + c]);
    }
  }
  return out;
}

/// Runs decoder `op` on `data`; DecodePng and DecodeImage get dtype uint8
/// unless `attrs` says otherwise (a graph's importer fills TF's default).
StatusOr<Tensor> decode(const std::string &op, const Bytes &data,
                        AttrMap attrs = {}, DType out = DType::U8) {
  if ((op == "DecodePng" || op == "DecodeImage") && !attrs.contains("dtype"))
    attrs.set("dtype", DType::U8);
  return runKernel(op, attrs, {str(data)}, out);
}

TEST(DecodePng, Rgb8) {
  // 2 x 2 RGB.
  const std::vector<int> px = {255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30};
  const Bytes file = png(2, 2, 8, 2, scanlines(px, 6));
  auto out = decode("DecodePng", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 2, 3}, bytesOf(px));
  // DecodeJpeg, DecodeImage and DecodeGif decode PNG too (DecodeGif 4-D).
  out = decode("DecodeJpeg", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 2, 3}, bytesOf(px));
  out = decode("DecodeGif", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 2, 3}, bytesOf(px));
  // Alpha added opaque.
  out = decode("DecodePng", file, {{"channels", int64_t(4)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 2, 4},
                        bytesOf({255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                                 10, 20, 30, 255}));
  // To gray: 0.299 R + 0.587 G + 0.114 B (libpng's fixed point, within 1).
  out = decode("DecodePng", file, {{"channels", int64_t(1)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectNearBytes(*out, {2, 2, 1},
                  {0.299 * 255, 0.587 * 255, 0.114 * 255,
                   0.299 * 10 + 0.587 * 20 + 0.114 * 30},
                  1.0);
}

TEST(DecodePng, GrayAndAlpha) {
  // Gray 8-bit 3 x 1.
  const Bytes gray = png(3, 1, 8, 0, scanlines({0, 100, 255}, 3));
  auto out = decode("DecodePng", gray);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 3, 1}, {0, 100, 255});
  out = decode("DecodePng", gray, {{"channels", int64_t(3)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 3, 3},
                        bytesOf({0, 0, 0, 100, 100, 100, 255, 255, 255}));
  // Gray + alpha keeps 2 channels; RGBA to RGB strips the alpha.
  const Bytes ga = png(2, 1, 8, 4, scanlines({7, 200, 9, 100}, 4));
  out = decode("DecodePng", ga);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 2}, {7, 200, 9, 100});
  const Bytes rgba = png(1, 1, 8, 6, scanlines({1, 2, 3, 4}, 4));
  out = decode("DecodePng", rgba, {{"channels", int64_t(3)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 1, 3}, {1, 2, 3});
  // 1-bit gray: 0 and 1 become 0 and 255. Row 10110000 = pixels 1 0 1 1.
  const Bytes bits = png(4, 1, 1, 0, Bytes("\0\xb0", 2));
  out = decode("DecodePng", bits);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 4, 1}, {255, 0, 255, 255});
}

TEST(DecodePng, PaletteWithTransparency) {
  // Palette: 0 = red, 1 = (10, 20, 30); tRNS: 0 is alpha 128, 1 opaque.
  Bytes plte("\xff\x00\x00\x0a\x14\x1e", 6);
  Bytes chunks = pngChunk("PLTE", plte) + pngChunk("tRNS", Bytes("\x80", 1));
  const Bytes file = png(2, 1, 8, 3, scanlines({1, 0}, 2), chunks);
  auto out = decode("DecodePng", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 4},
                        bytesOf({10, 20, 30, 255, 255, 0, 0, 128}));
  out = decode("DecodePng", file, {{"channels", int64_t(3)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 3}, bytesOf({10, 20, 30, 255, 0, 0}));
}

TEST(DecodePng, SixteenBits) {
  // Gray 16-bit, big-endian samples 0x1234 and 0xff01.
  const Bytes file = png(2, 1, 16, 0, Bytes("\0\x12\x34\xff\x01", 5));
  auto out = decode("DecodePng", file, {{"dtype", DType::U16}}, DType::U16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint16_t>(*out, {1, 2, 1}, {0x1234, 0xff01});
  // To 8 bits: the high byte.
  out = decode("DecodePng", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 1}, {0x12, 0xff});
  // 8-bit samples asked for as 16 bits: x * 257.
  const Bytes eight = png(2, 1, 8, 0, scanlines({3, 255}, 2));
  out = decode("DecodePng", eight, {{"dtype", DType::U16}}, DType::U16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint16_t>(*out, {1, 2, 1}, {3 * 257, 65535});
  // DecodeImage to float: the 16-bit value / 65535, as float.
  out = runKernel("DecodeImage", {{"dtype", DType::F32}}, {str(eight)},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 1},
                      {double(float(3 * 257) * float(1.0 / 65535)),
                       double(float(65535) * float(1.0 / 65535))},
                      0);
  out = runKernel("DecodeImage", {{"dtype", DType::F32}}, {str(file)},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 1},
                      {double(float(0x1234) * float(1.0 / 65535)),
                       double(float(0xff01) * float(1.0 / 65535))},
                      0);
}

TEST(DecodePng, Interlaced) {
  // 5 x 3 RGB, pixel (y, x) = (10 y + x, 100 + x, 200 - y), Adam7.
  std::vector<int> px;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x)
      px.insert(px.end(), {10 * y + x, 100 + x, 200 - y});
  const Bytes file = png(5, 3, 8, 2, adam7(px, 5, 3, 3), "", true);
  auto out = decode("DecodePng", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {3, 5, 3}, bytesOf(px));
}

TEST(DecodePng, Errors) {
  const Bytes good = png(2, 1, 8, 0, scanlines({1, 2}, 2));
  // A bad IHDR CRC: the header does not decode.
  Bytes badCrc = good;
  badCrc[29] ^= 1;
  auto out = decode("DecodePng", badCrc);
  EXPECT_EQ(out.status().message(),
            opError("DecodePng", "Invalid PNG. Failed to initialize decoder."));
  // Cut inside IDAT: the rows fail.
  const Bytes cut = good.substr(0, good.size() - 20);
  out = decode("DecodePng", cut);
  EXPECT_EQ(out.status().message(),
            opError("DecodePng",
                    "Invalid PNG data, size " + std::to_string(cut.size())));
  out = runKernel("DecodeAndCropJpeg", {}, {str(good), i32({4}, {0, 0, 1, 1})},
                  DType::U8);
  EXPECT_EQ(out.status().message(),
            opError("DecodeAndCropJpeg", "DecodeAndCropJpeg operation can run "
                                         "on JPEG only, but detected PNG."));
  out = decode("DecodeBmp", good);
  EXPECT_EQ(out.status().message(),
            opError("DecodeBmp", "Trying to decode PNG format using DecodeBmp "
                                 "op. Use `decode_png` or `decode_image` "
                                 "instead."));
  out = decode("DecodePng", good, {{"channels", int64_t(2)}});
  EXPECT_EQ(out.status().message(),
            opError("DecodePng", "`channels` must be 0, 1, 3 or 4 but got 2"));
}

TEST(DecodeImage, InputErrors) {
  auto out = decode("DecodeImage", "");
  EXPECT_EQ(out.status().message(), opError("DecodeImage", "Input is empty."));
  out = decode("DecodeImage", "not an image");
  EXPECT_EQ(out.status().message(),
            opError("DecodeImage", "Unknown image file format. One of JPEG, "
                                   "JPEG XL, PNG, GIF, BMP, WebP required."));
  std::vector<std::string_view> two = {"a", "b"};
  out = runKernel("DecodeImage", {{"dtype", DType::U8}},
                  {*makeStringTensor(TensorShape({2}), two)}, DType::U8);
  EXPECT_EQ(
      out.status().message(),
      opError("DecodeImage", "`contents` must be scalar but got shape[2]"));
  out = decode("DecodeImage", Bytes("RIFF\x10\0\0\0WEBPVP8 ", 16));
  EXPECT_EQ(out.status().code(), StatusCode::kUnimplemented);
}

//===----------------------------------------------------------------------===//
// GIF
//===----------------------------------------------------------------------===//

using Rgb = std::array<int, 3>;

struct GifImage {
  GifImage(int left, int top, int width, int height, std::vector<int> indices)
      : left(left), top(top), width(width), height(height),
        indices(std::move(indices)) {}

  int left = 0, top = 0, width = 0, height = 0;
  std::vector<int> indices;
  int transparent = -1;
  std::vector<Rgb> localColors;
  bool interlaced = false;
};

/// log2 of a color table's size (2 to 256 entries).
int tableBits(size_t n) {
  int bits = 1;
  while ((size_t(1) << bits) < n)
    ++bits;
  return bits;
}

Bytes colorTable(const std::vector<Rgb> &colors) {
  Bytes out;
  const size_t n = size_t(1) << tableBits(colors.size());
  for (size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c)
      out += char(i < colors.size() ? colors[i][c] : 0);
  return out;
}

/// LZW data of `indices` with no compression: literal codes only, a clear
/// code before the table would grow a bit (every 2^m - 2 literals).
Bytes lzw(const std::vector<int> &indices, int m) {
  const int clear = 1 << m, eoi = clear + 1, width = m + 1;
  Bytes packed;
  uint32_t acc = 0;
  int bits = 0;
  auto emit = [&](int code) {
    acc |= uint32_t(code) << bits;
    bits += width;
    while (bits >= 8) {
      packed += char(acc & 0xff);
      acc >>= 8;
      bits -= 8;
    }
  };
  const size_t run = (size_t(1) << m) - 2;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (i % run == 0)
      emit(clear);
    emit(indices[i]);
  }
  emit(eoi);
  if (bits > 0)
    packed += char(acc & 0xff);
  Bytes out(1, char(m));
  for (size_t at = 0; at < packed.size(); at += 255) {
    const size_t n = std::min<size_t>(255, packed.size() - at);
    out += char(n);
    out += packed.substr(at, n);
  }
  out += '\0';
  return out;
}

Bytes gif(int width, int height, const std::vector<Rgb> &global,
          const std::vector<GifImage> &images) {
  Bytes out = "GIF89a";
  put16le(out, width);
  put16le(out, height);
  out += char(global.empty() ? 0 : 0x80 | (tableBits(global.size()) - 1));
  out += '\0'; // Background.
  out += '\0'; // Aspect.
  if (!global.empty())
    out += colorTable(global);
  for (const GifImage &image : images) {
    if (image.transparent >= 0) {
      out += Bytes("\x21\xf9\x04\x01\x00\x00", 6);
      out += char(image.transparent);
      out += '\0';
    }
    out += '\x2c';
    put16le(out, image.left);
    put16le(out, image.top);
    put16le(out, image.width);
    put16le(out, image.height);
    int flags = image.interlaced ? 0x40 : 0;
    if (!image.localColors.empty())
      flags |= 0x80 | (tableBits(image.localColors.size()) - 1);
    out += char(flags);
    if (!image.localColors.empty())
      out += colorTable(image.localColors);
    std::vector<int> order = image.indices;
    if (image.interlaced) {
      order.clear();
      static const int kStart[] = {0, 4, 2, 1}, kStep[] = {8, 8, 4, 2};
      for (int pass = 0; pass < 4; ++pass)
        for (int y = kStart[pass]; y < image.height; y += kStep[pass])
          for (int x = 0; x < image.width; ++x)
            order.push_back(image.indices[y * image.width + x]);
    }
    const size_t colors =
        image.localColors.empty() ? global.size() : image.localColors.size();
    out += lzw(order, std::max(2, tableBits(colors)));
  }
  out += '\x3b';
  return out;
}

const std::vector<Rgb> kPalette = {
    {0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}};

std::vector<double> rgbOf(const std::vector<int> &indices,
                          const std::vector<Rgb> &colors) {
  std::vector<double> out;
  for (int i : indices)
    out.insert(out.end(), colors[i].begin(), colors[i].end());
  return out;
}

TEST(DecodeGif, OneFrame) {
  const std::vector<int> idx = {1, 2, 3, 0, 3, 2};
  const Bytes file = gif(3, 2, kPalette, {{0, 0, 3, 2, idx}});
  auto out = decode("DecodeGif", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 3, 3}, rgbOf(idx, kPalette));
  // One frame also decodes with DecodeJpeg and DecodePng (3-D).
  out = decode("DecodePng", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 3, 3}, rgbOf(idx, kPalette));
  // DecodeImage: 4-D with expand_animations, 3-D without.
  out = decode("DecodeImage", file);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({1, 2, 3, 3}));
  out = decode("DecodeImage", file, {{"expand_animations", false}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 3, 3}, rgbOf(idx, kPalette));
  // uint16: x * 256; float: x / 255.
  out =
      decode("DecodeImage", file,
             {{"dtype", DType::U16}, {"expand_animations", false}}, DType::U16);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> scaled = rgbOf(idx, kPalette);
  for (double &v : scaled)
    v *= 256;
  expectValues<uint16_t>(*out, {2, 3, 3}, scaled);
  out =
      decode("DecodeImage", file,
             {{"dtype", DType::F32}, {"expand_animations", false}}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  scaled = rgbOf(idx, kPalette);
  for (double &v : scaled)
    v = float(v) * float(1.0 / 255);
  expectValues<float>(*out, {2, 3, 3}, scaled, 0);
  // Interlaced rows come back in order.
  std::vector<int> tall;
  for (int y = 0; y < 9; ++y)
    tall.push_back(y % 4);
  GifImage interlaced{0, 0, 1, 9, tall};
  interlaced.interlaced = true;
  out = decode("DecodeGif", gif(1, 9, kPalette, {interlaced}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 9, 1, 3}, rgbOf(tall, kPalette));
}

TEST(DecodeGif, Animation) {
  // Frame 0 fills 3 x 3 with red; frame 1 draws 2 x 2 at (1, 1) with a
  // local table {green, blue}, index 0 transparent; frame 2 covers all with
  // black, index 2 (blue) transparent in the middle.
  const std::vector<int> red(9, 1);
  GifImage second{1, 1, 2, 2, {1, 0, 0, 1}};
  second.localColors = {{0, 255, 0}, {0, 0, 255}};
  second.transparent = 0;
  GifImage third{0, 0, 3, 3, {0, 0, 0, 0, 2, 0, 0, 0, 0}};
  third.transparent = 2;
  const Bytes file = gif(3, 3, kPalette, {{0, 0, 3, 3, red}, second, third});
  auto out = decode("DecodeGif", file);
  ASSERT_TRUE(out.ok()) << out.status();
  const Rgb r = {255, 0, 0}, b = {0, 0, 255}, k = {0, 0, 0};
  std::vector<Rgb> frames = {r, r, r, r, r, r, r, r, r, // Frame 0.
                             r, r, r, r, b, r, r, r, b, // Frame 1.
                             k, k, k, k, b, k, k, k, k};
  std::vector<double> expected;
  for (const Rgb &c : frames)
    expected.insert(expected.end(), c.begin(), c.end());
  expectValues<uint8_t>(*out, {3, 3, 3, 3}, expected);
  out = decode("DecodeImage", file, {{"expand_animations", false}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(
      *out, {3, 3, 3},
      std::vector<double>(expected.begin(), expected.begin() + 27));
  out = decode("DecodeJpeg", file);
  EXPECT_EQ(out.status().message(),
            opError("DecodeJpeg", "Got 3 frames, but animated gifs can only "
                                  "be decoded by tf.io.decode_gif or "
                                  "tf.io.decode_image"));
}

TEST(DecodeGif, CanvasOfTheLargestFrame) {
  // A first frame smaller than the screen: the canvas is the largest frame
  // (2 x 1), the rest of the first frame black, transparent pixels black.
  GifImage first{1, 0, 1, 1, {2}};
  GifImage second{0, 0, 2, 1, {3, 1}};
  second.transparent = 1;
  const Bytes file = gif(4, 4, kPalette, {first, second});
  auto out = decode("DecodeGif", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 1, 2, 3},
                        bytesOf({0, 0, 0, 0, 255, 0, 0, 0, 255, 0, 255, 0}));
}

TEST(DecodeGif, TruncatedAndBad) {
  const std::vector<int> a(4, 1), b(4, 2);
  const Bytes file = gif(2, 2, kPalette, {{0, 0, 2, 2, a}, {0, 0, 2, 2, b}});
  // Cut inside the second frame's data: the first frame is kept.
  const Bytes cut = file.substr(0, file.size() - 4);
  auto out = decode("DecodeGif", cut);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 2, 3}, rgbOf(a, kPalette));
  // Cut inside the first frame: nothing to show.
  const Bytes first = gif(2, 2, kPalette, {{0, 0, 2, 2, a}});
  const Bytes cutFirst = first.substr(0, first.size() - 4);
  out = decode("DecodeGif", cutFirst);
  EXPECT_EQ(out.status().message(),
            opError("DecodeGif", "Invalid GIF data (size " +
                                     std::to_string(cutFirst.size()) +
                                     "), failed to slurp gif file: Failed to "
                                     "read from given file"));
  // No image at all.
  const Bytes empty = gif(2, 2, kPalette, {});
  out = decode("DecodeGif", empty);
  EXPECT_EQ(out.status().message(),
            opError("DecodeGif", "Invalid GIF data (size " +
                                     std::to_string(empty.size()) +
                                     "), failed to slurp gif file: No Image "
                                     "Descriptor detected"));
  // Only the header's start.
  out = decode("DecodeGif", "GIF89a\x01");
  EXPECT_EQ(out.status().message(),
            opError("DecodeGif", "Invalid GIF data (size 7), failed to open "
                                 "gif file: No screen descriptor detected"));
  // An index past a 2-color table (LZW codes of 2 bits allow 0-3).
  const Bytes outside =
      gif(2, 1, {{0, 0, 0}, {9, 9, 9}}, {{0, 0, 2, 1, {1, 3}}});
  out = decode("DecodeGif", outside);
  EXPECT_EQ(out.status().message(),
            opError("DecodeGif", "Invalid GIF data (size " +
                                     std::to_string(outside.size()) +
                                     "), found color index 3 outside of "
                                     "color map range 2"));
  // No color table.
  const Bytes noMap = gif(1, 1, {}, {{0, 0, 1, 1, {0}}});
  out = decode("DecodeGif", noMap);
  EXPECT_EQ(out.status().message(),
            opError("DecodeGif", "Invalid GIF data (size " +
                                     std::to_string(noMap.size()) +
                                     "), missing color map for frame 0"));
  out = decode("DecodeImage", file, {{"channels", int64_t(1)}});
  EXPECT_EQ(out.status().message(),
            opError("DecodeImage", "channels must be 0 or 3 for GIF, got 1"));
}

//===----------------------------------------------------------------------===//
// BMP
//===----------------------------------------------------------------------===//

/// A BMP with a 40-byte info header (and a 256-entry palette for 8 bits)
/// of `rows` (file order, unpadded rows of width * bpp / 8 bytes).
Bytes bmp(int width, int height, int bpp, const std::vector<int> &rows) {
  const int rowBytes = width * bpp / 8, padded = (rowBytes + 3) / 4 * 4;
  const int offset = 54 + (bpp == 8 ? 1024 : 0);
  const int rowCount = std::abs(height);
  Bytes out = "BM";
  put32le(out, offset + padded * rowCount);
  put32le(out, 0);
  put32le(out, offset);
  put32le(out, 40);
  put32le(out, width);
  put32le(out, static_cast<uint32_t>(height));
  put16le(out, 1);
  put16le(out, bpp);
  put32le(out, 0);
  put32le(out, padded * rowCount);
  put32le(out, 2835);
  put32le(out, 2835);
  put32le(out, 0);
  put32le(out, 0);
  if (bpp == 8)
    for (int i = 0; i < 256; ++i) // A palette TF does not use.
      put32le(out, 0x00ffffff);
  for (int r = 0; r < rowCount; ++r) {
    for (int i = 0; i < rowBytes; ++i)
      out += char(rows[r * rowBytes + i]);
    out += Bytes(padded - rowBytes, '\0');
  }
  return out;
}

TEST(DecodeBmp, TwentyFourBitsBottomUp) {
  // 3 x 2, rows bottom-up, BGR; rows of 9 bytes padded to 12.
  const std::vector<int> fileRows = {
      1,  2,  3,  4,  5,  6,  7,  8,  9,   // Bottom row.
      10, 11, 12, 13, 14, 15, 16, 17, 18}; // Top row.
  const Bytes file = bmp(3, 2, 24, fileRows);
  auto out = decode("DecodeBmp", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(
      *out, {2, 3, 3},
      bytesOf({12, 11, 10, 15, 14, 13, 18, 17, 16, 3, 2, 1, 6, 5, 4, 9, 8, 7}));
  out = decode("DecodeBmp", file, {{"channels", int64_t(4)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(
      *out, {2, 3, 4},
      bytesOf({12, 11, 10, 255, 15, 14, 13, 255, 18, 17, 16, 255,
               3,  2,  1,  255, 6,  5,  4,  255, 9,  8,  7,  255}));
  out = decode("DecodeImage", file, {{"dtype", DType::U16}}, DType::U16);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> scaled =
      bytesOf({12, 11, 10, 15, 14, 13, 18, 17, 16, 3, 2, 1, 6, 5, 4, 9, 8, 7});
  for (double &v : scaled)
    v *= 256;
  expectValues<uint16_t>(*out, {2, 3, 3}, scaled);
}

TEST(DecodeBmp, ThirtyTwoBitsTopDownAndGray) {
  // Negative height: top-down. BGRA.
  const Bytes file = bmp(2, -1, 32, {1, 2, 3, 4, 5, 6, 7, 8});
  auto out = decode("DecodeBmp", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 4}, bytesOf({3, 2, 1, 4, 7, 6, 5, 8}));
  out = decode("DecodeBmp", file, {{"channels", int64_t(3)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 2, 3}, bytesOf({3, 2, 1, 7, 6, 5}));
  // 8 bits: the index itself as gray (TF ignores the palette).
  const Bytes gray = bmp(3, 1, 8, {0, 128, 255});
  out = decode("DecodeBmp", gray);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 3, 1}, {0, 128, 255});
  out = decode("DecodeBmp", gray, {{"channels", int64_t(3)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 3, 3},
                        bytesOf({0, 0, 0, 128, 128, 128, 255, 255, 255}));
  // DecodeImage to float of a top-down file: / 255.
  out = decode("DecodeImage", file, {{"dtype", DType::F32}}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> scaled = bytesOf({3, 2, 1, 4, 7, 6, 5, 8});
  for (double &v : scaled)
    v = float(v) * float(1.0 / 255);
  expectValues<float>(*out, {1, 2, 4}, scaled, 0);
}

TEST(DecodeBmp, Errors) {
  const Bytes file = bmp(3, 2, 24, std::vector<int>(18, 0));
  auto out = decode("DecodeBmp", file + "x");
  EXPECT_EQ(out.status().message(),
            opError("DecodeBmp", "Input size should match (header_size + "
                                 "row_size * abs_height) but they differ by "
                                 "1"));
  out = decode("DecodeBmp", file, {{"channels", int64_t(1)}});
  EXPECT_EQ(
      out.status().message(),
      opError("DecodeBmp", "`channels` must be 0, 3 or 4 for BMP, but got 1"));
  out = decode("DecodeBmp", "BM" + Bytes(18, '\0'));
  EXPECT_EQ(out.status().message(),
            opError("DecodeBmp", "Incomplete bmp content, requires at least 32 "
                                 "bytes to find the header size, width, "
                                 "height, and bpp, got 20 bytes"));
  out = decode("DecodePng", file);
  EXPECT_EQ(out.status().message(),
            opError("DecodePng", "Trying to decode BMP format using a wrong "
                                 "op. Use `decode_bmp` or `decode_image` "
                                 "instead. Op used: DecodePng"));
  Bytes sixteen = file;
  sixteen[28] = 16;
  out = decode("DecodeBmp", sixteen);
  EXPECT_EQ(out.status().message(),
            opError("DecodeBmp", "Number of channels inherent in the image "
                                 "must be 1, 3 or 4, was 2"));
  Bytes zeroHeight = file;
  zeroHeight[22] = 0;
  out = decode("DecodeBmp", zeroHeight);
  EXPECT_EQ(out.status().message(),
            opError("DecodeBmp", "Height must be nonzero"));
}

//===----------------------------------------------------------------------===//
// JPEG
//===----------------------------------------------------------------------===//

/// A baseline JPEG whose 8x8 blocks are constant: component c's block b
/// (row-major over ceil(w / 8) x ceil(h / 8) blocks, every component
/// sampled 1x1) has the value values[c][b]. DC coefficients only (8 (v -
/// 128) with a quantization table of ones), the DC table of the JPEG
/// standard (K.3) and an AC table with the one code EOB = "0".
struct JpegSpec {
  int width = 8, height = 8;
  std::vector<std::vector<int>> values;
  /// An Adobe APP14 marker with this transform (0: CMYK, 2: YCCK), or -1.
  int adobeTransform = -1;
};

struct JpegFile {
  Bytes bytes;
  /// The bytes up to the last one holding bits of the first MCU row.
  size_t firstRowEnd = 0;
};

JpegFile jpeg(const JpegSpec &spec) {
  const int comps = static_cast<int>(spec.values.size());
  Bytes out = "\xff\xd8";
  if (spec.adobeTransform >= 0) {
    out += "\xff\xee";
    put16be(out, 14);
    out += "Adobe";
    put16be(out, 100);
    put16be(out, 0);
    put16be(out, 0);
    out += char(spec.adobeTransform);
  }
  out += "\xff\xdb";
  put16be(out, 67);
  out += '\0';
  out += Bytes(64, '\x01');
  out += "\xff\xc0";
  put16be(out, 8 + 3 * comps);
  out += '\x08';
  put16be(out, spec.height);
  put16be(out, spec.width);
  out += char(comps);
  for (int c = 0; c < comps; ++c) {
    out += char(c + 1);
    out += '\x11';
    out += '\0';
  }
  static const int kDcBits[16] = {0, 1, 5, 1, 1, 1, 1, 1,
                                  1, 0, 0, 0, 0, 0, 0, 0};
  out += "\xff\xc4";
  put16be(out, 2 + 1 + 16 + 12);
  out += '\x00';
  for (int n : kDcBits)
    out += char(n);
  for (int v = 0; v < 12; ++v)
    out += char(v);
  out += "\xff\xc4";
  put16be(out, 2 + 1 + 16 + 1);
  out += '\x10';
  out += '\x01';
  out += Bytes(15, '\0');
  out += '\0'; // EOB.
  out += "\xff\xda";
  put16be(out, 6 + 2 * comps);
  out += char(comps);
  for (int c = 0; c < comps; ++c) {
    out += char(c + 1);
    out += '\0';
  }
  out += '\0';
  out += '\x3f';
  out += '\0';
  // The canonical codes of kDcBits: category s has code dcCode[s] of
  // dcLength[s] bits.
  int dcCode[12], dcLength[12], code = 0, symbol = 0;
  for (int length = 1; length <= 16; ++length) {
    for (int i = 0; i < kDcBits[length - 1]; ++i) {
      dcCode[symbol] = code++;
      dcLength[symbol++] = length;
    }
    code <<= 1;
  }
  Bytes scan;
  uint32_t acc = 0;
  int bits = 0;
  auto emit = [&](uint32_t value, int n) {
    for (int i = n - 1; i >= 0; --i) {
      acc = acc << 1 | (value >> i & 1);
      if (++bits == 8) {
        scan += char(acc);
        if ((acc & 0xff) == 0xff)
          scan += '\0';
        acc = 0;
        bits = 0;
      }
    }
  };
  const int blocksWide = (spec.width + 7) / 8,
            blocksHigh = (spec.height + 7) / 8;
  std::vector<int> predictor(comps, 0);
  JpegFile file;
  for (int by = 0; by < blocksHigh; ++by) {
    for (int bx = 0; bx < blocksWide; ++bx) {
      for (int c = 0; c < comps; ++c) {
        const int dc = 8 * (spec.values[c][by * blocksWide + bx] - 128);
        const int diff = dc - predictor[c];
        predictor[c] = dc;
        int s = 0;
        while ((1 << s) <= std::abs(diff))
          ++s;
        emit(dcCode[s], dcLength[s]);
        if (s > 0)
          emit(diff > 0 ? diff : diff + (1 << s) - 1, s);
        emit(0, 1); // EOB.
      }
    }
    if (by == 0)
      file.firstRowEnd = out.size() + scan.size() + (bits > 0 ? 1 : 0);
  }
  if (bits > 0)
    emit(0xff, 8 - bits); // Pad with ones.
  file.bytes = out + scan + "\xff\xd9";
  return file;
}

/// The pixels of a JpegSpec's component `c`, row-major.
std::vector<double> blockPixels(const JpegSpec &spec, int c) {
  std::vector<double> out;
  const int blocksWide = (spec.width + 7) / 8;
  for (int y = 0; y < spec.height; ++y)
    for (int x = 0; x < spec.width; ++x)
      out.push_back(spec.values[c][(y / 8) * blocksWide + x / 8]);
  return out;
}

TEST(DecodeJpeg, GrayBlocks) {
  // 16 x 16, blocks 0, 77, 200, 255; 12 x 10 with partial blocks.
  JpegSpec spec{16, 16, {{0, 77, 200, 255}}};
  const Bytes file = jpeg(spec).bytes;
  for (const char *dct : {"", "INTEGER_FAST", "INTEGER_ACCURATE"}) {
    auto out = decode("DecodeJpeg", file, {{"dct_method", std::string(dct)}});
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<uint8_t>(*out, {16, 16, 1}, blockPixels(spec, 0));
  }
  JpegSpec partial{12, 10, {{10, 20, 30, 40}}};
  auto out = decode("DecodeJpeg", jpeg(partial).bytes);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {10, 12, 1}, blockPixels(partial, 0));
  // Three channels: gray repeated.
  out = decode("DecodeJpeg", file, {{"channels", int64_t(3)}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> rgb;
  for (double v : blockPixels(spec, 0))
    rgb.insert(rgb.end(), {v, v, v});
  expectValues<uint8_t>(*out, {16, 16, 3}, rgb);
  // ratio 8: one pixel per block; ratio 2: 4 x 4 per block.
  out = decode("DecodeJpeg", file, {{"ratio", int64_t(8)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 2, 1}, {0, 77, 200, 255});
  out = decode("DecodeJpeg", file, {{"ratio", int64_t(2)}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      expected.push_back(spec.values[0][(y / 4) * 2 + x / 4]);
  expectValues<uint8_t>(*out, {8, 8, 1}, expected);
  // DecodeImage: uint16 x 256, float / 255.
  out = decode("DecodeImage", file, {{"dtype", DType::U16}}, DType::U16);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> scaled = blockPixels(spec, 0);
  for (double &v : scaled)
    v *= 256;
  expectValues<uint16_t>(*out, {16, 16, 1}, scaled);
  out = decode("DecodeImage", file, {{"dtype", DType::F32}}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  scaled = blockPixels(spec, 0);
  for (double &v : scaled)
    v = float(v) * float(1.0 / 255);
  expectValues<float>(*out, {16, 16, 1}, scaled, 0);
  // DecodeGif gives 4-D; DecodePng decodes JPEG too.
  out = decode("DecodeGif", file);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({1, 16, 16, 3}));
  out = decode("DecodePng", file);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {16, 16, 1}, blockPixels(spec, 0));
}

TEST(DecodeJpeg, Color) {
  // YCbCr blocks (1x1 sampling): JFIF's conversion R = Y + 1.402 (Cr -
  // 128), G = Y - 0.344136 (Cb - 128) - 0.714136 (Cr - 128), B = Y + 1.772
  // (Cb - 128), within 1 (libjpeg's fixed point).
  JpegSpec spec{16, 8, {{100, 150}, {128, 90}, {128, 170}}};
  const Bytes file = jpeg(spec).bytes;
  auto out = decode("DecodeJpeg", file);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 16; ++x) {
      const int b = x / 8;
      const double Y = spec.values[0][b], cb = spec.values[1][b] - 128.0,
                   cr = spec.values[2][b] - 128.0;
      expected.push_back(std::clamp(Y + 1.402 * cr, 0.0, 255.0));
      expected.push_back(
          std::clamp(Y - 0.344136 * cb - 0.714136 * cr, 0.0, 255.0));
      expected.push_back(std::clamp(Y + 1.772 * cb, 0.0, 255.0));
    }
  expectNearBytes(*out, {8, 16, 3}, expected, 1.0);
  // The gray block (Cb = Cr = 128) is exact.
  EXPECT_EQ(out->data<uint8_t>()[0], 100);
  EXPECT_EQ(out->data<uint8_t>()[1], 100);
  EXPECT_EQ(out->data<uint8_t>()[2], 100);
  // One channel: Y.
  out = decode("DecodeJpeg", file, {{"channels", int64_t(1)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {8, 16, 1}, blockPixels(spec, 0));
}

TEST(DecodeJpeg, Cmyk) {
  // TF's formulas: with an Adobe marker (inverted samples) R = K C / 255,
  // without one R = (255 - K) (255 - C) / 255; integer division.
  JpegSpec spec{8, 8, {{200}, {100}, {50}, {128}}, 0};
  auto out = decode("DecodeJpeg", jpeg(spec).bytes);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<double> adobe = {128 * 200 / 255, 128 * 100 / 255,
                                     128 * 50 / 255};
  std::vector<double> expected;
  for (int i = 0; i < 64; ++i)
    expected.insert(expected.end(), adobe.begin(), adobe.end());
  expectValues<uint8_t>(*out, {8, 8, 3}, expected);
  spec.adobeTransform = -1;
  out = decode("DecodeJpeg", jpeg(spec).bytes);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<double> plain = {127 * 55 / 255, 127 * 155 / 255,
                                     127 * 205 / 255};
  expected.clear();
  for (int i = 0; i < 64; ++i)
    expected.insert(expected.end(), plain.begin(), plain.end());
  expectValues<uint8_t>(*out, {8, 8, 3}, expected);
}

TEST(DecodeAndCropJpeg, Windows) {
  // 24 x 16 gray, six blocks; crop windows [y, x, h, w] that start inside
  // a block (libjpeg widens them to an iMCU boundary: realigned here).
  JpegSpec spec{24, 16, {{10, 20, 30, 40, 50, 60}}};
  const Bytes file = jpeg(spec).bytes;
  const std::vector<double> full = blockPixels(spec, 0);
  for (std::array<int, 4> w :
       {std::array<int, 4>{2, 3, 12, 17}, std::array<int, 4>{0, 0, 16, 24},
        std::array<int, 4>{9, 20, 1, 4}, std::array<int, 4>{15, 8, 1, 16}}) {
    auto out =
        runKernel("DecodeAndCropJpeg", {},
                  {str(file), i32({4}, {w[0], w[1], w[2], w[3]})}, DType::U8);
    ASSERT_TRUE(out.ok()) << out.status();
    std::vector<double> expected;
    for (int y = w[0]; y < w[0] + w[2]; ++y)
      for (int x = w[1]; x < w[1] + w[3]; ++x)
        expected.push_back(full[y * 24 + x]);
    expectValues<uint8_t>(*out, {w[2], w[3], 1}, expected);
  }
  // Outside the image, empty: TF's one message for bad data or windows.
  for (std::array<int, 4> w :
       {std::array<int, 4>{0, 0, 17, 1}, std::array<int, 4>{0, 20, 1, 5},
        std::array<int, 4>{-1, 0, 1, 1}, std::array<int, 4>{0, 0, 0, 1}}) {
    auto out =
        runKernel("DecodeAndCropJpeg", {},
                  {str(file), i32({4}, {w[0], w[1], w[2], w[3]})}, DType::U8);
    EXPECT_EQ(out.status().message(),
              opError("DecodeAndCropJpeg", "jpeg::Uncompress failed. Invalid "
                                           "JPEG data or crop window."));
  }
  auto out = runKernel("DecodeAndCropJpeg", {},
                       {str(file), i32({3}, {0, 0, 1})}, DType::U8);
  EXPECT_EQ(
      out.status().message(),
      opError("DecodeAndCropJpeg", "crop_size must have four elements [3]"));
  out = runKernel("DecodeAndCropJpeg", {},
                  {str(file), i32({2, 2}, {0, 0, 1, 1})}, DType::U8);
  EXPECT_EQ(
      out.status().message(),
      opError("DecodeAndCropJpeg", "crop_window must be 1-D, got shape [2,2]"));
}

TEST(DecodeJpeg, Truncated) {
  // 8 x 16 gray: two MCU rows. Cut after the first row's bits.
  JpegSpec spec{8, 16, {{60, 180}}};
  const JpegFile file = jpeg(spec);
  const Bytes cut = file.bytes.substr(0, file.firstRowEnd);
  auto out = decode("DecodeJpeg", cut);
  EXPECT_EQ(out.status().message(),
            opError("DecodeJpeg", "jpeg::Uncompress failed. Invalid JPEG data "
                                  "or crop window."));
  // With recovery the image decodes, its first row of blocks intact.
  out = decode("DecodeJpeg", cut, {{"try_recover_truncated", true}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->shape(), TensorShape({16, 8, 1}));
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(out->data<uint8_t>()[i], 60) << i;
  // Without the EOI alone, nothing is missing.
  out = decode("DecodeJpeg", file.bytes.substr(0, file.bytes.size() - 2),
               {{"try_recover_truncated", true}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {16, 8, 1}, blockPixels(spec, 0));
}

TEST(DecodeJpeg, Errors) {
  const Bytes file = jpeg({8, 8, {{1}}}).bytes;
  auto out = decode("DecodeJpeg", file, {{"ratio", int64_t(3)}});
  EXPECT_EQ(out.status().message(),
            opError("DecodeJpeg", "ratio must be 1, 2, 4, or 8, got 3"));
  out = decode("DecodeJpeg", file, {{"dct_method", std::string("FLOAT")}});
  EXPECT_EQ(out.status().message(),
            opError("DecodeJpeg", "dct_method must be one of {'', "
                                  "'INTEGER_FAST', 'INTEGER_ACCURATE'}"));
  out = decode("DecodeJpeg", file, {{"channels", int64_t(4)}});
  EXPECT_EQ(out.status().message(),
            opError("DecodeJpeg", "JPEG does not support 4 channels"));
  out = decode("DecodeBmp", file);
  EXPECT_EQ(out.status().message(),
            opError("DecodeBmp", "Trying to decode JPEG format using DecodeBmp "
                                 "op. Use `decode_jpeg` or `decode_image` "
                                 "instead."));
  out = decode("DecodeJpeg", "\xff\xd8\xff\xe0 garbage");
  EXPECT_EQ(out.status().message(),
            opError("DecodeJpeg", "jpeg::Uncompress failed. Invalid JPEG data "
                                  "or crop window."));
}

//===----------------------------------------------------------------------===//
// EncodeJpeg, EncodeJpegVariableQuality
//===----------------------------------------------------------------------===//

/// The segments of a JPEG file up to its scan: marker -> payload (the
/// first of each marker).
std::map<int, Bytes> jpegSegments(const Bytes &file) {
  std::map<int, Bytes> out;
  size_t at = 2;
  while (at + 4 <= file.size() && uint8_t(file[at]) == 0xff) {
    const int marker = uint8_t(file[at + 1]);
    const size_t length = uint8_t(file[at + 2]) << 8 | uint8_t(file[at + 3]);
    out.emplace(marker, file.substr(at + 4, length - 2));
    if (marker == 0xda)
      break;
    at += 2 + length;
  }
  return out;
}

Tensor u8(TensorShape shape, const std::vector<int> &v) {
  return makeTensor<uint8_t>(std::move(shape),
                             std::vector<uint8_t>(v.begin(), v.end()));
}

TEST(EncodeJpeg, Markers) {
  const Tensor image = u8({8, 8, 3}, std::vector<int>(192, 90));
  auto out = runKernel("EncodeJpeg", {}, {image}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  Bytes file = scalarString(*out);
  ASSERT_EQ(file.substr(0, 2), "\xff\xd8");
  ASSERT_EQ(file.substr(file.size() - 2), "\xff\xd9");
  auto seg = jpegSegments(file);
  // JFIF APP0: density unit 1 (in), 300 x 300.
  ASSERT_TRUE(seg.count(0xe0));
  EXPECT_EQ(seg[0xe0].substr(0, 5), Bytes("JFIF\0", 5));
  EXPECT_EQ(seg[0xe0].substr(7), Bytes("\x01\x01\x2c\x01\x2c\0\0", 7));
  // Baseline, 3 components, luma 2x2 and chroma 1x1 (4:2:0).
  ASSERT_TRUE(seg.count(0xc0));
  EXPECT_EQ(seg[0xc0], Bytes("\x08\0\x08\0\x08\x03\x01\x22\0\x02\x11\x01"
                             "\x03\x11\x01",
                             15));
  // Quality 95: the standard table (K.1) * 10 / 100, rounded: 16 -> 2,
  // 11 -> 1, 12 -> 1, 14 -> 1 (zigzag order).
  ASSERT_TRUE(seg.count(0xdb));
  EXPECT_EQ(seg[0xdb].substr(0, 5), Bytes("\0\x02\x01\x01\x01", 5));

  out = runKernel("EncodeJpeg",
                  {{"quality", int64_t(50)},
                   {"progressive", true},
                   {"chroma_downsampling", false},
                   {"density_unit", std::string("cm")},
                   {"x_density", int64_t(72)},
                   {"y_density", int64_t(96)},
                   {"xmp_metadata", std::string("<x/>")}},
                  {image}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  file = scalarString(*out);
  seg = jpegSegments(file);
  EXPECT_EQ(seg[0xe0].substr(7), Bytes("\x02\0\x48\0\x60\0\0", 7));
  EXPECT_EQ(seg[0xe1], Bytes("http://ns.adobe.com/xap/1.0/\0<x/>", 33));
  // Progressive (SOF2), every component 1x1.
  EXPECT_FALSE(seg.count(0xc0));
  ASSERT_TRUE(seg.count(0xc2));
  EXPECT_EQ(seg[0xc2].substr(6),
            Bytes("\x01\x11\0\x02\x11\x01\x03\x11\x01", 9));
  // Quality 50: K.1 itself, zigzag 16 11 12 14 12 10.
  EXPECT_EQ(seg[0xdb].substr(0, 7), Bytes("\0\x10\x0b\x0c\x0e\x0c\x0a", 7));

  // Grayscale: one component; format checks the channels.
  out = runKernel("EncodeJpeg", {{"format", std::string("grayscale")}},
                  {u8({8, 8, 1}, std::vector<int>(64, 7))}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  seg = jpegSegments(scalarString(*out));
  EXPECT_EQ(seg[0xc0], Bytes("\x08\0\x08\0\x08\x01\x01\x11\0", 9));
}

TEST(EncodeJpeg, RoundTrip) {
  // Constant 8x8 blocks survive exactly at quality 100 (a DC coefficient
  // of 8 (v - 128), quantizer 1); gray RGB is Y = v, Cb = Cr = 128.
  std::vector<int> gray(16 * 8), rgb;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 16; ++x)
      gray[y * 16 + x] = x < 8 ? 33 : 222;
  for (int v : gray)
    rgb.insert(rgb.end(), {v, v, v});
  auto out = runKernel("EncodeJpeg", {{"quality", int64_t(100)}},
                       {u8({8, 16, 1}, gray)}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  auto back = decode("DecodeJpeg", scalarString(*out));
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<uint8_t>(*back, {8, 16, 1}, bytesOf(gray));
  out = runKernel("EncodeJpegVariableQuality", {},
                  {u8({8, 16, 3}, rgb), i32({}, {100})}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  back = decode("DecodeJpeg", scalarString(*out));
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<uint8_t>(*back, {8, 16, 3}, bytesOf(rgb));
  // Variable quality 50: K.1's table.
  out = runKernel("EncodeJpegVariableQuality", {},
                  {u8({8, 16, 1}, gray), i32({}, {50})}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(jpegSegments(scalarString(*out))[0xdb].substr(0, 3),
            Bytes("\0\x10\x0b", 3));
}

TEST(EncodeJpeg, Errors) {
  const Tensor image = u8({2, 2, 3}, std::vector<int>(12, 1));
  auto out = runKernel("EncodeJpeg", {{"format", std::string("grayscale")}},
                       {image}, DType::String);
  EXPECT_EQ(out.status().message(),
            opError("EncodeJpeg",
                    "format grayscale expects 1 channels, got [2,2,3]"));
  out = runKernel("EncodeJpeg", {}, {u8({2, 2, 2}, std::vector<int>(8, 0))},
                  DType::String);
  EXPECT_EQ(
      out.status().message(),
      opError("EncodeJpeg", "image must have 1 or 3 channels, got [2,2,2]"));
  out = runKernel("EncodeJpeg", {}, {u8({4, 3}, std::vector<int>(12, 0))},
                  DType::String);
  EXPECT_EQ(out.status().message(),
            opError("EncodeJpeg", "image must be 3-dimensional[4,3]"));
  out = runKernel("EncodeJpeg", {{"quality", int64_t(101)}}, {image},
                  DType::String);
  EXPECT_EQ(out.status().message(),
            opError("EncodeJpeg", "quality must be in [0,100], got 101"));
  out = runKernel("EncodeJpeg", {{"density_unit", std::string("mm")}}, {image},
                  DType::String);
  EXPECT_EQ(out.status().message(),
            opError("EncodeJpeg", "density_unit must be 'in' or 'cm'mm"));
  out = runKernel("EncodeJpeg", {{"format", std::string("rgba")}}, {image},
                  DType::String);
  EXPECT_EQ(
      out.status().message(),
      opError("EncodeJpeg", "format must be '', grayscale or rgb, got rgba"));
  // libjpeg's own failures: an empty image, XMP past a marker's 65533 bytes.
  out = runKernel("EncodeJpeg", {}, {u8({0, 2, 3}, {})}, DType::String);
  EXPECT_EQ(out.status().code(), StatusCode::kInternal);
  EXPECT_EQ(out.status().message(),
            opError("EncodeJpeg", "JPEG encoding failed"));
  out = runKernel("EncodeJpeg", {{"xmp_metadata", std::string(70000, 'x')}},
                  {image}, DType::String);
  EXPECT_EQ(out.status().message(),
            opError("EncodeJpeg", "JPEG encoding failed"));
  out = runKernel("EncodeJpegVariableQuality", {}, {image, i32({1}, {50})},
                  DType::String);
  EXPECT_EQ(out.status().message(), opError("EncodeJpegVariableQuality",
                                            "quality must be scalar: [1]"));
  out = runKernel("EncodeJpegVariableQuality", {}, {image, i32({}, {-1})},
                  DType::String);
  EXPECT_EQ(out.status().message(),
            opError("EncodeJpegVariableQuality",
                    "quality must be in [0,100], got -1"));
}

//===----------------------------------------------------------------------===//
// EncodePng
//===----------------------------------------------------------------------===//

TEST(EncodePng, RoundTripAndHeader) {
  const std::vector<int> px = {1, 2, 3, 4, 5, 6, 250, 251, 252, 0, 128, 255};
  auto out = runKernel("EncodePng", {{"T", DType::U8}}, {u8({2, 2, 3}, px)},
                       DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  Bytes file = scalarString(*out);
  // Signature, then IHDR: 2 x 2, 8 bits, color type 2, no interlace.
  EXPECT_EQ(file.substr(0, 8), "\x89PNG\r\n\x1a\n");
  EXPECT_EQ(file.substr(12, 4), "IHDR");
  EXPECT_EQ(file.substr(16, 13),
            Bytes("\0\0\0\x02\0\0\0\x02\x08\x02\0\0\0", 13));
  auto back = decode("DecodePng", file);
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<uint8_t>(*back, {2, 2, 3}, bytesOf(px));

  // uint16 gray + alpha, a batch of 2: [2] strings.
  const std::vector<uint16_t> wide = {0, 65535, 258, 1000, 7, 8, 9, 10};
  out = runKernel("EncodePng", {{"T", DType::U16}, {"compression", int64_t(9)}},
                  {makeTensor<uint16_t>({2, 1, 2, 2}, wide)}, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->shape(), TensorShape({2}));
  for (int i = 0; i < 2; ++i) {
    file = std::string(stringElements(*out)[i]);
    EXPECT_EQ(file.substr(16, 13),
              Bytes("\0\0\0\x02\0\0\0\x01\x10\x04\0\0\0", 13));
    back = decode("DecodePng", file, {{"dtype", DType::U16}}, DType::U16);
    ASSERT_TRUE(back.ok()) << back.status();
    expectValues<uint16_t>(
        *back, {1, 2, 2},
        std::vector<double>(wide.begin() + 4 * i, wide.begin() + 4 * i + 4));
  }
}

TEST(EncodePng, Errors) {
  auto out = runKernel("EncodePng", {{"T", DType::U8}},
                       {u8({1, 1, 5}, {1, 2, 3, 4, 5})}, DType::String);
  EXPECT_EQ(
      out.status().message(),
      opError("EncodePng", "image must have 1, 2, 3, or 4 channels, got 5"));
  out = runKernel("EncodePng", {{"T", DType::U8}}, {u8({2, 2}, {1, 2, 3, 4})},
                  DType::String);
  EXPECT_EQ(out.status().message(),
            opError("EncodePng", "images must be at least rank 3[2,2]"));
  out = runKernel("EncodePng", {{"T", DType::U8}, {"compression", int64_t(10)}},
                  {u8({1, 1, 1}, {1})}, DType::String);
  EXPECT_EQ(out.status().message(),
            opError("EncodePng", "compression should be in [-1,9], got 10"));
  // Empty images fail one by one.
  out = runKernel("EncodePng", {{"T", DType::U8}}, {u8({2, 0, 3, 1}, {})},
                  DType::String);
  EXPECT_EQ(out.status().code(), StatusCode::kInternal);
  EXPECT_EQ(out.status().message(),
            opError("EncodePng", "PNG encoding failed at the following "
                                 "flattened batch indices: 0, 1"));
  // No images: an empty batch.
  out = runKernel("EncodePng", {{"T", DType::U8}}, {u8({0, 2, 2, 1}, {})},
                  DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
}

} // namespace
