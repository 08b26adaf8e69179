//===- StringOpsKernels.cpp - Joins, splits, case, substrings ---*- C++ -*-===//
//
// TensorFlow's byte-string ops (tensorflow/core/kernels/string_join_op.cc,
// reduce_join_op.cc, unsorted_segment_join_op.cc, string_split_op.cc,
// string_length_op.cc, string_lower_op.cc, string_upper_op.cc,
// string_strip_op.cc, substr_op.cc, base64_ops.cc): StringJoin,
// ReduceJoin, UnsortedSegmentJoin, StringSplit, StringSplitV2,
// StringLength, StringLower, StringUpper, StringStrip, Substr,
// EncodeBase64 and DecodeBase64. Strings are bytes; the UTF-8 units
// (StringLength, Substr) count the bytes that do not continue a character
// (0b10xxxxxx), as TF does, without validating. Each output is a string
// tensor of its own (makeStringTensor), never a view of an input.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Sets output `index` to a string tensor of `shape` holding `values`.
template <typename S>
void emitStrings(OpKernelContextInterface *ctx, int index,
                 const TensorShape &shape, const std::vector<S> &values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  StatusOr<Tensor> out = makeStringTensor(shape, views);
  if (!out.ok())
    return ctx->ctxFailure(out.status());
  ctx->setOutput(index, *std::move(out));
}

bool isTrailByte(char c) { return static_cast<signed char>(c) < -0x40; }

bool isAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}

//===----------------------------------------------------------------------===//
// Joins
//===----------------------------------------------------------------------===//

/// StringJoin(inputs: N*string; separator = ""): the elementwise join of
/// the inputs; scalars broadcast, every other input has one shape ("Input
/// shapes do not match: [2] vs. [3]"). All scalars give a scalar.
class StringJoinKernel final : public OpKernel {
public:
  explicit StringJoinKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "separator", &separator_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int n = ctx->numInputs();
    TensorShape shape;
    for (int i = 0; i < n; ++i) {
      const TensorShape &s = ctx->input(i).shape();
      if (s.isScalar())
        continue;
      if (shape.isScalar())
        shape = s;
      else
        TFRT_FALLBACK_OP_REQUIRES(ctx, shape == s,
                                  errorf("Input shapes do not match: %s vs. %s",
                                         shape.toString(), s.toString()));
    }
    std::vector<std::string> out(shape.numElements());
    for (int64_t e = 0; e < shape.numElements(); ++e)
      for (int i = 0; i < n; ++i) {
        const Tensor &t = ctx->input(i);
        if (i > 0)
          out[e] += separator_;
        out[e] += stringElements(t)[t.shape().isScalar() ? 0 : e];
      }
    emitStrings(ctx, 0, shape, out);
  }

private:
  std::string separator_;
};

/// ReduceJoin(inputs: string, reduction_indices: int32; keep_dims = false,
/// separator = ""): joins along the listed dims, the first listed varying
/// fastest (TF reverses the list and walks the last of it innermost).
/// Negative dims count from the end; "Invalid reduction dimension 2 for
/// input with 2 dimension(s)" (OutOfRange), "Duplicate reduction dimension
/// 1". No dims: the input, copied.
class ReduceJoinKernel final : public OpKernel {
public:
  explicit ReduceJoinKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "keep_dims", &keepDims_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "separator", &separator_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &axes = ctx->input(1);
    const int rank = in.rank();
    std::vector<bool> reduced(rank, false);
    std::vector<int> order; // Innermost (fastest) first.
    for (int64_t i = 0; i < axes.numElements(); ++i) {
      const int32_t a = axes.data<int32_t>()[i];
      if (a < -rank || a >= rank)
        return ctx->ctxFailure(
            makeOpError(StatusCode::kOutOfRange, opName(), nodeName(),
                        strCat("Invalid reduction dimension ", a,
                               " for input with ", rank, " dimension(s)")));
      const int d = a < 0 ? a + rank : a;
      TFRT_FALLBACK_OP_REQUIRES(ctx, !reduced[d],
                                errorf("Duplicate reduction dimension %d", a));
      reduced[d] = true;
      order.push_back(d);
    }
    std::vector<int64_t> strides(rank);
    int64_t acc = 1;
    for (int d = rank - 1; d >= 0; --d) {
      strides[d] = acc;
      acc *= in.dim(d);
    }
    TensorShape::Dims outDims;
    std::vector<int> kept;
    for (int d = 0; d < rank; ++d) {
      if (!reduced[d])
        kept.push_back(d);
      if (!reduced[d] || keepDims_)
        outDims.push_back(reduced[d] ? 1 : in.dim(d));
    }
    const TensorShape outShape(outDims);
    int64_t count = 1;
    for (int d : order)
      count *= in.dim(d);
    auto values = stringElements(in);
    std::vector<std::string> out(outShape.numElements());
    for (int64_t o = 0; o < outShape.numElements(); ++o) {
      int64_t base = 0, rest = o;
      for (int k = static_cast<int>(kept.size()) - 1; k >= 0; --k) {
        base += (rest % in.dim(kept[k])) * strides[kept[k]];
        rest /= in.dim(kept[k]);
      }
      for (int64_t r = 0; r < count; ++r) {
        int64_t off = base, q = r;
        for (int d : order) {
          off += (q % in.dim(d)) * strides[d];
          q /= in.dim(d);
        }
        if (r > 0)
          out[o] += separator_;
        out[o] += values[off];
      }
    }
    emitStrings(ctx, 0, outShape, out);
  }

