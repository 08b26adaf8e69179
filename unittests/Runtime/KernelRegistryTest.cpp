//===- KernelRegistryTest.cpp - KernelRegistry tests ------------*- C++ -*-===//
//
// Registration, lookup by dtype constraints, error messages, kernel
// creation and the manifest text.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/KernelRegistry.h"

#include "gtest/gtest.h"

#include <sstream>

using namespace tfrt_fallback::rt;

namespace {

class IdentityKernel final : public OpKernel {
public:
  explicit IdentityKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    ctx->setOutput(0, ctx->input(0));
  }
};

template <int Tag> class TaggedKernel final : public OpKernel {
public:
  static constexpr int kTag = Tag;
  explicit TaggedKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *) override {}
};

/// The element type of the TypedKernel constructed last.
DType lastTypedKernel = DType::Invalid;

/// One class per element type, as the kernel families write them.
template <typename T> class TypedKernel final : public OpKernel {
public:
  explicit TypedKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    lastTypedKernel = dtypeOf<T>();
  }
  void compute(OpKernelContextInterface *) override {}
};

/// Fails construction when attribute "fail" is true.
class PickyKernel final : public OpKernel {
public:
  explicit PickyKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    bool fail = false;
    if (ctx->hasAttr("fail")) {
      Status status = ctx->getAttr("fail", &fail);
      if (!status.ok()) {
        ctx->ctxFailure(status);
        return;
      }
    }
    if (fail)
      ctx->ctxFailure(errorf("asked to fail"));
  }
  void compute(OpKernelContextInterface *) override {}
};

void registerExampleKernels(KernelRegistry &registry) {
  registerKernel<IdentityKernel>(registry,
                                 KernelDefBuilder(kOpRow<OpId::kIdentity>));
  registerKernel<TaggedKernel<1>>(
      registry, KernelDefBuilder(kOpRow<OpId::kAddV2>)
                    .typeConstraint("T", {DType::F32, DType::I32}));
  registerKernel<TaggedKernel<2>>(registry,
                                  KernelDefBuilder(kOpRow<OpId::kCast>)
                                      .typeConstraint("SrcT", {DType::F32})
                                      .typeConstraint<int32_t>("DstT"));
  registerKernel<TaggedKernel<3>>(registry,
                                  KernelDefBuilder(kOpRow<OpId::kConcatV2>)
                                      .typeConstraint("T", {DType::F16}));
  registerKernel<TaggedKernel<4>>(
      registry, KernelDefBuilder(kOpRow<OpId::kConcatV2>)
                    .typeConstraint("T", {DType::F32, DType::F16}));
  registerKernel<TaggedKernel<5>>(registry,
                                  KernelDefBuilder(kOpRow<OpId::kIdentityN>)
                                      .typeConstraint("T", {DType::F32}));
  registerKernel<PickyKernel>(registry, KernelDefBuilder("Picky"));
  registry.setInputArity("AddV2", 2, 2);
  registry.setInputArity("Picky", 0, 0);
}

class KernelRegistryTest : public ::testing::Test {
protected:
  void SetUp() override { registerExampleKernels(registry); }
  KernelRegistry registry;
};

TEST_F(KernelRegistryTest, LookupMatchesConstraints) {
  EXPECT_EQ(registry.size(), 7u);
  EXPECT_TRUE(registry.hasOp("AddV2"));
  EXPECT_FALSE(registry.hasOp("SubV2"));

  auto def = registry.lookup("AddV2", AttrMap{{"T", DType::I32}});
  ASSERT_TRUE(def.ok());
  EXPECT_EQ((*def)->opName(), "AddV2");
  EXPECT_EQ((*def)->constraintString(), "T in {f32, i32}");

  // Unconstrained ops match any attributes.
  ASSERT_TRUE(registry.lookup("Identity", AttrMap{{"T", DType::F64}}).ok());
  ASSERT_TRUE(registry.lookup("Identity", AttrMap{}).ok());

  // First matching def wins, in registration order.
  auto f16 = registry.lookup("ConcatV2", AttrMap{{"T", DType::F16}});
  auto f32 = registry.lookup("ConcatV2", AttrMap{{"T", DType::F32}});
  ASSERT_TRUE(f16.ok() && f32.ok());
  EXPECT_EQ((*f16)->constraintString(), "T in {f16}");
  EXPECT_EQ((*f32)->constraintString(), "T in {f32, f16}");

  // Type-list attributes must have every element allowed.
  EXPECT_TRUE(
      registry
          .lookup("IdentityN",
                  AttrMap{{"T", std::vector<DType>{DType::F32, DType::F32}}})
          .ok());
  EXPECT_FALSE(
      registry
          .lookup("IdentityN",
                  AttrMap{{"T", std::vector<DType>{DType::F32, DType::I32}}})
          .ok());
}

