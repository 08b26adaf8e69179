//===- EinsumKernels.cpp - Einsum -------------------------------*- C++ -*-===//
//
// Einsum (tensorflow/core/kernels/linalg/einsum_op_impl.h) with TF's
// equation rules: one or two operands, "->" and an output subscript, an
// ellipsis for broadcast dims (right-aligned, NumPy rules), repeated labels
// within an operand taking its diagonal, repeated output labels writing a
// diagonal, labels missing from the output summed. Evaluation: each
// operand is first reduced to a contiguous buffer of the labels the output
// or the other operand has (diagonals taken, its own summed labels added
// up, as TF's ReduceOperand); a single operand is then permuted into the
// output; two operands are gathered per batch index into [free, contracted]
// and [contracted, free] matrices and multiplied with Eigen, the product
// scattered into the output's label order.
//
//===----------------------------------------------------------------------===//

#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

template <typename T>
using RowMatrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// A parsed equation: labels are small ints; the ellipsis dims of the
/// operands get labels kBroadcast + i (i counted from the right).
struct Equation {
  static constexpr int kEllipsis = -1;
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
  int numNamed = 0;
};

Status parseEquation(const OpKernel &op, const std::string &text,
                     Equation *eq) {
  const size_t arrow = text.find("->");
  if (arrow == std::string::npos ||
      text.find("->", arrow + 2) != std::string::npos)
    return op.errorf("Expecting exactly one '->' in einsum equation: %s", text);
  std::vector<std::string> ins;
  std::string lhs = text.substr(0, arrow);
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    ins.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (ins.size() != 1 && ins.size() != 2)
    return op.errorf("Expecting 1 or 2 input subscripts in equation '%s' but "
                     "got: %d",
                     text, ins.size());
  int map[128];
  std::fill(std::begin(map), std::end(map), -1);
  auto parse = [&](const std::string &s, std::vector<int> *labels) -> Status {
    bool ellipsis = false;
    for (size_t i = 0; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '.') {
        if (s.compare(i, 3, "...") != 0 || ellipsis)
          return op.errorf("Invalid ellipsis in einsum equation: %s", text);
        ellipsis = true;
        labels->push_back(Equation::kEllipsis);
        i += 2;
        continue;
      }
      if (c == ' ')
        continue;
      if (!std::isalpha(c))
        return op.errorf("Invalid character '%s' in einsum equation: %s",
                         std::string(1, static_cast<char>(c)), text);
      if (map[c] < 0)
        map[c] = eq->numNamed++;
      labels->push_back(map[c]);
    }
    return OkStatus();
  };
  eq->inputs.resize(ins.size());
  for (size_t i = 0; i < ins.size(); ++i)
    if (Status s = parse(ins[i], &eq->inputs[i]); !s.ok())
      return s;
  if (Status s = parse(text.substr(arrow + 2), &eq->output); !s.ok())
    return s;
  return OkStatus();
}

/// A view of an operand with one distinct label per dim.
struct View {
  std::vector<int> labels;
  std::vector<int64_t> dims, strides;
};

/// Expands the ellipsis of `labels` for an operand of `rank` dims into
/// broadcast labels numNamed + k, k counting from the innermost broadcast
/// dim; returns the number of broadcast dims.
int expandEllipsis(std::vector<int> *labels, int rank, int numNamed) {
  auto it = std::find(labels->begin(), labels->end(), Equation::kEllipsis);
  if (it == labels->end())
    return 0;
  const int bcast = rank - static_cast<int>(labels->size()) + 1;
  const int at = static_cast<int>(it - labels->begin());
  labels->erase(it);
  for (int k = 0; k < bcast; ++k)
    labels->insert(labels->begin() + at + k, numNamed + (bcast - 1 - k));
  return bcast;
}

