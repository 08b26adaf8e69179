//===- ResourceKernelsTest.cpp - Resource variable kernel tests -*- C++ -*-===//
//
// VarHandleOp, AssignVariableOp, AssignAdd/SubVariableOp, ReadVariableOp,
// VarIsInitializedOp and DestroyResourceOp; ResourceGather(Nd),
// ResourceScatter*, ResourceScatterNd*, ResourceStridedSliceAssign and
// VariableShape. A variable lives in an executor's ResourceManager, so each
// test builds one program whose functions each run one op on the variable
// "v" (a VarHandleOp, then the op, ordered by a chain, as the compiler
// emits them) and runs them on one executor. Expected values are worked out
// by hand in the comments; messages follow TensorFlow's
// resource_variable_ops.cc, scatter_nd_op.cc and strided_slice_op.cc.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/Resource.h"

#include <climits>
#include <cstdint>
#include <map>
#include <optional>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// A program of one-op functions on the variable "v" of `dtype`, and an
/// executor to run them on.
class VariableProgram {
public:
  /// The values assigned and added are tensors of `dtype` and `valueShape`;
  /// `extra` attributes go to AssignVariableOp and DestroyResourceOp.
  VariableProgram(DType dtype, PartialShape valueShape, AttrMap extra = {}) {
    const PartialShape scalar{absl::Span<const int64_t>()};
    uint32_t resourceType = builder_.addTensorType(DType::Resource, scalar);
    uint32_t valueType = builder_.addTensorType(dtype, valueShape);
    uint32_t boolType = builder_.addTensorType(DType::Bool, scalar);
    // Another dtype, to read or assign the variable with.
    DType other = dtype == DType::I32 ? DType::F32 : DType::I32;
    uint32_t otherType = builder_.addTensorType(other, valueShape);
    AttrMap handleAttrs{{"container", std::string()},
                        {"shared_name", std::string("v")},
                        {"dtype", dtype},
                        {"shape", PartialShape::unknownRank()}};
    uint32_t handleKernel = builder_.addKernel(
        "VarHandleOp", "loc(handle)", handleAttrs, {}, {resourceType}, true);
    // A function: the op, whether it takes a value (of which type), its
    // output type (or -1), its attributes.
    struct OpSpec {
      const char *function, *op;
      int valueType;
      int outputType;
      AttrMap attrs;
    };
    AttrMap typed{{"dtype", dtype}};
    for (auto &[key, value] : extra)
      typed.set(key, value);
    int value = static_cast<int>(valueType);
    const OpSpec specs[] = {
        {"assign", "AssignVariableOp", value, -1, typed},
        {"assign_other",
         "AssignVariableOp",
         static_cast<int>(otherType),
         -1,
         {{"dtype", other}}},
        {"add", "AssignAddVariableOp", value, -1, {{"dtype", dtype}}},
        {"sub", "AssignSubVariableOp", value, -1, {{"dtype", dtype}}},
        {"read", "ReadVariableOp", -1, value, {{"dtype", dtype}}},
        {"read_other",
         "ReadVariableOp",
         -1,
         static_cast<int>(otherType),
         {{"dtype", other}}},
        {"initialized",
         "VarIsInitializedOp",
         -1,
         static_cast<int>(boolType),
         {}},
        {"destroy", "DestroyResourceOp", -1, -1, extra},
    };
    for (const OpSpec &spec : specs) {
      uint32_t function = builder_.addFunction(spec.function);
      std::vector<uint32_t> inputTypes{resourceType};
      std::vector<uint32_t> operands;
      uint32_t value = 0;
      bool takesValue = spec.valueType >= 0;
      if (takesValue) {
        inputTypes.push_back(static_cast<uint32_t>(spec.valueType));
        value = builder_.addArgument(function, inputTypes.back());
      }
      std::vector<uint32_t> outputTypes;
      if (spec.outputType >= 0)
        outputTypes.push_back(static_cast<uint32_t>(spec.outputType));
      uint32_t kernel = builder_.addKernel(spec.op, "loc(test)", spec.attrs,
                                           inputTypes, outputTypes, true);
      uint32_t chain = builder_.addChainOp(function, {});
      std::vector<uint32_t> handle =
          builder_.addKernelCall(function, handleKernel, {chain});
      operands.push_back(handle[0]);
      if (takesValue)
        operands.push_back(value);
      operands.push_back(handle[1]);
      std::vector<uint32_t> results =
          builder_.addKernelCall(function, kernel, operands);
      builder_.setResults(function, results);
      functions_[spec.function] = function;
    }
    StatusOr<std::unique_ptr<Program>> built = builder_.build(kernelRegistry());
    EXPECT_TRUE(built.ok()) << built.status();
    if (built.ok()) {
      program_ = *std::move(built);
      executor_ = std::make_unique<Executor>(*program_, testHost());
    }
  }

