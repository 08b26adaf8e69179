//===- SetOpsKernels.cpp - Set operations along the last dimension --------===//
//
// TensorFlow's set operations (tensorflow/core/kernels/set_kernels.cc):
// DenseToDenseSetOperation(set1, set2), DenseToSparseSetOperation(set1,
// set2_indices, set2_values, set2_shape) and SparseToSparseSetOperation(
// set1_indices, set1_values, set1_shape, set2_indices, set2_values,
// set2_shape), each with attributes set_operation ("a-b", "b-a",
// "intersection", "union", any case) and validate_indices (default true).
//
// A set is what the last dimension holds at one position of the others
// (the group): a dense row's elements, or a SparseTensor's entries whose
// first rank-1 coordinates are that position (consecutive runs of equal
// ones, as TF groups them; validate_indices checks the entries are in
// bounds, in row-major order and unique first). Both inputs have rank >= 2
// and the same dims but the last. The result is a SparseTensor: for each
// group with a non-empty result, in group order, its elements sorted
// ascending (strings by bytes) at [group..., 0..n-1]; the dense shape is
// the group dims plus the largest result's size.
//
// T: int8, int16, int32, int64, uint8, uint16 and string, as TF registers.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

enum class SetOp { AMinusB, BMinusA, Intersection, Union };
enum class Inputs { DenseDense, DenseSparse, SparseSparse };

/// A SparseTensor input: its parts, checked as TF's SparseTensorFromContext
/// checks them.
struct SparseSet {
  const int64_t *indices = nullptr;
  int64_t nnz = 0;
  int64_t rank = 0;
  std::vector<int64_t> shape;
};

/// One group of a SparseSet: entries [begin, end).
struct SparseGroup {
  int64_t begin = 0, end = 0;
};

template <typename T> const T *elementsOf(const Tensor &t) {
  return t.data<T>();
}

