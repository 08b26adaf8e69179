//===- Npy.cpp - read and write NumPy .npy files ----------------*- C++ -*-===//
//
// The header is a Python dict literal, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }
// padded with spaces and a newline so the data starts 64-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Npy.h"

#include "../Features.h"

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace tfrt_fallback::rt {

namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);

Status npyError(std::string_view name, const char *format, ...)
    TFRT_FALLBACK_PRINTF(2, 3);
/// "invalid .npy file '<name>': ".
std::string npyPrefix(std::string_view name) {
  std::string prefix = "invalid .npy file '";
  prefix.append(name.data(), name.size());
  prefix += "': ";
  return prefix;
}

Status npyError(std::string_view name, const char *format, ...) {
  va_list args;
  va_start(args, format);
  Status status =
      makeErrorV(StatusCode::kInvalidArgument, npyPrefix(name), format, args);
  va_end(args);
  return status;
}

/// `status`'s message about .npy file `name`.
Status npyError(std::string_view name, const Status &status) {
  std::string message = npyPrefix(name);
  message.append(status.message().data(), status.message().size());
  return InvalidArgumentError(message);
}

/// The text after `'key':` up to the next top-level comma or closing brace.
bool findValue(std::string_view header, std::string_view key,
               std::string_view &value) {
  std::string quoted = strCat("'", key, "'");
  size_t pos = header.find(quoted);
  if (pos == std::string_view::npos)
    return false;
  pos = header.find(':', pos + quoted.size());
  if (pos == std::string_view::npos)
    return false;
  std::string_view rest = stripAsciiWhitespace(header.substr(pos + 1));
  size_t end;
  if (!rest.empty() && rest[0] == '(') {
    end = rest.find(')');
    if (end == std::string_view::npos)
      return false;
    value = rest.substr(0, end + 1);
    return true;
  }
  end = rest.find_first_of(",}");
  if (end == std::string_view::npos)
    return false;
  value = stripAsciiWhitespace(rest.substr(0, end));
  return true;
}

/// A NumPy fixed-width string descriptor: '|S5' (5 bytes, NUL-padded) or
/// '<U5' (5 UTF-32 code units, little-endian, NUL-padded).
struct StringDescr {
  bool utf32 = false;
  uint64_t itemSize = 0;
};

bool parseStringDescr(std::string_view descr, StringDescr *out) {
  if (descr.size() < 3 || (descr[1] != 'S' && descr[1] != 'U'))
    return false;
  const bool utf32 = descr[1] == 'U';
  // Bytes have no byte order ('|'); NumPy writes '<' for UTF-32 here.
  if (!(utf32 ? descr[0] == '<' || descr[0] == '=' || descr[0] == '|'
              : descr[0] == '|' || descr[0] == '<' || descr[0] == '='))
    return false;
  int64_t width = 0;
  // Width 0 (NumPy's 'S0') would let a forged shape allocate without bound.
  if (!parseInteger(descr.substr(2), &width) || width < 1 ||
      width > (int64_t(1) << 30))
    return false;
  out->utf32 = utf32;
  out->itemSize = static_cast<uint64_t>(width) * (utf32 ? 4 : 1);
  return true;
}

/// Appends code point `c` as UTF-8; false for a surrogate or a value past
/// U+10FFFF, which UTF-8 cannot hold.
bool appendUtf8(uint32_t c, std::string &out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    if (c >= 0xD800 && c <= 0xDFFF)
      return false;
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c <= 0x10FFFF) {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    return false;
  }
  return true;
}

/// The string tensor the fixed-width items of `data` hold. As NumPy reads
/// them, trailing NULs are padding; UTF-32 items become UTF-8.
StatusOr<Tensor> decodeStrings(std::string_view data, const StringDescr &descr,
                               const TensorShape &shape) {
  const int64_t count = shape.numElements();
  std::vector<std::string> items(count);
  for (int64_t i = 0; i < count; ++i) {
    std::string_view item = data.substr(i * descr.itemSize, descr.itemSize);
    if (!descr.utf32) {
      while (!item.empty() && item.back() == '\0')
        item.remove_suffix(1);
      items[i].assign(item.data(), item.size());
      continue;
    }
    size_t units = item.size() / 4;
    auto unit = [&](size_t k) {
      uint32_t c;
      std::memcpy(&c, item.data() + 4 * k, 4);
      return c;
    };
    while (units > 0 && unit(units - 1) == 0)
      --units;
    for (size_t k = 0; k < units; ++k)
      if (!appendUtf8(unit(k), items[i]))
        return makeError(StatusCode::kInvalidArgument,
                         "element %lld holds %u, which is not a Unicode "
                         "scalar value",
                         static_cast<long long>(i), unit(k));
  }
  std::vector<std::string_view> views(items.begin(), items.end());
  return makeStringTensor(shape, views);
}