  /// Runs `function` on `inputs`; its first result (the op's output, or
  /// its chain), or the first error.
  StatusOr<Tensor> run(const std::string &function,
                       std::vector<Tensor> inputs = {}) {
    if (!executor_)
      return InternalError("the program did not build");
    StatusOr<std::vector<ResultValue>> results = executor_->run(
        program_->functions()[functions_.at(function)], std::move(inputs));
    if (!results.ok())
      return results.status();
    for (ResultValue &result : *results)
      if (!result.ok())
        return result.status();
    if (function == "read" || function == "read_other" ||
        function == "initialized")
      return *std::move((*results)[0]);
    return Tensor();
  }

  Executor &executor() { return *executor_; }
  Program &program() { return *program_; }

private:
  ProgramBuilder builder_;
  std::map<std::string, uint32_t> functions_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<Executor> executor_;
};

std::string message(const StatusOr<Tensor> &result) {
  return std::string(result.status().message());
}

TEST(ResourceVariables, AssignAddSubRead) {
  VariableProgram vars(DType::F32, PartialShape{2});
  ASSERT_TRUE(vars.run("assign", {f32({2}, {1.5f, -2})}).ok());
  StatusOr<Tensor> read = vars.run("read");
  ASSERT_TRUE(read.ok()) << read.status();
  expectValues<float>(*read, {2}, {1.5f, -2});
  ASSERT_TRUE(vars.run("add", {f32({2}, {10, 20})}).ok());
  ASSERT_TRUE(vars.run("add", {f32({2}, {10, 20})}).ok());
  ASSERT_TRUE(vars.run("sub", {f32({2}, {0.5f, 1})}).ok());
  // 1.5 + 10 + 10 - 0.5 = 21; -2 + 20 + 20 - 1 = 37.
  read = vars.run("read");
  ASSERT_TRUE(read.ok()) << read.status();
  expectValues<float>(*read, {2}, {21, 37});
}

TEST(ResourceVariables, ReadSharesTheValueAnUpdateReplaces) {
  VariableProgram vars(DType::I32, PartialShape{3});
  ASSERT_TRUE(vars.run("assign", {i32({3}, {1, 2, 3})}).ok());
  StatusOr<Tensor> before = vars.run("read");
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_TRUE(vars.run("add", {i32({3}, {100, 200, 300})}).ok());
  StatusOr<Tensor> after = vars.run("read");
  ASSERT_TRUE(after.ok()) << after.status();
  // A value read earlier is not written into by the update.
  expectValues<int32_t>(*before, {3}, {1, 2, 3});
  expectValues<int32_t>(*after, {3}, {101, 202, 303});
  ASSERT_TRUE(vars.run("sub", {i32({3}, {1, 1, 1})}).ok());
  after = vars.run("read");
  ASSERT_TRUE(after.ok());
  expectValues<int32_t>(*after, {3}, {100, 201, 302});
}

TEST(ResourceVariables, InitializedAndDestroyed) {
  VariableProgram vars(DType::F32, PartialShape::unknownRank());
  StatusOr<Tensor> initialized = vars.run("initialized");
  ASSERT_TRUE(initialized.ok()) << initialized.status();
  EXPECT_FALSE(initialized->data<bool>()[0]);
  ASSERT_TRUE(vars.run("assign", {f32({}, {4})}).ok());
  initialized = vars.run("initialized");
  ASSERT_TRUE(initialized.ok());
  EXPECT_TRUE(initialized->data<bool>()[0]);
  ASSERT_TRUE(vars.run("destroy").ok());
  initialized = vars.run("initialized");
  ASSERT_TRUE(initialized.ok());
  EXPECT_FALSE(initialized->data<bool>()[0]);
  // Destroying what does not exist: ignore_lookup_error defaults to true.
  EXPECT_TRUE(vars.run("destroy").ok());
}

TEST(ResourceVariables, DestroyMissingWithoutIgnoringLookupErrors) {
  VariableProgram vars(DType::F32, PartialShape::unknownRank(),
                       {{"ignore_lookup_error", false}});
  StatusOr<Tensor> destroyed = vars.run("destroy");
  ASSERT_FALSE(destroyed.ok());
  EXPECT_EQ(message(destroyed),
            opError("DestroyResourceOp", "Resource v does not exist."));
}

TEST(ResourceVariables, MissingVariable) {
  VariableProgram vars(DType::F32, PartialShape{2});
  const std::string missing =
      "Could not find variable v. This could mean that the variable has "
      "been deleted. In TF1, it can also mean the variable is "
      "uninitialized.";
  StatusOr<Tensor> read = vars.run("read");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(message(read), opError("ReadVariableOp", missing));
  EXPECT_EQ(message(vars.run("add", {f32({2}, {1, 2})})),
            opError("AssignAddVariableOp", missing));
  EXPECT_EQ(message(vars.run("sub", {f32({2}, {1, 2})})),
            opError("AssignSubVariableOp", missing));
}