private:
  bool keepDims_ = false;
  std::string separator_;
};

/// UnsortedSegmentJoin(inputs: string, segment_ids: Tindices,
/// num_segments: Tnumsegments; separator = ""): output [num_segments] +
/// inputs.shape[rank(segment_ids):], each segment the join of its rows in
/// order; the separator goes only after a non-empty prefix (TF appends it
/// when the segment's string so far is not empty). TF's checks and
/// messages.
class UnsortedSegmentJoinKernel final : public OpKernel {
public:
  explicit UnsortedSegmentJoinKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "separator", &separator_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &ids = ctx->input(1);
    const Tensor &num = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(ctx, num.numElements() != 0,
                              errorf("Number of segments cannot be empty."));
    const int64_t segments = indexAt(num, 0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, ids.rank() != 0,
                              errorf("Segment_id cannot have rank 0"));
    if (ids.rank() > in.rank())
      return ctx->ctxFailure(
          makeOpError(StatusCode::kOutOfRange, opName(), nodeName(),
                      strCat("Invalid segment_id rank ", ids.rank(),
                             " for input with ", in.rank(), " dimension(s)")));
    for (int d = 0; d < ids.rank(); ++d)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ids.dim(d) == in.dim(d),
          errorf("Segment dimension is %d while input dimension is %d in "
                 "rank %d",
                 ids.dim(d), in.rank(), d));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, segments >= 0,
        errorf("Number of segments must be non-negative, got %d", segments));
    for (int64_t i = 0; i < ids.numElements(); ++i) {
      const int64_t s = indexAt(ids, i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s >= 0 && s < segments,
          errorf("segment_ids are not allowed to exceed num_segments or to "
                 "have negative values."));
    }
    int64_t inner = 1;
    TensorShape::Dims outDims{segments};
    for (int d = ids.rank(); d < in.rank(); ++d) {
      inner *= in.dim(d);
      outDims.push_back(in.dim(d));
    }
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        outShape->numElements() <=
            static_cast<int64_t>(TensorBuffer::kMaxBytes / kStringElementSize),
        errorf("output of shape %s is too large", outShape->toString()));
    auto values = stringElements(in);
    std::vector<std::string> out(outShape->numElements());
    for (int64_t i = 0; i < ids.numElements(); ++i) {
      const int64_t s = indexAt(ids, i);
      for (int64_t j = 0; j < inner; ++j) {
        std::string &o = out[s * inner + j];
        if (!o.empty())
          o += separator_;
        o += values[i * inner + j];
      }
    }
    emitStrings(ctx, 0, *outShape, out);
  }

private:
  std::string separator_;
};

//===----------------------------------------------------------------------===//
// Splits
//===----------------------------------------------------------------------===//

