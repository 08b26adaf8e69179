// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's|@DIR@|%t|g' %s > %t/prog.mlir
// RUN: fallback-run %t/prog.mlir --threads=2 | FileCheck %s
// RUN: fallback-opt %t/prog.mlir --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t/prog.bef
// RUN: rm -rf %t/sub
// RUN: fallback-run-lite %t/prog.bef --threads=1 | FileCheck %s
// RUN: cat %t/sub/dir/f.txt | FileCheck %s --check-prefix=FILE
// WriteFile then ReadFile of the same path, ordered by their chain: the
// write creates the missing directories sub/dir, the read returns the
// bytes written.

func.func @main() -> tensor<!tf_type.string> {
  %name = "tf.Const"() {value = dense<"@DIR@/sub/dir/f.txt"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %text = "tf.Const"() {value = dense<"hello\0Afile"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  "tf.WriteFile"(%name, %text) : (tensor<!tf_type.string>, tensor<!tf_type.string>) -> ()
  %0 = "tf.ReadFile"(%name) : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
  return %0 : tensor<!tf_type.string>
}

// CHECK: result #0: tensor<!tf_type.string>
// CHECK-NEXT: b'hello\nfile'
// FILE: hello
// FILE-NEXT: file
