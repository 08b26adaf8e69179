//===- ReductionKernelsTest.cpp - Sum, Mean, Max, ArgMax, TopKV2 -*- C++
//-*-===//
//
// Reductions against a naive reference loop over every axis subset of a
// 4-D tensor, empty-reduction identities, keep_dims, All/Any, ArgMax /
// ArgMin ties, TopKV2 ties and errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// Naive reduction of `values` (shape `dims`) over `mask`.
std::vector<double> naiveReduce(const std::vector<double> &values,
                                const std::vector<int64_t> &dims,
                                const std::vector<bool> &mask,
                                const std::string &op) {
  const int rank = static_cast<int>(dims.size());
  std::vector<int64_t> outDims;
  for (int d = 0; d < rank; ++d)
    if (!mask[d])
      outDims.push_back(dims[d]);
  int64_t outN = 1;
  for (int64_t d : outDims)
    outN *= d;
  std::vector<std::vector<double>> groups(outN);
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t rem = static_cast<int64_t>(i), outIdx = 0, mul = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t c = rem % dims[d];
      rem /= dims[d];
      if (!mask[d]) {
        outIdx += c * mul;
        mul *= dims[d];
      }
    }
    groups[outIdx].push_back(values[i]);
  }
  std::vector<double> out;
  for (const auto &g : groups) {
    double acc = op == "Prod"  ? 1
                 : op == "Max" ? -INFINITY
                 : op == "Min" ? INFINITY
                               : 0;
    for (double v : g) {
      if (op == "Sum" || op == "Mean")
        acc += v;
      else if (op == "Prod")
        acc *= v;
      else if (op == "Max")
        acc = std::max(acc, v);
      else
        acc = std::min(acc, v);
    }
    if (op == "Mean")
      acc = g.empty() ? NAN : acc / g.size();
    out.push_back(acc);
  }
  return out;
}

TEST(Reduce, EveryAxisSubsetMatchesNaive) {
  const std::vector<int64_t> dims = {3, 4, 5, 6};
  const std::vector<double> base = patternValues(360, 2);
  for (const char *op : {"Sum", "Mean", "Max", "Min", "Prod"}) {
    // Prod on values near 1 so the products stay finite.
    std::vector<double> values = base;
    if (std::string(op) == "Prod")
      for (double &v : values)
        v = 1 + v / 8;
    Tensor in = makeTensorFrom<float>(TensorShape(dims), values);
    for (int m = 0; m < 16; ++m) {
      std::vector<bool> mask(4);
      std::vector<int32_t> axes;
      TensorShape::Dims outDims, keptDims;
      for (int d = 0; d < 4; ++d) {
        mask[d] = (m >> d) & 1;
        if (mask[d])
          axes.push_back(d - (d % 2 ? 4 : 0)); // Mix negative axes in.
        else
          outDims.push_back(dims[d]);
        keptDims.push_back(mask[d] ? 1 : dims[d]);
      }
      SCOPED_TRACE(std::string(op) + " mask " + std::to_string(m));
      for (bool keep : {false, true}) {
        auto out = runKernel(
            op, AttrMap{{"T", DType::F32}, {"keep_dims", keep}},
            {in, i32({static_cast<int64_t>(axes.size())}, axes)}, DType::F32);
        ASSERT_TRUE(out.ok()) << out.status();
        std::vector<double> expected = naiveReduce(values, dims, mask, op);
        const double tol = std::string(op) == "Prod" ? 1e-4 : 1e-5;
        expectValues<float>(*out, TensorShape(keep ? keptDims : outDims),
                            expected, tol);
      }
    }
  }
}

