// --profile writes a Chrome trace of every kernel the run executed, and
// --profile-summary prints the time per op and the slowest kernels; with
// --benchmark they cover the timed runs.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 --profile=%t.json --profile-summary | FileCheck %s
// RUN: python3 -c "import json, sys; t = json.load(open(sys.argv[1])); print(sorted(e['name'] for e in t['traceEvents'])); print(all(e['ph'] == 'X' and e['dur'] >= 0 for e in t['traceEvents']))" %t.json | FileCheck %s --check-prefix=TRACE
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=2 --benchmark=3 --profile-summary --print-limit=0 | FileCheck %s --check-prefix=BENCH
// RUN: not fallback-run %s --input=%S/Inputs/f32_2x3.npy --profile=%t.missing/trace.json 2>&1 | FileCheck %s --check-prefix=UNWRITABLE

// CHECK: profile: 1 run, 3 kernels and {{[0-9.]+}} ms of kernel time per run
// CHECK-NEXT: op{{ +}}calls/run{{ +}}ms/run{{ +}}%
// CHECK-DAG: {{^}}Mul{{ +}}2.0{{ +[0-9.]+ +[0-9.]+}}%
// CHECK-DAG: {{^}}Sigmoid{{ +}}1.0{{ +[0-9.]+ +[0-9.]+}}%
// CHECK: top kernels (ms/run, % of kernel time, op at location -> outputs):
// CHECK-DAG: Sigmoid at {{.*}}profile.mlir:28:{{[0-9]+}} -> tensor<2x3xf32>
// CHECK-DAG: Mul at {{.*}}profile.mlir:27:{{[0-9]+}} -> tensor<2x3xf32>
// CHECK: result #0: tensor<2x3xf32>

// TRACE: ['Mul', 'Mul', 'Sigmoid']
// TRACE-NEXT: True

// BENCH: profile: 3 runs, 3 kernels and {{[0-9.]+}} ms of kernel time per run
// BENCH: {{^}}Mul{{ +}}2.0

// UNWRITABLE: error: cannot write '{{.*}}trace.json'
// An input, not a constant, which the pipeline would fold the program into.
func.func @main(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  %m = "tf.Mul"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  %s = "tf.Sigmoid"(%m) : (tensor<*xf32>) -> tensor<*xf32>
  %r = "tf.Mul"(%s, %a) : (tensor<*xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
