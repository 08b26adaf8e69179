//===- LookupTableKernelsTest.cpp - Lookup table kernel tests ---*- C++ -*-===//
//
// HashTableV2, MutableHashTableV2, MutableHashTableOfTensorsV2 and
// MutableDenseHashTableV2 with InitializeTableV2,
// InitializeTableFromTextFileV2 and the LookupTable*V2 ops. A table lives
// in an executor's ResourceManager, so each test builds one program whose
// functions each run one op on the table (the table op, then the op,
// ordered by a chain, as the compiler emits them) and runs them on one
// executor. Expected values are worked out by hand; messages follow
// TensorFlow's lookup_table_op.cc, lookup_interface.cc,
// initializable_lookup_table.cc and lookup_util.cc.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <optional>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// One function of a TableOps program: an op on the table.
struct TableCall {
  std::string op;
  AttrMap attrs;
  std::vector<DType> inputs;
  std::vector<DType> outputs;
};

/// A program of one-op functions on the table `tableOp` makes (its
/// `tableInputs` program constants), and an executor to run them on.
class TableOps {
public:
  TableOps(const std::string &tableOp, AttrMap tableAttrs,
           std::map<std::string, TableCall> calls,
           std::vector<Tensor> tableInputs = {}) {
    const PartialShape scalar{absl::Span<const int64_t>()};
    const uint32_t resourceType =
        builder_.addTensorType(DType::Resource, scalar);
    std::vector<uint32_t> tableInputTypes;
    // One type per (dtype, shape), as the constants bound to them share.
    for (size_t i = 0; i < tableInputs.size(); ++i) {
      const Tensor &input = tableInputs[i];
      size_t same = 0;
      while (same < i && (tableInputs[same].dtype() != input.dtype() ||
                          tableInputs[same].shape() != input.shape()))
        ++same;
      tableInputTypes.push_back(
          same < i ? tableInputTypes[same]
                   : builder_.addTensorType(
                         input.dtype(), PartialShape(input.shape().dims())));
    }
    const uint32_t tableKernel =
        builder_.addKernel(tableOp, "loc(table)", std::move(tableAttrs),
                           tableInputTypes, {resourceType}, true);
    for (const auto &[name, call] : calls) {
      const uint32_t function = builder_.addFunction(name);
      std::vector<uint32_t> inputTypes{resourceType}, args;
      for (DType input : call.inputs) {
        inputTypes.push_back(
            builder_.addTensorType(input, PartialShape::unknownRank()));
        args.push_back(builder_.addArgument(function, inputTypes.back()));
      }
      std::vector<uint32_t> outputTypes;
      for (DType output : call.outputs)
        outputTypes.push_back(
            builder_.addTensorType(output, PartialShape::unknownRank()));
      const uint32_t kernel = builder_.addKernel(call.op, kNode, call.attrs,
                                                 inputTypes, outputTypes, true);
      std::vector<uint32_t> tableOperands;
      for (const Tensor &input : tableInputs)
        tableOperands.push_back(builder_.addConstant(function, input));
      tableOperands.push_back(builder_.addChainOp(function, {}));
      std::vector<uint32_t> handle =
          builder_.addKernelCall(function, tableKernel, tableOperands);
      std::vector<uint32_t> operands{handle[0]};
      operands.insert(operands.end(), args.begin(), args.end());
      operands.push_back(handle[1]);
      std::vector<uint32_t> results =
          builder_.addKernelCall(function, kernel, operands);
      builder_.setResults(function, results);
      functions_[name] = function;
      numOutputs_[name] = call.outputs.size();
    }
    StatusOr<std::unique_ptr<Program>> built = builder_.build(kernelRegistry());
    EXPECT_TRUE(built.ok()) << built.status();
    if (!built.ok())
      return;
    program_ = *std::move(built);
    executor_ = std::make_unique<Executor>(*program_, testHost());
  }

