#!/usr/bin/env python3
"""Writes a TF program that is a straight chain of N kernel calls.

  make_chain.py N > chain.mlir
      N scalar calls alternating tf.Mul and tf.RealDiv (x * 1.0001 / 1.0001
      ...): the runtime's per-kernel dispatch cost (docs/Runtime.md), and a
      program whose every call writes over the previous result.
  make_chain.py N --matmul=D > chain.mlir
      N calls of tf.MatMul of DxD float32 matrices (x * w * w ...), each
      result a new buffer: N planned buffers of which two are alive at once.

bench/scale_bench.py times compiling and loading these for growing N."""
import argparse

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("n", type=int, nargs="?", default=1024)
parser.add_argument("--matmul", type=int, default=0, metavar="D")
args = parser.parse_args()

lines = []
if args.matmul:
    t = "tensor<%dx%dxf32>" % (args.matmul, args.matmul)
    lines.append("func.func @main(%%x: %s) -> %s {" % (t, t))
    # w = 1/D everywhere keeps the values bounded: x * w averages each row.
    lines.append('  %%w = "tf.Const"() {value = dense<%r> : %s, dtype = f32} : () -> %s'
                 % (1.0 / args.matmul, t, t))
    prev = "%x"
    for i in range(args.n):
        lines.append('  %%v%d = "tf.MatMul"(%s, %%w) {T = f32, transpose_a = false, '
                     'transpose_b = false} : (%s, %s) -> %s' % (i, prev, t, t, t))
        prev = "%%v%d" % i
    lines.append("  return %s : %s" % (prev, t))
else:
    lines.append("func.func @main(%x: tensor<f32>) -> tensor<f32> {")
    lines.append('  %c = "tf.Const"() {value = dense<1.0001> : tensor<f32>, dtype = f32} : () -> tensor<f32>')
    prev = "%x"
    for i in range(args.n):
        op = "tf.Mul" if i % 2 == 0 else "tf.RealDiv"
        lines.append('  %%v%d = "%s"(%s, %%c) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>'
                     % (i, op, prev))
        prev = "%%v%d" % i
    lines.append("  return %s : tensor<f32>" % prev)
lines.append("}")
print("\n".join(lines))
