//===- SparseCrossKernelsTest.cpp - SparseCross, Hashed, V2 -----*- C++ -*-===//
//
// SparseCross, SparseCrossHashed and SparseCrossV2 against TensorFlow's own
// expectations (tensorflow/python/kernel_tests/sparse_ops/
// sparse_cross_op_test.py: the string crosses, and the fingerprints it pins
// "to prevent unintentional hashing changes"), plus TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <string>
#include <string_view>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

Tensor strs(TensorShape shape, std::vector<std::string_view> values) {
  return *makeStringTensor(shape, values);
}

/// A sparse column as the Python test's _sparse_tensor builds it: row b's
/// features at [b, 0..], dense shape [rows, widest].
struct Column {
  Tensor indices, values, shape;
};

Column stringColumn(std::vector<std::vector<std::string_view>> rows,
                    int64_t batch = -1) {
  std::vector<int64_t> ix;
  std::vector<std::string_view> values;
  int64_t widest = 0;
  for (size_t b = 0; b < rows.size(); ++b) {
    for (size_t c = 0; c < rows[b].size(); ++c) {
      ix.push_back(static_cast<int64_t>(b));
      ix.push_back(static_cast<int64_t>(c));
      values.push_back(rows[b][c]);
    }
    widest = std::max<int64_t>(widest, rows[b].size());
  }
  const int64_t n = static_cast<int64_t>(values.size());
  return {i64({n, 2}, ix), strs({n}, values),
          i64({2}, {batch < 0 ? int64_t(rows.size()) : batch, widest})};
}

Column intColumn(std::vector<std::vector<int64_t>> rows) {
  std::vector<int64_t> ix, values;
  int64_t widest = 0;
  for (size_t b = 0; b < rows.size(); ++b) {
    for (size_t c = 0; c < rows[b].size(); ++c) {
      ix.push_back(static_cast<int64_t>(b));
      ix.push_back(static_cast<int64_t>(c));
      values.push_back(rows[b][c]);
    }
    widest = std::max<int64_t>(widest, rows[b].size());
  }
  const int64_t n = static_cast<int64_t>(values.size());
  return {i64({n, 2}, ix), i64({n}, values),
          i64({2}, {int64_t(rows.size()), widest})};
}

/// The inputs and type attributes of a cross of `sparse` and `dense`
/// columns, then `extra` inputs.
std::vector<Tensor> crossInputs(const std::vector<Column> &sparse,
                                const std::vector<Tensor> &dense,
                                std::vector<Tensor> extra, AttrMap *attrs) {
  std::vector<Tensor> in;
  std::vector<DType> sparseTypes, denseTypes;
  for (const Column &c : sparse)
    in.push_back(c.indices);
  for (const Column &c : sparse) {
    in.push_back(c.values);
    sparseTypes.push_back(c.values.dtype());
  }
  for (const Column &c : sparse)
    in.push_back(c.shape);
  for (const Tensor &d : dense) {
    in.push_back(d);
    denseTypes.push_back(d.dtype());
  }
  for (Tensor &e : extra)
    in.push_back(std::move(e));
  attrs->set("N", static_cast<int64_t>(sparse.size()));
  attrs->set("sparse_types", sparseTypes);
  attrs->set("dense_types", denseTypes);
  return in;
}

StatusOr<std::vector<Tensor>> sparseCross(const std::vector<Column> &sparse,
                                          const std::vector<Tensor> &dense,
                                          DType outType, DType internalType,
                                          int64_t numBuckets = 0,
                                          int64_t hashKey = 0xDECAFCAFFE) {
  AttrMap attrs{{"hashed_output", outType == DType::I64},
                {"num_buckets", numBuckets},
                {"hash_key", hashKey},
                {"out_type", outType},
                {"internal_type", internalType}};
  auto in = crossInputs(sparse, dense, {}, &attrs);
  return runKernelN("SparseCross", attrs, std::move(in),
                    {DType::I64, outType, DType::I64});
}

StatusOr<std::vector<Tensor>>
sparseCrossHashed(const std::vector<Column> &sparse,
                  const std::vector<Tensor> &dense, int64_t numBuckets,
                  bool strongHash, std::vector<int64_t> salt) {
  AttrMap attrs;
  const int64_t saltSize = static_cast<int64_t>(salt.size());
  auto in =
      crossInputs(sparse, dense,
                  {i64({}, {numBuckets}), makeTensor<bool>({}, {strongHash}),
                   i64({saltSize}, salt)},
                  &attrs);
  return runKernelN("SparseCrossHashed", attrs, std::move(in),
                    {DType::I64, DType::I64, DType::I64});
}