  /// Runs `name` on `inputs`: the op's outputs, or the first error.
  StatusOr<std::vector<Tensor>> run(const std::string &name,
                                    std::vector<Tensor> inputs = {}) {
    if (!executor_)
      return InternalError("the program did not build");
    StatusOr<std::vector<ResultValue>> results = executor_->run(
        program_->functions()[functions_.at(name)], std::move(inputs));
    if (!results.ok())
      return results.status();
    std::vector<Tensor> outputs;
    for (ResultValue &result : *results) {
      if (!result.ok())
        return result.status();
      outputs.push_back(*std::move(result));
    }
    outputs.resize(numOutputs_.at(name));
    return outputs;
  }

  /// The first output of `name`.
  StatusOr<Tensor> one(const std::string &name, std::vector<Tensor> inputs) {
    StatusOr<std::vector<Tensor>> outputs = run(name, std::move(inputs));
    if (!outputs.ok())
      return outputs.status();
    return (*outputs)[0];
  }

  /// Runs `name`, expecting it to succeed.
  void expectOk(const std::string &name, std::vector<Tensor> inputs = {}) {
    StatusOr<std::vector<Tensor>> result = run(name, std::move(inputs));
    EXPECT_TRUE(result.ok()) << name << ": " << result.status();
  }

  /// The message of the error `name` fails with.
  std::string error(const std::string &name, std::vector<Tensor> inputs = {}) {
    StatusOr<std::vector<Tensor>> result = run(name, std::move(inputs));
    EXPECT_FALSE(result.ok()) << name << " succeeded";
    return std::string(result.status().message());
  }

  int64_t size() {
    StatusOr<Tensor> n = one("size", {});
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? n->data<int64_t>()[0] : -1;
  }

private:
  ProgramBuilder builder_;
  std::map<std::string, uint32_t> functions_;
  std::map<std::string, size_t> numOutputs_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<Executor> executor_;
};

Tensor str(TensorShape shape, std::vector<std::string_view> values) {
  StatusOr<Tensor> t = makeStringTensor(shape, values);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : Tensor();
}

std::vector<std::string> stringsOf(const Tensor &t) {
  std::vector<std::string> out;
  for (std::string_view s : stringElements(t))
    out.emplace_back(s);
  return out;
}

AttrMap tableAttrs(DType key, DType value, std::string sharedName = "t") {
  return AttrMap{{"container", std::string()},
                 {"shared_name", std::move(sharedName)},
                 {"use_node_name_sharing", false},
                 {"key_dtype", key},
                 {"value_dtype", value}};
}

/// The calls on a table of `key` and `value` dtypes.
std::map<std::string, TableCall> tableCalls(DType key, DType value) {
  AttrMap io{{"Tin", key}, {"Tout", value}};
  return {
      {"find", {"LookupTableFindV2", io, {key, value}, {value}}},
      {"insert", {"LookupTableInsertV2", io, {key, value}, {}}},
      {"remove", {"LookupTableRemoveV2", {{"Tin", key}}, {key}, {}}},
      {"size", {"LookupTableSizeV2", {}, {}, {DType::I64}}},
      {"export",
       {"LookupTableExportV2",
        {{"Tkeys", key}, {"Tvalues", value}},
        {},
        {key, value}}},
      {"import", {"LookupTableImportV2", io, {key, value}, {}}},
      {"init",
       {"InitializeTableV2",
        {{"Tkey", key}, {"Tval", value}},
        {key, value},
        {}}},
  };
}

/// A call of InitializeTableFromTextFileV2 with `attrs`.
TableCall fromFile(AttrMap attrs) {
  return {
      "InitializeTableFromTextFileV2", std::move(attrs), {DType::String}, {}};
}

//===----------------------------------------------------------------------===//
// HashTableV2
//===----------------------------------------------------------------------===//

