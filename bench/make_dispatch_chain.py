#!/usr/bin/env python3
"""Writes a TF program that is a chain of N scalar kernel calls alternating
tf.Mul and tf.RealDiv (x * 1.0001 / 1.0001 ...), to measure the runtime's
per-kernel dispatch cost.

Usage: make_dispatch_chain.py N > chain.mlir"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
print("func.func @main(%x: tensor<f32>) -> tensor<f32> {")
print('  %c = "tf.Const"() {value = dense<1.0001> : tensor<f32>, dtype = f32} : () -> tensor<f32>')
prev = "%x"
for i in range(n):
    op = "tf.Mul" if i % 2 == 0 else "tf.RealDiv"
    print('  %%v%d = "%s"(%s, %%c) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>' % (i, op, prev))
    prev = "%%v%d" % i
print("  return %s : tensor<f32>" % prev)
print("}")
