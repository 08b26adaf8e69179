//===- OpClassTest.cpp - Op table classes against the kernels ---*- C++ -*-===//
//
// The compiler infers shapes, plans buffers and fuses activations from the
// op table's Shape, Buffer and Fusion columns (OpTable.def); the kernels
// compute shapes and forward buffers by their own code. These tests check
// that the two agree: the elementwise kernel templates register only ops of
// their shape rule (rowMatchesKernel, which every registerKernel checks at
// compile time), the unary family registers only SameAsInput rows, and
// every registered op's row is consistent in itself.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"
#include "common/Registration.h"
#include "math/BinaryOpKernel.h"
#include "math/UnaryOpKernel.h"

#include "tfrt_fallback/Runtime/OpTable.h"

#include "gtest/gtest.h"

#include <string>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

template <typename T> struct PlusFunctor {
  T operator()(const T &a, const T &b) const { return a + b; }
};

template <typename T> struct NegateFunctor {
  static constexpr double kCost = 1;
  template <typename X> static auto apply(const X &x) { return -x; }
};

/// A kernel that declares no shape rule: registers for any row.
class OwnRuleKernel : public OpKernel {
public:
  explicit OwnRuleKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *) override {}
};

using BinaryKernel = kernels::BinaryOpKernel<float, PlusFunctor>;
using UnaryKernel = kernels::UnaryOpKernel<float, NegateFunctor<float>>;

// The check registerKernel makes: a kernel template's rule against the
// row. A contradiction fails the build of the family that registers it.
static_assert(kernels::rowMatchesKernel<OpId::kAddV2, BinaryKernel>());
static_assert(kernels::rowMatchesKernel<OpId::kRelu, UnaryKernel>());
static_assert(kernels::rowMatchesKernel<OpId::kConcatV2, OwnRuleKernel>());

TEST(OpClass, KernelTemplatesRegisterOnlyRowsOfTheirRule) {
  // A broadcasting kernel for a same-shape row, a unary one for a
  // broadcasting or a custom row: each is refused.
  EXPECT_FALSE((kernels::rowMatchesKernel<OpId::kRelu, BinaryKernel>()));
  EXPECT_FALSE((kernels::rowMatchesKernel<OpId::kAddV2, UnaryKernel>()));
  EXPECT_FALSE((kernels::rowMatchesKernel<OpId::kConcatV2, UnaryKernel>()));
  EXPECT_EQ(kernels::kKernelShapeRule<BinaryKernel>, OpShapeRule::Broadcast);
  EXPECT_EQ(kernels::kKernelShapeRule<UnaryKernel>, OpShapeRule::SameAsInput);
  EXPECT_EQ(kernels::kKernelShapeRule<OwnRuleKernel>, OpShapeRule::Custom);
}

TEST(OpClass, UnaryFamilyRegistersSameAsInputRows) {
  // The Unary family (KernelFamilies.def) is unary elementwise ops only.
  KernelRegistry registry;
  registerUnaryKernels(registry);
  ASSERT_GT(registry.size(), 0u);
  for (const KernelDef *def : registry.listKernels()) {
    ASSERT_NE(def->row(), nullptr) << def->opName();
    EXPECT_EQ(def->row()->shapeRule, OpShapeRule::SameAsInput)
        << def->opName() << " is unary elementwise";
  }
}

TEST(OpClass, RegisteredRowsAreConsistent) {
  for (const KernelDef *def : kernelRegistry().listKernels()) {
    const OpInfo *op = lookupOp(def->opName());
    if (!op)
      continue; // OpTableTest reports it.
    const std::string name = def->opName();
    switch (op->shapeRule) {
    case OpShapeRule::SameAsInput:
      EXPECT_GE(op->minInputs, 1) << name << " has no input 0";
      break;
    case OpShapeRule::Broadcast:
      EXPECT_GE(op->minInputs, 2) << name << " broadcasts one input";
      EXPECT_EQ(op->outputs.size(), 1u) << name;
      break;
    case OpShapeRule::Reduction:
      EXPECT_EQ(op->minInputs, 2) << name << " takes a value and its axes";
      break;
    case OpShapeRule::Custom:
      break;
    }
    // Buffer: the inputs exist, and a view is not also in place.
    for (int i = 0; i < 8; ++i)
      if (op->inPlaceInputs & (1u << i))
        EXPECT_LT(i, op->minInputs) << name << " writes over input " << i;
    if (op->viewsInput) {
      EXPECT_EQ(op->inPlaceInputs, 0) << name;
      EXPECT_GE(op->minInputs, 1) << name;
    }
    // The fused kernels apply an activation to their own output.
    if (op->fusion == OpFusion::Activation) {
      EXPECT_EQ(op->shapeRule, OpShapeRule::SameAsInput) << name;
      EXPECT_EQ(op->maxInputs, 1) << name;
    }
  }
}

TEST(OpClass, Facts) {
  // From TensorFlow's shape functions and the kernels' forwarding.
  const OpInfo *add = lookupOp("AddV2");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->shapeRule, OpShapeRule::Broadcast);
  EXPECT_EQ(add->inPlaceInputs, 0b11);
  EXPECT_EQ(add->fusion, OpFusion::None);
  const OpInfo *relu = lookupOp("Relu");
  EXPECT_EQ(relu->shapeRule, OpShapeRule::SameAsInput);
  EXPECT_EQ(relu->inPlaceInputs, 0b1);
  EXPECT_EQ(relu->fusion, OpFusion::Activation);
  const OpInfo *select = lookupOp("SelectV2");
  EXPECT_EQ(select->shapeRule, OpShapeRule::Custom);
  EXPECT_EQ(select->inPlaceInputs, 0b110);
  EXPECT_TRUE(lookupOp("Reshape")->viewsInput);
  EXPECT_FALSE(lookupOp("Reshape")->inPlaceInputs);
  EXPECT_EQ(lookupOp("Mean")->shapeRule, OpShapeRule::Reduction);
  EXPECT_EQ(lookupOp("ConcatV2")->shapeRule, OpShapeRule::Custom);
  EXPECT_EQ(lookupOp("Less")->inPlaceInputs, 0); // bool, never T's buffer
}

} // namespace