TEST(HashTable, InitializeFind) {
  TableOps table("HashTableV2", tableAttrs(DType::String, DType::I64),
                 tableCalls(DType::String, DType::I64));
  EXPECT_EQ(table.size(), 0);
  EXPECT_EQ(table.error("find", {str({1}, {"a"}), i64({}, {-1})}),
            opError("LookupTableFindV2", "Table not initialized."));
  EXPECT_EQ(table.error("export"),
            opError("LookupTableExportV2", "HashTable is not initialized."));
  table.expectOk("init", {str({3}, {"a", "b", "c"}), i64({3}, {10, 20, 30})});
  EXPECT_EQ(table.size(), 3);
  // Keys of any shape; a missing key gets the default.
  auto found =
      table.one("find", {str({2, 2}, {"c", "x", "a", "b"}), i64({}, {-1})});
  ASSERT_TRUE(found.ok()) << found.status();
  expectValues<int64_t>(*found, {2, 2}, {30, -1, 10, 20});
  // The table outlives the run: another run finds the same entries.
  found = table.one("find", {str({}, {"b"}), i64({}, {-1})});
  ASSERT_TRUE(found.ok()) << found.status();
  expectValues<int64_t>(*found, {}, {20});
  auto exported = table.run("export");
  ASSERT_TRUE(exported.ok()) << exported.status();
  EXPECT_EQ(stringsOf((*exported)[0]),
            (std::vector<std::string>{"a", "b", "c"}));
  expectValues<int64_t>((*exported)[1], {3}, {10, 20, 30});
  // Read-only once initialized; the same number of entries again is
  // accepted and ignored, another number is not.
  EXPECT_EQ(table.error("insert", {str({1}, {"d"}), i64({1}, {4})}),
            opError("LookupTableInsertV2", "Insert not supported by "
                                           "InitializableLookupTable "
                                           "implementations"));
  EXPECT_EQ(table.error("remove", {str({1}, {"a"})}),
            opError("LookupTableRemoveV2", "Remove not supported by "
                                           "InitializableLookupTable "
                                           "implementations"));
  table.expectOk("init", {str({3}, {"x", "y", "z"}), i64({3}, {1, 2, 3})});
  EXPECT_EQ(table.size(), 3);
  EXPECT_EQ(table.error("init", {str({1}, {"x"}), i64({1}, {1})}),
            opError("InitializeTableV2",
                    "Table was already initialized with different data."));
}

TEST(HashTable, InitializeErrors) {
  TableOps table("HashTableV2", tableAttrs(DType::I64, DType::F32),
                 tableCalls(DType::I64, DType::F32));
  EXPECT_EQ(table.error("init", {i64({2}, {1, 2}), f32({3}, {1, 2, 3})}),
            opError("InitializeTableV2",
                    "Keys and values must have the same size 2 vs 3"));
  EXPECT_EQ(table.error("init", {i64({1, 1}, {1}), f32({1}, {1})}),
            opError("InitializeTableV2",
                    "Keys must be a vector, but received shape[1,1]"));
  EXPECT_EQ(
      table.error("init", {i64({0}, {}), f32({0}, {})}),
      opError("InitializeTableV2", "keys and values cannot be empty tensors."));
  EXPECT_EQ(table.error("init", {i64({3}, {1, 2, 1}), f32({3}, {5, 6, 7})}),
            opError("InitializeTableV2",
                    "HashTable has different value for same key. Key 1 has "
                    "5 and trying to add value 7"));
  // The failed initialization left the table empty.
  EXPECT_EQ(table.size(), 0);
  // A key twice with one value is fine.
  table.expectOk("init", {i64({3}, {1, 2, 1}), f32({3}, {5, 6, 5})});
  EXPECT_EQ(table.size(), 2);
  // Find's checks.
  EXPECT_EQ(table.error("find", {i64({2}, {1, 2}), f32({3}, {0, 0, 0})}),
            opError("LookupTableFindV2",
                    "Expected shape [] or [2] for default value, got [3]"));
  // HashTable takes the first element of a full-size default.
  auto found = table.one("find", {i64({2}, {2, 9}), f32({2}, {-1, -2})});
  ASSERT_TRUE(found.ok()) << found.status();
  expectValues<float>(*found, {2}, {6, -1});
}

//===----------------------------------------------------------------------===//
// InitializeTableFromTextFileV2
//===----------------------------------------------------------------------===//