/// Writes the sparse result of a split of a batch: indices [n, 2] (row,
/// position), values [n], dense shape [batch, longest].
void emitSplit(OpKernelContextInterface *ctx,
               const std::vector<std::vector<std::string_view>> &rows) {
  int64_t total = 0, longest = 0;
  for (const auto &r : rows) {
    total += static_cast<int64_t>(r.size());
    longest = std::max<int64_t>(longest, r.size());
  }
  Tensor *indices = nullptr, *shape = nullptr;
  if (Status s = ctx->allocateOutput(0, TensorShape{total, 2}, &indices);
      !s.ok())
    return ctx->ctxFailure(s);
  std::vector<std::string_view> values;
  values.reserve(total);
  int64_t *pi = indices->data<int64_t>();
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < rows[i].size(); ++j) {
      *pi++ = static_cast<int64_t>(i);
      *pi++ = static_cast<int64_t>(j);
      values.push_back(rows[i][j]);
    }
  emitStrings(ctx, 1, TensorShape{total}, values);
  if (Status s = ctx->allocateOutput(2, TensorShape{2}, &shape); !s.ok())
    return ctx->ctxFailure(s);
  shape->data<int64_t>()[0] = static_cast<int64_t>(rows.size());
  shape->data<int64_t>()[1] = longest;
}

/// Checks the common operands of the splits: a vector input and a scalar
/// delimiter (TF's messages with `what` naming it).
Status checkSplitOperands(const OpKernel &op, OpKernelContextInterface *ctx,
                          const char *what) {
  const Tensor &in = ctx->input(0);
  if (in.rank() != 1)
    return op.errorf("input must be a vector, got shape: %s",
                     in.shape().toString());
  if (!ctx->input(1).shape().isScalar())
    return op.errorf("%s must be a scalar, got shape: %s", what,
                     ctx->input(1).shape().toString());
  return OkStatus();
}

/// StringSplit(input: string [n], delimiter: string []; skip_empty =
/// true): splits each string at every byte of the delimiter (a set of
/// bytes); an empty delimiter splits into single bytes, an empty string
/// gives no tokens; skip_empty drops empty tokens.
class StringSplitKernel final : public OpKernel {
public:
  explicit StringSplitKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "skip_empty", &skipEmpty_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkSplitOperands(*this, ctx, "delimiter"));
    const std::string_view delims = stringElements(ctx->input(1))[0];
    std::vector<std::vector<std::string_view>> rows;
    for (std::string_view s : stringElements(ctx->input(0))) {
      std::vector<std::string_view> &row = rows.emplace_back();
      if (s.empty())
        continue;
      if (delims.empty()) {
        for (size_t i = 0; i < s.size(); ++i)
          row.push_back(s.substr(i, 1));
        continue;
      }
      size_t start = 0;
      for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || delims.find(s[i]) != std::string_view::npos) {
          if (!skipEmpty_ || i > start)
            row.push_back(s.substr(start, i - start));
          start = i + 1;
        }
    }
    emitSplit(ctx, rows);
  }

private:
  bool skipEmpty_ = true;
};

/// StringSplitV2(input: string [n], sep: string []; maxsplit = -1): Python's
/// str.split as TF implements it. A non-empty sep splits at each
/// occurrence, keeping empty tokens ("" gives [""]); an empty sep splits
/// at runs of ASCII whitespace, dropping leading and trailing ones. At
/// most maxsplit splits (when > 0); the remainder is the last token (after
/// whitespace: its leading whitespace removed, possibly empty); maxsplit 0
/// gives the whole string.
class StringSplitV2Kernel final : public OpKernel {
public:
  explicit StringSplitV2Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "maxsplit", &maxSplit_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkSplitOperands(*this, ctx, "sep"));
    const std::string_view sep = stringElements(ctx->input(1))[0];
    std::vector<std::vector<std::string_view>> rows;
    for (std::string_view s : stringElements(ctx->input(0)))
      split(s, sep, &rows.emplace_back());
    emitSplit(ctx, rows);
  }