TEST_F(KernelRegistryTest, LookupErrors) {
  EXPECT_EQ(registry.lookup("Foo", AttrMap{}).status(),
            NotFoundError("no kernel registered for op 'Foo'"));
  EXPECT_EQ(registry.lookup("AddV2", AttrMap{{"T", DType::F64}}).status(),
            NotFoundError("no kernel for op 'AddV2' with T=f64; "
                          "registered: T in {f32, i32}"));
  EXPECT_EQ(registry.lookup("AddV2", AttrMap{}).status(),
            NotFoundError("no kernel for op 'AddV2' with T=<missing>; "
                          "registered: T in {f32, i32}"));
  EXPECT_EQ(
      registry
          .lookup("Cast", AttrMap{{"SrcT", DType::F32}, {"DstT", DType::I64}})
          .status(),
      NotFoundError("no kernel for op 'Cast' with DstT=i64, SrcT=f32; "
                    "registered: DstT in {i32}, SrcT in {f32}"));
  EXPECT_EQ(registry.lookup("ConcatV2", AttrMap{{"T", DType::I8}}).status(),
            NotFoundError("no kernel for op 'ConcatV2' with T=i8; "
                          "registered: T in {f16}; T in {f32, f16}"));
  EXPECT_EQ(
      registry
          .lookup("IdentityN",
                  AttrMap{{"T", std::vector<DType>{DType::F32, DType::Bool}}})
          .status(),
      NotFoundError("no kernel for op 'IdentityN' with "
                    "T=[f32,i1]; registered: T in {f32}"));
  // A non-dtype attribute does not satisfy a type constraint.
  EXPECT_FALSE(registry.lookup("AddV2", AttrMap{{"T", 1}}).ok());
}

TEST_F(KernelRegistryTest, CreateKernel) {
  AttrMap attrs = {{"T", DType::F32}};
  auto kernel = registry.createKernel("AddV2", "loc(\"k.mlir\":2:2)", attrs,
                                      {DType::F32, DType::F32}, {DType::F32});
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ((*kernel)->opName(), "AddV2");
  EXPECT_EQ((*kernel)->nodeName(), "loc(\"k.mlir\":2:2)");
  EXPECT_EQ((*kernel)->asAsync(), nullptr);

  AttrMap bad = {{"T", DType::Bool}};
  EXPECT_EQ(registry
                .createKernel("AddV2", "n", bad, {DType::Bool, DType::Bool},
                              {DType::Bool})
                .status(),
            NotFoundError("n: no kernel for op 'AddV2' with T=i1; "
                          "registered: T in {f32, i32}"));
  EXPECT_EQ(registry.createKernel("Nope", "n", attrs, {}, {}).status(),
            NotFoundError("n: no kernel registered for op 'Nope'"));
  // The node's inputs are checked against the op before any kernel sees it.
  EXPECT_EQ(registry.createKernel("AddV2", "n", attrs, {DType::F32}, {})
                .status()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(registry
                .createKernel("AddV2", "n", attrs, {DType::F32, DType::F64},
                              {DType::F32})
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

TEST_F(KernelRegistryTest, CreateKernelReportsConstructionFailure) {
  AttrMap fail = {{"fail", true}};
  EXPECT_EQ(
      registry.createKernel("Picky", "loc(\"p\":1:1)", fail, {}, {}).status(),
      InvalidArgumentError("Picky 'loc(\"p\":1:1)': asked to fail"));

  AttrMap wrongKind = {{"fail", "yes"}};
  EXPECT_EQ(registry.createKernel("Picky", "loc(\"p\":1:1)", wrongKind, {}, {})
                .status(),
            InvalidArgumentError("attribute 'fail' of Picky "
                                 "'loc(\"p\":1:1)' is a string, "
                                 "expected a bool"));
}

TEST(RegisterKernel, OneDefPerDType) {
  KernelRegistry registry;
  registerKernel<TypedKernel, float, int32_t, bool>(registry, "Neg");
  std::vector<std::string> defs;
  for (const KernelDef *def : registry.listKernels())
    defs.push_back(def->constraintString());
  EXPECT_EQ(defs, (std::vector<std::string>{"T in {f32}", "T in {i32}",
                                            "T in {i1}"}));
  registry.setInputArity("Neg", 1, 1);
  auto kernel = registry.createKernel("Neg", "n", AttrMap{{"T", DType::I32}},
                                      {DType::I32}, {DType::I32});
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ(lastTypedKernel, DType::I32);
}

TEST_F(KernelRegistryTest, ListKernelsSorted) {
  std::vector<std::string> names;
  for (const KernelDef *def : registry.listKernels())
    names.push_back(def->opName());
  EXPECT_EQ(names,
            (std::vector<std::string>{"AddV2", "Cast", "ConcatV2", "ConcatV2",
                                      "Identity", "IdentityN", "Picky"}));
}

TEST_F(KernelRegistryTest, Manifest) {
  EXPECT_EQ(registry.manifest(), "# tfrt-fallback kernel manifest v1\n"
                                 "kernel AddV2 T=f32|i32\n"
                                 "kernel Cast DstT=i32 SrcT=f32\n"
                                 "kernel ConcatV2 T=f16\n"
                                 "kernel ConcatV2 T=f32|f16\n"
                                 "kernel Identity\n"
                                 "kernel IdentityN T=f32\n"
                                 "kernel Picky\n"
                                 // The framework's optional parts, which a
                                 // build without a manifest has.
                                 "feature control-flow\n"
                                 "feature strings\n"
                                 "feature memory-plan\n"
                                 "feature signatures\n"
                                 "feature memmapped-package\n");

  KernelRegistry empty;
  EXPECT_EQ(empty.manifest(), "# tfrt-fallback kernel manifest v1\n"
                              "feature control-flow\n"
                              "feature strings\n"
                              "feature memory-plan\n"
                              "feature signatures\n"
                              "feature memmapped-package\n");
}

} // namespace
