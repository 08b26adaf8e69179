//===- SparseCrossKernels.cpp - Feature crosses of sparse columns ---------===//
//
// TensorFlow's SparseCross, SparseCrossHashed and SparseCrossV2
// (tensorflow/core/kernels/sparse_cross_op.cc). The inputs are N 2-D
// SparseTensors (N int64 indices [nnz, 2], N values of int64 or string, N
// int64 dense shapes [2]) followed by dense [batch, width] int64 or string
// tensors: the columns. For each batch row b the output row holds every
// combination of one feature of each column (column 0's varying slowest),
// at [b, 0..count-1]; its dense shape is [batch, the largest count]. A
// sparse column's features of row b are its entries with index[0] == b,
// found as TF finds them: walking the entries once, each row's run must
// follow the previous row's (an entry out of that order, or with a row
// outside [0, batch), ends the column's features there). The batch is the
// first sparse shape's dim 0, else the first dense input's.
//
// A cross is:
// - SparseCross, out_type string: the features as strings (an int64 in
//   decimal) joined with "_X_"; internal_type string rejects int64 values.
// - SparseCross, out_type int64: FingerprintCat64 over the features
//   starting from hash_key, a string's feature being its Fingerprint64 and
//   an int64's its value; then % num_buckets (num_buckets > 0) or
//   % INT64_MAX, unsigned.
// - SparseCrossV2(..., sep): the string cross joined with `sep`.
// - SparseCrossHashed(..., num_buckets, strong_hash, salt): FingerprintCat64
//   starting from the first column's feature. With strong_hash, every
//   feature is SipHash-2-4 keyed by salt (TF's StrongKeyedHash) of a
//   string's bytes or of an int64's low 4 bytes (TF hashes
//   sizeof(DataType) bytes of it); without, a string's Fingerprint64, a
//   sparse int64's Fingerprint64 of its low 4 bytes, a dense int64's value.
//   Then % num_buckets as above.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"
#include "strings/TFHash.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

enum class CrossKind {
  /// SparseCross with out_type string.
  Strings,
  /// SparseCross with out_type int64.
  Hash,
  /// SparseCrossV2.
  StringsV2,
  /// SparseCrossHashed.
  Keyed,
};

/// One column: a sparse input's values with each row's first entry and
/// count, or a dense input.
struct Column {
  const Tensor *values = nullptr;
  bool sparse = false;
  /// Sparse: (row, first entry, count) of each row with features, rows
  /// ascending.
  struct Run {
    int64_t row, start, count;
  };
  std::vector<Run> runs;
  /// Dense: the features per row.
  int64_t width = 0;
  bool strings() const { return values->dtype() == DType::String; }
};