TEST(Reduce, LargeRowsAndColumns) {
  // Long single row (chunked partial sums) and column reduction.
  const int64_t n = 100000;
  std::vector<double> values = patternValues(n, 2);
  Tensor in = makeTensorFrom<float>({n}, values);
  auto out = runKernel("Sum", AttrMap{{"T", DType::F32}}, {in, i32({}, {0})},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  double sum = 0;
  for (double v : values)
    sum += v;
  expectValues<float>(*out, {}, {sum}, 1e-5);
  Tensor cols = makeTensorFrom<float>({1000, 100}, values);
  out = runKernel("Max", AttrMap{{"T", DType::F32}}, {cols, i64({1}, {0})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {100},
                      naiveReduce(values, {1000, 100}, {true, false}, "Max"));
}

TEST(Reduce, IntegerDTypes) {
  auto out =
      runKernel("Sum", AttrMap{{"T", DType::I32}},
                {i32({2, 3}, {1, 2, 3, 4, 5, 6}), i32({}, {1})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {6, 15});
  out = runKernel("Mean", AttrMap{{"T", DType::I32}},
                  {i32({2, 3}, {1, 2, 4, 4, 5, 7}), i32({}, {1})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {2, 5});
  out = runKernel("Prod", AttrMap{{"T", DType::I64}},
                  {i64({3}, {2, 3, 4}), i32({1}, {0})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {}, {24});
  out = runKernel("Max", AttrMap{{"T", DType::I64}},
                  {i64({2, 2}, {1, 9, -3, 2}), i32({2}, {0, 1})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {}, {9});
  out = runKernel("Min", AttrMap{{"T", DType::I32}},
                  {i32({2, 2}, {1, 9, -3, 2}), i32({}, {0})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {-3, 2});
}

TEST(Reduce, EmptyIdentitiesAndNaN) {
  Tensor empty = f32({0, 2}, {});
  const double inf = std::numeric_limits<double>::infinity();
  for (auto [op, identity] :
       std::vector<std::pair<const char *, double>>{{"Sum", 0},
                                                    {"Prod", 1},
                                                    {"Max", -inf},
                                                    {"Min", inf},
                                                    {"Mean", NAN}}) {
    auto out = runKernel(op, AttrMap{{"T", DType::F32}}, {empty, i32({}, {0})},
                         DType::F32);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, {2}, {identity, identity});
  }
  auto out = runKernel("Max", AttrMap{{"T", DType::I32}},
                       {i32({0}, {}), i32({}, {0})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {},
                        {double(std::numeric_limits<int32_t>::min())});
  // Reducing nothing (empty axes) returns the input values.
  out = runKernel("Sum", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), i32({0}, {})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {1, 2});
  out = runKernel("Max", AttrMap{{"T", DType::F32}},
                  {f32({3}, {1, NAN, 2}), i32({}, {0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {}, {NAN});
  out = runKernel("Sum", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), i32({}, {2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Sum", "Invalid reduction dimension (2 for input with 1 "
                           "dimension(s)"));
}

TEST(Reduce, TidxTypesTheReductionIndices) {
  // As in TensorFlow's OpDef, Tidx is the dtype of reduction_indices: int32
  // or int64, int32 when the graph leaves it out.
  Tensor in = f32({2, 2}, {1, 2, 3, 4});
  for (const AttrMap &attrs :
       {AttrMap{{"T", DType::F32}},
        AttrMap{{"T", DType::F32}, {"Tidx", DType::I64}}}) {
    auto out = runKernel("Sum", attrs, {in, i64({1}, {1})}, DType::F32);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, {2}, {3, 7});
  }
  auto out = runKernel("Sum", AttrMap{{"T", DType::F32}, {"Tidx", DType::I32}},
                       {in, i64({1}, {1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            "loc(test): op 'Sum' has Tidx=i32 but its input #1 is i64");
  out = runKernel("Mean", AttrMap{{"T", DType::F32}, {"Tidx", DType::F32}},
                  {in, f32({1}, {1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Mean", "reduction_indices must be a scalar or vector, "
                            "got shape [1]"));
}

TEST(Reduce, AllAny) {
  Tensor b = makeTensor<bool>({2, 3}, {true, true, false, true, true, true});
  auto out = runKernel("All", AttrMap{}, {b, i32({}, {1})}, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{false, true}));
  out = runKernel("Any", AttrMap{{"keep_dims", true}}, {b, i64({}, {0})},
                  DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({1, 3}));
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{true, true, true}));
  out = runKernel("All", AttrMap{}, {b, i32({}, {0})}, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{true, true, false}));
  out = runKernel("Any", AttrMap{}, {makeTensor<bool>({0}, {}), i32({}, {0})},
                  DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{false}));
}

TEST(ArgMax, TiesAndAxes) {
  Tensor in = f32({2, 4}, {1, 5, 5, 2, 7, 0, 7, -1});
  auto out = runKernel("ArgMax", AttrMap{{"T", DType::F32}}, {in, i32({}, {1})},
                       DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {2}, {1, 0});
  out = runKernel("ArgMin", AttrMap{{"T", DType::F32}}, {in, i64({}, {-1})},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {0, 3});
  out = runKernel("ArgMax", AttrMap{{"T", DType::I32}},
                  {i32({3, 2}, {1, 9, 4, 9, 4, 0}), i32({}, {0})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {1, 0});
  out = runKernel("ArgMax", AttrMap{{"T", DType::F32}},
                  {f32({0, 2}, {}), i32({}, {0})}, DType::I64);
  EXPECT_EQ(out.status().message(),
            opError("ArgMax", "Reduction axis 0 is empty in shape [0,2]"));
  out = runKernel("ArgMax", AttrMap{{"T", DType::F32}}, {in, i32({}, {2})},
                  DType::I64);
  EXPECT_EQ(
      out.status().message(),
      opError("ArgMax", "Expected dimension in the range [-2, 2), but got 2"));
}

TEST(TopKV2, SortedWithTies) {
  Tensor in = f32({2, 5}, {1, 3, 3, 2, 5, 0, 0, 0, 1, 0});
  auto outs = runKernelN("TopKV2", AttrMap{{"T", DType::F32}},
                         {in, i32({}, {3})}, {DType::F32, DType::I32});
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<float>((*outs)[0], {2, 3}, {5, 3, 3, 1, 0, 0});
  expectValues<int32_t>((*outs)[1], {2, 3}, {4, 1, 2, 3, 0, 1});
  outs = runKernelN("TopKV2", AttrMap{{"T", DType::I32}},
                    {i32({4}, {2, 7, 7, 1}), i32({}, {1})},
                    {DType::I32, DType::I32});
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<int32_t>((*outs)[0], {1}, {7});
  expectValues<int32_t>((*outs)[1], {1}, {1});
  outs = runKernelN("TopKV2", AttrMap{{"T", DType::F32}}, {in, i32({}, {6})},
                    {DType::F32, DType::I32});
  EXPECT_EQ(
      outs.status().message(),
      opError("TopKV2", "input must have at least k columns. Had 5, needed 6"));
  outs = runKernelN("TopKV2", AttrMap{{"T", DType::F32}}, {in, i32({}, {0})},
                    {DType::F32, DType::I32});
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ((*outs)[0].shape(), TensorShape({2, 0}));
}

} // namespace

namespace {

TEST(TopKV1, KFromTheAttribute) {
  auto out =
      runKernelN("TopK", AttrMap{{"T", DType::F32}, {"k", 2}},
                 {f32({2, 3}, {1, 3, 2, 6, 5, 6})}, {DType::F32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {2, 2}, {3, 2, 6, 6});
  expectValues<int32_t>((*out)[1], {2, 2}, {1, 2, 0, 2});
}

TEST(InTopK, TiesAndNonFinite) {
  // Row 0: target 1 (0.5) has one strictly larger prediction; row 1:
  // target 0 ties with class 2 (ties count for the target); row 2: an inf
  // prediction makes it false; row 3: target out of range.
  Tensor pred = f32(
      {4, 3}, {0.1f, 0.5f, 0.9f, 0.7f, 0.1f, 0.7f, 1, INFINITY, 0, 1, 2, 3});
  auto out =
      runKernel("InTopKV2", AttrMap{{"T", DType::I32}},
                {pred, i32({4}, {1, 0, 0, 5}), i32({}, {1})}, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<bool>(*out, {4}, {0, 1, 0, 0});
  out = runKernel("InTopK", AttrMap{{"T", DType::I64}, {"k", 2}},
                  {pred, i64({4}, {1, 0, 0, 5})}, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<bool>(*out, {4}, {1, 1, 0, 0});
  out = runKernel("InTopKV2", AttrMap{{"T", DType::I32}},
                  {pred, i32({3}, {0, 0, 0}), i32({}, {1})}, DType::Bool);
  EXPECT_EQ(out.status().message(),
            opError("InTopKV2", "First dimension of predictions 4 must match "
                                "length of targets 3"));
}

} // namespace
