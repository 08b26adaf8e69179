#!/usr/bin/env python3
"""Multiply-accumulates per inference of a compiled program (batch 1).

  count_macs.py PROGRAM.mlir [--by-op]

PROGRAM.mlir is the output of `fallback-opt --tfrt-fallback-pipeline` (the
program the .bef holds: kernel calls with static shapes). Counts the MACs
of the kernels that multiply and accumulate, from their operand and result
types:
  Conv2D, _FusedConv2D            out elements x KH x KW x filter's C_in
  DepthwiseConv2dNative, _Fused.. out elements x KH x KW
  Conv2DBackpropInput             out_backprop elements x KH x KW x C_out
  MatMul, _FusedMatMul,
  BatchMatMul(V2/V3)              out elements x K
Other kernels (elementwise, pooling, resizes, epilogues) count none: the
figure is the convolutions' and matrix products' work, which is most of a
vision model's arithmetic. Prints the total (and with --by-op the MACs of
each kernel name)."""
import argparse
import re
import sys

CALL = re.compile(r'kernel_call "([A-Za-z0-9_]+)"\((.*)$')
ATTR = re.compile(r'\b(transpose_a|adj_x)\s*=\s*(true|false)')


def dims(t):
    """[d0, d1, ...] of 'tensor<1x2x3xf32>', None when unranked. A dynamic
    dimension ('?': the batch of some models) counts as 1, the batch the
    benchmarks run."""
    m = re.fullmatch(r"tensor<((?:(?:\d+|\?)x)*)[a-z]+\d*>", t.strip())
    if not m:
        return None
    return [1 if d == "?" else int(d) for d in m.group(1).split("x") if d]


def prod(ds):
    p = 1
    for d in ds:
        p *= d
    return p


def signature(line):
    """(operand types, result types) of an op's trailing ': (...) -> ...'."""
    i = line.rfind(") -> ")
    j = line.rfind(": (", 0, i)
    if i < 0 or j < 0:
        return None, None
    split = lambda s: re.findall(r"tensor<[^>]*>", s)
    return split(line[j + 3:i]), split(line[i + 5:])


CONV = ("Conv2D", "_FusedConv2D")
DEPTHWISE = ("DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative", "FusedDepthwiseConv2dNative")
MATMUL = ("MatMul", "_FusedMatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3")


def macs(op, line):
    """The kernel call's MACs; None for a MAC kernel of unranked types."""
    if op not in CONV + DEPTHWISE + MATMUL + ("Conv2DBackpropInput",):
        return 0
    ins, outs = signature(line)
    if not ins or not outs:
        return None
    ins = [dims(t) for t in ins]
    out = dims(outs[0])
    if out is None or None in ins:
        return None
    if op in CONV:
        f = ins[1]
        return prod(out) * f[0] * f[1] * f[2]
    if op in DEPTHWISE:
        f = ins[1]
        return prod(out) * f[0] * f[1]
    if op == "Conv2DBackpropInput":
        f, dy = ins[1], ins[2]
        return prod(dy) * f[0] * f[1] * f[2]
    a = ins[0]  # MATMUL
    flags = dict(ATTR.findall(line))
    transposed = flags.get("transpose_a", flags.get("adj_x")) == "true"
    return prod(out) * (a[-2] if transposed else a[-1])


def count(path):
    total, by_op, unknown = 0, {}, set()
    with open(path) as f:
        for line in f:
            m = CALL.search(line)
            if not m:
                continue
            n = macs(m.group(1), line)
            if n is None:
                unknown.add(m.group(1))
                continue
            total += n
            if n:
                by_op[m.group(1)] = by_op.get(m.group(1), 0) + n
    return total, by_op, unknown


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program")
    parser.add_argument("--by-op", action="store_true")
    args = parser.parse_args()
    total, by_op, unknown = count(args.program)
    if unknown:
        print("count_macs: unranked types on %s (not counted)" % ", ".join(sorted(unknown)),
              file=sys.stderr)
    print(total)
    if args.by_op:
        for op, n in sorted(by_op.items(), key=lambda x: -x[1]):
            print("  %-30s %d" % (op, n))


if __name__ == "__main__":
    main()
