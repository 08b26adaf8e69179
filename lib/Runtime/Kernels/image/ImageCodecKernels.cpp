//===- ImageCodecKernels.cpp - JPEG, PNG, GIF and BMP codecs ----*- C++ -*-===//
//
// TensorFlow's image codec ops (tensorflow/core/kernels/image/
// decode_image_op.cc, encode_jpeg_op.cc, encode_png_op.cc and the libraries
// under tensorflow/core/lib/{jpeg,png,gif}) on the libraries TF uses,
// Debian's: libjpeg-turbo, libpng and giflib. Attributes, output shapes,
// dtypes and messages are TF's:
//
// - The six decoders share one kernel (TF's DecodeImageV2Op), which looks
//   at the data's magic bytes, not at the op: DecodeJpeg, DecodePng and
//   DecodeGif also decode the other two of JPEG, PNG and GIF, DecodeImage
//   all four formats, DecodeBmp BMP only, DecodeAndCropJpeg JPEG only.
//   Outputs are [height, width, channels] ([1, h, w, c] for DecodeGif on a
//   JPEG or PNG; GIFs give [frames, h, w, 3] from DecodeGif and from
//   DecodeImage with expand_animations, [h, w, 3] (the first frame) from
//   DecodeImage without it, and only single-frame GIFs decode with
//   DecodeJpeg or DecodePng). DecodePng and DecodeImage produce uint8 or
//   uint16 (DecodeImage also float): 16-bit PNGs keep their samples, 8-bit
//   ones become x * 257 as libpng synthesizes them; JPEG, GIF and BMP
//   samples become x * 256; float is uint8 / 255 or uint16 / 65535.
// - JPEG (jpeg_mem.cc): channels 0 (the file's, CMYK as RGB), 1 or 3;
//   ratio (1, 2, 4, 8), fancy_upscaling, try_recover_truncated (a fake EOI
//   at the end of the data), acceptable_fraction and dct_method (''
//   and INTEGER_FAST are libjpeg's IFAST, INTEGER_ACCURATE its ISLOW;
//   DecodeImage uses IFAST); DecodeAndCropJpeg decodes only the window
//   [y, x, height, width] of crop_window (jpeg_crop_scanline and
//   jpeg_skip_scanlines). Adobe CMYK/YCCK files become RGB by TF's formula.
// - PNG (png_io.cc): channels 0 (the file's; a palette with tRNS gives 4),
//   1 (RGB to gray with weights 0.299, 0.587), 3 or 4 (alpha added opaque
//   or from tRNS); interlaced files too.
// - GIF (gif_io.cc): frames are composed on a canvas the size of the
//   largest frame: each frame starts from the previous one (the first from
//   black) and draws its pixels but the transparent ones of its graphics
//   control extension.
// - BMP (decode_image_op.cc): uncompressed 8 (read as gray, the palette
//   ignored, as TF does), 24 and 32 bits per pixel, bottom-up or top-down;
//   the file must end with the last row.
// - EncodeJpeg (format, quality, progressive, optimize_size,
//   chroma_downsampling, density_unit, x_density, y_density, xmp_metadata)
//   and EncodeJpegVariableQuality (quality an input, the rest TF's
//   defaults): uint8 [h, w, 1 or 3] to a baseline or progressive JFIF file.
// - EncodePng (compression -1..9): uint8 or uint16 [..., h, w, 1..4], one
//   PNG per image of the leading dims, in parallel.
//
// Errors inside the libraries (corrupt or truncated data) end in TF's
// messages ("jpeg::Uncompress failed. Invalid JPEG data or crop window.",
// "Invalid PNG data, size N", "Invalid GIF data (size N), <giflib's
// reason>"); the libraries' own warnings and messages are not printed
// (TF logs them). libjpeg and libpng report fatal errors by longjmp: the
// functions that call them keep no C++ object with a destructor alive
// across the jump, and the kernels' C++ state lives in their callers.
//
// Deviations, each where TF reads or allocates outside its buffers or the
// library version decides: a GIF whose last frame is cut short gives the
// frames before it (giflib 5.2.2's DGifSlurp; TF with an older giflib
// shows the cut frame with undefined pixels); DecodeImage of a bottom-up
// BMP to uint16 or float (TF sizes its buffer with the negative height);
// a recovered truncated JPEG crop whose first line is missing is black
// (TF copies the line before its buffer). WebP and JPEG XL data, which TF
// decodes with libwebp and libjxl, are Unimplemented here; DecodeBmp of
// PNG data fails with TF's wrong-op message without decoding its header
// first (TF: "Invalid PNG ..." when the header is bad), so that DecodeBmp
// alone needs no libpng.
//
// The libraries are linked only into builds that keep one of these ops
// (lib/Runtime/Kernels/CMakeLists.txt reads the kernel manifest); every
// call into them is reached from an op's kernel only, so a selective build
// without those ops instantiates none of them.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

// png.h before setjmp.h (libpng includes it itself).
#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <gif_lib.h>
#include <jerror.h>
#include <jpeglib.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

/// The decoders, as TF's DecodeImageV2Op tells them apart by op type.
enum class DecodeOp { Jpeg, AndCropJpeg, Png, Gif, Bmp, Image };

constexpr const char *decodeOpName(DecodeOp op) {
  switch (op) {
  case DecodeOp::Jpeg:
    return "DecodeJpeg";
  case DecodeOp::AndCropJpeg:
    return "DecodeAndCropJpeg";
  case DecodeOp::Png:
    return "DecodePng";
  case DecodeOp::Gif:
    return "DecodeGif";
  case DecodeOp::Bmp:
    return "DecodeBmp";
  case DecodeOp::Image:
    return "DecodeImage";
  }
  return "";
}

enum class ImageFormat { Unknown, Png, Jpeg, Gif, Bmp, WebP, Jxl };

bool startsWith(std::string_view data, std::string_view prefix) {
  return data.substr(0, prefix.size()) == prefix;
}

/// TF's ClassifyFileFormat: the magic bytes, JPEG first.
ImageFormat classifyImage(std::string_view data) {
  using namespace std::string_view_literals;
  if (startsWith(data, "\xff\xd8\xff"sv))
    return ImageFormat::Jpeg;
  if (startsWith(data, "\x89PNG\r\n\x1a\n"sv))
    return ImageFormat::Png;
  if (startsWith(data, "GIF8"sv))
    return ImageFormat::Gif;
  if (startsWith(data, "BM"sv))
    return ImageFormat::Bmp;
  if (startsWith(data, "RIFF"sv) && data.size() > 12 &&
      startsWith(data.substr(8), "WEBP"sv))
    return ImageFormat::WebP;
  // JPEG XL: a bare codestream or the ISO BMFF container.
  if (startsWith(data, "\xff\x0a"sv) ||
      startsWith(data, "\0\0\0\x0cJXL \r\n\x87\n"sv))
    return ImageFormat::Jxl;
  return ImageFormat::Unknown;
}

/// Frees a malloc'ed buffer.
struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};

//===----------------------------------------------------------------------===//
// JPEG decoding (TF's jpeg_mem.cc and jpeg_handle.cc)
//===----------------------------------------------------------------------===//

/// A libjpeg error manager that jumps back instead of exiting, and prints
/// nothing.
struct JpegErrorManager {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
};

void jpegErrorExit(j_common_ptr cinfo) {
  std::longjmp(reinterpret_cast<JpegErrorManager *>(cinfo->err)->jump, 1);
}

void jpegQuiet(j_common_ptr) {}

/// Installs the error manager `err` on `cinfo`'s error field.
jpeg_error_mgr *jpegErrors(JpegErrorManager *err) {
  jpeg_error_mgr *pub = jpeg_std_error(&err->pub);
  pub->error_exit = jpegErrorExit;
  pub->output_message = jpegQuiet;
  return pub;
}

