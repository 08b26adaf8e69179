//===- KernelDispatchBench.cpp - Kernel interface dispatch cost -*- C++ -*-===//
//
// The Kernel Fallback RFC's question: should kernels call the runtime through
// virtual interfaces (OpKernelContextInterface, inheritance) or be templates
// on the context type? Both variants run the same tiny scalar Mul kernel
// through OpKernelContext, with and without output allocation.
//
//   kernel-dispatch-bench --benchmark_repetitions=5 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/OpKernel.h"

#include "benchmark/benchmark.h"

#include <cstdlib>

using namespace tfrt_fallback::rt;

namespace {

/// out = a * b for f32 scalars, reusing a's buffer when allowed. The body
/// is a template so both dispatch styles run identical code.
class ScalarMulKernel final : public OpKernel {
public:
  explicit ScalarMulKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  /// Inheritance: every context call is virtual.
  void compute(OpKernelContextInterface *ctx) override { computeT(ctx); }

  /// Templates: calls on a final context type are direct and inlinable.
  template <typename Context> void computeT(Context *ctx) {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    Tensor *out;
    static constexpr int kCandidates[] = {0};
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->forwardInputOrAllocateOutput(
                                          kCandidates, 0, a.shape(), &out));
    out->data<float>()[0] = a.data<float>()[0] * b.data<float>()[0];
  }
};

/// What a template-based executor stores per node: a type-erased thunk that
/// instantiates the kernel's compute for the concrete context.
using ComputeThunk = void (*)(OpKernel *, OpKernelContext *);
template <typename Kernel>
void templatedThunk(OpKernel *kernel, OpKernelContext *ctx) {
  static_cast<Kernel *>(kernel)->computeT(ctx);
}

struct Fixture {
  HostContext host{0};
  AttrMap attrs = {{"T", DType::F32}};
  SimpleOpKernelConstruction construction{"Mul",
                                          "loc(\"bench\":1:1)",
                                          attrs,
                                          {DType::F32, DType::F32},
                                          {DType::F32}};
  std::unique_ptr<OpKernel> kernel =
      std::make_unique<ScalarMulKernel>(&construction);
  Tensor a = *Tensor::fromValues<float>(TensorShape{}, {1.0001f});
  Tensor b = *Tensor::fromValues<float>(TensorShape{}, {0.9999f});
  const Tensor *inputs[2] = {&a, &b};
  Tensor output;
  Tensor *const outputs[1] = {&output};
  /// The context of one call, as the executor builds it per instruction.
  OpKernelContext context(uint64_t forwardable) {
    output = Tensor();
    return OpKernelContext(*kernel, inputs, forwardable, outputs, host);
  }
  /// Completes a call as the executor does; a forwarded `a` goes back from
  /// the output for the next call.
  void finish(OpKernelContext &ctx) {
    if (ctx.finish() == 0)
      output.moveInto(&a);
  }
};

/// state.range(0): 1 = input 0 may be forwarded (no allocation), 0 = every
/// call allocates its output.
void BM_VirtualInterface(benchmark::State &state) {
  Fixture f;
  uint64_t mask = state.range(0) ? 1 : 0;
  OpKernel *kernel = f.kernel.get();
  for (auto _ : state) {
    OpKernelContext ctx = f.context(mask);
    OpKernelContextInterface *base = &ctx;
    benchmark::DoNotOptimize(kernel);
    benchmark::DoNotOptimize(base);
    kernel->compute(base);
    benchmark::DoNotOptimize(f.output.rawData());
    f.finish(ctx);
    if (!ctx.status().ok())
      std::abort();
  }
}
BENCHMARK(BM_VirtualInterface)->ArgName("forward")->Arg(1)->Arg(0);

void BM_TemplatedContext(benchmark::State &state) {
  Fixture f;
  uint64_t mask = state.range(0) ? 1 : 0;
  OpKernel *kernel = f.kernel.get();
  ComputeThunk thunk = &templatedThunk<ScalarMulKernel>;
  for (auto _ : state) {
    OpKernelContext ctx = f.context(mask);
    benchmark::DoNotOptimize(kernel);
    benchmark::DoNotOptimize(thunk);
    thunk(kernel, &ctx);
    benchmark::DoNotOptimize(f.output.rawData());
    f.finish(ctx);
    if (!ctx.status().ok())
      std::abort();
  }
}
BENCHMARK(BM_TemplatedContext)->ArgName("forward")->Arg(1)->Arg(0);

/// Floor: the multiply alone, no runtime at all.
void BM_RawMultiply(benchmark::State &state) {
  float a = 1.0001f, b = 0.9999f, out = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    out = a * b;
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_RawMultiply);

/// Cost of one allocateOutput-sized allocation, for reference.
void BM_TensorAllocateScalar(benchmark::State &state) {
  for (auto _ : state) {
    auto t = Tensor::allocate(DType::F32, TensorShape{});
    benchmark::DoNotOptimize(t->rawData());
  }
}
BENCHMARK(BM_TensorAllocateScalar);

} // namespace

BENCHMARK_MAIN();