/// The '|S' encoding of string tensor `tensor`: NumPy's bytes items, as
/// wide as the longest element (at least 1), NUL-padded.
std::string encodeStrings(const Tensor &tensor, std::string *descr) {
  size_t width = 1;
  for (std::string_view s : stringElements(tensor))
    width = std::max(width, s.size());
  *descr = strFormat("|S%zu", width);
  std::string data;
  data.reserve(width * static_cast<size_t>(tensor.numElements()));
  for (std::string_view s : stringElements(tensor)) {
    data.append(s.data(), s.size());
    data.append(width - s.size(), '\0');
  }
  return data;
}

} // namespace

StatusOr<Tensor> parseNpy(std::string_view bytes, std::string_view name) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic)
    return npyError(name, "missing the \\x93NUMPY magic");
  uint8_t major = static_cast<uint8_t>(bytes[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<uint8_t>(bytes[8]) |
                   static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(name, "truncated header");
    headerLength = 0;
    for (int i = 0; i < 4; ++i)
      headerLength |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i]))
                      << (8 * i);
    headerStart = 12;
  } else {
    return npyError(name, "unsupported version %d", major);
  }
  if (headerLength > bytes.size() - headerStart)
    return npyError(name, "truncated header");
  std::string_view header = bytes.substr(headerStart, headerLength);

  std::string_view descr, fortran, shapeText;
  if (!findValue(header, "descr", descr) ||
      !findValue(header, "fortran_order", fortran) ||
      !findValue(header, "shape", shapeText))
    return npyError(name, "header lacks 'descr', 'fortran_order' or 'shape'");
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"'))
    return npyError(name, "'descr' is not a string");
  descr = descr.substr(1, descr.size() - 2);
  if (fortran != "False")
    return npyError(name, "Fortran-order arrays are not supported");
  // NumPy's fixed-width strings: bytes ('|S5') or UTF-32 ('<U5').
  StringDescr strings;
  StatusOr<DType> dtype = kHasStrings && parseStringDescr(descr, &strings)
                              ? StatusOr<DType>(DType::String)
                              : parseNumpyDescr(descr);
  if (!dtype.ok())
    return npyError(name, dtype.status());

  if (shapeText.size() < 2 || shapeText.front() != '(' ||
      shapeText.back() != ')')
    return npyError(name, "'shape' is not a tuple");
  std::vector<int64_t> dims;
  std::string_view tuple = shapeText.substr(1, shapeText.size() - 2);
  for (size_t begin = 0; begin <= tuple.size();) {
    size_t comma = tuple.find(',', begin);
    if (comma == std::string_view::npos)
      comma = tuple.size();
    std::string_view part =
        stripAsciiWhitespace(tuple.substr(begin, comma - begin));
    begin = comma + 1;
    if (part.empty())
      continue;
    int64_t dim;
    if (!parseInteger(part, &dim) || dim < 0)
      return npyError(name, "bad dimension '%.*s'", TFRT_FALLBACK_SV(part));
    dims.push_back(dim);
  }
  StatusOr<TensorShape> shape = TensorShape::create(dims);
  if (!shape.ok())
    return npyError(name, shape.status());
  // The data must be in the file before anything is allocated for it: a
  // forged shape must not make the reader allocate without bound (found by
  // fuzz/NpyFuzzer.cpp).
  size_t dataStart = headerStart + headerLength;
  uint64_t expected;
  if (!bytesOf(static_cast<uint64_t>(shape->numElements()),
               *dtype == DType::String
                   ? strings.itemSize
                   : static_cast<uint64_t>(dtypeSize(*dtype)),
               &expected))
    return npyError(name, "shape %.*s is too large",
                    TFRT_FALLBACK_SV(shapeText));
  if (expected != bytes.size() - dataStart)
    return npyError(name, "expected %llu bytes of data, found %zu",
                    static_cast<unsigned long long>(expected),
                    bytes.size() - dataStart);
  if (kHasStrings && *dtype == DType::String) {
    StatusOr<Tensor> tensor =
        decodeStrings(bytes.substr(dataStart), strings, *shape);
    if (!tensor.ok())
      return npyError(name, tensor.status());
    return tensor;
  }
  StatusOr<Tensor> tensor = Tensor::allocate(*dtype, *shape);
  if (!tensor.ok())
    return npyError(name, tensor.status());
  if (expected)
    std::memcpy(tensor->rawData(), bytes.data() + dataStart, expected);
  if (*dtype == DType::Bool) {
    const uint8_t *data = static_cast<const uint8_t *>(tensor->rawData());
    for (size_t i = 0; i < expected; ++i)
      if (data[i] > 1)
        return npyError(name, "a bool element is neither 0 nor 1");
  }
  return tensor;
}