TEST(ResourceVariables, WrongDType) {
  VariableProgram vars(DType::F32, PartialShape{2});
  ASSERT_TRUE(vars.run("assign", {f32({2}, {1, 2})}).ok());
  EXPECT_EQ(message(vars.run("read_other")),
            opError("ReadVariableOp", "Trying to read variable v with wrong "
                                      "dtype. Expected f32 got i32"));
  EXPECT_EQ(message(vars.run("assign_other", {i32({2}, {1, 2})})),
            opError("AssignVariableOp", "Trying to assign variable with "
                                        "wrong dtype. Expected f32 got i32"));
}

TEST(ResourceVariables, UpdateOfAnotherShape) {
  VariableProgram vars(DType::F32, PartialShape::unknownRank());
  ASSERT_TRUE(vars.run("assign", {f32({2}, {1, 2})}).ok());
  EXPECT_EQ(message(vars.run("add", {f32({3}, {1, 2, 3})})),
            opError("AssignAddVariableOp",
                    "Cannot update variable with shape [2] using a Tensor "
                    "with shape [3], shapes must be equal."));
  // The failed update left the value as it was.
  StatusOr<Tensor> read = vars.run("read");
  ASSERT_TRUE(read.ok());
  expectValues<float>(*read, {2}, {1, 2});
  // Without validate_shape (TF's default) an assignment may change the
  // shape.
  ASSERT_TRUE(vars.run("assign", {f32({3}, {7, 8, 9})}).ok());
  read = vars.run("read");
  ASSERT_TRUE(read.ok());
  expectValues<float>(*read, {3}, {7, 8, 9});
}

TEST(ResourceVariables, ValidateShape) {
  VariableProgram vars(DType::F32, PartialShape::unknownRank(),
                       {{"validate_shape", true}});
  ASSERT_TRUE(vars.run("assign", {f32({2}, {1, 2})}).ok());
  EXPECT_EQ(message(vars.run("assign", {f32({3}, {1, 2, 3})})),
            opError("AssignVariableOp",
                    "Trying to assign to variable with tensor with wrong "
                    "shape. Expected [2] got [3]"));
  ASSERT_TRUE(vars.run("assign", {f32({2}, {5, 6})}).ok());
  StatusOr<Tensor> read = vars.run("read");
  ASSERT_TRUE(read.ok());
  expectValues<float>(*read, {2}, {5, 6});
}

TEST(ResourceVariables, VariablesBelongToTheirExecutor) {
  VariableProgram vars(DType::F32, PartialShape{1});
  ASSERT_TRUE(vars.run("assign", {f32({1}, {3})}).ok());
  // Another executor of the same program has no variable v.
  Executor other(vars.program(), testHost());
  uint32_t readIndex = 0;
  for (uint32_t i = 0; i < vars.program().functions().size(); ++i)
    if (vars.program().functions()[i].name == "read")
      readIndex = i;
  StatusOr<std::vector<ResultValue>> results =
      other.run(vars.program().functions()[readIndex], {});
  ASSERT_TRUE(results.ok());
  ASSERT_FALSE((*results)[0].ok());
  EXPECT_EQ((*results)[0].status().code(), StatusCode::kFailedPrecondition);
  StatusOr<Tensor> mine = vars.run("read");
  ASSERT_TRUE(mine.ok());
  expectValues<float>(*mine, {1}, {3});
}

TEST(ResourceVariables, HandleWithoutSharedNameIsTheNodeName) {
  StatusOr<Tensor> handle = runKernel(
      "VarHandleOp",
      AttrMap{{"dtype", DType::F32}, {"shape", PartialShape::unknownRank()}},
      {}, DType::Resource);
  ASSERT_TRUE(handle.ok()) << handle.status();
  const ResourceHandle *h = getResourceHandle(*handle);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->name, kNode);
  EXPECT_EQ(h->dtype, DType::F32);
}

//===----------------------------------------------------------------------===//
// Gathers, scatters, strided-slice assignment and the shape of a variable
//===----------------------------------------------------------------------===//

/// One op on the variable "v" of some dtype: its inputs after the resource
/// (of these dtypes, any shape) and its output dtype, if any.
struct VariableCall {
  std::string op;
  AttrMap attrs;
  std::vector<DType> inputs;
  std::optional<DType> output;
};

