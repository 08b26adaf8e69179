//===- SerializationKernels.cpp - Tensors to and from bytes -----*- C++ -*-===//
//
// TensorFlow's ops between tensors and bytes (core/kernels/
// string_format_op.cc, parse_tensor_op.cc, decode_raw_op.cc,
// decode_padded_raw_op.cc, whole_file_read_ops.cc; Tensor::SummarizeValue
// with print_v2 in framework/tensor.cc): StringFormat, SerializeTensor,
// DecodeRaw, DecodePaddedRaw, ReadFile and WriteFile.
//
// SerializeTensor writes the TensorProto wire format with ProtoWire.h (no
// protobuf): dtype (field 1), tensor_shape (2: one `dim` message per
// dimension holding its size, field 1, when non-zero), then tensor_content
// (4: the little-endian element bytes, omitted when empty) for numeric
// tensors or one string_val (8) per element for strings, in field order as
// protobuf's serializer writes them.
//
// ReadFile and WriteFile use POSIX calls on the local file system (TF's
// Env also takes gs://, s3:// ... paths) and report failures as TF's posix
// file system does: "<path>; <strerror>" with the code TF maps errno to.
// They are async kernels whose I/O runs on the host's blocking pool.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"
#include "strings/ProtoWire.h"

#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include "absl/strings/escaping.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

//===----------------------------------------------------------------------===//
// StringFormat
//===----------------------------------------------------------------------===//

/// TF's FloatToBuffer / DoubleToBuffer (LegacyPrecision): %.6g (%.15g for
/// doubles) when it reads back as the same value, else %.9g (%.17g); NaN as
/// "nan" or "-nan".
std::string legacyPrecision(double value, bool isDouble) {
  if (std::isnan(value))
    return std::signbit(value) ? "-nan" : "nan";
  char buffer[64];
  const int shortDigits = isDouble ? 15 : 6, longDigits = isDouble ? 17 : 9;
  std::snprintf(buffer, sizeof(buffer), "%.*g", shortDigits, value);
  const bool roundTrips =
      isDouble ? std::strtod(buffer, nullptr) == value
               : std::strtof(buffer, nullptr) == static_cast<float>(value);
  if (!roundTrips)
    std::snprintf(buffer, sizeof(buffer), "%.*g", longDigits, value);
  return buffer;
}

/// Whether TF's Tensor::SummarizeValue prints the elements of `dtype`:
/// numbers, bool, strings and the 8- and 16-bit quantized types (as their
/// integers). Complex numbers and qint32 (TF DataType 8, 18 and 13) print
/// as "?", as do resource and variant handles here (TF: "<summary>").
bool tfPrintsElements(DType dtype) {
  switch (static_cast<int>(dtype)) {
  case 8:  // complex64
  case 13: // qint32
  case 18: // complex128
  case 20: // resource
  case 21: // variant
    return false;
  default:
    return true;
  }
}

/// Whether T is a quantized element type (a struct holding its integer
/// `value`).
template <typename T, typename = void>
struct HasValueMember : std::false_type {};
template <typename T>
struct HasValueMember<T, std::void_t<decltype(std::declval<const T &>().value)>>
    : std::true_type {};

/// Element `i` of `t` as TF's PrintOneElement(..., print_v2) and
/// LegacyPrecision show it: integers in decimal, bool as 1 or 0, floats by
/// legacyPrecision (half and bfloat16 as floats), strings double-quoted and
/// C-escaped (bytes from 0x80 kept, Utf8SafeCEscape).
void appendElementV2(std::string *out, const Tensor &t, int64_t i) {
  if (t.dtype() == DType::String) {
    const std::string_view bytes = stringElements(t)[i];
    out->push_back('"');
    out->append(
        absl::Utf8SafeCEscape(absl::string_view(bytes.data(), bytes.size())));
    out->push_back('"');
    return;
  }
  (void)dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::Type;
    const T v = t.data<T>()[i];
    if constexpr (std::is_same_v<T, bool>)
      out->append(v ? "1" : "0");
    else if constexpr (HasValueMember<T>::value)
      out->append(std::to_string(static_cast<int64_t>(v.value)));
    else if constexpr (std::is_same_v<T, double>)
      out->append(legacyPrecision(v, true));
    else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                       std::is_same_v<T, bf16>)
      out->append(legacyPrecision(static_cast<float>(v), false));
    else if constexpr (std::is_unsigned_v<T>)
      out->append(std::to_string(static_cast<uint64_t>(v)));
    else if constexpr (std::is_integral_v<T>)
      out->append(std::to_string(static_cast<int64_t>(v)));
    else
      out->push_back('?');
  });
}

