//===- EinsumKernelsTest.cpp - Einsum ---------------------------*- C++ -*-===//
//
// Einsum against a brute-force reference written here (the sum over every
// assignment of the labels, an ellipsis spelled out as right-aligned
// broadcast labels with size-1 dims read at 0), for matmuls, batch
// matmuls, transposes, traces and diagonals, reductions, outer products,
// output diagonals, ellipsis broadcasting, every dtype and TF's equation
// errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <map>
#include <string>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// Splits "a,b->c" into {"a", "b"} and "c".
void split(const std::string &eq, std::vector<std::string> *ins,
           std::string *out) {
  const size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  *out = eq.substr(arrow + 2);
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    ins->push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
}

/// Replaces "..." in `s` by the last `n` of the upper-case broadcast
/// labels 'A'... (the innermost broadcast dim is always the last letter).
std::string spellEllipsis(const std::string &s, int n, int maxN) {
  const size_t at = s.find("...");
  if (at == std::string::npos)
    return s;
  std::string labels;
  for (int k = maxN - n; k < maxN; ++k)
    labels.push_back(static_cast<char>('A' + k));
  return s.substr(0, at) + labels + s.substr(at + 3);
}

/// Brute-force einsum: every label runs over its size; an operand's dim of
/// size 1 under a broadcast label is read at 0.
std::vector<double> reference(const std::string &eq,
                              const std::vector<Dims> &shapes,
                              const std::vector<std::vector<double>> &vals,
                              Dims *outDims) {
  std::vector<std::string> ins;
  std::string out;
  split(eq, &ins, &out);
  int maxN = 0;
  std::vector<int> nb(ins.size(), 0);
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i].find("...") != std::string::npos) {
      nb[i] = static_cast<int>(shapes[i].size() + 3 - ins[i].size());
      maxN = std::max(maxN, nb[i]);
    }
  for (size_t i = 0; i < ins.size(); ++i)
    ins[i] = spellEllipsis(ins[i], nb[i], maxN);
  out = spellEllipsis(out, maxN, maxN);
  std::map<char, int64_t> size;
  for (size_t i = 0; i < ins.size(); ++i)
    for (size_t d = 0; d < ins[i].size(); ++d)
      size[ins[i][d]] = std::max(size[ins[i][d]], shapes[i][d]);
  std::vector<char> labels;
  for (auto &[c, s] : size)
    labels.push_back(c);
  outDims->clear();
  for (char c : out)
    outDims->push_back(size[c]);
  std::vector<double> result(product(*outDims), 0);
  Dims all;
  for (char c : labels)
    all.push_back(size[c]);
  forEachIndex(all, [&](const std::vector<int64_t> &idx) {
    std::map<char, int64_t> at;
    for (size_t k = 0; k < labels.size(); ++k)
      at[labels[k]] = idx[k];
    // A repeated output label only receives its diagonal.
    for (size_t d = 0; d < out.size(); ++d)
      for (size_t e = 0; e < d; ++e)
        if (out[d] == out[e] && at[out[d]] != at[out[e]])
          return;
    double p = 1;
    for (size_t i = 0; i < ins.size(); ++i) {
      int64_t off = 0;
      for (size_t d = 0; d < ins[i].size(); ++d)
        off = off * shapes[i][d] + (shapes[i][d] == 1 ? 0 : at[ins[i][d]]);
      p *= vals[i][off];
    }
    int64_t o = 0;
    for (size_t d = 0; d < out.size(); ++d)
      o = o * (*outDims)[d] + at[out[d]];
    result[o] += p;
  });
  return result;
}