/// Calls f(offset of view a, offset of view b, flat index) over the index
/// space `dims` (row-major), with per-dim strides for two views.
template <typename F>
void forEachIndex(const std::vector<int64_t> &dims,
                  const std::vector<int64_t> &sa,
                  const std::vector<int64_t> &sb, F f) {
  const int rank = static_cast<int>(dims.size());
  int64_t total = 1;
  for (int64_t d : dims)
    total *= d;
  if (total == 0)
    return;
  std::vector<int64_t> idx(rank, 0);
  int64_t oa = 0, ob = 0;
  for (int64_t flat = 0; flat < total; ++flat) {
    f(oa, ob, flat);
    for (int d = rank - 1; d >= 0; --d) {
      oa += sa[d];
      ob += sb[d];
      if (++idx[d] < dims[d])
        break;
      oa -= sa[d] * dims[d];
      ob -= sb[d] * dims[d];
      idx[d] = 0;
    }
  }
}

/// Sums the distinct-label view `v` of `in` over the labels not in `keep`
/// into a contiguous row-major buffer of the kept labels (in v's order),
/// whose view replaces `v`: the diagonals of repeated labels are taken and
/// the labels only this operand has (TF's kReduce dims) are summed before
/// any contraction, so no temporary exceeds an operand's size.
template <typename Acc, typename T>
std::vector<Acc> reduceOperand(const T *in, View *v,
                               const std::vector<bool> &keep) {
  View kept;
  std::vector<int64_t> outStrides(v->labels.size(), 0);
  for (size_t d = 0; d < v->labels.size(); ++d)
    if (keep[v->labels[d]]) {
      kept.labels.push_back(v->labels[d]);
      kept.dims.push_back(v->dims[d]);
    }
  kept.strides.assign(kept.dims.size(), 0);
  int64_t acc = 1;
  for (int d = static_cast<int>(kept.dims.size()) - 1; d >= 0; --d) {
    kept.strides[d] = acc;
    acc *= kept.dims[d];
  }
  for (size_t d = 0, k = 0; d < v->labels.size(); ++d)
    if (keep[v->labels[d]])
      outStrides[d] = kept.strides[k++];
  std::vector<Acc> out(acc, Acc(0));
  forEachIndex(v->dims, v->strides, outStrides,
               [&](int64_t a, int64_t o, int64_t) {
                 out[o] += static_cast<Acc>(in[a]);
               });
  *v = std::move(kept);
  return out;
}

