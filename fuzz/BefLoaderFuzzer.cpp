//===- BefLoaderFuzzer.cpp - libFuzzer target for the program loader ------===//
//
// Feeds arbitrary bytes to Program::load with every built-in kernel
// registered. When a program loads, each of its functions that takes only
// tensors of static shapes (at most 4096 elements each) is run on zero
// tensors (empty strings) of those types, with one thread, a short deadline
// and small run limits (tensor bytes, loop iterations: Limits.h): a program
// that loads must run to results or errors, never crash. The limits keep a
// mutated loop or a huge Fill from taking the fuzzer's time.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace tfrt_fallback::rt;

namespace {

// Small budgets: every path of the loader and the executor is reached with
// small tensors and a few loop iterations, and the fuzzer then tries
// thousands of inputs a second instead of hundreds (a long loop or a large
// tensor costs much more under ASan than it teaches). The limits' own
// checks are covered as they trip.
constexpr int64_t kMaxInputElements = 4096;
constexpr auto kRunTimeout = std::chrono::milliseconds(10);

RunOptions runOptions() {
  RunOptions options = RunOptions::withTimeout(kRunTimeout);
  options.limits.maxTensorBytes = 1 << 20;
  options.limits.maxRunBytes = 8 << 20;
  options.limits.maxLoopIterations = 16;
  return options;
}

const KernelRegistry &getRegistry() {
  static const KernelRegistry *registry = [] {
    auto *r = new KernelRegistry;
    registerAllKernels(*r);
    return r;
  }();
  return *registry;
}

HostContext &getHost() {
  static HostContext *host = new HostContext(1);
  return *host;
}

/// Zero tensors for the arguments of `function`, or false when an argument
/// is a chain, has no static shape or is too large.
bool makeInputs(const Program &program, const Function &function,
                std::vector<Tensor> &inputs) {
  for (uint32_t reg : function.argRegisters) {
    const ValueType &type = program.types()[function.registerTypes[reg]];
    if (type.isChain() || !type.shape.isFullyDefined())
      return false;
    StatusOr<TensorShape> shape = TensorShape::create(type.shape.dims());
    if (!shape.ok() || shape->numElements() > kMaxInputElements)
      return false;
    if (type.dtype == DType::String) {
      std::vector<std::string_view> empty(shape->numElements());
      StatusOr<Tensor> strings = makeStringTensor(*shape, empty);
      if (!strings.ok())
        return false;
      inputs.push_back(*std::move(strings));
      continue;
    }
    StatusOr<Tensor> tensor = Tensor::allocate(type.dtype, *shape);
    if (!tensor.ok())
      return false;
    if (tensor->totalBytes() && tensor->rawData())
      std::memset(tensor->rawData(), 0, tensor->totalBytes());
    inputs.push_back(*std::move(tensor));
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(absl::MakeConstSpan(data, size), getRegistry());
  if (!program.ok())
    return 0;
  Executor executor(**program, getHost());
  for (const Function &function : (*program)->functions()) {
    std::vector<Tensor> inputs;
    if (!makeInputs(**program, function, inputs))
      continue;
    StatusOr<std::vector<ResultValue>> results =
        executor.run(function, std::move(inputs), runOptions());
    (void)results;
  }
  return 0;
}