private:
  void split(std::string_view text, std::string_view sep,
             std::vector<std::string_view> *out) const {
    if (maxSplit_ == 0) {
      out->push_back(text);
      return;
    }
    auto skipSpace = [&] {
      while (!text.empty() && isAsciiSpace(text.front()))
        text.remove_prefix(1);
    };
    int64_t splits = 0;
    if (sep.empty()) {
      skipSpace();
      while (!text.empty()) {
        size_t n = 0;
        while (n < text.size() && !isAsciiSpace(text[n]))
          ++n;
        out->push_back(text.substr(0, n));
        text.remove_prefix(n);
        skipSpace();
        if (maxSplit_ > 0 && ++splits == maxSplit_) {
          out->push_back(text);
          return;
        }
      }
      return;
    }
    for (size_t at = text.find(sep); at != std::string_view::npos;
         at = text.find(sep)) {
      out->push_back(text.substr(0, at));
      text.remove_prefix(at + sep.size());
      if (maxSplit_ > 0 && ++splits == maxSplit_)
        break;
    }
    out->push_back(text);
  }

  int64_t maxSplit_ = -1;
};

//===----------------------------------------------------------------------===//
// Elementwise string ops
//===----------------------------------------------------------------------===//

/// Parses TF's character unit attribute (BYTE, UTF8_CHAR).
Status parseUnit(const OpKernel &op, OpKernelConstructionInterface *ctx,
                 bool *utf8) {
  std::string unit = "BYTE";
  if (Status s = getOptionalAttr(ctx, "unit", &unit); !s.ok())
    return s;
  if (unit != "BYTE" && unit != "UTF8_CHAR")
    return op.errorf("Invalid unit \"%s\": Should be one of: BYTE, UTF8_CHAR",
                     unit);
  *utf8 = unit == "UTF8_CHAR";
  return OkStatus();
}

/// StringLength(input: string; unit = BYTE) -> int32: bytes, or UTF-8
/// characters (the bytes that are not continuation bytes).
class StringLengthKernel final : public OpKernel {
public:
  explicit StringLengthKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, parseUnit(*this, ctx, &utf8_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    int32_t *po = out->data<int32_t>();
    for (std::string_view s : stringElements(in)) {
      int64_t n = static_cast<int64_t>(s.size());
      if (utf8_)
        n -= std::count_if(s.begin(), s.end(), isTrailByte);
      *po++ = static_cast<int32_t>(n);
    }
  }

private:
  bool utf8_ = false;
};

/// StringLower / StringUpper(input: string; encoding = ""): ASCII case
/// mapping of every byte. encoding "utf-8" (ICU's full Unicode case
/// mapping in TF) is Unimplemented here; any other value is TF's
/// "only utf-8 or '' (no encoding) is supported, received X".
template <bool Upper> class StringCaseKernel final : public OpKernel {
public:
  explicit StringCaseKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string encoding;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "encoding", &encoding));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, encoding.empty() || encoding == "utf-8",
        errorf("only utf-8 or '' (no encoding) is supported, received %s",
               encoding));
    if (!encoding.empty())
      ctx->ctxFailure(makeOpError(
          StatusCode::kUnimplemented, opName(), nodeName(),
          "encoding 'utf-8' needs ICU's Unicode case mapping, which this "
          "runtime does not carry; use encoding ''"));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    std::vector<std::string> out;
    out.reserve(in.numElements());
    for (std::string_view s : stringElements(in)) {
      std::string &o = out.emplace_back(s);
      for (char &c : o)
        if (Upper ? (c >= 'a' && c <= 'z') : (c >= 'A' && c <= 'Z'))
          c = static_cast<char>(c ^ 0x20);
    }
    emitStrings(ctx, 0, in.shape(), out);
  }
};

/// StringStrip(input: string): without leading and trailing ASCII
/// whitespace (space, \t, \n, \v, \f, \r).
class StringStripKernel final : public OpKernel {
public:
  explicit StringStripKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    std::vector<std::string_view> out;
    out.reserve(in.numElements());
    for (std::string_view s : stringElements(in)) {
      while (!s.empty() && isAsciiSpace(s.front()))
        s.remove_prefix(1);
      while (!s.empty() && isAsciiSpace(s.back()))
        s.remove_suffix(1);
      out.push_back(s);
    }
    emitStrings(ctx, 0, in.shape(), out);
  }
};

