//===- KernelTimingBench.cpp - single kernels on the executor ----*- C++
//-*-===//
//
// The time of one kernel as users run it: a one-node program (built as the
// kernel tests build theirs, KernelTestUtils.h) run by the Executor on a
// one-thread host. MobileNet-shaped convolutions (with GFLOP/s), Transpose
// NHWC -> NCHW and a stride-2 StridedSlice, and Mean over H and W.
//
//   kernel-timing-bench --benchmark_filter=Conv
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "benchmark/benchmark.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

HostContext &benchHost() {
  static HostContext *host = new HostContext(1);
  return *host;
}

/// Runs `op` on `inputs` while the benchmark's state asks; an error skips
/// the benchmark with its message.
void runOp(benchmark::State &state, const std::string &op, const AttrMap &attrs,
           const std::vector<Tensor> &inputs) {
  StatusOr<std::unique_ptr<Program>> program =
      buildSingleOpProgram(op, attrs, inputs, {DType::F32});
  if (!program.ok()) {
    state.SkipWithError(std::string(program.status().message()).c_str());
    return;
  }
  Executor executor(**program, benchHost());
  for (auto _ : state) {
    StatusOr<std::vector<ResultValue>> results =
        executor.run((*program)->functions()[0], inputs);
    if (!results.ok() || !(*results)[0].ok()) {
      state.SkipWithError(op.c_str());
      return;
    }
    benchmark::DoNotOptimize((*results)[0]);
  }
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

/// An NHWC layer: input [1, h, w, c], a kh x kw filter with outC output
/// channels (the multiplier for depthwise ops), SAME padding when `same`.
struct ConvLayer {
  int64_t h, w, c, kh, kw, outC, stride;
  bool same;
};

void convBench(benchmark::State &state, const std::string &op, ConvLayer l) {
  const bool depthwise = op != "Conv2D" && op != "_FusedConv2D";
  const int64_t oc = depthwise ? l.c * l.outC : l.outC;
  std::vector<Tensor> inputs = {
      makeTensorFrom<float>({1, l.h, l.w, l.c}, patternValues(l.h * l.w * l.c)),
      makeTensorFrom<float>({l.kh, l.kw, l.c, l.outC},
                            patternValues(l.kh * l.kw * l.c * l.outC))};
  AttrMap attrs{{"T", DType::F32},
                {"padding", std::string(l.same ? "SAME" : "VALID")}};
  attrs.set("strides", std::vector<int64_t>{1, l.stride, l.stride, 1});
  attrs.set("dilations", std::vector<int64_t>{1, 1, 1, 1});
  if (op[0] == '_') {
    attrs.set("fused_ops", std::vector<std::string>{"BiasAdd", "Relu6"});
    attrs.set("num_args", int64_t(1));
    inputs.push_back(makeTensorFrom<float>({oc}, patternValues(oc)));
  }
  runOp(state, op, attrs, inputs);
  const int64_t oh = l.same ? (l.h + l.stride - 1) / l.stride
                            : (l.h - l.kh + l.stride) / l.stride;
  const int64_t ow = l.same ? (l.w + l.stride - 1) / l.stride
                            : (l.w - l.kw + l.stride) / l.stride;
  const double flops = 2.0 * oh * ow * oc * l.kh * l.kw * (depthwise ? 1 : l.c);
  state.counters["FLOP/s"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

BENCHMARK_CAPTURE(convBench, depthwise_112x112x32_3x3, "DepthwiseConv2dNative",
                  ConvLayer{112, 112, 32, 3, 3, 1, 1, true});
BENCHMARK_CAPTURE(convBench, fused_depthwise_112x112x64_3x3_s2,
                  "_FusedDepthwiseConv2dNative",
                  ConvLayer{112, 112, 64, 3, 3, 1, 2, true});
BENCHMARK_CAPTURE(convBench, conv_56x56x64_1x1_128, "Conv2D",
                  ConvLayer{56, 56, 64, 1, 1, 128, 1, false});
BENCHMARK_CAPTURE(convBench, fused_56x56x64_1x1_128, "_FusedConv2D",
                  ConvLayer{56, 56, 64, 1, 1, 128, 1, false});
BENCHMARK_CAPTURE(convBench, fused_7x7x960_1x1_320, "_FusedConv2D",
                  ConvLayer{7, 7, 960, 1, 1, 320, 1, false});
BENCHMARK_CAPTURE(convBench, fused_224x224x3_3x3_32_s2, "_FusedConv2D",
                  ConvLayer{224, 224, 3, 3, 3, 32, 2, true});
BENCHMARK_CAPTURE(convBench, conv_56x56x64_3x3_64, "Conv2D",
                  ConvLayer{56, 56, 64, 3, 3, 64, 1, true});

//===----------------------------------------------------------------------===//
// Data movement and reductions
//===----------------------------------------------------------------------===//

/// Transpose [1, 112, 112, 96] NHWC -> NCHW.
void transposeNhwcToNchw(benchmark::State &state) {
  runOp(state, "Transpose", AttrMap{{"T", DType::F32}},
        {iota({1, 112, 112, 96}), i32({4}, {0, 3, 1, 2})});
}
BENCHMARK(transposeNhwcToNchw);

/// StridedSlice with strides [1, 2, 2, 1] of [1, 112, 112, 96].
void stridedSliceStride2(benchmark::State &state) {
  runOp(state, "StridedSlice", AttrMap{{"T", DType::F32}},
        {iota({1, 112, 112, 96}), i32({4}, {0, 0, 0, 0}),
         i32({4}, {1, 112, 112, 96}), i32({4}, {1, 2, 2, 1})});
}
BENCHMARK(stridedSliceStride2);

/// Mean of [1, 56, 56, 256] over H and W.
void meanOverHW(benchmark::State &state) {
  runOp(state, "Mean", AttrMap{{"T", DType::F32}},
        {makeTensorFrom<float>({1, 56, 56, 256}, patternValues(56 * 56 * 256)),
         i32({2}, {1, 2})});
}
BENCHMARK(meanOverHW);

} // namespace

BENCHMARK_MAIN();