/// A memory source (TF's MemSourceMgr): truncated data ends in a fake EOI
/// when recovery is asked for, else in libjpeg's "file read" error.
struct JpegSource {
  jpeg_source_mgr pub;
  const JOCTET *data;
  size_t size;
  bool tryRecover;
};

const JOCTET kFakeEoi[2] = {0xff, JPEG_EOI};

void jpegInitSource(j_decompress_ptr cinfo) {
  auto *src = reinterpret_cast<JpegSource *>(cinfo->src);
  src->pub.next_input_byte = src->data;
  src->pub.bytes_in_buffer = src->size;
}

boolean jpegFillInput(j_decompress_ptr cinfo) {
  auto *src = reinterpret_cast<JpegSource *>(cinfo->src);
  if (src->pub.bytes_in_buffer == 0 && src->pub.next_input_byte == src->data) {
    ERREXIT(cinfo, JERR_INPUT_EMPTY);
    return FALSE;
  }
  if (src->pub.bytes_in_buffer)
    return src->tryRecover ? TRUE : FALSE;
  const bool fakeEoiRead = src->pub.next_input_byte >= kFakeEoi &&
                           src->pub.next_input_byte <= kFakeEoi + 2;
  if (!fakeEoiRead && src->tryRecover) {
    WARNMS(cinfo, JWRN_JPEG_EOF);
    src->pub.next_input_byte = kFakeEoi;
    src->pub.bytes_in_buffer = 2;
    return TRUE;
  }
  ERREXIT(cinfo, JERR_FILE_READ);
  return FALSE;
}

void jpegSkipInput(j_decompress_ptr cinfo, long count) {
  auto *src = reinterpret_cast<JpegSource *>(cinfo->src);
  if (count < 0)
    return;
  if (static_cast<size_t>(count) > src->pub.bytes_in_buffer) {
    src->pub.bytes_in_buffer = 0;
    (void)jpegFillInput(cinfo);
  } else {
    src->pub.bytes_in_buffer -= count;
    src->pub.next_input_byte += count;
  }
}

void jpegTermSource(j_decompress_ptr) {}

/// Allocates the decoded image of `width` x `height` x `channels` bytes
/// (row-major, no padding) for a decoder, or returns null after recording
/// why (`opaque` is the caller's).
using AllocatePixels = uint8_t *(*)(void *opaque, int64_t frames,
                                    int64_t height, int64_t width,
                                    int64_t channels);

/// One JPEG decode (TF's UncompressFlags and FewerArgsForCompiler): the
/// options, the output callback and what the decoder read.
struct JpegDecode {
  const uint8_t *data = nullptr;
  size_t size = 0;
  int ratio = 1;
  int components = 0;
  bool fancyUpscaling = true;
  bool tryRecoverTruncated = false;
  float minAcceptableFraction = 1.0f;
  J_DCT_METHOD dctMethod = JDCT_IFAST;
  bool crop = false;
  int cropX = 0, cropY = 0, cropWidth = 0, cropHeight = 0;
  AllocatePixels allocate = nullptr;
  void *opaque = nullptr;
  // Set by the decoder.
  int height = 0;
  int heightRead = 0;
  int64_t stride = 0;
};

