// A node whose declared output dtype is not the one its OpDef fixes
// (ResizeBilinear's resized_images is always float) is rejected when the
// program is loaded: the kernel writes float, and an f64 register would read
// those bytes as doubles (found by the float64 oracle, --reference-f64).
// RUN: not fallback-run %s 2>&1 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: not fallback-run-lite %t.bef 2>&1 | FileCheck %s

func.func @main(%x: tensor<1x2x2x1xf64>) -> tensor<1x4x4x1xf64> {
  %size = tfrt_fallback.constant dense<[4, 4]> : tensor<2xi32>
  // CHECK: error: {{.*}}op 'ResizeBilinear' has output #0 of dtype f32 (its OpDef fixes it) but the program declares f64
  %0 = tfrt_fallback.kernel_call "ResizeBilinear"(%x, %size) {T = f64, align_corners = false, half_pixel_centers = true} : (tensor<1x2x2x1xf64>, tensor<2xi32>) -> tensor<1x4x4x1xf64>
  return %0 : tensor<1x4x4x1xf64>
}