/// Like VariableProgram, for any ops: a program of one-op functions on the
/// variable "v" of `dtype` ("assign" and "read" and the named `calls`), run
/// on one executor.
class VariableOps {
public:
  VariableOps(DType dtype, std::map<std::string, VariableCall> calls) {
    const PartialShape scalar{absl::Span<const int64_t>()};
    const uint32_t resourceType =
        builder_.addTensorType(DType::Resource, scalar);
    calls["assign"] = {"AssignVariableOp", {{"dtype", dtype}}, {dtype}, {}};
    calls["read"] = {"ReadVariableOp", {{"dtype", dtype}}, {}, dtype};
    AttrMap handleAttrs{{"container", std::string()},
                        {"shared_name", std::string("v")},
                        {"dtype", dtype},
                        {"shape", PartialShape::unknownRank()}};
    const uint32_t handleKernel = builder_.addKernel(
        "VarHandleOp", "loc(handle)", handleAttrs, {}, {resourceType}, true);
    for (const auto &[name, call] : calls) {
      const uint32_t function = builder_.addFunction(name);
      std::vector<uint32_t> inputTypes{resourceType}, args;
      for (DType input : call.inputs) {
        inputTypes.push_back(
            builder_.addTensorType(input, PartialShape::unknownRank()));
        args.push_back(builder_.addArgument(function, inputTypes.back()));
      }
      std::vector<uint32_t> outputTypes;
      if (call.output)
        outputTypes.push_back(
            builder_.addTensorType(*call.output, PartialShape::unknownRank()));
      const uint32_t kernel = builder_.addKernel(call.op, kNode, call.attrs,
                                                 inputTypes, outputTypes, true);
      const uint32_t chain = builder_.addChainOp(function, {});
      std::vector<uint32_t> handle =
          builder_.addKernelCall(function, handleKernel, {chain});
      std::vector<uint32_t> operands{handle[0]};
      operands.insert(operands.end(), args.begin(), args.end());
      operands.push_back(handle[1]);
      builder_.setResults(function,
                          builder_.addKernelCall(function, kernel, operands));
      functions_[name] = function;
      hasOutput_[name] = call.output.has_value();
    }
    StatusOr<std::unique_ptr<Program>> built = builder_.build(kernelRegistry());
    EXPECT_TRUE(built.ok()) << built.status();
    if (!built.ok())
      return;
    program_ = *std::move(built);
    executor_ = std::make_unique<Executor>(*program_, testHost());
  }

  /// Runs `name` on `inputs`: the op's output (an empty tensor if it has
  /// none), or the first error.
  StatusOr<Tensor> run(const std::string &name,
                       std::vector<Tensor> inputs = {}) {
    if (!executor_)
      return InternalError("the program did not build");
    StatusOr<std::vector<ResultValue>> results = executor_->run(
        program_->functions()[functions_.at(name)], std::move(inputs));
    if (!results.ok())
      return results.status();
    for (ResultValue &result : *results)
      if (!result.ok())
        return result.status();
    return hasOutput_.at(name) ? *std::move((*results)[0]) : Tensor();
  }

  /// Runs `name`, expecting it to succeed.
  void expectOk(const std::string &name, std::vector<Tensor> inputs) {
    StatusOr<Tensor> result = run(name, std::move(inputs));
    EXPECT_TRUE(result.ok()) << name << ": " << result.status();
  }

  /// The variable's value, which must be readable.
  Tensor read() {
    StatusOr<Tensor> value = run("read");
    EXPECT_TRUE(value.ok()) << value.status();
    return value.ok() ? *std::move(value) : Tensor();
  }

private:
  ProgramBuilder builder_;
  std::map<std::string, uint32_t> functions_;
  std::map<std::string, bool> hasOutput_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<Executor> executor_;
};

/// A call of ResourceScatter<kind> (indices int32, updates of `dtype`).
VariableCall scatterCall(const std::string &kind, DType dtype,
                         DType indices = DType::I32) {
  return {"ResourceScatter" + kind,
          {{"dtype", dtype}, {"Tindices", indices}},
          {indices, dtype},
          {}};
}

/// A call of ResourceScatterNd<kind>.
VariableCall scatterNdCall(const std::string &kind, DType dtype,
                           AttrMap extra = {}) {
  AttrMap attrs{{"T", dtype}, {"Tindices", DType::I32}};
  for (auto &[key, value] : extra)
    attrs.set(key, value);
  return {"ResourceScatterNd" + kind, attrs, {DType::I32, dtype}, {}};
}