/// TF's PrintDimSpacing.
void printDimSpacing(int dim, int rank, std::string *out) {
  if (dim == rank - 1) {
    out->push_back(' ');
    return;
  }
  out->append(rank - dim - 1, '\n');
  out->append(dim + 1, ' ');
}

/// TF's PrintOneDimV2: each dim bracketed, its first and last `ends`
/// entries, "..." between them when more are left out.
void printOneDimV2(const Tensor &t, int dim, int64_t ends, int64_t index,
                   std::string *out) {
  const int rank = t.rank();
  if (dim == rank) {
    appendElementV2(out, t, index);
    return;
  }
  out->push_back('[');
  const int64_t count = t.dim(dim);
  const int64_t startOfEnd = std::max(ends, count - ends);
  int64_t stride = 1;
  for (int i = dim + 1; i < rank; ++i)
    stride *= t.dim(i);
  for (int64_t i = 0; i < ends && i < count; ++i) {
    if (i > 0)
      printDimSpacing(dim, rank, out);
    printOneDimV2(t, dim + 1, ends, index + stride * i, out);
  }
  if (count > 2 * ends) {
    printDimSpacing(dim, rank, out);
    out->append("...");
  }
  for (int64_t i = startOfEnd; i < count; ++i) {
    printDimSpacing(dim, rank, out);
    printOneDimV2(t, dim + 1, ends, index + stride * i, out);
  }
  out->push_back(']');
}

/// Tensor::SummarizeValue(summarize, print_v2 = true).
std::string summarizeValueV2(const Tensor &t, int64_t summarize) {
  const int64_t n = t.numElements();
  const int64_t limit = summarize < 0 ? n : std::min(summarize, n);
  std::string out;
  if (!tfPrintsElements(t.dtype())) {
    // TF's default case: a flat list of "?", bracketed unless a scalar.
    if (t.rank() > 0)
      out.push_back('[');
    for (int64_t i = 0; i < limit; ++i)
      out.append(i > 0 ? " ?" : "?");
    if ((summarize < 0 ? n : summarize) < n)
      out.append("...");
    if (t.rank() > 0)
      out.push_back(']');
    return out;
  }
  if (t.rank() == 0) {
    for (int64_t i = 0; i < limit; ++i) {
      if (i > 0)
        out.push_back(' ');
      appendElementV2(&out, t, i);
    }
    if (n > limit)
      out.append("...");
    return out;
  }
  printOneDimV2(t, 0, limit, 0, &out);
  return out;
}

/// StringFormat(inputs: T (a list of any dtypes); template = "%s",
/// placeholder = "%s", summarize = 3) -> string scalar: the template with
/// the i-th placeholder replaced by input i summarized as tf.print shows
/// it (the first and last `summarize` entries of each dim). "num
/// placeholders in template and num inputs must match: 2 vs. 1" when the
/// kernel is built. Template pieces end at a NUL byte, as TF appends them
/// as C strings.
class StringFormatKernel final : public OpKernel {
public:
  explicit StringFormatKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string text = "%s";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "template", &text));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "placeholder", &placeholder_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "summarize", &summarize_));
    // absl::StrSplit(text, placeholder): an empty placeholder splits into
    // single characters.
    if (placeholder_.empty()) {
      if (text.empty())
        pieces_.push_back("");
      for (char c : text)
        pieces_.push_back(std::string(1, c));
    } else {
      size_t start = 0;
      while (true) {
        const size_t at = text.find(placeholder_, start);
        if (at == std::string::npos)
          break;
        pieces_.push_back(text.substr(start, at - start));
        start = at + placeholder_.size();
      }
      pieces_.push_back(text.substr(start));
    }
    for (std::string &piece : pieces_)
      piece = piece.substr(0, piece.find('\0'));
    const int64_t placeholders = static_cast<int64_t>(pieces_.size()) - 1;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numInputs() == placeholders,
        errorf("num placeholders in template and num inputs must match: %d "
               "vs. %d",
               placeholders, ctx->numInputs()));
  }

  void compute(OpKernelContextInterface *ctx) override {
    std::string message = pieces_[0];
    for (int i = 0; i < ctx->numInputs(); ++i) {
      message += summarizeValueV2(ctx->input(i), summarize_);
      message += pieces_[i + 1];
    }
    const std::string_view view = message;
    StatusOr<Tensor> out = makeStringTensor(TensorShape(), {&view, 1});
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
    ctx->setOutput(0, *std::move(out));
  }