/// Einsum(inputs: N*T; equation): see the file header. A label repeated in
/// the output writes a diagonal (TF's inflation, "i->ii"), the rest zeros.
/// half and bfloat16 accumulate in float. TF's errors: "Expecting exactly
/// one '->' in einsum equation: ij", "Expecting 1 or 2 input subscripts in
/// equation 'i,j,k->' but got: 3", "Expected input 0 to have rank 2 but
/// got: 1", "Expected dimension 3 at axis 1 of the input shaped [2,4] but
/// got dimension 4", "Output contains 1 broadcasting dimension(s) but no
/// ellipsis (...) was found in the output subscripts.", "Invalid
/// broadcasting dimensions: [2,3] vs. [4,3]". A label of the output must
/// occur in an input.
template <typename T> class EinsumKernel final : public OpKernel {
  using Acc = std::conditional_t<std::is_same_v<T, Eigen::half> ||
                                     std::is_same_v<T, Eigen::bfloat16>,
                                 float, T>;

public:
  explicit EinsumKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    std::string equation;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("equation", &equation));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, parseEquation(*this, equation, &eq_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, static_cast<int>(eq_.inputs.size()) == ctx->numInputs(),
        errorf("Expected %d inputs but got: %d", eq_.inputs.size(),
               ctx->numInputs()));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int n = ctx->numInputs();
    std::vector<std::vector<int>> labels = eq_.inputs;
    std::vector<int> outLabels = eq_.output;
    int maxBcast = 0;
    // Label sizes (-1: not seen); a broadcast label may be 1 in one operand.
    std::vector<int64_t> size(eq_.numNamed + kMaxBroadcast, -1);
    std::vector<View> views(n);
    for (int i = 0; i < n; ++i) {
      const Tensor &t = ctx->input(i);
      const bool hasEllipsis =
          std::count(labels[i].begin(), labels[i].end(), Equation::kEllipsis);
      const int named = static_cast<int>(labels[i].size()) - hasEllipsis;
      if (!hasEllipsis)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t.rank() == named,
            errorf("Expected input %d to have rank %d but got: %d", i, named,
                   t.rank()));
      else
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t.rank() >= named,
            errorf("Expected input %d to have rank at least %d but got: %d", i,
                   named, t.rank()));
      const int bcast = expandEllipsis(&labels[i], t.rank(), eq_.numNamed);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, bcast <= kMaxBroadcast,
          errorf("Expected at most %d broadcasting dimensions but got: %d",
                 kMaxBroadcast, bcast));
      maxBcast = std::max(maxBcast, bcast);
      // Strides of the operand's own dims.
      std::vector<int64_t> strides(t.rank());
      int64_t acc = 1;
      for (int d = t.rank() - 1; d >= 0; --d) {
        strides[d] = acc;
        acc *= t.dim(d);
      }
      // Merge repeated labels into one dim (the diagonal: strides add).
      View &v = views[i];
      for (int d = 0; d < t.rank(); ++d) {
        const int l = labels[i][d];
        const int64_t dim = t.dim(d);
        if (l < eq_.numNamed) {
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, size[l] < 0 || size[l] == dim,
              errorf("Expected dimension %d at axis %d of the input shaped %s "
                     "but got dimension %d",
                     size[l], d, t.shape().toString(), dim));
          size[l] = dim;
        } else if (dim != 1) {
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, size[l] <= 1 || size[l] == dim,
              errorf("Invalid broadcasting dimensions: %s vs. %s",
                     ctx->input(0).shape().toString(),
                     ctx->input(n - 1).shape().toString()));
          size[l] = dim;
        } else if (size[l] < 0) {
          size[l] = 1;
        }
        auto it = std::find(v.labels.begin(), v.labels.end(), l);
        if (it != v.labels.end()) {
          v.strides[it - v.labels.begin()] += strides[d];
        } else {
          v.labels.push_back(l);
          v.dims.push_back(dim);
          v.strides.push_back(strides[d]);
        }
      }
    }
    // The output's labels: its ellipsis becomes the broadcast labels.
    auto ellipsis =
        std::find(outLabels.begin(), outLabels.end(), Equation::kEllipsis);
    if (ellipsis != outLabels.end()) {
      const int at = static_cast<int>(ellipsis - outLabels.begin());
      outLabels.erase(ellipsis);
      for (int k = 0; k < maxBcast; ++k)
        outLabels.insert(outLabels.begin() + at + k,
                         eq_.numNamed + (maxBcast - 1 - k));
    } else {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, maxBcast == 0,
          errorf("Output contains %d broadcasting dimension(s) but no "
                 "ellipsis (...) was found in the output subscripts.",
                 maxBcast));
    }
    auto inView = [](const View &v, int l) {
      auto it = std::find(v.labels.begin(), v.labels.end(), l);
      return it == v.labels.end() ? -1 : int(it - v.labels.begin());
    };
    std::vector<int64_t> outDims;
    for (int l : outLabels) {
      bool found = false;
      for (const View &v : views)
        found |= inView(v, l) >= 0;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, found,
          errorf("Output subscripts contain a label not appearing in the "
                 "inputs."));
      outDims.push_back(size[l]);
    }
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    T *po = out->data<T>();
    std::fill(po, po + out->numElements(), T(0));
    if (out->numElements() == 0)
      return;
    for (int i = 0; i < n; ++i)
      if (ctx->input(i).numElements() == 0)
        return; // A sum over nothing: zeros.

    // The output as a distinct-label view (a repeated label: its diagonal).
    View o;
    {
      int64_t acc = 1;
      std::vector<int64_t> strides(outDims.size());
      for (int k = static_cast<int>(outDims.size()) - 1; k >= 0; --k) {
        strides[k] = acc;
        acc *= outDims[k];
      }
      for (size_t k = 0; k < outLabels.size(); ++k) {
        const int d = inView(o, outLabels[k]);
        if (d >= 0) {
          o.strides[d] += strides[k];
        } else {
          o.labels.push_back(outLabels[k]);
          o.dims.push_back(outDims[k]);
          o.strides.push_back(strides[k]);
        }
      }
    }
    // Reduce each operand to the labels the output or the other operand
    // has.
    std::vector<std::vector<Acc>> reduced(n);
    for (int i = 0; i < n; ++i) {
      std::vector<bool> keep(size.size(), false);
      for (int l : o.labels)
        keep[l] = true;
      if (n == 2)
        for (int l : views[1 - i].labels)
          keep[l] = true;
      reduced[i] = reduceOperand<Acc>(ctx->input(i).data<T>(), &views[i], keep);
    }
    auto strideIn = [&](const View &v, int l) -> int64_t {
      const int d = inView(v, l);
      return d < 0 || v.dims[d] == 1 ? 0 : v.strides[d];
    };
    auto strideOut = [&](int l) -> int64_t {
      const int d = inView(o, l);
      return d < 0 ? 0 : o.strides[d];
    };
    if (n == 1) {
      // The reduced operand has the output's distinct labels: permute (and
      // broadcast nothing: every output label is the operand's).
      std::vector<int64_t> so;
      for (int l : views[0].labels)
        so.push_back(strideOut(l));
      const std::vector<Acc> &a = reduced[0];
      forEachIndex(views[0].dims, views[0].strides, so,
                   [&](int64_t ia, int64_t io, int64_t) {
                     po[io] = static_cast<T>(a[ia]);
                   });
      return;
    }
    const View &A = views[0], &B = views[1];
    // Batch: in both and the output; free: in one and the output;
    // contracted: in both, not in the output (a label only one operand has
    // is in the output or was reduced away).
    std::vector<int> batch, freeA, freeB, contract;
    for (int l : o.labels) {
      const bool a = inView(A, l) >= 0, b = inView(B, l) >= 0;
      (a && b ? batch : a ? freeA : freeB).push_back(l);
    }
    for (int l : A.labels)
      if (inView(o, l) < 0)
        contract.push_back(l);
    auto extent = [&](const std::vector<int> &ls) {
      int64_t e = 1;
      for (int l : ls)
        e *= size[l];
      return e;
    };
    const int64_t nb = extent(batch), m = extent(freeA), k = extent(contract),
                  nn = extent(freeB);
    // Offsets of every element of a [rows..., cols...] index space.
    auto plan = [&](const std::vector<int> &rows, const std::vector<int> &cols,
                    auto strideOf) {
      std::vector<int64_t> dims, s;
      for (const std::vector<int> *ls : {&rows, &cols})
        for (int l : *ls) {
          dims.push_back(size[l]);
          s.push_back(strideOf(l));
        }
      std::vector<int64_t> offsets;
      offsets.reserve(extent(rows) * extent(cols));
      forEachIndex(dims, s, s, [&](int64_t off, int64_t, int64_t) {
        offsets.push_back(off);
      });
      return offsets;
    };
    auto sA = [&](int l) { return strideIn(A, l); };
    auto sB = [&](int l) { return strideIn(B, l); };
    const std::vector<int64_t> baseA = plan(batch, {}, sA),
                               baseB = plan(batch, {}, sB),
                               baseO = plan(batch, {}, strideOut),
                               offA = plan(freeA, contract, sA),
                               offB = plan(contract, freeB, sB),
                               offO = plan(freeA, freeB, strideOut);
    RowMatrix<Acc> ma(m, k), mb(k, nn), mc(m, nn);
    const std::vector<Acc> &ra = reduced[0], &rb = reduced[1];
    for (int64_t b = 0; b < nb; ++b) {
      for (int64_t i = 0; i < m * k; ++i)
        ma.data()[i] = ra[baseA[b] + offA[i]];
      for (int64_t i = 0; i < k * nn; ++i)
        mb.data()[i] = rb[baseB[b] + offB[i]];
      mc.noalias() = ma * mb;
      for (int64_t i = 0; i < m * nn; ++i)
        po[baseO[b] + offO[i]] = static_cast<T>(mc.data()[i]);
    }
  }

private:
  static constexpr int kMaxBroadcast = 64;
  Equation eq_;
};

} // namespace

void registerEinsumKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  registerKernel<OpId::kEinsum, EinsumKernel, float, double, half, bf16,
                 int32_t, int64_t>(registry);
}

} // namespace tfrt_fallback::rt
