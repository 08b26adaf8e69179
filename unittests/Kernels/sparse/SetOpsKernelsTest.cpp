//===- SetOpsKernelsTest.cpp - Dense/sparse set operations ------*- C++ -*-===//
//
// DenseToDenseSetOperation, DenseToSparseSetOperation and
// SparseToSparseSetOperation against sets worked out by hand (the rules of
// tf.sets.difference / intersection / union: one set per position of the
// leading dims, results sorted, as a SparseTensor), and TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <string>
#include <string_view>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

const std::vector<DType> kOut32 = {DType::I64, DType::I32, DType::I64};

Tensor strs(TensorShape shape, std::vector<std::string_view> values) {
  return *makeStringTensor(shape, values);
}

AttrMap setAttrs(const char *op, DType t, bool validate = true) {
  return AttrMap{
      {"set_operation", op}, {"T", t}, {"validate_indices", validate}};
}

StatusOr<std::vector<Tensor>> denseDense(const char *op, Tensor a, Tensor b) {
  const DType t = a.dtype();
  return runKernelN("DenseToDenseSetOperation", setAttrs(op, t),
                    {std::move(a), std::move(b)}, {DType::I64, t, DType::I64});
}

TEST(DenseToDenseSetOperation, EachOperation) {
  // Rows {1, 2, 3} / {2, 3, 9} and {4, 5, 6, 7} / {8}.
  auto a = [] { return i32({2, 4}, {1, 2, 2, 3, 4, 5, 6, 7}); };
  auto b = [] { return i32({2, 4}, {2, 3, 9, 9, 8, 8, 8, 8}); };
  auto out = denseDense("a-b", a(), b());
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {5, 2}, {0, 0, 1, 0, 1, 1, 1, 2, 1, 3});
  expectValues<int32_t>((*out)[1], {5}, {1, 4, 5, 6, 7});
  expectValues<int64_t>((*out)[2], {2}, {2, 4});
  out = denseDense("b-a", a(), b());
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 2}, {0, 0, 1, 0});
  expectValues<int32_t>((*out)[1], {2}, {9, 8});
  expectValues<int64_t>((*out)[2], {2}, {2, 1});
  // Any case; an empty result leaves its row out.
  out = denseDense("INTERSECTION", a(), b());
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 2}, {0, 0, 0, 1});
  expectValues<int32_t>((*out)[1], {2}, {2, 3});
  expectValues<int64_t>((*out)[2], {2}, {2, 2});
  out = denseDense("union", a(), b());
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {9, 2},
                        {0, 0, 0, 1, 0, 2, 0, 3, 1, 0, 1, 1, 1, 2, 1, 3, 1, 4});
  expectValues<int32_t>((*out)[1], {9}, {1, 2, 3, 9, 4, 5, 6, 7, 8});
  expectValues<int64_t>((*out)[2], {2}, {2, 5});
}

TEST(DenseToDenseSetOperation, StringsAndRank3) {
  auto out =
      denseDense("union", strs({1, 2}, {"b", "a"}), strs({1, 2}, {"c", "b"}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3, 2}, {0, 0, 0, 1, 0, 2});
  auto values = stringElements((*out)[1]);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0], "a");
  EXPECT_EQ(values[1], "b");
  EXPECT_EQ(values[2], "c");
  // [2, 1, 2] vs [2, 1, 3]: the last dims may differ; uint16.
  auto u = denseDense("a-b", makeTensor<uint16_t>({2, 1, 2}, {1, 2, 3, 4}),
                      makeTensor<uint16_t>({2, 1, 3}, {2, 2, 2, 9, 9, 9}));
  ASSERT_TRUE(u.ok()) << u.status();
  expectValues<int64_t>((*u)[0], {3, 3}, {0, 0, 0, 1, 0, 0, 1, 0, 1});
  expectValues<uint16_t>((*u)[1], {3}, {1, 3, 4});
  expectValues<int64_t>((*u)[2], {3}, {2, 1, 2});
}