private:
  std::string placeholder_ = "%s";
  int32_t summarize_ = 3;
  std::vector<std::string> pieces_;
};

//===----------------------------------------------------------------------===//
// SerializeTensor
//===----------------------------------------------------------------------===//

/// SerializeTensor(tensor: T) -> string scalar: the tensor's TensorProto
/// as TF's AsProtoTensorContent (numbers, bool) or AsProtoField (strings)
/// fills it, serialized.
template <bool Strings> class SerializeTensorKernel final : public OpKernel {
public:
  explicit SerializeTensorKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    std::string proto;
    wire::appendVarint(&proto, 1 << 3 | 0);
    wire::appendVarint(&proto, static_cast<uint64_t>(in.dtype()));
    std::string shape;
    for (int64_t d : in.shape().dims()) {
      std::string dim;
      if (d != 0) {
        wire::appendVarint(&dim, 1 << 3 | 0);
        wire::appendVarint(&dim, static_cast<uint64_t>(d));
      }
      wire::appendBytesField(&shape, 2, dim);
    }
    wire::appendBytesField(&proto, 2, shape);
    if constexpr (Strings) {
      for (std::string_view s : stringElements(in))
        wire::appendBytesField(&proto, 8, s);
    } else if (in.numElements() > 0) {
      wire::appendBytesField(
          &proto, 4,
          std::string_view(static_cast<const char *>(in.rawData()),
                           in.totalBytes()));
    }
    const std::string_view view = proto;
    StatusOr<Tensor> out = makeStringTensor(TensorShape(), {&view, 1});
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
    ctx->setOutput(0, *std::move(out));
  }
};

//===----------------------------------------------------------------------===//
// DecodeRaw, DecodePaddedRaw
//===----------------------------------------------------------------------===//

/// TF's DataTypeString of the raw-decoding dtypes.
const char *tfTypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "half";
  case DType::BF16:
    return "bfloat16";
  case DType::F32:
    return "float";
  case DType::F64:
    return "double";
  case DType::I8:
    return "int8";
  case DType::I16:
    return "int16";
  case DType::I32:
    return "int32";
  case DType::I64:
    return "int64";
  case DType::U8:
    return "uint8";
  case DType::U16:
    return "uint16";
  case DType::Bool:
    return "bool";
  default:
    return "unknown";
  }
}

/// Copies `n` bytes of elements `size` wide from `src` to `dst`, reversing
/// each element's bytes unless `littleEndian` (data in the host's order).
void copyElements(char *dst, const char *src, size_t n, size_t size,
                  bool littleEndian) {
  if (littleEndian || size == 1) {
    std::memcpy(dst, src, n);
    return;
  }
  for (size_t i = 0; i + size <= n; i += size)
    std::reverse_copy(src + i, src + i + size, dst + i);
}

/// `in`'s shape with `last` appended, failing like TensorShape::create.
Status appendDim(const OpKernel &op, const TensorShape &in, int64_t last,
                 TensorShape *out) {
  TensorShape::Dims dims(in.dims().begin(), in.dims().end());
  dims.push_back(last);
  StatusOr<TensorShape> s = TensorShape::create(dims);
  if (!s.ok())
    return s.status();
  *out = *std::move(s);
  return OkStatus();
}