/// The three ops; `Kind` Strings is SparseCross, whose out_type may make
/// it Hash.
template <CrossKind Kind> class SparseCrossKernel final : public OpKernel {
public:
  explicit SparseCrossKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("N", &n_));
    int extra = 0;
    if (Kind == CrossKind::Strings) {
      DType out = DType::String;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("out_type", &out));
      kind_ = out == DType::I64 ? CrossKind::Hash : CrossKind::Strings;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   ctx->getAttr("num_buckets", &numBuckets_));
      int64_t key = 0;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("hash_key", &key));
      hashKey_ = static_cast<uint64_t>(key);
      // internal_type types no operand, so the registry cannot constrain it.
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("internal_type", &internalType_));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, internalType_ == DType::I64 || internalType_ == DType::String,
          errorf("internal_type must be int64 or string, got %s",
                 dtypeName(internalType_)));
    } else if (Kind == CrossKind::Keyed) {
      extra = 3;
    } else {
      extra = 1;
    }
    // N is bounded by the input count before 3 * N is computed.
    const int64_t numDense = n_ >= 0 && n_ <= ctx->numInputs()
                                 ? ctx->numInputs() - 3 * n_ - extra
                                 : -1;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numDense >= 0,
        errorf("%d inputs do not hold N = %d sparse columns", ctx->numInputs(),
               n_));
    numDense_ = static_cast<int>(numDense);
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int n = static_cast<int>(n_), base = 3 * n + numDense_;
    auto indices = [&](int i) -> const Tensor & { return ctx->input(i); };
    auto values = [&](int i) -> const Tensor & { return ctx->input(n + i); };
    auto shapes = [&](int i) -> const Tensor & {
      return ctx->input(2 * n + i);
    };
    auto dense = [&](int i) -> const Tensor & { return ctx->input(3 * n + i); };
    // SparseCross checks the values against internal_type.
    const bool checkType = Kind == CrossKind::Strings;
    for (int i = 0; i < n; ++i) {
      const Tensor &ix = indices(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ix.rank() == 2,
          errorf("Input indices should be a matrix but received shape %s at "
                 "position %d",
                 ix.shape().toString(), i));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ix.dim(1) == 2,
          errorf("Expected D2 of index to be 2 got %d at position %d",
                 ix.dim(1), i));
    }
    for (int i = 0; i < n; ++i) {
      const Tensor &v = values(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, v.dtype() == DType::I64 || v.dtype() == DType::String,
          errorf("Input values should be int64 or string, got %s at position "
                 "%d",
                 dtypeName(v.dtype()), i));
      // TF prints the DataType numbers: string is 7, int64 9.
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          !(checkType && internalType_ == DType::String &&
            v.dtype() == DType::I64),
          errorf("Input values should be of internal type 7 but received 9"));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, v.rank() == 1,
          errorf("Input values should be a vector but received shape %s at "
                 "position %d",
                 v.shape().toString(), i));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, indices(i).dim(0) == v.dim(0),
          errorf("Expected size of values to be %d got %d at position %d",
                 indices(i).dim(0), v.dim(0), i));
    }
    for (int i = 0; i < n; ++i) {
      const Tensor &s = shapes(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s.rank() == 1,
          errorf("Input shapes should be a vector but received shape %s at "
                 "position %d",
                 s.shape().toString(), i));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s.numElements() == 2,
          errorf("shape should imply a 2D tensor, but got %s at position %d",
                 s.shape().toString(), i));
    }
    for (int i = 0; i < numDense_; ++i) {
      const Tensor &d = dense(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, d.dtype() == DType::I64 || d.dtype() == DType::String,
          errorf("Dense inputs should be int64 or string, got %s at position "
                 "%d",
                 dtypeName(d.dtype()), i));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          !(checkType && internalType_ == DType::String &&
            d.dtype() == DType::I64),
          errorf("Dense inputs should be of internal type 7 but received 9"));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, d.rank() == 2,
          errorf("Dense inputs should be a matrix but received shape %s at "
                 "position %d",
                 d.shape().toString(), i));
    }
    const int64_t batch = n > 0 ? shapes(0).template data<int64_t>()[0]
                          : numDense_ > 0 ? dense(0).dim(0)
                                          : 0;
    for (int i = 0; i < n; ++i) {
      const int64_t b = shapes(i).template data<int64_t>()[0];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, b == batch,
          errorf("Expected batch size %d got %d at position %d", batch, b, i));
    }
    for (int i = 0; i < numDense_; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, dense(i).dim(0) == batch,
          errorf("Expected batch size %d got %d at dense tensor %d", batch,
                 dense(i).dim(0), i));

    std::string separator = "_X_";
    uint64_t salt[2] = {0, 0};
    bool strongHash = false;
    int64_t numBuckets = numBuckets_;
    if (kind_ == CrossKind::StringsV2) {
      const Tensor &sep = ctx->input(base);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, sep.rank() == 0,
          errorf("Input separator should be a scalar. Received: %s",
                 sep.shape().toString()));
      separator = std::string(stringElements(sep)[0]);
    } else if (kind_ == CrossKind::Keyed) {
      const Tensor &buckets = ctx->input(base), &strong = ctx->input(base + 1),
                   &saltT = ctx->input(base + 2);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, buckets.rank() == 0 && strong.rank() == 0,
          errorf("num_buckets and strong_hash must be scalars, got %s and %s",
                 buckets.shape().toString(), strong.shape().toString()));
      numBuckets = buckets.data<int64_t>()[0];
      strongHash = strong.data<bool>()[0];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, saltT.numElements() == 2,
          errorf("Input \"salt\" must have length 2 but has length %d",
                 saltT.numElements()));
      salt[0] = static_cast<uint64_t>(saltT.data<int64_t>()[0]);
      salt[1] = static_cast<uint64_t>(saltT.data<int64_t>()[1]);
    }

    // The columns, and the rows that may have crosses: every row when all
    // columns are dense, else the rows of column 0's runs.
    std::vector<Column> columns(n + numDense_);
    for (int i = 0; i < n; ++i) {
      Column &c = columns[i];
      c.values = &values(i);
      c.sparse = true;
      const int64_t *ix = indices(i).template data<int64_t>();
      const int64_t nnz = indices(i).dim(0);
      int64_t prev = -1;
      for (int64_t r = 0; r < nnz;) {
        const int64_t row = ix[2 * r];
        if (row <= prev || row >= batch)
          break;
        int64_t end = r + 1;
        while (end < nnz && ix[2 * end] == row)
          ++end;
        c.runs.push_back({row, r, end - r});
        prev = row;
        r = end;
      }
    }
    bool anyEmptyDense = false;
    for (int i = 0; i < numDense_; ++i) {
      Column &c = columns[n + i];
      c.values = &dense(i);
      c.width = dense(i).dim(1);
      anyEmptyDense |= c.width == 0;
    }
    // rows[k]: a row with crosses; first[k][i]: column i's first feature's
    // element in it, counts[k][i] how many.
    std::vector<int64_t> rows;
    std::vector<std::vector<int64_t>> first, counts;
    if (!anyEmptyDense) {
      std::vector<size_t> at(n, 0);
      auto consider = [&](int64_t row) {
        std::vector<int64_t> f(columns.size()), c(columns.size());
        for (int i = 0; i < n; ++i) {
          const std::vector<Column::Run> &runs = columns[i].runs;
          while (at[i] < runs.size() && runs[at[i]].row < row)
            ++at[i];
          if (at[i] == runs.size() || runs[at[i]].row != row)
            return;
          f[i] = runs[at[i]].start;
          c[i] = runs[at[i]].count;
        }
        for (int i = 0; i < numDense_; ++i) {
          f[n + i] = row * columns[n + i].width;
          c[n + i] = columns[n + i].width;
        }
        rows.push_back(row);
        first.push_back(std::move(f));
        counts.push_back(std::move(c));
      };
      if (n > 0) {
        for (const Column::Run &run : columns[0].runs)
          consider(run.row);
      } else if (numDense_ > 0) {
        for (int64_t row = 0; row < batch; ++row)
          consider(row);
      }
    }
    std::vector<int64_t> crossCounts(rows.size());
    int64_t total = 0, widest = 0;
    for (size_t k = 0; k < rows.size(); ++k) {
      int64_t count = 1;
      for (int64_t c : counts[k])
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, !__builtin_mul_overflow(count, c, &count),
            errorf("the crosses of batch row %d overflow int64", rows[k]));
      crossCounts[k] = count;
      widest = std::max(widest, count);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, !__builtin_add_overflow(total, count, &total),
          errorf("the number of crosses overflows int64"));
    }

    Tensor *indicesOut = nullptr, *shapeOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{total, 2}, &indicesOut));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2, TensorShape{2}, &shapeOut));
    shapeOut->data<int64_t>()[0] = batch;
    shapeOut->data<int64_t>()[1] = widest;
    int64_t *oi = indicesOut->data<int64_t>();
    const bool stringOutput =
        kind_ == CrossKind::Strings || kind_ == CrossKind::StringsV2;
    std::vector<std::string> strings;
    Tensor *hashesOut = nullptr;
    if (stringOutput) {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkHostAllocation(total, sizeof(std::string)));
      strings.reserve(total);
    } else {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(1, TensorShape{total}, &hashesOut));
    }
    int64_t *hashes = hashesOut ? hashesOut->data<int64_t>() : nullptr;

    std::vector<int64_t> pick(columns.size());
    int64_t out = 0;
    for (size_t k = 0; k < rows.size(); ++k) {
      std::fill(pick.begin(), pick.end(), 0);
      for (int64_t j = 0; j < crossCounts[k]; ++j, ++out) {
        oi[2 * out] = rows[k];
        oi[2 * out + 1] = j;
        if (stringOutput) {
          std::string cross;
          for (size_t i = 0; i < columns.size(); ++i) {
            if (i > 0)
              cross += separator;
            cross += featureString(columns[i], first[k][i] + pick[i]);
          }
          strings.push_back(std::move(cross));
        } else {
          uint64_t h = kind_ == CrossKind::Hash ? hashKey_ : 0;
          for (size_t i = 0; i < columns.size(); ++i) {
            const uint64_t f = featureHash(columns[i], first[k][i] + pick[i],
                                           strongHash, salt);
            h = kind_ == CrossKind::Keyed && i == 0 ? f
                                                    : fingerprintCat64(h, f);
          }
          hashes[out] = static_cast<int64_t>(
              numBuckets > 0 ? h % static_cast<uint64_t>(numBuckets)
                             : h % static_cast<uint64_t>(
                                       std::numeric_limits<int64_t>::max()));
        }
        // The next combination: the last column varies fastest.
        for (int i = static_cast<int>(columns.size()) - 1; i >= 0; --i) {
          if (++pick[i] < counts[k][i])
            break;
          pick[i] = 0;
        }
      }
    }
    if (stringOutput) {
      std::vector<std::string_view> views(strings.begin(), strings.end());
      StatusOr<Tensor> valuesOut = makeStringTensor(TensorShape{total}, views);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, valuesOut.status());
      ctx->setOutput(1, *std::move(valuesOut));
    }
  }