void expectStrings(const Tensor &t, std::vector<std::string_view> expected) {
  ASSERT_EQ(t.dtype(), DType::String);
  auto values = stringElements(t);
  ASSERT_EQ(values.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(values[i], expected[i]) << "at " << i;
}

TEST(SparseCross, StringCrosses) {
  // test_simple.
  auto out = sparseCross(
      {stringColumn({{"batch1-FC1-F1"}, {"batch2-FC1-F1", "batch2-FC1-F2"}}),
       stringColumn({{"batch1-FC2-F1"}, {"batch2-FC2-F1", "batch2-FC2-F2"}})},
      {}, DType::String, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {5, 2}, {0, 0, 1, 0, 1, 1, 1, 2, 1, 3});
  expectStrings((*out)[1], {"batch1-FC1-F1_X_batch1-FC2-F1",
                            "batch2-FC1-F1_X_batch2-FC2-F1",
                            "batch2-FC1-F1_X_batch2-FC2-F2",
                            "batch2-FC1-F2_X_batch2-FC2-F1",
                            "batch2-FC1-F2_X_batch2-FC2-F2"});
  expectValues<int64_t>((*out)[2], {2}, {2, 4});
  // test_integer_sparse_input: int64 features in decimal, a dense column.
  out = sparseCross({intColumn({{11}, {333, 5555}})},
                    {strs({2, 2}, {"batch1-FC2-F1", "batch1-FC2-F2",
                                   "batch2-FC2-F1", "batch2-FC2-F2"})},
                    DType::String, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {6, 2},
                        {0, 0, 0, 1, 1, 0, 1, 1, 1, 2, 1, 3});
  expectStrings((*out)[1], {"11_X_batch1-FC2-F1", "11_X_batch1-FC2-F2",
                            "333_X_batch2-FC2-F1", "333_X_batch2-FC2-F2",
                            "5555_X_batch2-FC2-F1", "5555_X_batch2-FC2-F2"});
  expectValues<int64_t>((*out)[2], {2}, {2, 4});
  // test_some_columns_empty: batch 2, row 1 has no FC1 or FC3 features.
  out = sparseCross({stringColumn({{"batch1-FC1-F1", "batch1-FC1-F2"}}, 2),
                     stringColumn({{"batch1-FC2-F1"}, {"batch2-FC2-F1"}}, 2),
                     stringColumn({{"batch1-FC3-F1", "batch1-FC3-F2"}}, 2)},
                    {}, DType::String, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {4, 2}, {0, 0, 0, 1, 0, 2, 0, 3});
  expectStrings((*out)[1], {"batch1-FC1-F1_X_batch1-FC2-F1_X_batch1-FC3-F1",
                            "batch1-FC1-F1_X_batch1-FC2-F1_X_batch1-FC3-F2",
                            "batch1-FC1-F2_X_batch1-FC2-F1_X_batch1-FC3-F1",
                            "batch1-FC1-F2_X_batch1-FC2-F1_X_batch1-FC3-F2"});
  expectValues<int64_t>((*out)[2], {2}, {2, 4});
}

TEST(SparseCross, HashedCrossesAreTFs) {
  auto columns = [] {
    return std::vector<Column>{stringColumn({{"batch1-FC1-F1"}}),
                               stringColumn({{"batch1-FC2-F1"}}),
                               stringColumn({{"batch1-FC3-F1"}})};
  };
  // test_hashed_zero_bucket_no_hash_key, test_hashed_zero_bucket,
  // test_hashed_no_hash_key, test_hashed_output.
  const struct {
    int64_t buckets, key, expected;
  } cases[] = {{0, 0xDECAFCAFFE, 1971693436396284976},
               {0, 0xDECAFCAFFE + 1, 4847552627144134031},
               {100, 0xDECAFCAFFE, 83},
               {100, 0xDECAFCAFFE + 1, 31}};
  for (const auto &c : cases) {
    auto out =
        sparseCross(columns(), {}, DType::I64, DType::String, c.buckets, c.key);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<int64_t>((*out)[0], {1, 2}, {0, 0});
    EXPECT_EQ((*out)[1].data<int64_t>()[0], c.expected);
    expectValues<int64_t>((*out)[2], {2}, {1, 1});
  }
}

TEST(SparseCrossHashed, FingerprintsAreTFs) {
  auto columns = [] {
    return std::vector<Column>{stringColumn({{"batch1-FC1-F1"}}),
                               stringColumn({{"batch1-FC2-F1"}}),
                               stringColumn({{"batch1-FC3-F1"}})};
  };
  // test_hashed_zero_bucket_no_hash_key: the salt is unused without
  // strong_hash.
  for (std::vector<int64_t> salt :
       {std::vector<int64_t>{1, 1}, std::vector<int64_t>{137, 173}}) {
    auto out = sparseCrossHashed(columns(), {}, 0, false, salt);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[1].data<int64_t>()[0], 9186962005966787372);
  }
  // test_hashed_output.
  auto out = sparseCrossHashed(columns(), {}, 100, false, {137, 173});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[1].data<int64_t>()[0], 79);
  // test_hashed_different_salt / test_sep_ignored_in_hashed_out: strong
  // hashes are deterministic, in range and differ from the weak ones.
  auto three = [] {
    return std::vector<Column>{
        stringColumn({{"batch1-FC1-F1", "batch1-FC1-F2", "batch1-FC1-F3"}}),
        stringColumn({{"batch1-FC2-F1"}}),
        stringColumn({{"batch1-FC3-F1", "batch1-FC3-F2"}})};
  };
  auto weak = sparseCrossHashed(three(), {}, 1000, false, {137, 173});
  auto strong = sparseCrossHashed(three(), {}, 1000, true, {137, 1});
  auto again = sparseCrossHashed(three(), {}, 1000, true, {137, 1});
  ASSERT_TRUE(weak.ok() && strong.ok() && again.ok());
  expectValues<int64_t>((*strong)[0], {6, 2},
                        {0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5});
  EXPECT_EQ(valuesOf<int64_t>((*strong)[1]), valuesOf<int64_t>((*again)[1]));
  EXPECT_NE(valuesOf<int64_t>((*strong)[1]), valuesOf<int64_t>((*weak)[1]));
  for (int64_t v : valuesOf<int64_t>((*strong)[1]))
    EXPECT_TRUE(v >= 0 && v < 1000) << v;
  // test_hashed_has_no_collision: int64 dense columns.
  std::vector<int64_t> t2;
  for (int r = 0; r < 2; ++r)
    for (int64_t i = 0; i < 10; ++i)
      t2.push_back(i);
  auto dense =
      sparseCrossHashed({}, {i64({2, 10}, t2), i64({2, 1}, {359, 359 + 1024})},
                        1024, false, {137, 173});
  ASSERT_TRUE(dense.ok()) << dense.status();
  auto v = valuesOf<int64_t>((*dense)[1]);
  ASSERT_EQ(v.size(), 20u);
  for (int i = 0; i < 10; ++i)
    EXPECT_NE(v[i], v[10 + i]) << i;
}