/// DecodeRaw(bytes: string; out_type, little_endian = true) -> out_type:
/// every string reinterpreted as elements of out_type, a new last dim.
/// The strings must have one size ("DecodeRaw requires input strings to
/// all be the same size, but element 1 has size 4 != 3"), a multiple of
/// the element size. Bool elements are normalized to 0 or 1 (TF copies the
/// byte, an invalid bool when it is not 0 or 1).
class DecodeRawKernel final : public OpKernel {
public:
  explicit DecodeRawKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "little_endian", &littleEndian_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkInputDType(*this, ctx, 0, DType::String));
    const Tensor &in = ctx->input(0);
    const auto elements = stringElements(in);
    int64_t size = -1;
    for (int64_t i = 0; i < in.numElements(); ++i) {
      const int64_t n = static_cast<int64_t>(elements[i].size());
      if (size == -1)
        size = n;
      else
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, size == n,
            errorf("DecodeRaw requires input strings to all be the same "
                   "size, but element %d has size %d != %d",
                   i, size, n));
    }
    TensorShape shape;
    Tensor *out = nullptr;
    if (size <= 0) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   appendDim(*this, in.shape(), 0, &shape));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
      return;
    }
    const DType dtype = outputDTypes()[0];
    const int64_t width = static_cast<int64_t>(dtypeSize(dtype));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, size % width == 0,
        errorf("Input to DecodeRaw has length %d that is not a multiple of "
               "%d, the size of %s",
               size, width, tfTypeName(dtype)));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, appendDim(*this, in.shape(), size / width, &shape));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    char *dst = static_cast<char *>(out->rawData());
    for (int64_t i = 0; i < in.numElements(); ++i) {
      char *row = dst + i * size;
      copyElements(row, elements[i].data(), static_cast<size_t>(size),
                   static_cast<size_t>(width), littleEndian_);
      if (dtype == DType::Bool)
        for (int64_t j = 0; j < size; ++j)
          row[j] = row[j] != 0;
    }
  }

private:
  bool littleEndian_ = true;
};

/// DecodePaddedRaw(input_bytes: string, fixed_length: int32;
/// out_type, little_endian = true) -> out_type: every string as
/// fixed_length / size elements, cut at fixed_length bytes or padded with
/// zeros (big-endian: a short last element is zero-extended before its
/// bytes are reversed). TF's errors: "k must be scalar, got shape [2]",
/// "fixed_length (6) must be a multiple of the size of out_type (4)",
/// "fixed_length (0) must be greater than zero.".
class DecodePaddedRawKernel final : public OpKernel {
public:
  explicit DecodePaddedRawKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "little_endian", &littleEndian_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkInputDType(*this, ctx, 0, DType::String));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkInputDType(*this, ctx, 1, DType::I32));
    const Tensor &in = ctx->input(0);
    const Tensor &lengthT = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, lengthT.rank() == 0,
        errorf("k must be scalar, got shape %s", lengthT.shape().toString()));
    const int32_t length = lengthT.data<int32_t>()[0];
    const DType dtype = outputDTypes()[0];
    const size_t width = dtypeSize(dtype);
    // TF computes fixed_length % sizeof(T) in size_t.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, static_cast<uint64_t>(static_cast<int64_t>(length)) % width == 0,
        errorf("fixed_length (%d) must be a multiple of the size of out_type "
               "(%d)",
               length, width));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, length > 0,
        errorf("fixed_length (%d) must be greater than zero.", length));
    TensorShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, appendDim(*this, in.shape(), length / static_cast<int64_t>(width),
                       &shape));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    char *dst = static_cast<char *>(out->rawData());
    const auto elements = stringElements(in);
    for (int64_t i = 0; i < in.numElements(); ++i) {
      char *row = dst + i * static_cast<int64_t>(length);
      std::memset(row, 0, static_cast<size_t>(length));
      const size_t toCopy =
          std::min(elements[i].size(), static_cast<size_t>(length));
      const char *src = elements[i].data();
      if (littleEndian_ || width == 1) {
        std::memcpy(row, src, toCopy);
        continue;
      }
      const size_t whole = toCopy / width * width;
      copyElements(row, src, whole, width, false);
      // A partial last element: its bytes reversed into the element's end.
      const size_t trailing = toCopy - whole;
      if (trailing > 0)
        std::reverse_copy(src + whole, src + toCopy,
                          row + whole + (width - trailing));
    }
  }