/// TF's UncompressLow: decodes `d` into the buffer `d->allocate` returns;
/// null on any error. Plain C state only: libjpeg may longjmp out of any
/// call below.
uint8_t *jpegDecodeLow(JpegDecode *d) {
  jpeg_decompress_struct cinfo;
  JpegErrorManager jerr;
  JpegSource src;
  cinfo.err = jpegErrors(&jerr);
  if (setjmp(jerr.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return nullptr;
  }
  jpeg_create_decompress(&cinfo);
  src.pub.init_source = jpegInitSource;
  src.pub.fill_input_buffer = jpegFillInput;
  src.pub.skip_input_data = jpegSkipInput;
  src.pub.resync_to_restart = jpeg_resync_to_restart;
  src.pub.term_source = jpegTermSource;
  src.pub.bytes_in_buffer = 0;
  src.pub.next_input_byte = nullptr;
  src.data = d->data;
  src.size = d->size;
  src.tryRecover = d->tryRecoverTruncated;
  cinfo.src = &src.pub;
  jpeg_read_header(&cinfo, TRUE);

  // Autodetected channels: CMYK becomes RGB.
  const int components =
      d->components == 0 ? std::min(cinfo.num_components, 3) : d->components;
  switch (components) {
  case 1:
    cinfo.out_color_space = JCS_GRAYSCALE;
    break;
  case 3:
    cinfo.out_color_space =
        cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK
            ? JCS_CMYK
            : JCS_RGB;
    break;
  default:
    jpeg_destroy_decompress(&cinfo);
    return nullptr;
  }
  cinfo.do_fancy_upsampling = d->fancyUpscaling ? TRUE : FALSE;
  cinfo.scale_num = 1;
  cinfo.scale_denom = d->ratio;
  cinfo.dct_method = d->dctMethod;
  jpeg_calc_output_dimensions(&cinfo);
  const int64_t totalSize =
      int64_t(cinfo.output_height) * cinfo.output_width * cinfo.num_components;
  if (cinfo.output_width == 0 || cinfo.output_height == 0 ||
      totalSize >= (int64_t(1) << 29)) {
    jpeg_destroy_decompress(&cinfo);
    return nullptr;
  }
  jpeg_start_decompress(&cinfo);

  JDIMENSION targetWidth = cinfo.output_width;
  JDIMENSION targetHeight = cinfo.output_height;
  JDIMENSION skipped = 0;
  if (d->crop) {
    targetHeight = d->cropHeight;
    targetWidth = d->cropWidth;
    // The window must lie within the (scaled) image.
    if (!(d->cropWidth > 0 && d->cropHeight > 0 && d->cropX >= 0 &&
          d->cropY >= 0 &&
          int64_t(d->cropY) + d->cropHeight <= cinfo.output_height &&
          int64_t(d->cropX) + d->cropWidth <= cinfo.output_width)) {
      jpeg_destroy_decompress(&cinfo);
      return nullptr;
    }
    // libjpeg moves the left edge to an iMCU boundary and widens the
    // window: the rows are realigned below.
    JDIMENSION cropX = d->cropX, cropWidth = d->cropWidth;
    jpeg_crop_scanline(&cinfo, &cropX, &cropWidth);
    skipped = jpeg_skip_scanlines(&cinfo, d->cropY);
    if (skipped != JDIMENSION(d->cropY)) {
      jpeg_destroy_decompress(&cinfo);
      return nullptr;
    }
  }

  const int64_t minStride = int64_t(targetWidth) * components;
  d->height = static_cast<int>(targetHeight);
  d->stride = minStride;
  uint8_t *dst =
      d->allocate(d->opaque, 1, targetHeight, targetWidth, components);
  if (!dst) {
    jpeg_destroy_decompress(&cinfo);
    return nullptr;
  }
  JSAMPLE *line = dst;
  const bool realign = targetWidth != cinfo.output_width;
  const bool cmyk = cinfo.out_color_space == JCS_CMYK;
  // A row in libjpeg's layout when it is not the output's (freed with the
  // image pool by jpeg_finish_decompress, jpeg_abort or the destroy).
  JSAMPROW temp = nullptr;
  if (cmyk || realign)
    temp = (*cinfo.mem->alloc_sarray)(
        reinterpret_cast<j_common_ptr>(&cinfo), JPOOL_IMAGE,
        cinfo.output_width * (cmyk ? 4 : components), 1)[0];
  d->heightRead = static_cast<int>(targetHeight);
  bool endedEarly = false;
  const JDIMENSION lastLine = skipped + targetHeight;
  const int64_t alignOffset =
      int64_t(cinfo.output_width - targetWidth) * (cmyk ? 4 : components);
  while (cinfo.output_scanline < lastLine) {
    JDIMENSION read = 0;
    if (cmyk) {
      read = jpeg_read_scanlines(&cinfo, &temp, 1);
      if (read > 0) {
        const bool adobe = cinfo.saw_Adobe_marker;
        for (JDIMENSION i = 0; i < targetWidth; ++i) {
          const JSAMPLE *p =
              temp + 4 * int64_t(i) + (realign ? alignOffset : 0);
          const int c = p[0], m = p[1], y = p[2], k = p[3];
          JSAMPLE *o = line + 3 * int64_t(i);
          if (adobe) {
            o[0] = static_cast<JSAMPLE>(k * c / 255);
            o[1] = static_cast<JSAMPLE>(k * m / 255);
            o[2] = static_cast<JSAMPLE>(k * y / 255);
          } else {
            o[0] = static_cast<JSAMPLE>((255 - k) * (255 - c) / 255);
            o[1] = static_cast<JSAMPLE>((255 - k) * (255 - m) / 255);
            o[2] = static_cast<JSAMPLE>((255 - k) * (255 - y) / 255);
          }
        }
      }
    } else if (realign) {
      read = jpeg_read_scanlines(&cinfo, &temp, 1);
      if (read > 0)
        std::memcpy(line, temp + alignOffset, minStride);
    } else {
      read = jpeg_read_scanlines(&cinfo, &line, 1);
    }
    if (read == 0) {
      // The source suspended: the data ended early.
      if (!d->tryRecoverTruncated) {
        d->heightRead = static_cast<int>(cinfo.output_scanline - skipped);
        endedEarly = true;
      } else {
        // Missing lines repeat the last line read (black for the first).
        for (JDIMENSION l = cinfo.output_scanline; l < lastLine; ++l) {
          if (line == dst)
            std::memset(line, 0, minStride);
          else
            std::memcpy(line, line - d->stride, minStride);
          line += d->stride;
        }
        cinfo.output_scanline = lastLine;
      }
      break;
    }
    line += d->stride;
  }
  if (d->crop && cinfo.output_scanline < cinfo.output_height)
    jpeg_skip_scanlines(&cinfo, cinfo.output_height - d->cropY - d->cropHeight);
  if (endedEarly)
    jpeg_abort(reinterpret_cast<j_common_ptr>(&cinfo));
  else
    jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return dst;
}

/// TF's jpeg::Uncompress: the image, or null when decoding failed or read
/// less than the acceptable fraction of its lines; lines not read are
/// black.
uint8_t *jpegDecode(JpegDecode *d) {
  uint8_t *dst = jpegDecodeLow(d);
  const float fraction =
      d->height == 0 ? 1.0f : static_cast<float>(d->heightRead) / d->height;
  if (!dst || fraction < std::min(1.0f, d->minAcceptableFraction))
    return nullptr;
  if (d->heightRead != d->height)
    std::memset(dst + d->heightRead * d->stride, 0,
                (d->height - d->heightRead) * d->stride);
  return dst;
}

//===----------------------------------------------------------------------===//
// PNG decoding (TF's png_io.cc)
//===----------------------------------------------------------------------===//

/// TF's png::DecodeContext.
struct PngDecode {
  const uint8_t *data = nullptr;
  size_t left = 0;
  png_structp png = nullptr;
  png_infop info = nullptr;
  png_uint_32 width = 0, height = 0;
  int bitDepth = 0;
  int colorType = 0;
  int channels = 0;
  int passes = 0;
  bool synthesize16 = false;
  bool error = false;
};

void pngError(png_structp png, png_const_charp) {
  static_cast<PngDecode *>(png_get_error_ptr(png))->error = true;
  png_longjmp(png, 1);
}

void pngWarning(png_structp, png_const_charp) {}

void pngRead(png_structp png, png_bytep out, png_size_t length) {
  auto *d = static_cast<PngDecode *>(png_get_io_ptr(png));
  if (d->left < length)
    png_error(png, "More bytes requested to read than available");
  std::memcpy(out, d->data, length);
  d->data += length;
  d->left -= length;
}

void pngFreeDecode(PngDecode *d) {
  if (d->png) {
    png_destroy_read_struct(&d->png, d->info ? &d->info : nullptr, nullptr);
    d->png = nullptr;
    d->info = nullptr;
  }
}

/// TF's png::CommonInitDecode: reads the header of `input` and sets up the
/// transforms to `channels` (0: the file's) of `bits` (8 or 16) bits.
bool pngInitDecode(std::string_view input, int channels, int bits,
                   PngDecode *d) {
  d->error = false;
  d->channels = channels;
  d->png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, d, pngError, pngWarning);
  if (!d->png)
    return false;
  if (setjmp(png_jmpbuf(d->png))) {
    pngFreeDecode(d);
    return false;
  }
  d->info = png_create_info_struct(d->png);
  if (!d->info || d->error) {
    pngFreeDecode(d);
    return false;
  }
  d->data = reinterpret_cast<const uint8_t *>(input.data());
  d->left = input.size();
  png_set_read_fn(d->png, d, pngRead);
  png_read_info(d->png, d->info);
  png_get_IHDR(d->png, d->info, &d->width, &d->height, &d->bitDepth,
               &d->colorType, nullptr, nullptr, nullptr);
  if (d->error || d->width <= 0 || d->height <= 0) {
    pngFreeDecode(d);
    return false;
  }
  const bool hasTrns = png_get_valid(d->png, d->info, PNG_INFO_tRNS) != 0;
  if (d->channels == 0) {
    if (d->colorType == PNG_COLOR_TYPE_PALETTE)
      d->channels = hasTrns ? 4 : 3;
    else
      d->channels = png_get_channels(d->png, d->info);
  }
  const bool hasAlpha = (d->colorType & PNG_COLOR_MASK_ALPHA) != 0;
  if ((d->channels & 1) == 0) {
    // Alpha wanted: from tRNS, or opaque.
    if (!hasAlpha) {
      if (hasTrns)
        png_set_tRNS_to_alpha(d->png);
      else
        png_set_add_alpha(d->png, (1 << d->bitDepth) - 1, PNG_FILLER_AFTER);
    }
  } else if (hasAlpha || hasTrns) {
    png_set_strip_alpha(d->png);
  }
  if (d->bitDepth > 8 && bits <= 8)
    png_set_strip_16(d->png);
  d->synthesize16 = d->bitDepth <= 8 && bits == 16;
  png_set_packing(d->png);
  d->passes = png_set_interlace_handling(d->png);
  // Samples in the host's order (libpng's are big-endian).
  if (bits > 8 && kLittleEndian)
    png_set_swap(d->png);
  if (d->colorType == PNG_COLOR_TYPE_PALETTE)
    png_set_palette_to_rgb(d->png);
  const bool wantGray = d->channels < 3;
  const bool isGray = !(d->colorType & PNG_COLOR_MASK_COLOR);
  if (isGray && d->bitDepth < 8)
    png_set_expand_gray_1_2_4_to_8(d->png);
  if (wantGray) {
    if (!isGray)
      png_set_rgb_to_gray(d->png, 1, 0.299, 0.587);
  } else if (isGray) {
    png_set_gray_to_rgb(d->png);
  }
  png_read_update_info(d->png, d->info);
  return true;
}