TEST(SparseCrossV2, Separator) {
  // test_sparse_sep.
  std::vector<Column> sparse = {
      stringColumn({{"batch1-FC1-F1"}, {"batch2-FC1-F1", "batch2-FC1-F2"}}),
      stringColumn({{"batch1-FC2-F1"}, {"batch2-FC2-F1", "batch2-FC2-F2"}})};
  AttrMap attrs;
  auto in = crossInputs(sparse, {}, {strs({}, {"_Y_"})}, &attrs);
  auto out = runKernelN("SparseCrossV2", attrs, std::move(in),
                        {DType::I64, DType::String, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectStrings((*out)[1], {"batch1-FC1-F1_Y_batch1-FC2-F1",
                            "batch2-FC1-F1_Y_batch2-FC2-F1",
                            "batch2-FC1-F1_Y_batch2-FC2-F2",
                            "batch2-FC1-F2_Y_batch2-FC2-F1",
                            "batch2-FC1-F2_Y_batch2-FC2-F2"});
  expectValues<int64_t>((*out)[2], {2}, {2, 4});
  in = crossInputs(sparse, {}, {strs({1}, {"_Y_"})}, &attrs);
  out = runKernelN("SparseCrossV2", attrs, std::move(in),
                   {DType::I64, DType::String, DType::I64});
  EXPECT_EQ(out.status().message(),
            opError("SparseCrossV2",
                    "Input separator should be a scalar. Received: [1]"));
}

TEST(SparseCross, Errors) {
  // test_batch_size_mismatch, test_bad_tensor_shapes, the salt's length and
  // internal_type string with int64 values.
  auto mismatch =
      sparseCross({stringColumn({{"a"}}), stringColumn({{"b"}, {"c"}})}, {},
                  DType::String, DType::String);
  EXPECT_EQ(
      mismatch.status().message(),
      opError("SparseCross", "Expected batch size 1 got 2 at position 1"));
  auto dense = sparseCross({stringColumn({{"a"}})}, {strs({2, 1}, {"x", "y"})},
                           DType::String, DType::String);
  EXPECT_EQ(
      dense.status().message(),
      opError("SparseCross", "Expected batch size 1 got 2 at dense tensor 0"));
  Column bad = stringColumn({{"a"}});
  bad.indices = i64({1, 3}, {0, 0, 0});
  EXPECT_EQ(
      sparseCross({bad}, {}, DType::String, DType::String).status().message(),
      opError("SparseCross",
              "Expected D2 of index to be 2 got 3 at position 0"));
  EXPECT_EQ(sparseCross({intColumn({{1}})}, {}, DType::String, DType::String)
                .status()
                .message(),
            opError("SparseCross", "Input values should be of internal type 7 "
                                   "but received 9"));
  EXPECT_EQ(sparseCrossHashed({stringColumn({{"a"}})}, {}, 0, false, {1})
                .status()
                .message(),
            opError("SparseCrossHashed",
                    "Input \"salt\" must have length 2 but has length 1"));
  // Rows out of order end a column's features, as in TF: row 0's entry
  // after row 1's is never crossed.
  Column unordered{i64({2, 2}, {1, 0, 0, 0}), strs({2}, {"late", "early"}),
                   i64({2}, {2, 1})};
  auto out = sparseCross({unordered}, {}, DType::String, DType::String);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {1, 2}, {1, 0});
  expectStrings((*out)[1], {"late"});
  expectValues<int64_t>((*out)[2], {2}, {2, 1});
}

} // namespace
