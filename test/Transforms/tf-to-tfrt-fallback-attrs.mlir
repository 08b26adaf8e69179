// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported | FileCheck %s

// Every TF attribute kind passes into the kernel call's op_attrs unchanged
// (except #tf_type.shape, which is renamed).

func.func private @cond(%x: tensor<f32>) -> tensor<i1>
func.func private @body(%x: tensor<f32>) -> tensor<f32>

// CHECK-LABEL: func @attr_kinds
func.func @attr_kinds(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: tfrt_fallback.kernel_call "AllKinds"(%{{.*}}) chain(%{{.*}}) {
  // CHECK-SAME: b = true,
  // CHECK-SAME: empty = [],
  // CHECK-SAME: f = 5.000000e-01 : f32,
  // CHECK-SAME: fn = @body,
  // CHECK-SAME: i = 3 : i64,
  // CHECK-SAME: lb = [true, false],
  // CHECK-SAME: lf = [1.000000e+00 : f32, 2.000000e+00 : f32],
  // CHECK-SAME: lfn = [@cond, @body],
  // CHECK-SAME: li = [1, 2, 3],
  // CHECK-SAME: ls = ["a", "b"],
  // CHECK-SAME: lsh = [#tfrt_fallback.shape<1>, #tfrt_fallback.shape<?>],
  // CHECK-SAME: lt = [f32, !tf_type.string, ui8],
  // CHECK-SAME: lv = [dense<1> : tensor<i32>, dense<2.000000e+00> : tensor<2xf32>],
  // CHECK-SAME: s = "SAME",
  // CHECK-SAME: sh = #tfrt_fallback.shape<2x?>,
  // CHECK-SAME: t = bf16,
  // CHECK-SAME: v = dense<[1, 2]> : tensor<2xi64>
  // CHECK-SAME: } : (tensor<f32>) -> tensor<f32>
  %0 = "tf.AllKinds"(%x) {
    i = 3 : i64, f = 0.5 : f32, b = true, s = "SAME", t = bf16,
    sh = #tf_type.shape<2x?>, v = dense<[1, 2]> : tensor<2xi64>, fn = @body,
    li = [1, 2, 3], lf = [1.0 : f32, 2.0 : f32], lb = [true, false],
    ls = ["a", "b"], lt = [f32, !tf_type.string, ui8],
    lsh = [#tf_type.shape<1>, #tf_type.shape<?>],
    lv = [dense<1> : tensor<i32>, dense<2.0> : tensor<2xf32>],
    lfn = [@cond, @body], empty = []
  } : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Function attributes of an op that stays a kernel call (functional control
// flow has ops of its own) refer to functions that keep their signature.
// CHECK-LABEL: func @functions
// CHECK: tfrt_fallback.kernel_call "MyLoop"(%{{.*}}) chain(%{{.*}}) {T = [f32], body = @body, cond = @cond, is_stateless = true, parallel_iterations = 10 : i64}
func.func @functions(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.MyLoop"(%x) {T = [f32], body = @body, cond = @cond, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