private:
  bool littleEndian_ = true;
};

//===----------------------------------------------------------------------===//
// ReadFile, WriteFile
//===----------------------------------------------------------------------===//

/// TF's ErrnoToCode for the errors file calls give.
StatusCode errnoCode(int error) {
  switch (error) {
  case 0:
    return StatusCode::kOk;
  case EINVAL:
  case ENAMETOOLONG:
  case EFAULT:
  case ESPIPE:
    return StatusCode::kInvalidArgument;
  case ENOENT:
  case ENODEV:
  case ENXIO:
    return StatusCode::kNotFound;
  case EEXIST:
    return StatusCode::kAlreadyExists;
  case EPERM:
  case EACCES:
  case EROFS:
    return StatusCode::kPermissionDenied;
  case ENOTEMPTY:
  case EBUSY:
  case EISDIR:
  case ENOTDIR:
  case ETXTBSY:
    return StatusCode::kFailedPrecondition;
  case ENOSPC:
  case EMFILE:
  case EMLINK:
  case ENFILE:
  case ENOMEM:
  case EDQUOT:
    return StatusCode::kResourceExhausted;
  case EFBIG:
  case EOVERFLOW:
  case ERANGE:
    return StatusCode::kOutOfRange;
  case EAGAIN:
  case EINTR:
    return StatusCode::kUnavailable;
  default:
    return StatusCode::kUnknown;
  }
}

/// TF's IOError(context, errno): "<context>; <strerror>".
Status ioError(const OpKernel &op, const std::string &context, int error) {
  return makeOpError(errnoCode(error), op.opName(), op.nodeName(),
                     strCat(context, "; ", std::strerror(error)));
}

/// The whole file at `path`.
Status readWholeFile(const OpKernel &op, const std::string &path,
                     std::string *contents) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return ioError(op, path, errno);
  contents->clear();
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      const int error = errno;
      ::close(fd);
      return ioError(op, path, error);
    }
    if (n == 0)
      break;
    if (contents->size() + static_cast<size_t>(n) > TensorBuffer::kMaxBytes) {
      ::close(fd);
      return makeOpError(StatusCode::kResourceExhausted, op.opName(),
                         op.nodeName(),
                         strCat(path, " is larger than a string tensor can "
                                      "hold"));
    }
    contents->append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return OkStatus();
}

/// TF's io::Dirname: the part before the last '/' ("/" for a file in
/// the root, "" for a bare name).
std::string dirname(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return "";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

/// Env::RecursivelyCreateDir: every missing directory of `dir`.
Status createDirs(const OpKernel &op, const std::string &dir) {
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    const std::string prefix = dir.substr(0, pos);
    if (prefix.empty())
      continue;
    struct stat st;
    if (::stat(prefix.c_str(), &st) == 0)
      continue;
    if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
      return ioError(op, prefix, errno);
  }
  return OkStatus();
}

/// Writes `bytes` to `path` (created or truncated), creating its missing
/// parent directories first.
Status writeWholeFile(const OpKernel &op, const std::string &path,
                      std::string_view bytes) {
  const std::string dir = dirname(path);
  struct stat st;
  if (!dir.empty() && ::stat(dir.c_str(), &st) != 0)
    if (Status s = createDirs(op, dir); !s.ok())
      return s;
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return ioError(op, path, errno);
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n =
        ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return ioError(op, path, error);
    }
    written += static_cast<size_t>(n);
  }
  if (::close(fd) != 0)
    return ioError(op, path, errno);
  return OkStatus();
}

