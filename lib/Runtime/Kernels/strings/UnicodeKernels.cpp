//===- UnicodeKernels.cpp - Unicode decoding and encoding -------*- C++ -*-===//
//
// TensorFlow's Unicode ops (core/kernels/unicode_ops.cc, string_util.cc):
// UnicodeDecode, UnicodeDecodeWithOffsets, UnicodeEncode and
// UnicodeTranscode for UTF-8, UTF-16-BE and UTF-32-BE. TF converts through
// ICU; the codecs here are our own and follow ICU's converters:
//
//  * UTF-8: a malformed sequence is replaced per maximal subpart (Unicode
//    3-7: a lead byte and the continuation bytes valid after it, so
//    overlongs, surrogates (ED A0..BF) and values past U+10FFFF break
//    after the lead byte; a truncated sequence at the end is one error).
//  * UTF-16-BE: two bytes a unit, a surrogate pair is one code point; an
//    unpaired surrogate unit is one error, an odd last byte another, a lead
//    surrogate with one byte after it at the end one (of 3 bytes). A BOM is
//    the character U+FEFF.
//  * UTF-32-BE: four bytes a code point; a surrogate or a value past
//    U+10FFFF is one error, 1 to 3 trailing bytes another.
//
// An error decodes as U+FFFD flagged malformed, which TF's `errors` policy
// then handles: "replace" emits `replacement_char`, "ignore" drops it (its
// bytes still count towards the offsets), "strict" fails with "Invalid
// formatting on input string". With replace_control_characters, code points
// up to U+001F are handled the same way (an error under "strict" only for
// UnicodeTranscode, as TF). Encoding goes through UTF-16 units like ICU's
// UnicodeString: a replacement_char that is a surrogate stays a lone unit,
// which UTF-8 output writes as U+FFFD, UTF-16-BE as the unit and UTF-32-BE
// as its value.
//
// Input encodings are matched as ICU matches converter names (case and
// '-', '_', ' ' ignored: "utf8", "UTF-16BE"); any other input encoding is
// an InvalidArgument error when the kernel is built (TF accepts every ICU
// converter). Output encodings are TF's three exact names.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

enum class Encoding { Utf8, Utf16BE, Utf32BE };

constexpr uint32_t kReplacement = 0xFFFD;
constexpr uint32_t kMaxCodePoint = 0x10FFFF;

