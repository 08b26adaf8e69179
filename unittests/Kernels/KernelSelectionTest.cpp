//===- KernelSelectionTest.cpp - compile-time kernel selection -----------===//
//
// This file is compiled as a selective build would compile the kernels
// (TFRT_FALLBACK_SELECTED_KERNELS names KernelSelectionTest.inc), and
// registers test kernels of its own through Registration.h's registerKernel
// forms: only the selected (op, dtype) pairs reach the registry.
//
//===----------------------------------------------------------------------===//

#define TFRT_FALLBACK_SELECTED_KERNELS "KernelSelectionTest.inc"
#include "common/KernelSelection.h"
#include "common/Registration.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {

// The selection is decided at compile time.
static_assert(isKernelSelected(OpId::kRelu, DType::F32));
static_assert(!isKernelSelected(OpId::kRelu, DType::F64));
static_assert(isKernelSelected(OpId::kCast, DType::I64)); // every dtype
static_assert(isOpSelected(OpId::kCast));
static_assert(isOpSelected(OpId::k_FusedConv2D));
static_assert(!isOpSelected(OpId::kAddV2));
static_assert(!isKernelSelected(OpId::kAddV2, DType::F32));
// A manifest line "kernel ConcatV2 T=string" keeps the string form only.
static_assert(isKernelSelected(OpId::kConcatV2, DType::String));
static_assert(!isKernelSelected(OpId::kConcatV2, DType::F32));
static_assert(!isKernelSelected(OpId::kPack, DType::String));

template <typename T> class TypedKernel final : public OpKernel {
public:
  using OpKernel::OpKernel;
  void compute(OpKernelContextInterface *) override {}
};

class AnyKernel final : public OpKernel {
public:
  using OpKernel::OpKernel;
  void compute(OpKernelContextInterface *) override {}
};

std::vector<std::string> listed(const KernelRegistry &registry) {
  std::vector<std::string> out;
  for (const KernelDef *def : registry.listKernels())
    out.push_back(def->opName() + " " + def->constraintString());
  return out;
}

TEST(KernelSelection, RegistersOnlyTheSelectedKernels) {
  KernelRegistry registry;
  kernels::registerKernel<OpId::kRelu, TypedKernel, float, double>(registry);
  kernels::registerKernel<OpId::kAddV2, TypedKernel, float>(registry);
  kernels::registerKernel<OpId::kCast, AnyKernel>(registry);
  kernels::registerKernel<OpId::kAddN, AnyKernel>(registry);
  kernels::registerKernel<OpId::k_FusedConv2D, AnyKernel>(
      registry, {{"T", {DType::F32, DType::F64}}});
  kernels::registerStringKernel<OpId::kConcatV2, AnyKernel>(registry);
  kernels::registerStringKernel<OpId::kGatherV2, AnyKernel>(registry,
                                                            "Tparams");
  EXPECT_EQ(listed(registry),
            (std::vector<std::string>{
                "Cast any dtype", "ConcatV2 T in {string}", "Relu T in {f32}",
                "_FusedConv2D T in {f32, f64}"}));
  EXPECT_EQ(registry.size(), 4u);
}

} // namespace
} // namespace tfrt_fallback::rt