/// TF's png::CommonFinishDecode: reads the rows into `data`, `rowBytes`
/// apart; 8-bit samples asked for as 16 bits become x * 257.
bool pngFinishDecode(uint8_t *data, int64_t rowBytes, PngDecode *d) {
  if (setjmp(png_jmpbuf(d->png))) {
    pngFreeDecode(d);
    return false;
  }
  for (int pass = 0; pass < d->passes; ++pass) {
    png_bytep row = data;
    for (png_uint_32 h = 0; h < d->height; ++h, row += rowBytes)
      png_read_row(d->png, row, nullptr);
  }
  png_read_end(d->png, d->info);
  const bool ok = !d->error;
  pngFreeDecode(d);
  if (d->synthesize16) {
    const int64_t samples = int64_t(d->width) * d->channels;
    for (png_uint_32 h = 0; h < d->height; ++h) {
      uint8_t *row = data + h * rowBytes;
      // Backwards: each 8-bit sample's 16-bit slot is at or after it.
      for (int64_t i = samples; i-- > 0;) {
        const uint16_t v = static_cast<uint16_t>(row[i] * 257);
        std::memcpy(row + 2 * i, &v, 2);
      }
    }
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// GIF decoding (TF's gif_io.cc)
//===----------------------------------------------------------------------===//

struct GifInput {
  const uint8_t *data;
  int left;
};

int gifRead(GifFileType *gif, GifByteType *out, int size) {
  auto *in = static_cast<GifInput *>(gif->UserData);
  if (!in)
    return 0;
  size = std::min(size, in->left);
  std::memcpy(out, in->data, size);
  in->data += size;
  in->left -= size;
  return size;
}

const char *gifErrorString(int code) {
  const char *s = GifErrorString(code);
  return s ? s : "Unknown error";
}

/// One frame as DGifSlurp keeps it: its rectangle, its color map (null:
/// the global one), the transparent index of its graphics control
/// extension (-1: none) and its color indices.
struct GifFrame {
  int left = 0, top = 0, width = 0, height = 0;
  std::vector<GifColorType> colors;
  bool localColors = false;
  int transparent = -1;
  std::unique_ptr<uint8_t[], FreeDeleter> raster;
};

/// Reads every frame of `gif` as giflib 5.2.2's DGifSlurp does, a frame
/// that fails to decode dropped; returns false with the giflib error code
/// in `*error` when reading stopped before the terminator.
bool gifSlurp(GifFileType *gif, std::vector<GifFrame> *frames, int *error) {
  int transparent = -1;
  bool sawControl = false;
  for (;;) {
    GifRecordType type;
    if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
      *error = gif->Error;
      return false;
    }
    if (type == TERMINATE_RECORD_TYPE)
      break;
    if (type == EXTENSION_RECORD_TYPE) {
      int code = 0;
      GifByteType *block = nullptr;
      if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
        *error = gif->Error;
        return false;
      }
      // DGifSavedExtensionToGCB: the first graphics control block of the
      // frame decides (4 bytes: flags, delay, transparent index).
      if (block && code == GRAPHICS_EXT_FUNC_CODE && !sawControl) {
        sawControl = true;
        transparent = block[0] == 4 && (block[1] & 1) ? block[4] : -1;
      }
      while (block) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) {
          *error = gif->Error;
          return false;
        }
      }
      continue;
    }
    // An image.
    if (DGifGetImageDesc(gif) == GIF_ERROR) {
      *error = gif->Error;
      return false;
    }
    const GifImageDesc &desc = gif->Image;
    if (desc.Width <= 0 || desc.Height <= 0 ||
        desc.Width > INT_MAX / desc.Height) {
      *error = gif->Error;
      return false;
    }
    GifFrame frame;
    frame.left = desc.Left;
    frame.top = desc.Top;
    frame.width = desc.Width;
    frame.height = desc.Height;
    if (desc.ColorMap) {
      frame.localColors = true;
      frame.colors.assign(desc.ColorMap->Colors,
                          desc.ColorMap->Colors + desc.ColorMap->ColorCount);
    }
    frame.transparent = transparent;
    transparent = -1;
    sawControl = false;
    const size_t pixels = size_t(desc.Width) * desc.Height;
    // calloc: zero pages until written, however large the header says.
    if (checkHostAllocation(pixels, 1).ok())
      frame.raster.reset(static_cast<uint8_t *>(std::calloc(pixels, 1)));
    if (!frame.raster) {
      *error = D_GIF_ERR_NOT_ENOUGH_MEM;
      return false;
    }
    uint8_t *raster = frame.raster.get();
    if (desc.Interlace) {
      static const int kOffsets[] = {0, 4, 2, 1};
      static const int kJumps[] = {8, 8, 4, 2};
      for (int pass = 0; pass < 4; ++pass)
        for (int row = kOffsets[pass]; row < desc.Height; row += kJumps[pass])
          if (DGifGetLine(gif, raster + int64_t(row) * desc.Width,
                          desc.Width) == GIF_ERROR) {
            *error = gif->Error;
            return false;
          }
    } else if (DGifGetLine(gif, raster, static_cast<int>(pixels)) ==
               GIF_ERROR) {
      *error = gif->Error;
      return false;
    }
    frames->push_back(std::move(frame));
  }
  if (frames->empty()) {
    *error = D_GIF_ERR_NO_IMAG_DSCR;
    return false;
  }
  return true;
}

/// TF's gif::Decode: the frames of `input` composed on a canvas the size
/// of the largest frame, all of them or the first (`expandAnimations`),
/// into the buffer `allocate` returns; null with `*message` set (empty
/// when the allocation failed).
uint8_t *gifDecode(std::string_view input, AllocatePixels allocate,
                   void *opaque, bool expandAnimations, std::string *message) {
  GifInput in{reinterpret_cast<const uint8_t *>(input.data()),
              static_cast<int>(input.size())};
  int error = D_GIF_SUCCEEDED;
  GifFileType *gif = DGifOpen(&in, gifRead, &error);
  struct Closer {
    GifFileType *gif;
    ~Closer() {
      int ignored = 0;
      if (gif)
        DGifCloseFile(gif, &ignored);
    }
  } closer{gif};
  if (!gif || error != D_GIF_SUCCEEDED) {
    *message = strCat("failed to open gif file: ", gifErrorString(error));
    return nullptr;
  }
  std::vector<GifFrame> frames;
  if (!gifSlurp(gif, &frames, &error)) {
    *message = strCat("failed to slurp gif file: ", gifErrorString(error));
    // The frames read before the failure are kept (TF logs the error).
    if (frames.empty())
      return nullptr;
  }
  int width = 0, height = 0;
  for (const GifFrame &f : frames) {
    width = std::max(width, f.width);
    height = std::max(height, f.height);
  }
  const int64_t count = expandAnimations ? int64_t(frames.size()) : 1;
  const int channels = 3;
  uint8_t *dst = allocate(opaque, count, height, width, channels);
  if (!dst) {
    message->clear();
    return nullptr;
  }
  const int64_t frameBytes = int64_t(width) * height * channels;
  const ColorMapObject *global = gif->SColorMap;
  for (int64_t k = 0; k < count; ++k) {
    const GifFrame &f = frames[k];
    uint8_t *canvas = dst + k * frameBytes;
    if (k > 0)
      std::memcpy(canvas, canvas - frameBytes, frameBytes);
    int left = f.left, top = f.top;
    int right = f.left + f.width, bottom = f.top + f.height;
    if (f.left != 0 || f.top != 0 || f.width != width || f.height != height) {
      if (k == 0)
        std::memset(canvas, 0, frameBytes);
      left = std::max(left, 0);
      top = std::max(top, 0);
      right = std::min(right, width);
      bottom = std::min(bottom, height);
    }
    const GifColorType *colors = nullptr;
    int colorCount = 0;
    if (f.localColors) {
      colors = f.colors.data();
      colorCount = static_cast<int>(f.colors.size());
    } else if (global) {
      colors = global->Colors;
      colorCount = global->ColorCount;
    } else {
      *message = strCat("missing color map for frame ", k);
      return nullptr;
    }
    for (int64_t i = top; i < bottom; ++i) {
      uint8_t *row = canvas + i * width * channels;
      const uint8_t *src = f.raster.get() + (i - f.top) * f.width;
      for (int64_t j = left; j < right; ++j) {
        const int index = src[j - f.left];
        if (index == f.transparent) {
          // The previous frame shows through (black under the first).
          if (k == 0)
            row[j * 3] = row[j * 3 + 1] = row[j * 3 + 2] = 0;
          continue;
        }
        if (index >= colorCount) {
          *message = strCat("found color index ", index,
                            " outside of color map range ", colorCount);
          return nullptr;
        }
        row[j * 3] = colors[index].Red;
        row[j * 3 + 1] = colors[index].Green;
        row[j * 3 + 2] = colors[index].Blue;
      }
    }
  }
  return dst;
}