bool isSurrogate(uint32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

/// ICU's converter name matching for the three encodings we decode.
bool parseInputEncoding(const std::string &name, Encoding *out) {
  std::string key;
  for (char c : name)
    if (c != '-' && c != '_' && c != ' ')
      key.push_back(
          static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (key == "utf8")
    *out = Encoding::Utf8;
  else if (key == "utf16be")
    *out = Encoding::Utf16BE;
  else if (key == "utf32be")
    *out = Encoding::Utf32BE;
  else
    return false;
  return true;
}

/// TF's ParseUnicodeEncoding.
Status parseOutputEncoding(const OpKernel &op, const std::string &name,
                           Encoding *out) {
  if (name == "UTF-8")
    *out = Encoding::Utf8;
  else if (name == "UTF-16-BE")
    *out = Encoding::Utf16BE;
  else if (name == "UTF-32-BE")
    *out = Encoding::Utf32BE;
  else
    return op.errorf("Invalid encoding \"%s\": Should be one of: UTF-8, "
                     "UTF-16-BE, UTF-32-BE",
                     name);
  return OkStatus();
}

/// TF's ErrorOptions from the `errors`, `replacement_char` and
/// `replace_control_characters` attributes (defaults replace, U+FFFD,
/// false).
struct ErrorOptions {
  uint32_t subst = kReplacement;
  bool elide = false;
  bool replaceControl = false;
  bool strict = false;

  /// TF's ShouldHandleFormatError.
  bool handles(uint32_t c, bool malformed) const {
    return (replaceControl && c <= 0x1F) || malformed;
  }
};

Status readErrorOptions(const OpKernel &op, OpKernelConstructionInterface *ctx,
                        ErrorOptions *out) {
  std::string policy = "replace";
  if (Status s = getOptionalAttr(ctx, "errors", &policy); !s.ok())
    return s;
  if (policy == "ignore")
    out->elide = true;
  else if (policy == "strict")
    out->strict = true;
  else if (policy != "replace")
    return op.errorf(
        "errors policy must be one of 'strict', 'replace', or 'ignore'");
  int64_t subst = kReplacement;
  if (Status s = getOptionalAttr(ctx, "replacement_char", &subst); !s.ok())
    return s;
  if (subst < 0 || subst > kMaxCodePoint)
    return op.errorf("replacement_char out of unicode codepoint range");
  out->subst = static_cast<uint32_t>(subst);
  return getOptionalAttr(ctx, "replace_control_characters",
                         &out->replaceControl);
}

/// Reads the input encoding attribute: one of ours, or the deviation's
/// error.
Status readInputEncoding(const OpKernel &op, OpKernelConstructionInterface *ctx,
                         Encoding *out) {
  std::string name;
  if (Status s = ctx->getAttr("input_encoding", &name); !s.ok())
    return s;
  if (!parseInputEncoding(name, out))
    return op.errorf("Could not create converter for input encoding: %s "
                     "(tfrt-fallback decodes UTF-8, UTF-16-BE and UTF-32-BE)",
                     name);
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

/// One decoded code point: its value (U+FFFD when malformed) and the
/// bytes it took.
struct Decoded {
  uint32_t value;
  int length;
  bool malformed;
};

Decoded decodeUtf8(std::string_view s, size_t pos) {
  const uint8_t b0 = static_cast<uint8_t>(s[pos]);
  if (b0 < 0x80)
    return {b0, 1, false};
  int need;
  uint8_t lo = 0x80, hi = 0xBF; // The first continuation byte's range.
  uint32_t value;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
    value = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    value = b0 & 0x0F;
    if (b0 == 0xE0)
      lo = 0xA0;
    else if (b0 == 0xED)
      hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    value = b0 & 0x07;
    if (b0 == 0xF0)
      lo = 0x90;
    else if (b0 == 0xF4)
      hi = 0x8F;
  } else {
    return {kReplacement, 1, true};
  }
  int length = 1;
  for (int k = 0; k < need; ++k) {
    if (pos + length >= s.size())
      return {kReplacement, length, true};
    const uint8_t b = static_cast<uint8_t>(s[pos + length]);
    if (b < lo || b > hi)
      return {kReplacement, length, true};
    value = value << 6 | (b & 0x3F);
    ++length;
    lo = 0x80;
    hi = 0xBF;
  }
  return {value, length, false};
}

uint32_t unitAt(std::string_view s, size_t pos) {
  return static_cast<uint32_t>(static_cast<uint8_t>(s[pos])) << 8 |
         static_cast<uint8_t>(s[pos + 1]);
}

Decoded decodeUtf16BE(std::string_view s, size_t pos) {
  if (s.size() - pos < 2)
    return {kReplacement, static_cast<int>(s.size() - pos), true};
  const uint32_t u = unitAt(s, pos);
  if (!isSurrogate(u))
    return {u, 2, false};
  if (u <= 0xDBFF) {
    // ICU: a lead surrogate with 0 or 1 bytes after it is one truncated
    // sequence of the 2 or 3 bytes left.
    if (s.size() - pos < 4)
      return {kReplacement, static_cast<int>(s.size() - pos), true};
    const uint32_t low = unitAt(s, pos + 2);
    if (low >= 0xDC00 && low <= 0xDFFF)
      return {0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00), 4, false};
  }
  return {kReplacement, 2, true};
}

Decoded decodeUtf32BE(std::string_view s, size_t pos) {
  if (s.size() - pos < 4)
    return {kReplacement, static_cast<int>(s.size() - pos), true};
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v = v << 8 | static_cast<uint8_t>(s[pos + i]);
  if (v > kMaxCodePoint || isSurrogate(v))
    return {kReplacement, 4, true};
  return {v, 4, false};
}

/// Calls f(Decoded) for each code point of `s` in `encoding`.
template <typename F>
void forEachCodePoint(Encoding encoding, std::string_view s, F &&f) {
  size_t pos = 0;
  while (pos < s.size()) {
    Decoded d = encoding == Encoding::Utf8      ? decodeUtf8(s, pos)
                : encoding == Encoding::Utf16BE ? decodeUtf16BE(s, pos)
                                                : decodeUtf32BE(s, pos);
    f(d);
    pos += d.length;
  }
}

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

/// ICU's UnicodeString::append(UChar32): one UTF-16 unit below U+10000
/// (a surrogate too), a pair above.
void appendUnits(std::u16string *units, uint32_t c) {
  if (c < 0x10000) {
    units->push_back(static_cast<char16_t>(c));
  } else {
    c -= 0x10000;
    units->push_back(static_cast<char16_t>(0xD800 + (c >> 10)));
    units->push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
  }
}

void appendUtf8(std::string *out, uint32_t c) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | c >> 6));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | c >> 12));
    out->push_back(static_cast<char>(0x80 | (c >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | c >> 18));
    out->push_back(static_cast<char>(0x80 | (c >> 12 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

/// TF's Encode of an ICU UnicodeString held as UTF-16 `units`.
std::string encodeUnits(Encoding encoding, const std::u16string &units) {
  std::string out;
  if (encoding == Encoding::Utf16BE) {
    out.reserve(2 * units.size());
    for (char16_t u : units) {
      out.push_back(static_cast<char>(u >> 8));
      out.push_back(static_cast<char>(u & 0xFF));
    }
    return out;
  }
  for (size_t i = 0; i < units.size(); ++i) {
    uint32_t c = units[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < units.size() &&
        units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (units[i + 1] - 0xDC00);
      ++i;
    }
    if (encoding == Encoding::Utf8) {
      appendUtf8(&out, isSurrogate(c) ? kReplacement : c);
    } else {
      for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>(c >> shift & 0xFF));
    }
  }
  return out;
}

Status emitStrings(OpKernelContextInterface *ctx, int index,
                   const TensorShape &shape,
                   const std::vector<std::string> &values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  StatusOr<Tensor> out = makeStringTensor(shape, views);
  if (!out.ok())
    return out.status();
  ctx->setOutput(index, *std::move(out));
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// UnicodeDecode(input: string; input_encoding, errors, replacement_char,
/// replace_control_characters, Tsplits) -> (row_splits [n + 1], char_values
/// int32) and UnicodeDecodeWithOffsets, also char_to_byte_starts (int64):
/// the code points of each of the n input strings (flattened), a ragged
/// tensor. TF's UnicodeDecodeWithOffsets kernel for Tsplits = int32 writes
/// int32 offsets into the op's int64 output (a CHECK failure); here the
/// offsets are int64 for both.
template <bool WithOffsets> class UnicodeDecodeKernel final : public OpKernel {
public:
  explicit UnicodeDecodeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readErrorOptions(*this, ctx, &options_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 readInputEncoding(*this, ctx, &encoding_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkInputDType(*this, ctx, 0, DType::String));
    const Tensor &in = ctx->input(0);
    const int64_t n = in.numElements();
    std::vector<int64_t> splits;
    std::vector<int32_t> chars;
    std::vector<int64_t> offsets;
    splits.reserve(n + 1);
    bool malformedSeen = false;
    splits.push_back(0);
    for (std::string_view s : stringElements(in)) {
      int64_t offset = 0;
      forEachCodePoint(encoding_, s, [&](const Decoded &d) {
        malformedSeen |= d.malformed;
        uint32_t value = d.value;
        if (options_.handles(d.value, d.malformed)) {
          if (options_.elide) {
            offset += d.length;
            return;
          }
          value = options_.subst;
        }
        chars.push_back(static_cast<int32_t>(value));
        offsets.push_back(offset);
        offset += d.length;
      });
      splits.push_back(static_cast<int64_t>(chars.size()));
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, !(options_.strict && malformedSeen),
                              errorf("Invalid formatting on input string"));
    Tensor *rowSplits = nullptr, *values = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{n + 1}, &rowSplits));
    const bool wide = rowSplits->dtype() == DType::I64;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, wide || chars.size() <= size_t{INT32_MAX},
        errorf("%d code points overflow int32 row splits", chars.size()));
    for (int64_t i = 0; i <= n; ++i) {
      if (wide)
        rowSplits->data<int64_t>()[i] = splits[i];
      else
        rowSplits->data<int32_t>()[i] = static_cast<int32_t>(splits[i]);
    }
    const int64_t k = static_cast<int64_t>(chars.size());
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape{k}, &values));
    std::copy(chars.begin(), chars.end(), values->data<int32_t>());
    if (WithOffsets) {
      Tensor *starts = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(2, TensorShape{k}, &starts));
      std::copy(offsets.begin(), offsets.end(), starts->data<int64_t>());
    }
  }

