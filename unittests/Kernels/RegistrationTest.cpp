//===- RegistrationTest.cpp - Kernel family registration tests --*- C++ -*-===//
//
// registerAllKernels() is the union of the four families, and each op is
// registered for the documented dtypes.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <set>
#include <sstream>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(Registration, AllIsTheUnionOfTheFamilies) {
  KernelRegistry elementwise, matmul, nn, shape;
  registerElementwiseKernels(elementwise);
  registerMatMulKernels(matmul);
  registerNNKernels(nn);
  registerShapeKernels(shape);
  EXPECT_EQ(elementwise.size(), 71u);
  EXPECT_EQ(matmul.size(), 2u);
  EXPECT_EQ(nn.size(), 28u);
  EXPECT_EQ(shape.size(), 2u);
  EXPECT_EQ(kernelRegistry().size(),
            elementwise.size() + matmul.size() + nn.size() + shape.size());
}

TEST(Registration, Manifest) {
  std::ostringstream os;
  kernelRegistry().writeManifest(os);
  const std::string manifest = os.str();
  for (const char *line :
       {"kernel AddV2 T=f32\n", "kernel Div T=ui8\n", "kernel RealDiv T=bf16\n",
        "kernel MatMul T=f64\n", "kernel Relu T=i8\n", "kernel BiasAdd T=i32\n",
        "kernel Softmax T=f16\n", "kernel Neg T=i64\n",
        "kernel Reshape Tshape=i32|i64\n"})
    EXPECT_NE(manifest.find(line), std::string::npos) << line << manifest;
  std::set<std::string> ops;
  for (const KernelDef *def : kernelRegistry().listKernels())
    ops.insert(def->opName());
  EXPECT_EQ(ops, (std::set<std::string>{"Add", "AddV2", "BiasAdd", "Div", "Exp",
                                        "Identity", "MatMul", "Maximum",
                                        "Minimum", "Mul", "Neg", "RealDiv",
                                        "Relu", "Relu6", "Reshape", "Sigmoid",
                                        "Softmax", "Sub", "Tanh"}));
}

} // namespace