//===----------------------------------------------------------------------===//
// The decoders' kernel (TF's DecodeImageV2Op)
//===----------------------------------------------------------------------===//

/// Where a decoder's uint8 pixels go: the output itself for a uint8 op,
/// else a buffer converted afterwards with TF's scales (x 256 to uint16,
/// x 1/255 to float).
struct PixelSink {
  PixelSink(OpKernelContextInterface *ctx, DType dtype)
      : ctx(ctx), dtype(dtype) {}

  OpKernelContextInterface *ctx;
  DType dtype;
  /// Whether a GIF's frames dim is kept (`frames` decides otherwise).
  bool fourD = false;
  /// Whether more than one frame is an error (TF's 3-D ops on
  /// animations).
  bool framesMustBeOne = false;
  Status status;
  Tensor *out = nullptr;
  std::unique_ptr<uint8_t[]> buffer;

  static uint8_t *allocate(void *opaque, int64_t frames, int64_t height,
                           int64_t width, int64_t channels) {
    auto *sink = static_cast<PixelSink *>(opaque);
    return sink->allocateImpl(frames, height, width, channels);
  }

  uint8_t *allocateImpl(int64_t frames, int64_t height, int64_t width,
                        int64_t channels) {
    if (framesMustBeOne && frames != 1) {
      status = InvalidArgumentError(
          strCat("Got ", frames,
                 " frames, but animated gifs can only be decoded by "
                 "tf.io.decode_gif or tf.io.decode_image"));
      return nullptr;
    }
    StatusOr<TensorShape> shape =
        fourD ? TensorShape::create({frames, height, width, channels})
              : TensorShape::create({height, width, channels});
    if (!shape.ok()) {
      status = shape.status();
      return nullptr;
    }
    if (Status s = ctx->allocateOutput(0, *shape, &out); !s.ok()) {
      status = s;
      return nullptr;
    }
    if (dtype == DType::U8)
      return out->data<uint8_t>();
    const int64_t n = out->numElements();
    if (Status s = checkHostAllocation(n, 1); !s.ok()) {
      status = s;
      return nullptr;
    }
    buffer.reset(new uint8_t[n]);
    return buffer.get();
  }

  /// Converts the buffer into the output (uint16 or float).
  void finish() {
    if (dtype == DType::U8 || !out)
      return;
    const int64_t n = out->numElements();
    const uint8_t *src = buffer.get();
    if (dtype == DType::U16) {
      uint16_t *dst = out->data<uint16_t>();
      for (int64_t i = 0; i < n; ++i)
        dst[i] = static_cast<uint16_t>(src[i] * 256);
    } else {
      const float scale = static_cast<float>(1.0 / 255);
      float *dst = out->data<float>();
      for (int64_t i = 0; i < n; ++i)
        dst[i] = static_cast<float>(src[i]) * scale;
    }
  }
};

/// DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeGif, DecodeBmp and
/// DecodeImage (one instantiation each, so that DecodeBmp alone reaches
/// no codec library): see the top of the file.
template <DecodeOp Op> class DecodeImageKernel final : public OpKernel {
  static constexpr bool kJpegAttrs =
      Op == DecodeOp::Jpeg || Op == DecodeOp::AndCropJpeg;

public:
  explicit DecodeImageKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    if constexpr (kJpegAttrs) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "ratio", &ratio_));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ratio_ == 1 || ratio_ == 2 || ratio_ == 4 || ratio_ == 8,
          errorf("ratio must be 1, 2, 4, or 8, got %d", ratio_));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "fancy_upscaling", &fancyUpscaling_));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "try_recover_truncated", &tryRecover_));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx,
          getOptionalAttr(ctx, "acceptable_fraction", &acceptableFraction_));
      std::string dct;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   getOptionalAttr(ctx, "dct_method", &dct));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          dct.empty() || dct == "INTEGER_FAST" || dct == "INTEGER_ACCURATE",
          errorf("dct_method must be one of {'', 'INTEGER_FAST', "
                 "'INTEGER_ACCURATE'}"));
      // TF's default is IFAST: speed over quality.
      accurateDct_ = dct == "INTEGER_ACCURATE";
    }
    if constexpr (Op == DecodeOp::Png || Op == DecodeOp::Image)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "dtype", &dtype_));
    if constexpr (Op == DecodeOp::Image)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "expand_animations", &expandAnimations_));
    if constexpr (Op == DecodeOp::Gif) {
      channels_ = 3;
    } else {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "channels", &channels_));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          channels_ == 0 || channels_ == 1 || channels_ == 3 || channels_ == 4,
          errorf("`channels` must be 0, 1, 3 or 4 but got %d", channels_));
    }
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &contents = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, contents.shape().isScalar(),
        errorf("`contents` must be scalar but got shape%s",
               contents.shape().toString()));
    const std::string_view input = stringElements(contents)[0];
    TFRT_FALLBACK_OP_REQUIRES(ctx, !input.empty(), errorf("Input is empty."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.size() <= size_t(std::numeric_limits<int>::max()),
        errorf("Input contents are too large for int: %d", input.size()));
    switch (classifyImage(input)) {
    case ImageFormat::Jpeg:
      return decodeJpeg(ctx, input);
    case ImageFormat::Png:
      return decodePng(ctx, input);
    case ImageFormat::Gif:
      return decodeGif(ctx, input);
    case ImageFormat::Bmp:
      return decodeBmp(ctx, input);
    case ImageFormat::WebP:
    case ImageFormat::Jxl:
      return ctx->ctxFailure(makeOpError(
          StatusCode::kUnimplemented, opName(), nodeName(),
          "WebP and JPEG XL images are not supported (TF decodes them with "
          "libwebp and libjxl)"));
    case ImageFormat::Unknown:
      break;
    }
    ctx->ctxFailure(errorf("Unknown image file format. One of JPEG, JPEG XL, "
                           "PNG, GIF, BMP, WebP required."));
  }