private:
  ErrorOptions options_;
  Encoding encoding_ = Encoding::Utf8;
};

/// UnicodeEncode(input_values: int32 [m], input_splits: Tsplits [n + 1];
/// output_encoding, errors, replacement_char) -> string [n]: string i
/// encodes values [splits[i], splits[i + 1]). A value outside [0,
/// 0x10FFFF] or a surrogate is replaced, dropped, or under "strict" the
/// error "Code point is out of range for Unicode, or is a surrogate.".
class UnicodeEncodeKernel final : public OpKernel {
public:
  explicit UnicodeEncodeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string name;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_encoding", &name));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 parseOutputEncoding(*this, name, &encoding_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readErrorOptions(*this, ctx, &options_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkInputDType(*this, ctx, 0, DType::I32));
    const Tensor &values = ctx->input(0);
    const Tensor &splits = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(splits),
                              errorf("input_splits must be int32 or int64, "
                                     "got %s",
                                     dtypeName(splits.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values.rank() == 1 && splits.rank() == 1,
        errorf("Both the input_tensor and input_splits should be of rank 1. "));
    const int64_t numSplits = splits.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numSplits > 0,
        errorf("Input_splits should contain elements, but given input_values "
               "has 0 elements"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indexAt(splits, 0) == 0,
        errorf("First value in input_splits must be zero."));
    const int64_t m = values.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indexAt(splits, numSplits - 1) == m,
        errorf("Last value in input_splits must be equal to length of "
               "input_tensor."));
    const int32_t *pv = values.data<int32_t>();
    std::vector<std::string> out;
    out.reserve(numSplits - 1);
    int64_t idx = 0;
    for (int64_t i = 1; i < numSplits; ++i) {
      const int64_t end = indexAt(splits, i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, indexAt(splits, i - 1) <= end,
          errorf("Values in input_splits must be equal or in ascending "
                 "order."));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, end <= m,
          errorf("Values in input_splits must be less than or equal to "
                 "input_tensor length."));
      std::u16string units;
      for (; idx < end; ++idx) {
        const int32_t c = pv[idx];
        if (c >= 0 && static_cast<uint32_t>(c) <= kMaxCodePoint &&
            !isSurrogate(static_cast<uint32_t>(c))) {
          appendUnits(&units, static_cast<uint32_t>(c));
        } else {
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, !options_.strict,
              errorf("Code point is out of range for Unicode, or is a "
                     "surrogate."));
          if (!options_.elide)
            appendUnits(&units, options_.subst);
        }
      }
      out.push_back(encodeUnits(encoding_, units));
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, emitStrings(ctx, 0, TensorShape{numSplits - 1}, out));
  }