/// A file of `contents` in the test's temporary directory.
std::string writeFile(const std::string &name, const std::string &contents) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

AttrMap fileAttrs(int64_t keyIndex, int64_t valueIndex, int64_t vocabSize = -1,
                  std::string delimiter = "\t", int64_t offset = 0) {
  return AttrMap{{"key_index", keyIndex},
                 {"value_index", valueIndex},
                 {"vocab_size", vocabSize},
                 {"delimiter", std::move(delimiter)},
                 {"offset", offset}};
}

TEST(HashTable, FromTextFile) {
  // The vocabulary "cat", "dog", "emu": word -> line number (the TF
  // idiom: key_index -2, value_index -1), "\r\n" endings stripped.
  const std::string words = writeFile("lookup_words.txt", "cat\ndog\r\nemu\n");
  std::map<std::string, TableCall> calls =
      tableCalls(DType::String, DType::I64);
  calls["file"] = fromFile(fileAttrs(-2, -1));
  TableOps table("HashTableV2", tableAttrs(DType::String, DType::I64), calls);
  table.expectOk("file", {str({}, {words})});
  EXPECT_EQ(table.size(), 3);
  auto found =
      table.one("find", {str({3}, {"emu", "dog", "yak"}), i64({}, {-1})});
  ASSERT_TRUE(found.ok()) << found.status();
  expectValues<int64_t>(*found, {3}, {2, 1, -1});
  // A second initialization from a file is ignored.
  table.expectOk("file", {str({}, {words})});

  // Columns: "id,name" lines, key column 1, value column 0 as int32 plus
  // the offset 100 (TF offsets int32 columns too); vocab_size 2 reads two
  // lines.
  const std::string csv = writeFile("lookup_cols.txt", "7,x\n8,y\n9,z\n");
  std::map<std::string, TableCall> colCalls =
      tableCalls(DType::String, DType::I32);
  colCalls["file"] = fromFile(fileAttrs(1, 0, 2, ",", 100));
  TableOps cols("HashTableV2", tableAttrs(DType::String, DType::I32), colCalls);
  cols.expectOk("file", {str({}, {csv})});
  EXPECT_EQ(cols.size(), 2);
  found = cols.one("find", {str({3}, {"x", "y", "z"}), i32({}, {0})});
  ASSERT_TRUE(found.ok()) << found.status();
  expectValues<int32_t>(*found, {3}, {107, 108, 0});
}