private:
  void decodeJpeg(OpKernelContextInterface *ctx, std::string_view input) {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, channels_ == 0 || channels_ == 1 || channels_ == 3,
        errorf("JPEG does not support 4 channels"));
    if constexpr (Op == DecodeOp::Bmp) {
      ctx->ctxFailure(errorf("Trying to decode JPEG format using DecodeBmp "
                             "op. Use `decode_jpeg` or `decode_image` "
                             "instead."));
    } else {
      JpegDecode d;
      d.data = reinterpret_cast<const uint8_t *>(input.data());
      d.size = input.size();
      d.components = channels_;
      if constexpr (kJpegAttrs) {
        d.ratio = ratio_;
        d.fancyUpscaling = fancyUpscaling_;
        d.tryRecoverTruncated = tryRecover_;
        d.minAcceptableFraction = acceptableFraction_;
        d.dctMethod = accurateDct_ ? JDCT_ISLOW : JDCT_IFAST;
      }
      if constexpr (Op == DecodeOp::AndCropJpeg) {
        const Tensor &window = ctx->input(1);
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, window.rank() == 1,
            errorf("crop_window must be 1-D, got shape %s",
                   window.shape().toString()));
        TFRT_FALLBACK_OP_REQUIRES(ctx, window.dim(0) == 4,
                                  errorf("crop_size must have four elements %s",
                                         window.shape().toString()));
        const int32_t *w = window.data<int32_t>();
        d.crop = true;
        d.cropY = w[0];
        d.cropX = w[1];
        d.cropHeight = w[2];
        d.cropWidth = w[3];
      }
      PixelSink sink(ctx, dtype_);
      sink.fourD = Op == DecodeOp::Gif;
      d.allocate = PixelSink::allocate;
      d.opaque = &sink;
      const uint8_t *pixels = jpegDecode(&d);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, sink.status);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, pixels,
          errorf("jpeg::Uncompress failed. Invalid JPEG data or crop window."));
      sink.finish();
    }
  }

  void decodePng(OpKernelContextInterface *ctx, std::string_view input) {
    if constexpr (Op == DecodeOp::Bmp) {
      ctx->ctxFailure(errorf("Trying to decode PNG format using DecodeBmp op. "
                             "Use `decode_png` or `decode_image` instead."));
    } else {
      const int bits = dtype_ == DType::U8 ? 8 : 16;
      PngDecode d;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, pngInitDecode(input, channels_, bits, &d),
          errorf("Invalid PNG. Failed to initialize decoder."));
      struct Freer {
        PngDecode *d;
        ~Freer() { pngFreeDecode(d); }
      } freer{&d};
      const int64_t width = d.width, height = d.height;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          width < (int64_t(1) << 27) && height < (int64_t(1) << 27) &&
              width * height < (int64_t(1) << 29),
          errorf("PNG size too large for int: %d by %d", width, height));
      StatusOr<TensorShape> shape =
          Op == DecodeOp::Gif
              ? TensorShape::create({1, height, width, d.channels})
              : TensorShape::create({height, width, d.channels});
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *shape, &out));
      if constexpr (Op == DecodeOp::AndCropJpeg) {
        ctx->ctxFailure(errorf("DecodeAndCropJpeg operation can run on JPEG "
                               "only, but detected PNG."));
      } else {
        const int64_t rowSamples = width * d.channels;
        if (dtype_ == DType::U8) {
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, pngFinishDecode(out->data<uint8_t>(), rowSamples, &d),
              errorf("Invalid PNG data, size %d", input.size()));
        } else if (dtype_ == DType::U16) {
          TFRT_FALLBACK_OP_REQUIRES(
              ctx,
              pngFinishDecode(
                  reinterpret_cast<uint8_t *>(out->data<uint16_t>()),
                  rowSamples * 2, &d),
              errorf("Invalid PNG data, size %d", input.size()));
        } else {
          // Float: decoded losslessly at 16 bits, then / 65535.
          const int64_t n = out->numElements();
          TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkHostAllocation(n, 2));
          std::unique_ptr<uint16_t[]> buffer(new uint16_t[n]);
          TFRT_FALLBACK_OP_REQUIRES(
              ctx,
              pngFinishDecode(reinterpret_cast<uint8_t *>(buffer.get()),
                              rowSamples * 2, &d),
              errorf("Invalid PNG data, size %d", input.size()));
          const float scale = static_cast<float>(1.0 / 65535);
          float *dst = out->data<float>();
          for (int64_t i = 0; i < n; ++i)
            dst[i] = static_cast<float>(buffer[i]) * scale;
        }
      }
    }
  }

  void decodeGif(OpKernelContextInterface *ctx, std::string_view input) {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, channels_ == 0 || channels_ == 3,
        errorf("channels must be 0 or 3 for GIF, got %d", channels_));
    if constexpr (Op == DecodeOp::Bmp) {
      ctx->ctxFailure(errorf("Trying to decode GIF format using DecodeBmp op. "
                             "Use `decode_gif` or `decode_image` instead."));
    } else if constexpr (Op == DecodeOp::AndCropJpeg) {
      ctx->ctxFailure(errorf("DecodeAndCropJpeg operation can run on JPEG "
                             "only, but detected GIF."));
    } else {
      PixelSink sink(ctx, dtype_);
      sink.fourD =
          Op == DecodeOp::Gif || (Op == DecodeOp::Image && expandAnimations_);
      sink.framesMustBeOne = Op == DecodeOp::Png || Op == DecodeOp::Jpeg;
      std::string message;
      const uint8_t *pixels = gifDecode(input, PixelSink::allocate, &sink,
                                        expandAnimations_, &message);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, sink.status);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, pixels,
          errorf("Invalid GIF data (size %d), %s", input.size(), message));
      sink.finish();
    }
  }

  void decodeBmp(OpKernelContextInterface *ctx, std::string_view input) {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, channels_ != 1,
        errorf("`channels` must be 0, 3 or 4 for BMP, but got %d", channels_));
    if constexpr (Op == DecodeOp::AndCropJpeg) {
      ctx->ctxFailure(errorf("DecodeAndCropJpeg operation can run on JPEG "
                             "only, but detected BMP."));
    } else if constexpr (Op != DecodeOp::Bmp && Op != DecodeOp::Image) {
      ctx->ctxFailure(errorf("Trying to decode BMP format using a wrong op. "
                             "Use `decode_bmp` or `decode_image` instead. Op "
                             "used: %s",
                             decodeOpName(Op)));
    } else {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, input.size() >= 32,
          errorf("Incomplete bmp content, requires at least 32 bytes to find "
                 "the header size, width, height, and bpp, got %d bytes",
                 input.size()));
      const auto *bytes = reinterpret_cast<const uint8_t *>(input.data());
      auto le32 = [&](int at) {
        return static_cast<int32_t>(
            uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 |
            uint32_t(bytes[at + 2]) << 16 | uint32_t(bytes[at + 3]) << 24);
      };
      const int32_t headerSize = le32(10);
      const int32_t width = le32(18);
      const int32_t height = le32(22);
      const int16_t bpp =
          static_cast<int16_t>(uint16_t(bytes[28]) | uint16_t(bytes[29]) << 8);
      const int imgChannels = bpp / 8;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, imgChannels == 1 || imgChannels == 3 || imgChannels == 4,
          errorf("Number of channels inherent in the image must be 1, 3 or 4, "
                 "was %d",
                 imgChannels));
      const int channels = channels_ ? channels_ : imgChannels;
      TFRT_FALLBACK_OP_REQUIRES(ctx, width > 0,
                                errorf("Width must be positive"));
      TFRT_FALLBACK_OP_REQUIRES(ctx, height != 0,
                                errorf("Height must be nonzero"));
      TFRT_FALLBACK_OP_REQUIRES(ctx, headerSize >= 0,
                                errorf("header size must be nonnegative"));
      const int64_t absHeight = std::abs(int64_t(height));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          int64_t(width) * absHeight <
              int64_t(std::numeric_limits<int32_t>::max() / 8),
          errorf("Total possible pixel bytes must be less than 2^30"));
      // Rows are padded to 4 bytes.
      const int64_t rowSize = (int64_t(imgChannels) * width + 3) / 4 * 4;
      const int64_t sizeDiff =
          int64_t(input.size()) - headerSize - rowSize * absHeight;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, sizeDiff == 0,
          errorf("Input size should match (header_size + row_size * "
                 "abs_height) but they differ by %d",
                 sizeDiff));
      PixelSink sink(ctx, dtype_);
      uint8_t *dst = sink.allocateImpl(1, absHeight, width, channels);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, sink.status);
      // Bottom-up unless the height is negative; BGR(A) to RGB(A).
      const uint8_t *pixels = bytes + headerSize;
      for (int64_t i = 0; i < absHeight; ++i) {
        const uint8_t *src =
            pixels + (height < 0 ? i : absHeight - 1 - i) * rowSize;
        uint8_t *o = dst + i * width * channels;
        for (int64_t j = 0; j < width; ++j, src += imgChannels, o += channels) {
          if (imgChannels == 1) {
            o[0] = src[0];
            if (channels >= 3)
              o[1] = o[2] = src[0];
            if (channels == 4)
              o[3] = 255;
          } else {
            o[0] = src[2];
            o[1] = src[1];
            o[2] = src[0];
            if (channels == 4)
              o[3] = imgChannels == 4 ? src[3] : 255;
          }
        }
      }
      sink.finish();
    }
  }

  int32_t channels_ = 0;
  DType dtype_ = DType::U8;
  bool expandAnimations_ = true;
  int32_t ratio_ = 1;
  bool fancyUpscaling_ = true;
  bool tryRecover_ = false;
  float acceptableFraction_ = 1.0f;
  bool accurateDct_ = false;
};