TEST(ResourceVariables, Gather) {
  VariableOps vars(DType::F32,
                   {{"gather",
                     {"ResourceGather",
                      {{"dtype", DType::F32}, {"Tindices", DType::I32}},
                      {DType::I32},
                      DType::F32}},
                    {"gather64",
                     {"ResourceGather",
                      {{"dtype", DType::F32}, {"Tindices", DType::I64}},
                      {DType::I64},
                      DType::F32}},
                    {"batched",
                     {"ResourceGather",
                      {{"dtype", DType::F32},
                       {"Tindices", DType::I32},
                       {"batch_dims", int64_t(1)}},
                      {DType::I32},
                      DType::F32}},
                    {"gather_i32",
                     {"ResourceGather",
                      {{"dtype", DType::I32}, {"Tindices", DType::I32}},
                      {DType::I32},
                      DType::I32}}});
  EXPECT_EQ(message(vars.run("gather", {i32({1}, {0})})),
            opError("ResourceGather",
                    "Could not find variable v. This could mean that the "
                    "variable has been deleted. In TF1, it can also mean the "
                    "variable is uninitialized."));
  vars.expectOk("assign", {f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  // Rows 2 and 0: [[5, 6], [1, 2]].
  StatusOr<Tensor> out = vars.run("gather", {i32({2}, {2, 0})});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {5, 6, 1, 2});
  // int64 indices of shape [2, 1]: row 1 twice, shape [2, 1, 2].
  out = vars.run("gather64", {i64({2, 1}, {1, 1})});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1, 2}, {3, 4, 3, 4});
  EXPECT_EQ(message(vars.run("gather", {i32({2}, {0, 3})})),
            opError("ResourceGather", "indices[1] = 3 is not in [0, 3)"));
  EXPECT_EQ(message(vars.run("gather_i32", {i32({1}, {0})})),
            opError("ResourceGather", "Trying to read variable v with wrong "
                                      "dtype. Expected f32 got i32"));
  // batch_dims = 1 on [[1, 2, 3], [4, 5, 6]]: out[b][k] = v[b][idx[b][k]]
  // with idx [[2, 0], [1, 1]]: [[3, 1], [5, 5]].
  vars.expectOk("assign", {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  out = vars.run("batched", {i32({2, 2}, {2, 0, 1, 1})});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {3, 1, 5, 5});
}

TEST(ResourceVariables, GatherNegativeBatchDims) {
  ResourceHandle handle;
  handle.name = "v";
  handle.dtype = DType::F32;
  StatusOr<std::vector<Tensor>> out =
      runKernelN("ResourceGather",
                 AttrMap{{"dtype", DType::F32},
                         {"Tindices", DType::I32},
                         {"batch_dims", int64_t(-1)}},
                 {makeResourceTensor(handle), i32({1}, {0})}, {DType::F32},
                 /*ordered=*/true);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("batch_dims is negative (-1)"),
            std::string_view::npos)
      << out.status();
}

TEST(ResourceVariables, GatherNd) {
  VariableOps vars(DType::F32,
                   {{"gather_nd",
                     {"ResourceGatherNd",
                      {{"dtype", DType::F32}, {"Tindices", DType::I32}},
                      {DType::I32},
                      DType::F32}}});
  vars.expectOk("assign", {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  // v[1][2] = 6 and v[0][0] = 1.
  StatusOr<Tensor> out = vars.run("gather_nd", {i32({2, 2}, {1, 2, 0, 0})});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {6, 1});
  // A row: [[4, 5, 6]].
  out = vars.run("gather_nd", {i32({1, 1}, {1})});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3}, {4, 5, 6});
  EXPECT_EQ(message(vars.run("gather_nd", {i32({1, 2}, {2, 0})})),
            opError("ResourceGatherNd",
                    "indices[0] = [2, 0] does not index into param shape "
                    "[2,3]"));
}

TEST(ResourceVariables, VariableShape) {
  VariableOps vars(
      DType::I32,
      {{"shape", {"VariableShape", {{"out_type", DType::I32}}, {}, DType::I32}},
       {"shape64",
        {"VariableShape", {{"out_type", DType::I64}}, {}, DType::I64}}});
  EXPECT_EQ(message(vars.run("shape")),
            opError("VariableShape",
                    "Could not find variable v. This could mean that the "
                    "variable has been deleted. In TF1, it can also mean the "
                    "variable is uninitialized."));
  vars.expectOk("assign", {i32({2, 3}, {1, 2, 3, 4, 5, 6})});
  StatusOr<Tensor> shape = vars.run("shape");
  ASSERT_TRUE(shape.ok()) << shape.status();
  expectValues<int32_t>(*shape, {2}, {2, 3});
  shape = vars.run("shape64");
  ASSERT_TRUE(shape.ok()) << shape.status();
  expectValues<int64_t>(*shape, {2}, {2, 3});
  vars.expectOk("assign", {i32({}, {7})});
  shape = vars.run("shape");
  ASSERT_TRUE(shape.ok()) << shape.status();
  expectValues<int32_t>(*shape, {0}, {});
}

