// ImmutableConst reads regions of a TF memmapped package written by
// Inputs/write-memmapped-package.py: "w" f32 [1.5, 2, 3, 4] and "b" i32
// [7, -1], aligned (the tensors alias the mapped file) or one byte off
// (they are copies); the values are the same.
// RUN: python3 %S/Inputs/write-memmapped-package.py %t.pkg w:float32:1.5,2,3,4 b:int32:7,-1
// RUN: python3 %S/Inputs/write-memmapped-package.py %t.odd.pkg --unaligned w:float32:1.5,2,3,4 b:int32:7,-1
// RUN: fallback-run %s --memmapped-package=%t.pkg | FileCheck %s
// RUN: fallback-run %s --memmapped-package=%t.odd.pkg | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --memmapped-package %t.pkg | FileCheck %s
// The runner's flag is a selective build's `feature memmapped-package`,
// which the program's manifest asks for.
// RUN: fallback-translate --emit-kernel-manifest %t.bef | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: kernel ImmutableConst
// MANIFEST: feature memmapped-package

// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}1.5, 2.],
// CHECK-NEXT: [3., 4.]]
// CHECK: result #1: tensor<2xi32>
// CHECK-NEXT: {{\[}}7, -1]
func.func @main() -> (tensor<2x2xf32>, tensor<2xi32>) {
  %w = "tf.ImmutableConst"() {dtype = f32, shape = #tf_type.shape<2x2>, memory_region_name = "memmapped_package://w"} : () -> tensor<2x2xf32>
  %b = "tf.ImmutableConst"() {dtype = i32, shape = #tf_type.shape<2>, memory_region_name = "memmapped_package://b"} : () -> tensor<2xi32>
  return %w, %b : tensor<2x2xf32>, tensor<2xi32>
}

// No package given.
// RUN: not fallback-run %s 2>&1 | FileCheck %s --check-prefix=NOPKG
// NOPKG: error: result #0: ImmutableConst '{{.*}}': no memmapped package for region 'memmapped_package://w' (give one with --memmapped-package=FILE)

// A region that is not in the package, and one whose size is not that of
// the tensor (16 bytes of "w" for a 3-element f32 tensor).
// RUN: not fallback-run %s --entry=errors --memmapped-package=%t.pkg 2>&1 | FileCheck %s --check-prefix=ERR
// ERR-DAG: error: result #0: ImmutableConst '{{.*}}': no region 'nope' in memmapped package {{.*}}.pkg
// ERR-DAG: error: result #1: ImmutableConst '{{.*}}': region 'w' of memmapped package {{.*}}.pkg has 16 bytes, a tensor of shape [3] and dtype f32 has 12
func.func @errors() -> (tensor<2xf32>, tensor<3xf32>) {
  %a = "tf.ImmutableConst"() {dtype = f32, shape = #tf_type.shape<2>, memory_region_name = "memmapped_package://nope"} : () -> tensor<2xf32>
  %b = "tf.ImmutableConst"() {dtype = f32, shape = #tf_type.shape<3>, memory_region_name = "memmapped_package://w"} : () -> tensor<3xf32>
  return %a, %b : tensor<2xf32>, tensor<3xf32>
}

// Files that are no package: 3 bytes; a directory offset (255) beyond a 9-byte
// file; a directory (at 0) that does not parse (8 bytes 0xff: a varint tag
// that never ends); regions out of order (elements at 8 then 0).
// RUN: printf 'abc' > %t.short
// RUN: not fallback-run %s --memmapped-package=%t.short 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: result #0: ImmutableConst '{{.*}}': Corrupted memmapped model file: {{.*}}.short Invalid package size
// RUN: printf '\000\377\000\000\000\000\000\000\000' > %t.offset
// RUN: not fallback-run %s --memmapped-package=%t.offset 2>&1 | FileCheck %s --check-prefix=OFFSET
// OFFSET: error: result #0: ImmutableConst '{{.*}}': Corrupted memmapped model file: {{.*}}.offset Invalid directory offset
// RUN: printf '\377\377\377\377\377\377\377\377\000\000\000\000\000\000\000\000' > %t.dir
// RUN: not fallback-run %s --memmapped-package=%t.dir 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: result #0: ImmutableConst '{{.*}}': Corrupted memmapped model file: {{.*}}.dir Can't parse its internal directory
// The directory at 16: element { offset 8 name "a" }, element { offset 0
// name "b" } (0A 05 08 08 12 01 61, 0A 05 08 00 12 01 62).
// RUN: printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\012\005\010\010\022\001a\012\005\010\000\022\001b\020\000\000\000\000\000\000\000' > %t.order
// RUN: not fallback-run %s --memmapped-package=%t.order 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: result #0: ImmutableConst '{{.*}}': Corrupted memmapped model file: {{.*}}.order Invalid offset of internal component