template <typename T>
void check(const std::string &eq, const std::vector<Dims> &shapes) {
  std::vector<std::vector<double>> vals;
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < shapes.size(); ++i) {
    vals.push_back(patternValues(product(shapes[i]), 2, int(i) + 3));
    if constexpr (std::is_integral_v<T>)
      for (double &v : vals.back())
        v = std::floor(v * 2);
    inputs.push_back(makeTensorFrom<T>(shapeOf(shapes[i]), vals.back()));
  }
  Dims outDims;
  const auto expected = reference(eq, shapes, vals, &outDims);
  auto out = runKernel("Einsum",
                       AttrMap{{"T", dtypeOf<T>()},
                               {"N", int64_t(shapes.size())},
                               {"equation", eq}},
                       inputs, dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << eq << ": " << out.status();
  SCOPED_TRACE(eq);
  expectValues<T>(*out, shapeOf(outDims), expected);
}

TEST(Einsum, MatchesBruteForce) {
  check<double>("ij,jk->ik", {{3, 4}, {4, 5}});
  check<double>("ij,kj->ik", {{3, 4}, {5, 4}});
  check<double>("ji,jk->ki", {{4, 3}, {4, 5}});
  check<double>("bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}});
  check<double>("bij,bjk->kbi", {{2, 3, 4}, {2, 4, 2}});
  check<double>("bij,jbk->ikb", {{2, 3, 4}, {4, 2, 2}});
  check<double>("ij->ji", {{3, 4}});
  check<double>("ijk->kij", {{2, 3, 4}});
  check<double>("ij->ij", {{3, 4}});
  check<double>("ij->", {{3, 4}});
  check<double>("ij->j", {{3, 4}});
  check<double>("i,i->", {{5}, {5}});
  check<double>("i,j->ij", {{3}, {4}});
  check<double>("i,j->ji", {{3}, {4}});
  check<double>("i,j->", {{3}, {4}});
  check<double>("ij,ij->ij", {{3, 4}, {3, 4}});
  check<double>("ij,ij->", {{3, 4}, {3, 4}});
  check<double>("ij,jk->k", {{3, 4}, {4, 2}});
  check<double>("abc,cd->abd", {{2, 3, 4}, {4, 5}});
  check<double>("abcd,dbe->aec", {{2, 3, 2, 4}, {4, 3, 2}});
  check<double>(",ij->ij", {{}, {2, 3}});
  check<double>("->", {{}});
}

TEST(Einsum, RepeatedLabels) {
  check<double>("ii->", {{4, 4}});       // Trace.
  check<double>("ii->i", {{4, 4}});      // Diagonal.
  check<double>("iii->i", {{3, 3, 3}});  // Generalized diagonal.
  check<double>("iji->j", {{3, 2, 3}});  // Partial trace.
  check<double>("bii->bi", {{2, 3, 3}}); // Batch diagonals.
  check<double>("iij,jk->ik", {{3, 3, 2}, {2, 4}});
  check<double>("ii,jj->ij", {{3, 3}, {2, 2}});
  check<double>("ij,jj->i", {{3, 2}, {2, 2}});
  check<double>("i->ii", {{3}}); // Inflation: a diagonal matrix.
  check<double>("ij->iji", {{3, 2}});
  check<double>("i,j->iji", {{3}, {2}});
  // Labels summed in one operand before the contraction.
  check<double>("ijk,kl->il", {{2, 3, 4}, {4, 2}});
  check<double>("ij,kl->il", {{2, 3}, {4, 2}});
  check<double>("ab,cd->", {{2, 3}, {4, 5}});
}

TEST(Einsum, Ellipsis) {
  check<double>("...ij,...jk->...ik", {{2, 1, 2, 3}, {3, 3, 2}});
  check<double>("...ij,...jk->...ik", {{2, 3}, {4, 3, 2}});
  check<double>("...ij,...jk->...ik", {{5, 2, 3}, {5, 3, 2}});
  check<double>("...ij,...jk->...ik", {{1, 2, 3}, {4, 3, 2}});
  check<double>("...ij,jk->...ik", {{2, 2, 2, 3}, {3, 2}});
  check<double>("ij...,jk...->ik...", {{2, 3, 4}, {3, 2, 1}});
  check<double>("i...->...", {{3, 2, 2}});
  check<double>("...ii->...i", {{2, 3, 3}});
  check<double>("...->...", {{2, 3}});
  check<double>("i...j,j->...i", {{2, 3, 4}, {4}});
  check<double>("...i,...i->...", {{3, 1, 4}, {2, 4}});
  check<double>("...,...->...", {{2, 1}, {3}});
  check<double>("ij...->ji", {{2, 3}}); // An empty ellipsis.
}

TEST(Einsum, EmptyOperands) {
  check<double>("ij,jk->ik", {{3, 0}, {0, 2}}); // A sum over nothing: 0.
  check<double>("ij,jk->ik", {{0, 4}, {4, 2}});
  check<double>("ii->i", {{0, 0}});
}

TEST(Einsum, EveryDType) {
  check<float>("bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}});
  check<half>("bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}});
  check<bf16>("bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}});
  check<int32_t>("bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}});
  check<int64_t>("bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}});
  check<int32_t>("ii->", {{4, 4}});
  check<half>("ij->", {{16, 16}}); // Accumulates in float.
}

TEST(Einsum, Errors) {
  auto run = [](const std::string &eq, std::vector<Tensor> in) {
    const int64_t n = static_cast<int64_t>(in.size());
    return runKernel("Einsum",
                     AttrMap{{"T", DType::F32}, {"N", n}, {"equation", eq}},
                     std::move(in), DType::F32);
  };
  EXPECT_EQ(run("ij", {iota({2, 2})}).status().message(),
            opError("Einsum", "Expecting exactly one '->' in einsum equation: "
                              "ij"));
  EXPECT_EQ(run("i->j->k", {iota({2})}).status().message(),
            opError("Einsum", "Expecting exactly one '->' in einsum equation: "
                              "i->j->k"));
  EXPECT_EQ(
      run("i,j,k->", {iota({2}), iota({2}), iota({2})}).status().message(),
      opError("Einsum", "Expecting 1 or 2 input subscripts in equation "
                        "'i,j,k->' but got: 3"));
  EXPECT_EQ(run("ij,jk->ik", {iota({2})}).status().message(),
            opError("Einsum", "Expected 2 inputs but got: 1"));
  EXPECT_EQ(run("ij,jk->ik", {iota({2, 3}), iota({4, 2})}).status().message(),
            opError("Einsum", "Expected dimension 3 at axis 0 of the input "
                              "shaped [4,2] but got dimension 4"));
  EXPECT_EQ(run("ii->i", {iota({2, 3})}).status().message(),
            opError("Einsum", "Expected dimension 2 at axis 1 of the input "
                              "shaped [2,3] but got dimension 3"));
  EXPECT_EQ(run("ij->i", {iota({2})}).status().message(),
            opError("Einsum", "Expected input 0 to have rank 2 but got: 1"));
  EXPECT_EQ(
      run("...ij->i", {iota({2})}).status().message(),
      opError("Einsum", "Expected input 0 to have rank at least 2 but got: 1"));
  EXPECT_EQ(run("...i->i", {iota({2, 3})}).status().message(),
            opError("Einsum", "Output contains 1 broadcasting dimension(s) but "
                              "no ellipsis (...) was found in the output "
                              "subscripts."));
  EXPECT_EQ(
      run("...i,...i->...", {iota({2, 3}), iota({4, 3})}).status().message(),
      opError("Einsum", "Invalid broadcasting dimensions: [2,3] vs. [4,3]"));
  EXPECT_EQ(run("i->j", {iota({2})}).status().message(),
            opError("Einsum", "Output subscripts contain a label not "
                              "appearing in the inputs."));
  EXPECT_EQ(run("i.->i", {iota({2})}).status().message(),
            opError("Einsum", "Invalid ellipsis in einsum equation: i.->i"));
  EXPECT_EQ(run("i1->i", {iota({2, 2})}).status().message(),
            opError("Einsum", "Invalid character '1' in einsum equation: "
                              "i1->i"));
}

} // namespace