TEST(ResourceVariables, ScatterArithmetic) {
  VariableOps vars(DType::F32, {{"add", scatterCall("Add", DType::F32)},
                                {"sub", scatterCall("Sub", DType::F32)},
                                {"mul", scatterCall("Mul", DType::F32)},
                                {"div", scatterCall("Div", DType::F32)}});
  const Tensor start = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  const Tensor indices = i32({3}, {0, 2, 0});
  const Tensor updates = f32({3, 2}, {10, 20, 30, 40, 50, 60});
  vars.expectOk("assign", {start});
  const Tensor before = vars.read();
  // Row 0 gets updates 0 and 2, row 2 update 1: [1 + 10 + 50, 2 + 20 + 60],
  // [3, 4], [5 + 30, 6 + 40].
  vars.expectOk("add", {indices, updates});
  expectValues<float>(vars.read(), {3, 2}, {61, 82, 3, 4, 35, 46});
  // A value read before is not written into.
  expectValues<float>(before, {3, 2}, {1, 2, 3, 4, 5, 6});
  vars.expectOk("assign", {start});
  vars.expectOk("sub", {indices, updates});
  expectValues<float>(vars.read(), {3, 2}, {-59, -78, 3, 4, -25, -34});
  // Row 1 times [2, 3]; then every element of row 0, twice, times the
  // scalar 2: [1 * 4, 2 * 4].
  vars.expectOk("assign", {start});
  vars.expectOk("mul", {i32({1}, {1}), f32({1, 2}, {2, 3})});
  vars.expectOk("mul", {i32({2}, {0, 0}), f32({}, {2})});
  expectValues<float>(vars.read(), {3, 2}, {4, 8, 6, 12, 5, 6});
  vars.expectOk("div", {i32({1}, {2}), f32({1, 2}, {2, 4})});
  expectValues<float>(vars.read(), {3, 2}, {4, 8, 6, 12, 2.5, 1.5});
}

TEST(ResourceVariables, ScatterIntegerDivMinMax) {
  VariableOps ints(DType::I32, {{"div", scatterCall("Div", DType::I32)}});
  ints.expectOk("assign", {i32({2, 2}, {7, -7, 9, INT32_MIN})});
  // Integer division truncates: 7 / 2 = 3, -7 / 2 = -3, 9 / -3 = -3;
  // INT32_MIN / -1 wraps to INT32_MIN.
  ints.expectOk("div", {i32({2}, {0, 1}), i32({2, 2}, {2, 2, -3, -1})});
  expectValues<int32_t>(ints.read(), {2, 2}, {3, -3, -3, INT32_MIN});
  EXPECT_EQ(message(ints.run("div", {i32({1}, {0}), i32({1, 2}, {1, 0})})),
            opError("ResourceScatterDiv", "updates must not contain 0"));

  VariableOps vars(DType::F64, {{"min", scatterCall("Min", DType::F64)},
                                {"max", scatterCall("Max", DType::F64)}});
  // [1, 5, 3] with 4 at 0, 2 and 7 at 1.
  vars.expectOk("assign", {makeTensor<double>({3}, {1, 5, 3})});
  vars.expectOk("min",
                {i32({3}, {0, 1, 1}), makeTensor<double>({3}, {4, 2, 7})});
  expectValues<double>(vars.read(), {3}, {1, 2, 3});
  vars.expectOk("assign", {makeTensor<double>({3}, {1, 5, 3})});
  vars.expectOk("max",
                {i32({3}, {0, 1, 1}), makeTensor<double>({3}, {4, 2, 7})});
  expectValues<double>(vars.read(), {3}, {4, 7, 3});
}

TEST(ResourceVariables, ScatterUpdate) {
  VariableOps vars(DType::I64,
                   {{"update", scatterCall("Update", DType::I64, DType::I64)}});
  vars.expectOk("assign", {i64({2, 2}, {1, 2, 3, 4})});
  // Repeated index 1: the later update wins.
  vars.expectOk("update", {i64({2}, {1, 1}), i64({2, 2}, {5, 6, 7, 8})});
  expectValues<int64_t>(vars.read(), {2, 2}, {1, 2, 7, 8});
  // A scalar update sets every element of the rows.
  vars.expectOk("update", {i64({1}, {0}), i64({}, {9})});
  expectValues<int64_t>(vars.read(), {2, 2}, {9, 9, 7, 8});

  VariableOps flags(DType::Bool,
                    {{"update", scatterCall("Update", DType::Bool)}});
  flags.expectOk("assign", {makeTensor<bool>({3}, {false, false, false})});
  flags.expectOk("update", {i32({1}, {2}), makeTensor<bool>({1}, {true})});
  Tensor value = flags.read();
  EXPECT_EQ(valuesOf<bool>(value), (std::vector<bool>{false, false, true}));
}