private:
  static std::string featureString(const Column &c, int64_t element) {
    if (c.strings())
      return std::string(stringElements(*c.values)[element]);
    return std::to_string(c.values->data<int64_t>()[element]);
  }

  uint64_t featureHash(const Column &c, int64_t element, bool strongHash,
                       const uint64_t salt[2]) const {
    if (c.strings()) {
      const std::string_view s = stringElements(*c.values)[element];
      return kind_ == CrossKind::Keyed && strongHash
                 ? sipHash24(salt[0], salt[1], s)
                 : fingerprint64(s);
    }
    const int64_t v = c.values->data<int64_t>()[element];
    if (kind_ != CrossKind::Keyed || (!strongHash && !c.sparse))
      return static_cast<uint64_t>(v);
    // TF hashes sizeof(DataType) = 4 bytes of the value: its low half.
    char low[4];
    for (int b = 0; b < 4; ++b)
      low[b] = static_cast<char>(static_cast<uint64_t>(v) >> (8 * b));
    const std::string_view bytes(low, 4);
    return strongHash ? sipHash24(salt[0], salt[1], bytes)
                      : fingerprint64(bytes);
  }

  CrossKind kind_ = Kind;
  int64_t n_ = 0;
  int numDense_ = 0;
  int64_t numBuckets_ = 0;
  uint64_t hashKey_ = 0;
  DType internalType_ = DType::String;
};

constexpr DType kCrossTypes[] = {DType::I64, DType::String};

} // namespace

void registerSparseCrossKernels(KernelRegistry &registry) {
  registerKernel<OpId::kSparseCross, SparseCrossKernel<CrossKind::Strings>>(
      registry, {{"out_type", kCrossTypes}});
  registerKernel<OpId::kSparseCrossHashed, SparseCrossKernel<CrossKind::Keyed>>(
      registry);
  registerKernel<OpId::kSparseCrossV2, SparseCrossKernel<CrossKind::StringsV2>>(
      registry);
}

} // namespace tfrt_fallback::rt