/// Substr(input: string, pos: T, len: T; unit = BYTE), T int32 or int64:
/// input[pos:pos + len], a negative pos counting from the end, len capped
/// at the end (a negative len: to the end in bytes, nothing in UTF-8
/// characters, as TF's string_view arithmetic gives). pos and len have one
/// shape, scalar or broadcast against the input (NumPy rules; TF's kernel
/// broadcasts up to rank 2). A pos outside [-size, size] fails: "pos 5 out
/// of range for string b'abc' at index 0" (BYTE), "pos 5 out of range for
/// string at index 0" (UTF8_CHAR).
template <typename T> class SubstrKernel final : public OpKernel {
public:
  explicit SubstrKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, parseUnit(*this, ctx, &utf8_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &pos = ctx->input(1);
    const Tensor &len = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, pos.shape() == len.shape(),
        errorf("pos and len should have the same shape, got: %s vs. %s",
               pos.shape().toString(), len.shape().toString()));
    const char *typeName = std::is_same_v<T, int32_t> ? "int32" : "int64";
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, pos.numElements() > 0,
        errorf("received empty tensor pos_tensor: Tensor<type: %s shape: %s "
               "values: >",
               typeName, pos.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, len.numElements() > 0,
        errorf("received empty tensor len_tensor: Tensor<type: %s shape: %s "
               "values: >",
               typeName, len.shape().toString()));
    // The broadcast shape and each operand's strides along it.
    const int rank = std::max(in.rank(), pos.rank());
    std::vector<int64_t> dims(rank), sIn(rank, 0), sPos(rank, 0);
    int64_t accIn = 1, accPos = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int di = d - (rank - in.rank()), dp = d - (rank - pos.rank());
      const int64_t a = di >= 0 ? in.dim(di) : 1;
      const int64_t b = dp >= 0 ? pos.dim(dp) : 1;
      TFRT_FALLBACK_OP_REQUIRES(ctx, a == b || a == 1 || b == 1,
                                errorf("Incompatible shapes: %s vs. %s",
                                       in.shape().toString(),
                                       pos.shape().toString()));
      dims[d] = a == 1 ? b : a;
      sIn[d] = a == 1 ? 0 : accIn;
      sPos[d] = b == 1 ? 0 : accPos;
      accIn *= a;
      accPos *= b;
    }
    const TensorShape outShape(dims);
    auto values = stringElements(in);
    const T *pp = pos.data<T>(), *pl = len.data<T>();
    std::vector<std::string_view> out;
    out.reserve(outShape.numElements());
    std::vector<int64_t> idx(rank, 0);
    int64_t oi = 0, op = 0;
    for (int64_t e = 0; e < outShape.numElements(); ++e) {
      const std::string_view s = values[oi];
      std::string_view sub;
      if (!substr(s, pp[op], pl[op], &sub)) {
        if (utf8_)
          return ctx->ctxFailure(
              errorf("pos %d out of range for string at index %d",
                     int64_t(pp[op]), e));
        return ctx->ctxFailure(
            errorf("pos %d out of range for string b'%s' at index %d",
                   int64_t(pp[op]), s, e));
      }
      out.push_back(sub);
      for (int d = rank - 1; d >= 0; --d) {
        oi += sIn[d];
        op += sPos[d];
        if (++idx[d] < dims[d])
          break;
        oi -= sIn[d] * dims[d];
        op -= sPos[d] * dims[d];
        idx[d] = 0;
      }
    }
    emitStrings(ctx, 0, outShape, out);
  }

private:
  bool substr(std::string_view s, int64_t pos, int64_t len,
              std::string_view *out) const {
    const int64_t size = static_cast<int64_t>(s.size());
    if (!utf8_) {
      if (pos < 0)
        pos += size;
      if (pos < 0 || pos > size)
        return false;
      *out = s.substr(pos, len < 0 ? std::string_view::npos : size_t(len));
      return true;
    }
    auto forward = [&](int64_t n, int64_t *at) {
      int64_t counted = 0;
      while (counted < n && *at < size) {
        do
          ++*at;
        while (*at < size && isTrailByte(s[*at]));
        ++counted;
      }
      return counted == n;
    };
    auto back = [&](int64_t n, int64_t *at) {
      int64_t counted = 0;
      while (counted < n && *at > 0) {
        do
          --*at;
        while (*at > 0 && isTrailByte(s[*at]));
        ++counted;
      }
      return counted == n;
    };
    int64_t start = 0, end = 0;
    if (pos >= 0) {
      if (!forward(pos, &start))
        return false;
      end = start;
      forward(len, &end);
    } else {
      end = size;
      const int64_t skip = std::max<int64_t>(0, -pos - len);
      if (!back(skip, &end))
        return false;
      start = end;
      if (!back(-pos - skip, &start))
        return false;
    }
    *out = s.substr(start, end - start);
    return true;
  }

  bool utf8_ = false;
};