TEST(ResourceVariables, ScatterErrors) {
  VariableOps vars(DType::F32, {{"add", scatterCall("Add", DType::F32)},
                                {"add_i32", scatterCall("Add", DType::I32)}});
  EXPECT_EQ(message(vars.run("add", {i32({1}, {0}), f32({1, 2}, {1, 2})})),
            opError("ResourceScatterAdd",
                    "Could not find variable v. This could mean that the "
                    "variable has been deleted. In TF1, it can also mean the "
                    "variable is uninitialized."));
  vars.expectOk("assign", {f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  // Index 0 is valid, 3 is not: nothing changes.
  EXPECT_EQ(
      message(vars.run("add", {i32({2}, {0, 3}), f32({2, 2}, {1, 1, 1, 1})})),
      opError("ResourceScatterAdd", "indices[1] = 3 is not in [0, 3)"));
  expectValues<float>(vars.read(), {3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(message(vars.run("add", {i32({1}, {0}), f32({1, 3}, {1, 2, 3})})),
            opError("ResourceScatterAdd",
                    "Must have updates.shape = indices.shape + "
                    "params.shape[1:] or updates.shape = [], got "
                    "updates.shape [1,3], indices.shape [1], params.shape "
                    "[3,2]"));
  EXPECT_EQ(message(vars.run("add", {i32({2}, {0, 1}), f32({2}, {1, 2})})),
            opError("ResourceScatterAdd",
                    "Must have updates.shape = indices.shape + "
                    "params.shape[1:] or updates.shape = [], got "
                    "updates.shape [2], indices.shape [2], params.shape "
                    "[3,2]"));
  EXPECT_EQ(
      message(
          vars.run("add", {i32({2}, {0, 1}), f32({3, 2}, {1, 2, 3, 4, 5, 6})})),
      opError("ResourceScatterAdd",
              "The shape of indices ([2]) must be a prefix of the shape of "
              "updates ([3,2])"));
  EXPECT_EQ(message(vars.run("add_i32", {i32({1}, {0}), i32({1, 2}, {1, 2})})),
            opError("ResourceScatterAdd",
                    "DType of scatter resource and updates does not match."));
}

TEST(ResourceVariables, ScatterNd) {
  VariableOps vars(DType::F32,
                   {{"add", scatterNdCall("Add", DType::F32)},
                    {"sub", scatterNdCall("Sub", DType::F32)},
                    {"min", scatterNdCall("Min", DType::F32)},
                    {"max", scatterNdCall("Max", DType::F32)},
                    {"update", scatterNdCall("Update", DType::F32)},
                    {"ignore", scatterNdCall("Update", DType::F32,
                                             {{"bad_indices_policy",
                                               std::string("IGNORE")}})}});
  vars.expectOk("assign", {f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  // Elements [0, 1] (twice: 2 + 10 + 30) and [2, 0] (5 + 20).
  vars.expectOk("add",
                {i32({3, 2}, {0, 1, 2, 0, 0, 1}), f32({3}, {10, 20, 30})});
  expectValues<float>(vars.read(), {3, 2}, {1, 42, 3, 4, 25, 6});
  // Row 1 replaced by [7, 8].
  vars.expectOk("update", {i32({1, 1}, {1}), f32({1, 2}, {7, 8})});
  expectValues<float>(vars.read(), {3, 2}, {1, 42, 7, 8, 25, 6});
  // A vector of indices is 1-tuples: rows 2 and 0.
  vars.expectOk("update", {i32({2}, {2, 0}), f32({2, 2}, {9, 9, 8, 8})});
  expectValues<float>(vars.read(), {3, 2}, {8, 8, 7, 8, 9, 9});
  // IGNORE skips the tuple out of range, [5].
  vars.expectOk("ignore", {i32({2, 1}, {5, 1}), f32({2, 2}, {1, 1, 2, 2})});
  expectValues<float>(vars.read(), {3, 2}, {8, 8, 2, 2, 9, 9});
  // On [1, 5, 3]: 2 and 7 at 1, 4 at 0.
  const Tensor indices = i32({3, 1}, {1, 1, 0});
  const Tensor updates = f32({3}, {2, 7, 4});
  vars.expectOk("assign", {f32({3}, {1, 5, 3})});
  vars.expectOk("sub", {indices, updates});
  expectValues<float>(vars.read(), {3}, {-3, -4, 3});
  vars.expectOk("assign", {f32({3}, {1, 5, 3})});
  vars.expectOk("min", {indices, updates});
  expectValues<float>(vars.read(), {3}, {1, 2, 3});
  vars.expectOk("assign", {f32({3}, {1, 5, 3})});
  vars.expectOk("max", {indices, updates});
  expectValues<float>(vars.read(), {3}, {4, 7, 3});
}

TEST(ResourceVariables, ScatterNdErrors) {
  VariableOps vars(DType::F32,
                   {{"update", scatterNdCall("Update", DType::F32)}});
  vars.expectOk("assign", {f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(message(vars.run("update",
                             {i32({2, 2}, {0, 0, 3, 0}), f32({2}, {1, 2})})),
            opError("ResourceScatterNdUpdate",
                    "indices[1] = [3, 0] does not index into shape [3,2]"));
  expectValues<float>(vars.read(), {3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(
      message(vars.run("update", {i32({1, 1}, {0}), f32({1, 3}, {1, 2, 3})})),
      opError("ResourceScatterNdUpdate",
              "Dimensions [1,2) of input[shape=[3,2]] must match dimensions "
              "[1,2) of updates[shape=[1,3]]"));
  EXPECT_EQ(
      message(vars.run("update", {i32({2, 1}, {0, 1}), f32({1, 2}, {1, 2})})),
      opError("ResourceScatterNdUpdate",
              "Dimensions [0,1) of indices[shape=[2,1]] = 2 must match "
              "dimensions [0,1) of updates[shape=[1,2]] = 1"));
  EXPECT_EQ(message(vars.run("update", {i32({1, 2, 1}, {0, 1}),
                                        f32({1, 3, 2}, {1, 2, 3, 4, 5, 6})})),
            opError("ResourceScatterNdUpdate",
                    "Dimensions [0,2) of indices[shape=[1,2,1]] must match "
                    "dimensions [0,2) of updates[shape=[1,3,2]]"));
  vars.expectOk("assign", {f32({}, {1})});
  EXPECT_EQ(message(vars.run("update", {i32({1, 1}, {0}), f32({1}, {1})})),
            opError("ResourceScatterNdUpdate",
                    "Output must be at least 1-D, got shape: []"));
}

TEST(ResourceVariables, StridedSliceAssign) {
  auto assignCall = [](DType dtype, AttrMap masks = {}) {
    AttrMap attrs{{"T", dtype}, {"Index", DType::I32}};
    for (auto &[key, value] : masks)
      attrs.set(key, value);
    return VariableCall{"ResourceStridedSliceAssign",
                        attrs,
                        {DType::I32, DType::I32, DType::I32, dtype},
                        {}};
  };
  VariableOps vars(
      DType::F32, {{"assign_slice", assignCall(DType::F32)},
                   {"assign_row",
                    assignCall(DType::F32, {{"shrink_axis_mask", int64_t(1)}})},
                   {"assign_i32", assignCall(DType::I32)}});
  const Tensor start = iota({3, 4});
  vars.expectOk("assign", {start});
  const Tensor before = vars.read();
  // Rows 0 and 2, columns 1 and 3 of [[0, 1, 2, 3], [4, 5, 6, 7],
  // [8, 9, 10, 11]].
  vars.expectOk("assign_slice",
                {i32({2}, {0, 1}), i32({2}, {3, 4}), i32({2}, {2, 2}),
                 f32({2, 2}, {10, 20, 30, 40})});
  expectValues<float>(vars.read(), {3, 4},
                      {0, 10, 2, 20, 4, 5, 6, 7, 8, 30, 10, 40});
  expectValues<float>(before, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // Broadcast: [[7], [8]] (one value per row) into rows 1 and 2, columns
  // 0 and 1.
  vars.expectOk("assign", {start});
  vars.expectOk("assign_slice", {i32({2}, {1, 0}), i32({2}, {3, 2}),
                                 i32({2}, {1, 1}), f32({2, 1}, {7, 8})});
  expectValues<float>(vars.read(), {3, 4},
                      {0, 1, 2, 3, 7, 7, 6, 7, 8, 8, 10, 11});
  // shrink_axis_mask 1: row 1 (the slice is [4]).
  vars.expectOk("assign", {start});
  vars.expectOk("assign_row", {i32({2}, {1, 0}), i32({2}, {2, 4}),
                               i32({2}, {1, 1}), f32({4}, {-1, -2, -3, -4})});
  expectValues<float>(vars.read(), {3, 4},
                      {0, 1, 2, 3, -1, -2, -3, -4, 8, 9, 10, 11});
  // A negative stride over [0, 1, 2, 3, 4]: elements 4 and 2.
  vars.expectOk("assign", {iota({5})});
  vars.expectOk("assign_slice", {i32({1}, {4}), i32({1}, {0}), i32({1}, {-2}),
                                 f32({2}, {10, 20})});
  expectValues<float>(vars.read(), {5}, {0, 1, 20, 3, 10});

  vars.expectOk("assign", {start});
  EXPECT_EQ(message(vars.run("assign_slice",
                             {i32({2}, {0, 0}), i32({2}, {2, 2}),
                              i32({2}, {1, 1}), f32({3}, {1, 2, 3})})),
            opError("ResourceStridedSliceAssign",
                    "Cannot broadcast input shape [3] into final shape [2,2]"));
  EXPECT_EQ(
      message(vars.run("assign_slice", {i32({2}, {0, 0}), i32({2}, {2, 2}),
                                        i32({2}, {0, 1}), f32({}, {1})})),
      opError("ResourceStridedSliceAssign", "strides[0] must be non-zero"));
  EXPECT_EQ(message(vars.run("assign_row",
                             {i32({2}, {5, 0}), i32({2}, {6, 4}),
                              i32({2}, {1, 1}), f32({4}, {1, 2, 3, 4})})),
            opError("ResourceStridedSliceAssign",
                    "slice index 5 of dimension 0 out of bounds."));
  EXPECT_EQ(message(vars.run("assign_i32", {i32({2}, {0, 0}), i32({2}, {1, 1}),
                                            i32({2}, {1, 1}), i32({}, {1})})),
            opError("ResourceStridedSliceAssign",
                    "l-value dtype f32 does not match r-value dtype i32"));
  expectValues<float>(vars.read(), {3, 4},
                      {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
}

} // namespace