TEST(HashTable, FromTextFileErrors) {
  std::map<std::string, TableCall> calls =
      tableCalls(DType::String, DType::I64);
  calls["file"] = fromFile(fileAttrs(0, 1));
  calls["line_key"] = fromFile(fileAttrs(-1, 0));
  calls["sized"] = fromFile(fileAttrs(-2, -1, 5));
  TableOps table("HashTableV2", tableAttrs(DType::String, DType::I64), calls);
  const std::string missing = ::testing::TempDir() + "lookup_missing.txt";
  std::remove(missing.c_str());
  auto notFound = table.run("file", {str({}, {missing})});
  EXPECT_EQ(notFound.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(
      table.error("file", {str({}, {""})}),
      opError("InitializeTableFromTextFileV2", "filename cannot be empty."));
  EXPECT_EQ(table.error("file", {str({2}, {"a", "b"})}),
            opError("InitializeTableFromTextFileV2",
                    "filename should be a single string, but got [2]"));
  const std::string bad = writeFile("lookup_bad.txt", "a\t1\nb\tx\n");
  EXPECT_EQ(table.error("file", {str({}, {bad})}),
            opError("InitializeTableFromTextFileV2",
                    "Field x in line 1 is not a valid int64."));
  const std::string narrow = writeFile("lookup_narrow.txt", "a\t1\nb\n");
  EXPECT_EQ(table.error("file", {str({}, {narrow})}),
            opError("InitializeTableFromTextFileV2",
                    "Invalid number of columns in " + narrow +
                        " line 1 (b) : expected at least 2 got 1"));
  const std::string gap = writeFile("lookup_gap.txt", "a\t1\n\nb\t2\n");
  EXPECT_EQ(table.error("file", {str({}, {gap})}),
            opError("InitializeTableFromTextFileV2",
                    "Invalid content in " + gap +
                        ": empty line found at position 5."));
  EXPECT_EQ(table.error("line_key", {str({}, {bad})}),
            opError("InitializeTableFromTextFileV2",
                    "Key index for line number requires table key dtype of "
                    "int64, got string"));
  const std::string three = writeFile("lookup_three.txt", "a\nb\nc\n");
  EXPECT_EQ(
      table.error("sized", {str({}, {three})}),
      opError("InitializeTableFromTextFileV2",
              "Invalid vocab_size in " + three + ": expected 5 but got 3"));
  EXPECT_EQ(table.size(), 0);
}

//===----------------------------------------------------------------------===//
// MutableHashTableV2, MutableHashTableOfTensorsV2, MutableDenseHashTableV2
//===----------------------------------------------------------------------===//

TEST(MutableHashTable, InsertFindRemove) {
  TableOps table("MutableHashTableV2", tableAttrs(DType::I64, DType::F32),
                 tableCalls(DType::I64, DType::F32));
  table.expectOk("insert", {i64({3}, {5, 6, 7}), f32({3}, {0.5, 0.6, 0.7})});
  table.expectOk("insert", {i64({2}, {6, 8}), f32({2}, {6, 8})});
  EXPECT_EQ(table.size(), 4);
  // A full-size default gives each key its own.
  auto found =
      table.one("find", {i64({4}, {8, 9, 5, 6}), f32({4}, {-1, -2, -3, -4})});
  ASSERT_TRUE(found.ok()) << found.status();
  expectValues<float>(*found, {4}, {8, -2, 0.5, 6});
  table.expectOk("remove", {i64({2}, {5, 42})});
  EXPECT_EQ(table.size(), 3);
  // Export in the order keys were first inserted.
  auto exported = table.run("export");
  ASSERT_TRUE(exported.ok()) << exported.status();
  expectValues<int64_t>((*exported)[0], {3}, {6, 7, 8});
  expectValues<float>((*exported)[1], {3}, {6, 0.7f, 8});
  // Import replaces every entry.
  table.expectOk("import", {i64({1}, {1}), f32({1}, {1})});
  EXPECT_EQ(table.size(), 1);
  EXPECT_EQ(
      table.error("insert", {i64({2}, {1, 2}), f32({3}, {1, 2, 3})}),
      opError("LookupTableInsertV2", "Expected shape [2] for value, got [3]"));
}

TEST(MutableHashTable, StringValues) {
  TableOps table("MutableHashTableV2", tableAttrs(DType::I64, DType::String),
                 tableCalls(DType::I64, DType::String));
  table.expectOk("insert", {i64({2}, {1, 2}), str({2}, {"one", "two"})});
  auto found = table.one("find", {i64({3}, {2, 3, 1}), str({}, {"?"})});
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(stringsOf(*found), (std::vector<std::string>{"two", "?", "one"}));
}

TEST(MutableHashTableOfTensors, VectorValues) {
  AttrMap attrs = tableAttrs(DType::String, DType::F32);
  attrs.set("value_shape", PartialShape{2});
  TableOps table("MutableHashTableOfTensorsV2", attrs,
                 tableCalls(DType::String, DType::F32));
  table.expectOk("insert", {str({2}, {"a", "b"}), f32({2, 2}, {1, 2, 3, 4})});
  auto found =
      table.one("find", {str({3}, {"b", "z", "a"}), f32({2}, {0, -1})});
  ASSERT_TRUE(found.ok()) << found.status();
  expectValues<float>(*found, {3, 2}, {3, 4, 0, -1, 1, 2});
  auto exported = table.run("export");
  ASSERT_TRUE(exported.ok()) << exported.status();
  expectValues<float>((*exported)[1], {2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(table.error("find", {str({1}, {"a"}), f32({3}, {0, 0, 0})}),
            opError("LookupTableFindV2",
                    "Expected shape [2] or [1,2] for default value, got [3]"));
}

TEST(MutableDenseHashTable, VectorKeys) {
  // Keys of empty_key's shape [2]; empty_key and deleted_key are reserved.
  AttrMap attrs = tableAttrs(DType::I64, DType::I32);
  attrs.set("value_shape", PartialShape(std::vector<int64_t>{}));
  attrs.set("initial_num_buckets", int64_t(8));
  attrs.set("max_load_factor", 0.5f);
  TableOps table("MutableDenseHashTableV2", attrs,
                 tableCalls(DType::I64, DType::I32),
                 {i64({2}, {-1, -1}), i64({2}, {-2, -2})});
  table.expectOk("insert", {i64({2, 2}, {1, 2, 3, 4}), i32({2}, {12, 34})});
  EXPECT_EQ(table.size(), 2);
  auto found = table.one("find", {i64({2, 2}, {3, 4, 2, 1}), i32({}, {0})});
  ASSERT_TRUE(found.ok()) << found.status();
  expectValues<int32_t>(*found, {2}, {34, 0});
  EXPECT_EQ(table.error("insert", {i64({1, 2}, {-1, -1}), i32({1}, {0})}),
            opError("LookupTableInsertV2",
                    "Using the empty_key as a table key is not allowed"));
  EXPECT_EQ(table.error("remove", {i64({1, 2}, {-2, -2})}),
            opError("LookupTableRemoveV2",
                    "Using the deleted_key as a table key is not allowed"));
  EXPECT_EQ(table.error("find", {i64({3}, {1, 2, 3}), i32({}, {0})}),
            opError("LookupTableFindV2",
                    "Input key shape [3] must end with the table's key shape "
                    "[2]"));
  table.expectOk("remove", {i64({1, 2}, {1, 2})});
  EXPECT_EQ(table.size(), 1);
}

TEST(MutableDenseHashTable, CreationErrors) {
  AttrMap attrs = tableAttrs(DType::I64, DType::I32);
  TableOps same("MutableDenseHashTableV2", attrs,
                tableCalls(DType::I64, DType::I32),
                {i64({}, {-1}), i64({}, {-1})});
  EXPECT_EQ(same.error("size"), "MutableDenseHashTableV2 'loc(table)': Empty "
                                "and deleted keys cannot be equal");
  // The failed creation left nothing behind: a good one may follow.
  TableOps good("MutableDenseHashTableV2", attrs,
                tableCalls(DType::I64, DType::I32),
                {i64({}, {-1}), i64({}, {-2})});
  EXPECT_EQ(good.size(), 0);
}

TEST(LookupTable, UnsupportedDTypes) {
  // TF registers no HashTable of bool keys: the program does not load.
  ProgramBuilder builder;
  const uint32_t resourceType = builder.addTensorType(
      DType::Resource, PartialShape{absl::Span<const int64_t>()});
  builder.addKernel("HashTableV2", "loc(table)",
                    tableAttrs(DType::Bool, DType::I64), {}, {resourceType},
                    true);
  StatusOr<std::unique_ptr<Program>> built = builder.build(kernelRegistry());
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.status().code(), StatusCode::kNotFound);
  EXPECT_NE(built.status().message().find(
                "no kernel for key_dtype=i1, value_dtype=i64"),
            std::string::npos)
      << built.status();
}

TEST(LookupTable, NotATable) {
  // A variable's handle.
  std::map<std::string, TableCall> calls{
      {"size", {"LookupTableSizeV2", {}, {}, {DType::I64}}}};
  TableOps ops("VarHandleOp",
               AttrMap{{"container", std::string()},
                       {"shared_name", std::string("v")},
                       {"dtype", DType::F32},
                       {"shape", PartialShape::unknownRank()}},
               calls);
  auto missing = ops.run("size");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            opError("LookupTableSizeV2", "Resource v does not exist."));
}

} // namespace