//===----------------------------------------------------------------------===//
// JPEG encoding (TF's jpeg_mem.cc)
//===----------------------------------------------------------------------===//

/// TF's CompressFlags.
struct JpegEncode {
  const uint8_t *pixels = nullptr;
  int width = 0, height = 0;
  int components = 3;
  int quality = 95;
  bool progressive = false;
  bool optimizeSize = false;
  bool chromaDownsampling = true;
  int densityUnit = 1;
  int xDensity = 300;
  int yDensity = 300;
  std::string_view xmpMetadata;
  std::string *out = nullptr;
};

/// A destination appending to a string through a buffer of libjpeg's.
struct JpegDestination {
  jpeg_destination_mgr pub;
  JOCTET *buffer;
  size_t size;
  std::string *out;
};

void jpegInitDestination(j_compress_ptr cinfo) {
  auto *dest = reinterpret_cast<JpegDestination *>(cinfo->dest);
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = dest->size;
}

boolean jpegEmptyOutput(j_compress_ptr cinfo) {
  auto *dest = reinterpret_cast<JpegDestination *>(cinfo->dest);
  dest->out->append(reinterpret_cast<const char *>(dest->buffer), dest->size);
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = dest->size;
  return TRUE;
}

void jpegTermDestination(j_compress_ptr cinfo) {
  auto *dest = reinterpret_cast<JpegDestination *>(cinfo->dest);
  dest->out->append(reinterpret_cast<const char *>(dest->buffer),
                    dest->size - dest->pub.free_in_buffer);
}

/// TF's CompressInternal for RGB or grayscale input; false (and an empty
/// `e->out`) on any error.
bool jpegEncode(const JpegEncode *e) {
  e->out->clear();
  if (e->width <= 0 || e->height <= 0 ||
      int64_t(e->width) * e->height >= (int64_t(1) << 29))
    return false;
  jpeg_compress_struct cinfo;
  JpegErrorManager jerr;
  JpegDestination dest;
  cinfo.err = jpegErrors(&jerr);
  if (setjmp(jerr.jump)) {
    jpeg_destroy_compress(&cinfo);
    e->out->clear();
    return false;
  }
  jpeg_create_compress(&cinfo);
  dest.size = 16384;
  dest.buffer = static_cast<JOCTET *>((*cinfo.mem->alloc_small)(
      reinterpret_cast<j_common_ptr>(&cinfo), JPOOL_PERMANENT, dest.size));
  dest.out = e->out;
  dest.pub.init_destination = jpegInitDestination;
  dest.pub.empty_output_buffer = jpegEmptyOutput;
  dest.pub.term_destination = jpegTermDestination;
  cinfo.dest = &dest.pub;
  cinfo.image_width = e->width;
  cinfo.image_height = e->height;
  cinfo.input_components = e->components;
  cinfo.in_color_space = e->components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&cinfo);
  if (e->optimizeSize)
    cinfo.optimize_coding = TRUE;
  cinfo.density_unit = static_cast<UINT8>(e->densityUnit);
  cinfo.X_density = static_cast<UINT16>(e->xDensity);
  cinfo.Y_density = static_cast<UINT16>(e->yDensity);
  jpeg_set_quality(&cinfo, e->quality, TRUE);
  if (e->progressive)
    jpeg_simple_progression(&cinfo);
  if (!e->chromaDownsampling) {
    for (int i = 0; i < cinfo.num_components; ++i) {
      cinfo.comp_info[i].h_samp_factor = 1;
      cinfo.comp_info[i].v_samp_factor = 1;
    }
  }
  jpeg_start_compress(&cinfo, TRUE);
  if (!e->xmpMetadata.empty()) {
    // APP1: Adobe's XMP namespace, a NUL, the metadata (libjpeg refuses
    // more than 65533 bytes).
    static const char kNamespace[] = "http://ns.adobe.com/xap/1.0/";
    const size_t nsLength = sizeof(kNamespace); // With its NUL.
    const size_t length = nsLength + e->xmpMetadata.size();
    if (length > 65533)
      ERREXIT(&cinfo, JERR_BAD_LENGTH);
    jpeg_write_m_header(&cinfo, JPEG_APP0 + 1, static_cast<unsigned>(length));
    for (size_t i = 0; i < nsLength; ++i)
      jpeg_write_m_byte(&cinfo, kNamespace[i]);
    for (char c : e->xmpMetadata)
      jpeg_write_m_byte(&cinfo, static_cast<unsigned char>(c));
  }
  const int64_t stride = int64_t(e->width) * e->components;
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row =
        const_cast<JSAMPLE *>(e->pixels + cinfo.next_scanline * stride);
    if (jpeg_write_scanlines(&cinfo, &row, 1) != 1)
      ERREXIT(&cinfo, JERR_BAD_STATE);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  return true;
}

/// Checks an image to encode as JPEG: rank 3 and fewer than 2^31 - 1
/// elements (TF's messages).
Status checkJpegImage(const OpKernel &op, const Tensor &image) {
  if (image.rank() != 3)
    return op.errorf("image must be 3-dimensional%s", image.shape().toString());
  if (image.numElements() >= std::numeric_limits<int32_t>::max())
    return op.errorf("Cannot encode images with >= max int32 elements");
  return OkStatus();
}

/// Encodes `image` ([h, w, 1 or 3], checked) with `e`'s options into
/// output 0, a string scalar; TF's Internal "JPEG encoding failed".
void encodeJpegOutput(const OpKernel &op, OpKernelContextInterface *ctx,
                      const Tensor &image, JpegEncode e) {
  std::string out;
  e.pixels = image.data<uint8_t>();
  e.height = static_cast<int>(image.dim(0));
  e.width = static_cast<int>(image.dim(1));
  e.out = &out;
  if (!jpegEncode(&e))
    return ctx->ctxFailure(makeOpError(StatusCode::kInternal, op.opName(),
                                       op.nodeName(), "JPEG encoding failed"));
  const std::string_view view = out;
  StatusOr<Tensor> t = makeStringTensor(TensorShape(), {&view, 1});
  if (!t.ok())
    return ctx->ctxFailure(t.status());
  ctx->setOutput(0, *std::move(t));
}