TEST(DenseToDenseSetOperation, Errors) {
  EXPECT_EQ(denseDense("union", i32({2}, {1, 2}), i32({1, 2}, {1, 2}))
                .status()
                .message(),
            opError("DenseToDenseSetOperation", "Shape [2] has rank 1 < 2"));
  EXPECT_EQ(
      denseDense("union", i32({2, 2}, {1, 2, 3, 4}),
                 i32({3, 2}, {1, 2, 3, 4, 5, 6}))
          .status()
          .message(),
      opError("DenseToDenseSetOperation", "Mismatched shapes [2] vs [3]"));
  auto bad = denseDense("xor", i32({1, 1}, {1}), i32({1, 1}, {1}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Invalid set_operation xor."),
            std::string::npos)
      << bad.status();
}

TEST(DenseToSparseSetOperation, MatchesRowsToGroups) {
  // a = [[1, 2], [3, 4]]; b: row 0 {2, 5}, row 1 {3}.
  auto run = [](const char *op, Tensor bIx, Tensor bValues) {
    return runKernelN("DenseToSparseSetOperation", setAttrs(op, DType::I32),
                      {i32({2, 2}, {1, 2, 3, 4}), std::move(bIx),
                       std::move(bValues), i64({2}, {2, 3})},
                      kOut32);
  };
  auto out = run("union", i64({3, 2}, {0, 0, 0, 1, 1, 0}), i32({3}, {2, 5, 3}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {5, 2}, {0, 0, 0, 1, 0, 2, 1, 0, 1, 1});
  expectValues<int32_t>((*out)[1], {5}, {1, 2, 5, 3, 4});
  expectValues<int64_t>((*out)[2], {2}, {2, 3});
  // b without row 1: a-b keeps a's row 1 whole.
  out = run("a-b", i64({1, 2}, {0, 0}), i32({1}, {2}));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3, 2}, {0, 0, 1, 0, 1, 1});
  expectValues<int32_t>((*out)[1], {3}, {1, 3, 4});
  expectValues<int64_t>((*out)[2], {2}, {2, 2});
  // TF's index checks.
  EXPECT_EQ(run("union", i64({2, 2}, {1, 0, 0, 0}), i32({2}, {1, 2}))
                .status()
                .message(),
            opError("DenseToSparseSetOperation",
                    "indices[1] = [0,0] is out of order. Many sparse ops "
                    "require sorted indices.\n    Use `tf.sparse.reorder` to "
                    "create a correctly ordered copy.\n\n"));
  EXPECT_EQ(run("union", i64({1, 2}, {0, 3}), i32({1}, {1})).status().message(),
            opError("DenseToSparseSetOperation",
                    "indices[0] = [0,3] is out of bounds: need 0 <= index < "
                    "[2,3]"));
  EXPECT_EQ(run("union", i64({2, 2}, {0, 1, 0, 1}), i32({2}, {1, 1}))
                .status()
                .message(),
            opError("DenseToSparseSetOperation", "indices[1] = [0,1] is "
                                                 "repeated"));
  // Without validate_indices, out-of-order groups are matched as TF matches
  // them: row 1's group {3} comes first, so row 0 sees none and row 1's
  // intersection is {3}; the later row 0 entry is never read.
  auto loose =
      runKernelN("DenseToSparseSetOperation",
                 setAttrs("intersection", DType::I32, /*validate=*/false),
                 {i32({2, 2}, {1, 2, 3, 4}), i64({2, 2}, {1, 0, 0, 0}),
                  i32({2}, {3, 1}), i64({2}, {2, 3})},
                 kOut32);
  ASSERT_TRUE(loose.ok()) << loose.status();
  expectValues<int64_t>((*loose)[0], {1, 2}, {1, 0});
  expectValues<int32_t>((*loose)[1], {1}, {3});
  expectValues<int64_t>((*loose)[2], {2}, {2, 1});
}