/// The kernel, for element type T (std::string_view for strings) and input
/// form `In`.
template <Inputs In, typename T>
class SetOperationKernelImpl final : public OpKernel {
public:
  explicit SetOperationKernelImpl(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string name;
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->getAttr("set_operation", &name).ok(),
                              errorf("Missing set_operation."));
    for (char &c : name)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == "a-b")
      op_ = SetOp::AMinusB;
    else if (name == "b-a")
      op_ = SetOp::BMinusA;
    else if (name == "intersection")
      op_ = SetOp::Intersection;
    else if (name == "union")
      op_ = SetOp::Union;
    else
      ctx->ctxFailure(errorf("Invalid set_operation %s.", name));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "validate_indices", &validateIndices_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    std::vector<int64_t> shape1, shape2;
    SparseSet sparse1, sparse2;
    if constexpr (In == Inputs::SparseSparse) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readSparse(ctx, 0, &sparse1));
      shape1 = sparse1.shape;
    } else {
      const TensorShape &s = ctx->input(0).shape();
      shape1.assign(s.dims().begin(), s.dims().end());
    }
    if constexpr (In == Inputs::DenseDense) {
      const TensorShape &s = ctx->input(1).shape();
      shape2.assign(s.dims().begin(), s.dims().end());
    } else {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, readSparse(ctx, In == Inputs::SparseSparse ? 3 : 1, &sparse2));
      shape2 = sparse2.shape;
    }
    for (const std::vector<int64_t> *s : {&shape1, &shape2})
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s->size() >= 2,
          errorf("Shape [%s] has rank %d < 2", strJoin(*s, ","), s->size()));
    const std::vector<int64_t> groupShape(shape1.begin(), shape1.end() - 1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        std::equal(groupShape.begin(), groupShape.end(), shape2.begin(),
                   shape2.end() - 1) &&
            shape1.size() == shape2.size(),
        errorf("Mismatched shapes [%s] vs [%s]", strJoin(groupShape, ","),
               strJoin(absl::MakeConstSpan(shape2.data(), shape2.size() - 1),
                       ",")));

    const int groupRank = static_cast<int>(groupShape.size());
    std::vector<std::pair<std::vector<int64_t>, std::vector<T>>> results;
    std::vector<T> set1, set2;
    auto apply = [&](const std::vector<int64_t> &group) {
      std::vector<T> result = combine(set1, set2);
      if (!result.empty())
        results.emplace_back(group, std::move(result));
    };

    if constexpr (In == Inputs::SparseSparse) {
      const T *values1 = elementsOf<T>(ctx->input(1));
      const T *values2 = elementsOf<T>(ctx->input(4));
      int64_t next1 = 0, next2 = 0;
      // The groups at next1 and next2, each found once.
      SparseGroup g1{-1, -1}, g2{-1, -1};
      while (next1 < sparse1.nnz || next2 < sparse2.nnz) {
        if (next1 < sparse1.nnz && g1.begin != next1)
          g1 = nextGroup(sparse1, next1);
        if (next2 < sparse2.nnz && g2.begin != next2)
          g2 = nextGroup(sparse2, next2);
        // Which group comes first; an exhausted input's comes last.
        int cmp;
        if (next1 >= sparse1.nnz)
          cmp = 1;
        else if (next2 >= sparse2.nnz)
          cmp = -1;
        else
          cmp =
              compareKeys(sparse1.indices + g1.begin * sparse1.rank,
                          sparse2.indices + g2.begin * sparse2.rank, groupRank);
        set1.clear();
        set2.clear();
        const int64_t *key = nullptr;
        if (cmp <= 0) {
          TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                       readGroup(sparse1, g1, values1, &set1));
          key = sparse1.indices + g1.begin * sparse1.rank;
          next1 = g1.end;
        }
        if (cmp >= 0) {
          TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                       readGroup(sparse2, g2, values2, &set2));
          key = sparse2.indices + g2.begin * sparse2.rank;
          next2 = g2.end;
        }
        apply(std::vector<int64_t>(key, key + groupRank));
      }
    } else {
      const Tensor &dense1 = ctx->input(0);
      const int64_t last1 = shape1.back();
      const T *values1 = elementsOf<T>(dense1);
      const Tensor &other = ctx->input(In == Inputs::DenseDense ? 1 : 2);
      const T *values2 = elementsOf<T>(other);
      const int64_t last2 = shape2.back();
      int64_t numGroups = 1;
      for (int64_t d : groupShape)
        numGroups *= d; // A sub-shape of an input's: no overflow.
      if (last1 == 0 && (In == Inputs::DenseSparse || last2 == 0)) {
        // Every dense set is empty, and there may be many of them ([n, 0]):
        // only the sparse groups can give results, those that the walk
        // below would match, in order (a group out of range or not after
        // the last matched one ends the matching, as it does there).
        if constexpr (In == Inputs::DenseSparse) {
          int64_t last = -1;
          for (int64_t next2 = 0; next2 < sparse2.nnz;) {
            const SparseGroup g2 = nextGroup(sparse2, next2);
            const int64_t *key = sparse2.indices + g2.begin * sparse2.rank;
            int64_t flat = 0;
            bool inRange = true;
            for (int d = 0; d < groupRank && inRange; ++d) {
              inRange = key[d] >= 0 && key[d] < groupShape[d];
              flat = flat * groupShape[d] + key[d];
            }
            if (!inRange || flat <= last)
              break;
            set1.clear();
            TFRT_FALLBACK_OP_REQUIRES_OK(
                ctx, readGroup(sparse2, g2, values2, &set2));
            apply(std::vector<int64_t>(key, key + groupRank));
            last = flat;
            next2 = g2.end;
          }
        }
        return emit(ctx, groupShape, results);
      }
      std::vector<int64_t> group(groupRank, 0);
      int64_t next2 = 0;
      // The sparse group at next2, found once per position.
      SparseGroup g2{-1, -1};
      for (int64_t g = 0; g < numGroups; ++g) {
        int64_t rest = g;
        for (int d = groupRank - 1; d >= 0; --d) {
          group[d] = rest % groupShape[d];
          rest /= groupShape[d];
        }
        set1.assign(values1 + g * last1, values1 + (g + 1) * last1);
        set2.clear();
        if constexpr (In == Inputs::DenseDense) {
          set2.assign(values2 + g * last2, values2 + (g + 1) * last2);
        } else if (next2 < sparse2.nnz) {
          // The next sparse group is this one's set, or a later one's.
          if (g2.begin != next2)
            g2 = nextGroup(sparse2, next2);
          if (std::equal(group.begin(), group.end(),
                         sparse2.indices + g2.begin * sparse2.rank)) {
            TFRT_FALLBACK_OP_REQUIRES_OK(
                ctx, readGroup(sparse2, g2, values2, &set2));
            next2 = g2.end;
          }
        }
        makeSet(&set1);
        makeSet(&set2);
        apply(group);
      }
    }
    emit(ctx, groupShape, results);
  }