private:
  Encoding encoding_ = Encoding::Utf8;
  ErrorOptions options_;
};

/// UnicodeTranscode(input: string; input_encoding, output_encoding,
/// errors, replacement_char, replace_control_characters): each string
/// decoded and encoded again, malformed sequences (and control characters
/// when asked) replaced or dropped; under "strict" any of them fails the
/// op with "Invalid formatting on input string".
class UnicodeTranscodeKernel final : public OpKernel {
public:
  explicit UnicodeTranscodeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readErrorOptions(*this, ctx, &options_));
    std::string name;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_encoding", &name));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 parseOutputEncoding(*this, name, &output_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readInputEncoding(*this, ctx, &input_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkInputDType(*this, ctx, 0, DType::String));
    const Tensor &in = ctx->input(0);
    std::vector<std::string> out;
    out.reserve(in.numElements());
    bool handledAny = false;
    for (std::string_view s : stringElements(in)) {
      std::u16string units;
      forEachCodePoint(input_, s, [&](const Decoded &d) {
        uint32_t c = d.value;
        if (options_.handles(c, d.malformed)) {
          handledAny = true;
          if (options_.elide)
            return;
          c = options_.subst;
        }
        appendUnits(&units, c);
      });
      out.push_back(encodeUnits(output_, units));
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, !(options_.strict && handledAny),
                              errorf("Invalid formatting on input string"));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, emitStrings(ctx, 0, in.shape(), out));
  }

private:
  ErrorOptions options_;
  Encoding input_ = Encoding::Utf8;
  Encoding output_ = Encoding::Utf8;
};

} // namespace

void registerUnicodeKernels(KernelRegistry &registry) {
  registerKernel<OpId::kUnicodeDecode, UnicodeDecodeKernel<false>>(
      registry, {{"Tsplits", {DType::I32, DType::I64}}});
  registerKernel<OpId::kUnicodeDecodeWithOffsets, UnicodeDecodeKernel<true>>(
      registry, {{"Tsplits", {DType::I32, DType::I64}}});
  registerKernel<OpId::kUnicodeEncode, UnicodeEncodeKernel>(
      registry, {{"Tsplits", {DType::I32, DType::I64}}});
  registerKernel<OpId::kUnicodeTranscode, UnicodeTranscodeKernel>(registry);
}

} // namespace tfrt_fallback::rt
