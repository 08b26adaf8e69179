#!/usr/bin/env python3
"""Compile and load time against program size (issue: programs of any size).

For chains of 1k, 10k and 100k scalar kernels and of 256x256 MatMul kernels
(bench/make_chain.py), prints the time of `fallback-translate --mlir-to-bef`
(parse, the whole pipeline, the memory plan, writing) and of loading the
binary program (the whole `fallback-run-lite PROGRAM --signature` process:
reading, checking, creating the kernels, indexing the memory plan; a
process start is ~2 ms of it), so that the growth with the program's size
is visible: time per kernel should stay flat.

Usage: bench/scale_bench.py [--build DIR] [--sizes 1000,10000,100000]
                            [--matmul-sizes 1000,3000,6000]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")))
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--matmul-sizes", default="1000,3000,6000")
    parser.add_argument("--matmul-dim", type=int, default=256)
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    translate = os.path.join(bin_dir, "fallback-translate")
    run_lite = os.path.join(bin_dir, "fallback-run-lite")
    work = tempfile.mkdtemp(prefix="scale-bench-")
    rows = []

    def measure(kind, n, extra):
        mlir = os.path.join(work, "%s-%d.mlir" % (kind, n))
        bef = mlir[:-5] + ".bef"
        with open(mlir, "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_chain.py"),
                            str(n)] + extra, stdout=f, check=True)
        start = time.perf_counter()
        subprocess.run([translate, "--mlir-to-bef", mlir, "-o", bef], check=True)
        compile_s = time.perf_counter() - start
        # The input: one f32 scalar or a DxD matrix of ones, as .npy.
        npy = os.path.join(work, "%s-input.npy" % kind)
        shape = "()" if kind == "scalar" else "(%d, %d)" % (args.matmul_dim, args.matmul_dim)
        count = 1 if kind == "scalar" else args.matmul_dim ** 2
        header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
        header += " " * (63 - (10 + len(header)) % 64) + "\n"
        with open(npy, "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
            f.write(b"\x00\x00\x80\x3f" * count)
        # Load: the whole process of `--signature` (read, check, create
        # the kernels, index the plan, print the names), the best of three.
        load_ms = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([run_lite, bef, "--signature"], check=True, capture_output=True)
            load_ms = min(load_ms, (time.perf_counter() - start) * 1e3)
        out = subprocess.run([run_lite, bef, "--input=" + npy, "--threads=1", "--benchmark=1",
                              "--print-limit=0"], check=True, capture_output=True, text=True).stdout
        median = float(re.search(r"median ([0-9.]+) ms", out).group(1))
        plan = re.search(r"memory plan: .* (\d+) buffers", out)
        rows.append((kind, n, compile_s, load_ms, median, plan.group(1) if plan else "-",
                     os.path.getsize(bef)))

    for n in [int(s) for s in args.sizes.split(",") if s]:
        measure("scalar", n, [])
    for n in [int(s) for s in args.matmul_sizes.split(",") if s]:
        measure("matmul", n, ["--matmul=%d" % args.matmul_dim])
    print("| chain | kernels | compile (s) | us/kernel | load (ms) | us/kernel | run (ms) "
          "| planned buffers | .bef bytes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, n, compile_s, load_ms, median, buffers, size in rows:
        name = "scalar Mul/RealDiv" if kind == "scalar" else "MatMul %dx%d" % (
            args.matmul_dim, args.matmul_dim)
        print("| %s | %d | %.2f | %.1f | %.1f | %.2f | %.1f | %s | %d |" % (
            name, n, compile_s, compile_s * 1e6 / n, load_ms, load_ms * 1e3 / n, median,
            buffers, size))


if __name__ == "__main__":
    main()