/// Checks that inputs [0, n) are string scalars with TF's messages
/// ("Input filename tensor must be scalar, but had shape: [2]", "Contents
/// tensor must be scalar, ...").
Status checkFileOperands(const OpKernel &op, OpKernelContextInterface *ctx,
                         int n) {
  for (int i = 0; i < n; ++i) {
    if (Status s = checkInputDType(op, ctx, i, DType::String); !s.ok())
      return s;
    const Tensor &t = ctx->input(i);
    if (t.rank() != 0)
      return op.errorf("%s tensor must be scalar, but had shape: %s",
                       i == 0 ? "Input filename" : "Contents",
                       t.shape().toString());
  }
  return OkStatus();
}

/// ReadFile(filename: string scalar) -> string scalar: the file's bytes.
/// The read runs on the host's blocking pool, off the compute threads.
class ReadFileKernel final : public AsyncOpKernel {
public:
  explicit ReadFileKernel(OpKernelConstructionInterface *ctx)
      : AsyncOpKernel(ctx) {}

  void computeAsync(OpKernelContextInterface *ctx, DoneCallback done) override {
    if (Status s = checkFileOperands(*this, ctx, 1); !s.ok()) {
      ctx->ctxFailure(std::move(s));
      return std::move(done)();
    }
    std::string path(stringElements(ctx->input(0))[0]);
    ctx->host().enqueueBlockingWork(
        [this, ctx, path = std::move(path), done = std::move(done)]() mutable {
          std::string contents;
          Status s = readWholeFile(*this, path, &contents);
          if (s.ok()) {
            const std::string_view view = contents;
            StatusOr<Tensor> out = makeStringTensor(TensorShape(), {&view, 1});
            if (out.ok())
              ctx->setOutput(0, *std::move(out));
            else
              s = out.status();
          }
          if (!s.ok())
            ctx->ctxFailure(std::move(s));
          std::move(done)();
        });
  }
};

/// WriteFile(filename: string scalar, contents: string scalar): writes
/// (replaces) the file, creating its missing parent directories as TF
/// does; on the host's blocking pool.
class WriteFileKernel final : public AsyncOpKernel {
public:
  explicit WriteFileKernel(OpKernelConstructionInterface *ctx)
      : AsyncOpKernel(ctx) {}

  void computeAsync(OpKernelContextInterface *ctx, DoneCallback done) override {
    if (Status s = checkFileOperands(*this, ctx, 2); !s.ok()) {
      ctx->ctxFailure(std::move(s));
      return std::move(done)();
    }
    ctx->host().enqueueBlockingWork([this, ctx,
                                     done = std::move(done)]() mutable {
      // The context keeps its inputs, and so the contents' bytes, alive
      // until `done`.
      const std::string path(stringElements(ctx->input(0))[0]);
      Status s = writeWholeFile(*this, path, stringElements(ctx->input(1))[0]);
      if (!s.ok())
        ctx->ctxFailure(std::move(s));
      std::move(done)();
    });
  }
};

constexpr DType kDecodeRawTypes[] = {
    DType::F16, DType::F32, DType::F64, DType::I32, DType::U16,
    DType::U8,  DType::I16, DType::I8,  DType::I64, DType::Bool};
constexpr DType kDecodePaddedRawTypes[] = {DType::F32, DType::F64, DType::I32,
                                           DType::U16, DType::U8,  DType::I16,
                                           DType::I8,  DType::I64, DType::BF16};

} // namespace

void registerSerializationKernels(KernelRegistry &registry) {
  registerKernel<OpId::kStringFormat, StringFormatKernel>(registry);
  registerKernel<OpId::kSerializeTensor, SerializeTensorKernel<false>>(
      registry, {{"T", kAllDTypes}});
  registerStringKernel<OpId::kSerializeTensor, SerializeTensorKernel<true>>(
      registry);
  registerKernel<OpId::kDecodeRaw, DecodeRawKernel>(
      registry, {{"out_type", kDecodeRawTypes}});
  registerKernel<OpId::kDecodePaddedRaw, DecodePaddedRawKernel>(
      registry, {{"out_type", kDecodePaddedRawTypes}});
  registerKernel<OpId::kReadFile, ReadFileKernel>(registry);
  registerKernel<OpId::kWriteFile, WriteFileKernel>(registry);
}

} // namespace tfrt_fallback::rt