/// EncodeJpeg(image: uint8 [h, w, c]) -> string; see the top of the file.
class EncodeJpegKernel final : public OpKernel {
public:
  explicit EncodeJpegKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "format", &format_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, format_.empty() || format_ == "grayscale" || format_ == "rgb",
        errorf("format must be '', grayscale or rgb, got %s", format_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "quality", &options_.quality));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, 0 <= options_.quality && options_.quality <= 100,
        errorf("quality must be in [0,100], got %d", options_.quality));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "progressive", &options_.progressive));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "optimize_size", &options_.optimizeSize));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "chroma_downsampling",
                                                 &options_.chromaDownsampling));
    std::string unit = "in";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "density_unit", &unit));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, unit == "in" || unit == "cm",
        errorf("density_unit must be 'in' or 'cm'%s", unit));
    options_.densityUnit = unit == "in" ? 1 : 2;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "x_density", &options_.xDensity));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "y_density", &options_.yDensity));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "xmp_metadata", &xmp_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &image = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkJpegImage(*this, image));
    const int64_t channels = image.dim(2);
    JpegEncode e = options_;
    if (format_.empty()) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, channels == 1 || channels == 3,
          errorf("image must have 1 or 3 channels, got %s",
                 image.shape().toString()));
      e.components = static_cast<int>(channels);
    } else {
      e.components = format_ == "grayscale" ? 1 : 3;
      TFRT_FALLBACK_OP_REQUIRES(ctx, channels == e.components,
                                errorf("format %s expects %d channels, got %s",
                                       format_, e.components,
                                       image.shape().toString()));
    }
    e.xmpMetadata = xmp_;
    encodeJpegOutput(*this, ctx, image, e);
  }

private:
  std::string format_;
  std::string xmp_;
  JpegEncode options_;
};

/// EncodeJpegVariableQuality(images: uint8 [h, w, c], quality: int32) ->
/// string: TF's default options but the quality and an autodetected format.
class EncodeJpegVariableQualityKernel final : public OpKernel {
public:
  explicit EncodeJpegVariableQualityKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &image = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkJpegImage(*this, image));
    const Tensor &quality = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, quality.shape().isScalar(),
        errorf("quality must be scalar: %s", quality.shape().toString()));
    JpegEncode e;
    e.quality = quality.data<int32_t>()[0];
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, 0 <= e.quality && e.quality <= 100,
        errorf("quality must be in [0,100], got %d", e.quality));
    const int64_t channels = image.dim(2);
    TFRT_FALLBACK_OP_REQUIRES(ctx, channels == 1 || channels == 3,
                              errorf("image must have 1 or 3 channels, got %s",
                                     image.shape().toString()));
    e.components = static_cast<int>(channels);
    encodeJpegOutput(*this, ctx, image, e);
  }
};

//===----------------------------------------------------------------------===//
// PNG encoding (TF's png_io.cc)
//===----------------------------------------------------------------------===//

void pngEncodeError(png_structp png, png_const_charp) { png_longjmp(png, 1); }

void pngWrite(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string *>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char *>(data), length);
}

void pngFlush(png_structp) {}

/// TF's WriteImageToBuffer: one image of `channels` (1-4) samples of
/// `bits` (8, 16: host order) per pixel, `rowBytes` apart; false on error.
bool pngEncode(const uint8_t *image, int width, int height, int64_t rowBytes,
               int channels, int bits, int compression, std::string *out) {
  out->clear();
  // libpng reports this case itself, with memory corruption (TF).
  if (width == 0 || height == 0)
    return false;
  static const int kColorTypes[] = {
      PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
      PNG_COLOR_TYPE_RGB_ALPHA};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr,
                                            pngEncodeError, pngWarning);
  if (!png)
    return false;
  png_infop info = nullptr;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : nullptr);
    return false;
  }
  info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return false;
  }
  png_set_write_fn(png, out, pngWrite, pngFlush);
  // zlib's Z_DEFAULT_COMPRESSION (-1) and MAX_MEM_LEVEL (9).
  png_set_compression_level(png, compression < 0 ? -1 : compression);
  png_set_compression_mem_level(png, 9);
  png_set_IHDR(png, info, width, height, bits, kColorTypes[channels - 1],
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (bits > 8 && kLittleEndian)
    png_set_swap(png);
  const uint8_t *row = image;
  for (int h = 0; h < height; ++h, row += rowBytes)
    png_write_row(png, const_cast<png_bytep>(row));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

/// EncodePng(image: T [..., h, w, c]) -> string [...]; T uint8 or uint16.
template <typename T> class EncodePngKernel final : public OpKernel {
public:
  explicit EncodePngKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "compression", &compression_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, -1 <= compression_ && compression_ <= 9,
        errorf("compression should be in [-1,9], got %d", compression_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &image = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, image.rank() >= 3,
        errorf("images must be at least rank 3%s", image.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, image.numElements() < std::numeric_limits<int32_t>::max(),
        errorf("image cannot have >= int32 max elements"));
    const int batchDims = image.rank() - 3;
    const int64_t height = image.dim(batchDims);
    const int64_t width = image.dim(batchDims + 1);
    const int64_t channels = image.dim(batchDims + 2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, width * channels < std::numeric_limits<int32_t>::max() / 2,
        errorf("image too wide to encode"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, channels >= 1 && channels <= 4,
        errorf("image must have 1, 2, 3, or 4 channels, got %d", channels));
    std::vector<int64_t> batchShape(image.shape().dims().begin(),
                                    image.shape().dims().begin() + batchDims);
    const TensorShape outShape(batchShape);
    const int64_t batches = outShape.numElements();
    const int64_t rowBytes = width * channels * int64_t(sizeof(T));
    const int64_t imageBytes = height * rowBytes;
    std::vector<std::string> pngs(batches);
    std::vector<char> failed(batches, 0);
    const auto *data = reinterpret_cast<const uint8_t *>(image.data<T>());
    const int compression = compression_;
    parallelFor(ctx->eigenDevice(), batches,
                Eigen::TensorOpCost(double(imageBytes), double(imageBytes),
                                    double(imageBytes)),
                [&](Eigen::Index first, Eigen::Index last) {
                  for (Eigen::Index i = first; i < last; ++i)
                    failed[i] = !pngEncode(
                        data + i * imageBytes, static_cast<int>(width),
                        static_cast<int>(height), rowBytes,
                        static_cast<int>(channels), int(sizeof(T)) * 8,
                        compression, &pngs[i]);
                });
    std::string bad;
    for (int64_t i = 0; i < batches; ++i)
      if (failed[i])
        bad = bad.empty() ? strCat(i) : strCat(bad, ", ", i);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, bad.empty(),
        makeOpError(StatusCode::kInternal, opName(), nodeName(),
                    strCat("PNG encoding failed at the following flattened "
                           "batch indices: ",
                           bad)));
    std::vector<std::string_view> views(pngs.begin(), pngs.end());
    StatusOr<Tensor> t = makeStringTensor(outShape, views);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, t.status());
    ctx->setOutput(0, *std::move(t));
  }

private:
  int32_t compression_ = -1;
};

} // namespace

void registerImageCodecKernels(KernelRegistry &registry) {
  registerKernel<OpId::kDecodeJpeg, DecodeImageKernel<DecodeOp::Jpeg>>(
      registry);
  registerKernel<OpId::kDecodeAndCropJpeg,
                 DecodeImageKernel<DecodeOp::AndCropJpeg>>(registry);
  registerKernel<OpId::kDecodePng, DecodeImageKernel<DecodeOp::Png>>(
      registry, {{"dtype", {DType::U8, DType::U16}}});
  registerKernel<OpId::kDecodeGif, DecodeImageKernel<DecodeOp::Gif>>(registry);
  registerKernel<OpId::kDecodeBmp, DecodeImageKernel<DecodeOp::Bmp>>(registry);
  registerKernel<OpId::kDecodeImage, DecodeImageKernel<DecodeOp::Image>>(
      registry, {{"dtype", {DType::U8, DType::U16, DType::F32}}});
  registerKernel<OpId::kEncodeJpeg, EncodeJpegKernel>(registry);
  registerKernel<OpId::kEncodeJpegVariableQuality,
                 EncodeJpegVariableQualityKernel>(registry);
  registerKernel<OpId::kEncodePng, EncodePngKernel, uint8_t, uint16_t>(
      registry);
}

} // namespace tfrt_fallback::rt
