//===- ResourceKernelsTest.cpp - Resource variable kernel tests -*- C++ -*-===//
//
// VarHandleOp, AssignVariableOp, AssignAdd/SubVariableOp, ReadVariableOp,
// VarIsInitializedOp and DestroyResourceOp. A variable lives in an
// executor's ResourceManager, so each test builds one program whose
// functions each run one op on the variable "v" (a VarHandleOp, then the op,
// ordered by a chain, as the compiler emits them) and runs them on one
// executor. Expected values are worked out by hand; messages follow
// TensorFlow's resource_variable_ops.cc.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/Resource.h"

#include <map>

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

} // namespace