private:
  /// Reads the SparseTensor at inputs base, base + 1, base + 2.
  Status readSparse(OpKernelContextInterface *ctx, int base,
                    SparseSet *out) const {
    const Tensor &indices = ctx->input(base), &values = ctx->input(base + 1),
                 &shape = ctx->input(base + 2);
    if (shape.rank() != 1)
      return errorf("Shape must be a 1D tensor.");
    const int64_t *s = shape.data<int64_t>();
    StatusOr<TensorShape> dense =
        TensorShape::create(absl::MakeConstSpan(s, shape.numElements()));
    if (!dense.ok())
      return dense.status();
    if (dense->rank() < 2)
      return errorf("Invalid rank %d.", dense->rank());
    if (indices.rank() != 2)
      return errorf("indices must be a matrix, but got: %s",
                    indices.shape().toString());
    if (values.rank() != 1)
      return errorf("vals must be a vec, but got: %s",
                    values.shape().toString());
    if (indices.dim(0) != values.dim(0))
      return errorf("indices and values rows (indexing dimension) must "
                    "match. (indices = %d, values = %d)",
                    indices.dim(0), values.dim(0));
    if (indices.dim(1) != dense->rank())
      return errorf("Order length must be SparseTensor rank.");
    out->indices = indices.data<int64_t>();
    out->nnz = indices.dim(0);
    out->rank = indices.dim(1);
    out->shape.assign(s, s + out->rank);
    if (validateIndices_)
      return validate(*out);
    return OkStatus();
  }

  /// TF's SparseTensor::IndicesValid: in bounds, in row-major order, unique.
  Status validate(const SparseSet &sp) const {
    const int64_t rank = sp.rank;
    for (int64_t n = 0; n < sp.nnz; ++n) {
      const int64_t *ix = sp.indices + n * rank;
      bool valid = true;
      for (int64_t d = 0; d < rank; ++d)
        valid &= ix[d] >= 0 && ix[d] < sp.shape[d];
      int cmp = 1;
      if (n > 0)
        cmp = -compareKeys(ix - rank, ix, static_cast<int>(rank));
      if (valid && cmp > 0)
        continue;
      const std::string index =
          strCat("indices[", n, "] = [",
                 strJoin(absl::MakeConstSpan(ix, rank), ","), "]");
      if (!valid)
        return errorf("%s is out of bounds: need 0 <= index < [%s]", index,
                      strJoin(sp.shape, ","));
      if (cmp < 0)
        return errorf("%s is out of order. Many sparse ops require sorted "
                      "indices.\n    Use `tf.sparse.reorder` to create a "
                      "correctly ordered copy.\n\n",
                      index);
      return errorf("%s is repeated", index);
    }
    return OkStatus();
  }

  /// <0, 0, >0 as the first `n` coordinates of a compare to b's.
  static int compareKeys(const int64_t *a, const int64_t *b, int n) {
    for (int i = 0; i < n; ++i)
      if (a[i] != b[i])
        return a[i] < b[i] ? -1 : 1;
    return 0;
  }

  /// The group (run of equal leading coordinates) starting at entry `at`.
  static SparseGroup nextGroup(const SparseSet &sp, int64_t at) {
    const int n = static_cast<int>(sp.rank - 1);
    SparseGroup g{at, at + 1};
    while (g.end < sp.nnz && compareKeys(sp.indices + at * sp.rank,
                                         sp.indices + g.end * sp.rank, n) == 0)
      ++g.end;
    return g;
  }

  /// The set of group `g` (TF's CheckGroup first: every coordinate below
  /// its dim).
  Status readGroup(const SparseSet &sp, const SparseGroup &g, const T *values,
                   std::vector<T> *set) const {
    for (int64_t j = 0; j < sp.rank; ++j) {
      if (sp.shape[j] <= 0)
        return errorf("Invalid dim_size[%d] = %d.", j, sp.shape[j]);
      for (int64_t i = g.begin; i < g.end; ++i) {
        const int64_t index = sp.indices[i * sp.rank + j];
        if (index >= sp.shape[j])
          return errorf("indices[%d, %d] expected < %d, got %d.", i - g.begin,
                        j, sp.shape[j], index);
      }
    }
    set->assign(values + g.begin, values + g.end);
    makeSet(set);
    return OkStatus();
  }

  static void makeSet(std::vector<T> *v) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }

  /// The operation on two sorted sets, sorted.
  std::vector<T> combine(std::vector<T> &a, std::vector<T> &b) const {
    std::vector<T> out;
    switch (op_) {
    case SetOp::AMinusB:
      std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                          std::back_inserter(out));
      break;
    case SetOp::BMinusA:
      std::set_difference(b.begin(), b.end(), a.begin(), a.end(),
                          std::back_inserter(out));
      break;
    case SetOp::Intersection:
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(),
                            std::back_inserter(out));
      break;
    case SetOp::Union:
      std::set_union(a.begin(), a.end(), b.begin(), b.end(),
                     std::back_inserter(out));
      break;
    }
    return out;
  }

  void emit(OpKernelContextInterface *ctx,
            const std::vector<int64_t> &groupShape,
            const std::vector<std::pair<std::vector<int64_t>, std::vector<T>>>
                &results) const {
    int64_t total = 0, widest = 0;
    for (const auto &r : results) {
      total += static_cast<int64_t>(r.second.size());
      widest = std::max<int64_t>(widest, r.second.size());
    }
    std::vector<int64_t> outDims(groupShape);
    outDims.push_back(widest);
    const int64_t rank = static_cast<int64_t>(outDims.size());
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    Tensor *indicesOut = nullptr, *shapeOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{total, rank}, &indicesOut));
    int64_t *oi = indicesOut->data<int64_t>();
    std::vector<T> values;
    values.reserve(total);
    for (const auto &[group, set] : results)
      for (size_t k = 0; k < set.size(); ++k) {
        oi = std::copy(group.begin(), group.end(), oi);
        *oi++ = static_cast<int64_t>(k);
        values.push_back(set[k]);
      }
    if constexpr (std::is_same_v<T, std::string_view>) {
      StatusOr<Tensor> out = makeStringTensor(TensorShape{total}, values);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
      ctx->setOutput(1, *std::move(out));
    } else {
      Tensor *valuesOut = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(1, TensorShape{total}, &valuesOut));
      std::copy(values.begin(), values.end(), valuesOut->data<T>());
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2, TensorShape{rank}, &shapeOut));
    std::copy(outDims.begin(), outDims.end(), shapeOut->data<int64_t>());
  }

  SetOp op_ = SetOp::Union;
  bool validateIndices_ = true;
};

template <Inputs In> struct SetFamily {
  template <typename T> using Kernel = SetOperationKernelImpl<In, T>;
};

template <OpId Op, Inputs In> void registerSetOp(KernelRegistry &registry) {
  registerKernel<Op, SetFamily<In>::template Kernel, int8_t, int16_t, int32_t,
                 int64_t, uint8_t, uint16_t>(registry);
  registerStringKernel<Op, SetOperationKernelImpl<In, std::string_view>>(
      registry);
}

} // namespace

void registerSetOpsKernels(KernelRegistry &registry) {
  registerSetOp<OpId::kDenseToDenseSetOperation, Inputs::DenseDense>(registry);
  registerSetOp<OpId::kDenseToSparseSetOperation, Inputs::DenseSparse>(
      registry);
  registerSetOp<OpId::kSparseToSparseSetOperation, Inputs::SparseSparse>(
      registry);
}

} // namespace tfrt_fallback::rt