//===----------------------------------------------------------------------===//
// Base64 (web-safe alphabet)
//===----------------------------------------------------------------------===//

constexpr char kBase64Chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The 6-bit value of web-safe base64 character `c`, -1 if it is none.
int base64Value(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '-')
    return 62;
  if (c == '_')
    return 63;
  return -1;
}

/// EncodeBase64(input: string; pad = false): web-safe base64 ('-', '_'),
/// '=' padding to a multiple of 4 when pad.
class EncodeBase64Kernel final : public OpKernel {
public:
  explicit EncodeBase64Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "pad", &pad_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    std::vector<std::string> out;
    out.reserve(in.numElements());
    for (std::string_view s : stringElements(in)) {
      std::string &o = out.emplace_back();
      o.reserve((s.size() + 2) / 3 * 4);
      size_t i = 0;
      auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
      for (; i + 3 <= s.size(); i += 3) {
        const uint32_t v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
        for (int k = 18; k >= 0; k -= 6)
          o += kBase64Chars[v >> k & 63];
      }
      const size_t rest = s.size() - i;
      if (rest > 0) {
        const uint32_t v = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0u);
        o += kBase64Chars[v >> 18 & 63];
        o += kBase64Chars[v >> 12 & 63];
        if (rest == 2)
          o += kBase64Chars[v >> 6 & 63];
        if (pad_)
          o.append(3 - rest, '=');
      }
    }
    emitStrings(ctx, 0, in.shape(), out);
  }

private:
  bool pad_ = false;
};

/// DecodeBase64(input: string): web-safe base64 with or without padding
/// (one or two '=' closing the last group of four). "Invalid character
/// found in base64.", "Base64 string length cannot be 1 modulo 4." (TF's
/// decoder: bits below the last whole byte are ignored).
class DecodeBase64Kernel final : public OpKernel {
public:
  explicit DecodeBase64Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    std::vector<std::string> out;
    out.reserve(in.numElements());
    for (std::string_view s : stringElements(in)) {
      std::string &o = out.emplace_back();
      if (s.size() % 4 == 0 && !s.empty()) {
        if (s[s.size() - 1] == '=')
          s.remove_suffix(s[s.size() - 2] == '=' ? 2 : 1);
      }
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s.size() % 4 != 1,
          errorf("Base64 string length cannot be 1 modulo 4."));
      uint32_t acc = 0;
      int bits = 0;
      for (char c : s) {
        const int v = base64Value(c);
        TFRT_FALLBACK_OP_REQUIRES(ctx, v >= 0,
                                  errorf("Invalid character found in base64."));
        acc = acc << 6 | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          o += static_cast<char>(acc >> bits & 0xFF);
        }
      }
    }
    emitStrings(ctx, 0, in.shape(), out);
  }
};

} // namespace

void registerStringOpsKernels(KernelRegistry &registry) {
  registerKernel<OpId::kStringJoin, StringJoinKernel>(registry);
  registerKernel<OpId::kReduceJoin, ReduceJoinKernel>(registry);
  registerKernel<OpId::kUnsortedSegmentJoin, UnsortedSegmentJoinKernel>(
      registry, {{"Tindices", {DType::I32, DType::I64}},
                 {"Tnumsegments", {DType::I32, DType::I64}}});
  registerKernel<OpId::kStringSplit, StringSplitKernel>(registry);
  registerKernel<OpId::kStringSplitV2, StringSplitV2Kernel>(registry);
  registerKernel<OpId::kStringLength, StringLengthKernel>(registry);
  registerKernel<OpId::kStringLower, StringCaseKernel<false>>(registry);
  registerKernel<OpId::kStringUpper, StringCaseKernel<true>>(registry);
  registerKernel<OpId::kStringStrip, StringStripKernel>(registry);
  registerKernel<OpId::kSubstr, SubstrKernel, int32_t, int64_t>(registry);
  registerKernel<OpId::kEncodeBase64, EncodeBase64Kernel>(registry);
  registerKernel<OpId::kDecodeBase64, DecodeBase64Kernel>(registry);
}

} // namespace tfrt_fallback::rt