TEST(DenseToSparseSetOperation, ManyEmptyDenseSetsAreNotWalked) {
  // a: 2^40 empty sets (no elements); b: group 5 {1, 2}, group 7 {3}.
  const int64_t n = int64_t(1) << 40;
  auto out =
      runKernelN("DenseToSparseSetOperation", setAttrs("union", DType::I32),
                 {i32({n, 0}, {}), i64({3, 2}, {5, 0, 5, 1, 7, 0}),
                  i32({3}, {1, 2, 3}), i64({2}, {n, 2})},
                 kOut32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3, 2}, {5, 0, 5, 1, 7, 0});
  expectValues<int32_t>((*out)[1], {3}, {1, 2, 3});
  expectValues<int64_t>((*out)[2], {2}, {double(n), 2});
  // Dense sets on both sides, all empty: nothing.
  auto none = denseDense("union", i32({n, 0}, {}), i32({n, 0}, {}));
  ASSERT_TRUE(none.ok()) << none.status();
  expectValues<int64_t>((*none)[0], {0, 2}, {});
  expectValues<int64_t>((*none)[2], {2}, {double(n), 0});
}

TEST(SparseToSparseSetOperation, MergesGroups) {
  // a: row 0 {1, 2}, row 2 {7}; b: row 1 {5}, row 2 {7, 8}; shape [3, 2].
  auto run = [](const char *op) {
    return runKernelN("SparseToSparseSetOperation", setAttrs(op, DType::I64),
                      {i64({3, 2}, {0, 0, 0, 1, 2, 0}), i64({3}, {1, 2, 7}),
                       i64({2}, {3, 2}), i64({3, 2}, {1, 0, 2, 0, 2, 1}),
                       i64({3}, {5, 7, 8}), i64({2}, {3, 2})},
                      {DType::I64, DType::I64, DType::I64});
  };
  auto out = run("union");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {5, 2}, {0, 0, 0, 1, 1, 0, 2, 0, 2, 1});
  expectValues<int64_t>((*out)[1], {5}, {1, 2, 5, 7, 8});
  expectValues<int64_t>((*out)[2], {2}, {3, 2});
  out = run("intersection");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {1, 2}, {2, 0});
  expectValues<int64_t>((*out)[1], {1}, {7});
  expectValues<int64_t>((*out)[2], {2}, {3, 1});
  out = run("b-a");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 2}, {1, 0, 2, 0});
  expectValues<int64_t>((*out)[1], {2}, {5, 8});
}

TEST(SparseToSparseSetOperation, UnvalidatedGroupsAreStillChecked) {
  // validate_indices=false skips the order checks, but a group's indices
  // must still be below the dense shape (TF's CheckGroup).
  auto out = runKernelN("SparseToSparseSetOperation",
                        setAttrs("union", DType::I64, /*validate=*/false),
                        {i64({1, 2}, {0, 5}), i64({1}, {1}), i64({2}, {1, 2}),
                         i64({1, 2}, {0, 0}), i64({1}, {1}), i64({2}, {1, 2})},
                        {DType::I64, DType::I64, DType::I64});
  EXPECT_EQ(out.status().message(),
            opError("SparseToSparseSetOperation",
                    "indices[0, 1] expected < 2, got 5."));
}

TEST(SparseToSparseSetOperation, Errors) {
  auto run = [](Tensor aShape, Tensor bShape) -> std::string {
    return std::string(
        runKernelN("SparseToSparseSetOperation", setAttrs("union", DType::I64),
                   {i64({1, 1}, {0}), i64({1}, {1}), std::move(aShape),
                    i64({1, 2}, {0, 0}), i64({1}, {1}), std::move(bShape)},
                   {DType::I64, DType::I64, DType::I64})
            .status()
            .message());
  };
  EXPECT_EQ(run(i64({1}, {2}), i64({2}, {2, 2})),
            opError("SparseToSparseSetOperation", "Invalid rank 1."));
  EXPECT_EQ(
      run(i64({2, 1}, {2, 2}), i64({2}, {2, 2})),
      opError("SparseToSparseSetOperation", "Shape must be a 1D tensor."));
  EXPECT_EQ(run(i64({2}, {2, 2}), i64({2}, {2, 2})),
            opError("SparseToSparseSetOperation",
                    "Order length must be SparseTensor rank."));
}

} // namespace