StatusOr<Tensor> readNpyFile(const std::string &path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return makeError(StatusCode::kNotFound, "cannot open '%s'", path.c_str());
  std::string contents;
  char chunk[1 << 14];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0)
    contents.append(chunk, n);
  bool failed = std::ferror(file);
  std::fclose(file);
  if (failed)
    return makeError(StatusCode::kDataLoss, "failed reading '%s'",
                     path.c_str());
  return parseNpy(contents, path);
}

StatusOr<std::string> encodeNpy(const Tensor &input) {
  Tensor tensor = input;
  // NumPy has no quantized dtypes: their integers, as TF's .numpy() gives.
  static constexpr std::pair<DType, DType> kQuantizedStorage[] = {
      {DType::QI8, DType::I8},
      {DType::QU8, DType::U8},
      {DType::QI16, DType::I16},
      {DType::QU16, DType::U16},
      {DType::QI32, DType::I32}};
  for (auto [quantized, storage] : kQuantizedStorage)
    if (tensor.dtype() == quantized)
      tensor =
          Tensor(storage, tensor.shape(), tensor.buffer(), tensor.byteOffset());
  if (tensor.dtype() == DType::BF16) {
    StatusOr<Tensor> converted = Tensor::allocate(DType::F32, tensor.shape());
    if (!converted.ok())
      return converted.status();
    const Eigen::bfloat16 *from = tensor.data<Eigen::bfloat16>();
    float *to = converted->data<float>();
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      to[i] = static_cast<float>(from[i]);
    tensor = *std::move(converted);
  }
  std::string stringDescr, stringData;
  bool strings = kHasStrings && tensor.dtype() == DType::String;
  if (strings)
    stringData = encodeStrings(tensor, &stringDescr);
  std::string_view descr =
      strings ? std::string_view(stringDescr) : numpyDescr(tensor.dtype());
  if (descr.empty())
    return makeError(StatusCode::kInvalidArgument,
                     "dtype %s has no .npy encoding",
                     std::string(dtypeName(tensor.dtype())).c_str());
  // NumPy's tuple spelling: "()", "(4,)", "(2, 3)".
  std::string header = "{'descr': '";
  header.append(descr.data(), descr.size());
  header += "', 'fortran_order': False, 'shape': (";
  for (int i = 0; i < tensor.rank(); ++i)
    strAppendFormat(&header, i ? ", %lld" : "%lld",
                    static_cast<long long>(tensor.shape().dim(i)));
  header += tensor.rank() == 1 ? ",), }" : "), }";
  bool v2 = header.size() + 11 > 65535;
  size_t prefix = v2 ? 12 : 10;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');

  std::string out(kMagic);
  out.push_back(static_cast<char>(v2 ? 2 : 1));
  out.push_back(0);
  size_t length = header.size();
  for (size_t i = 0; i < (v2 ? 4u : 2u); ++i)
    out.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
  out += header;
  if (strings)
    out += stringData;
  else
    out.append(static_cast<const char *>(tensor.rawData()),
               tensor.totalBytes());
  return out;
}

Status writeNpyFile(const std::string &path, const Tensor &tensor) {
  StatusOr<std::string> bytes = encodeNpy(tensor);
  if (!bytes.ok())
    return bytes.status();
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return makeError(StatusCode::kPermissionDenied, "cannot write '%s'",
                     path.c_str());
  bool written =
      std::fwrite(bytes->data(), 1, bytes->size(), file) == bytes->size();
  if (std::fclose(file) != 0 || !written)
    return makeError(StatusCode::kDataLoss, "failed writing '%s'",
                     path.c_str());
  return OkStatus();
}

bool parseInteger(std::string_view text, int64_t *value) {
  // std::from_chars's rules for base 10 (an optional '-', then digits, all
  // of the text, within int64_t), without its code for every other base
  // (~1.4 KB of a shipped runtime).
  const bool negative = !text.empty() && text.front() == '-';
  if (negative)
    text.remove_prefix(1);
  if (text.empty())
    return false;
  const uint64_t limit = negative ? uint64_t(1) << 63 : INT64_MAX;
  uint64_t magnitude = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    const unsigned digit = c - '0';
    if (magnitude > (limit - digit) / 10)
      return false;
    magnitude = magnitude * 10 + digit;
  }
  *value = negative ? static_cast<int64_t>(0 - magnitude)
                    : static_cast<int64_t>(magnitude);
  return true;
}

} // namespace tfrt_fallback::rt
