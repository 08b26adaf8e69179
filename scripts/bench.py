#!/usr/bin/env python3
# ===- bench.py - every benchmark of docs/Performance.md in one run ------=== #
#
# Prints (and with --markdown writes) the tables docs/Performance.md records:
#   machine      CPU, features, the GEMM's instruction set, date
#   dispatch     the 1024-op scalar chain (bench/make_chain.py):
#                ns per op, and instructions per op under callgrind
#   kernels      the packed GEMM's GFLOP/s per MobileNetV2 and posenet layer
#                shape next to the square 512^3 GEMM (bench/GemmBench.cpp)
#   models       real models, one thread, in ROUNDS interleaved rounds: ours
#                (fallback-run-lite on the .bef), ONNX Runtime, OpenCV DNN
#                and TF.js-wasm (../shared/peers); median of the per-round
#                medians, and the median of the per-round ours / ORT ratios
#   threads      ours on two threads against one, interleaved
# The machine is noisy and shared: compare ratios from one run.
#
#   scripts/bench.py [--rounds 3] [--runs 15] [--no-wasm] [--no-opencv]
#                    [--markdown FILE] [MODEL...]
#
# scripts/bench.sh builds first, then runs this. Without ../shared/peers
# the peer columns are empty. Not a test.
# ===----------------------------------------------------------------------=== #
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "models"))
import fetch  # noqa: E402  (scripts/models/fetch.py)
import peers  # noqa: E402  (scripts/models/peers.py)

BIN = os.path.join(peers.BUILD, "bin")
DEFAULT_MODELS = fetch.BENCH_MODELS
THREAD_MODELS = ["nsfwjs_mobilenet_v2_mid", "posenet"]
# The GEMM shapes bench/GemmBench.cpp times, by the model they come from.
MNV2_SHAPES = 21  # the first 21 rows of kShapes; then 512^3, then posenet's


def fmt(v, digits=2):
    return "-" if v is None else "%.*f" % (digits, v)


def machine():
    info = {"date": datetime.date.today().isoformat(), "cores": os.cpu_count()}
    flags = set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and "cpu" not in info:
                info["cpu"] = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    info["features"] = " ".join(x for x in ("avx2", "fma", "avx512f", "avx512bw", "avx512vl",
                                           "avx512_vnni", "avx512_bf16") if x in flags)
    info["gemm_isa"] = ("avx512" if "avx512f" in flags else
                        "avx2" if "avx2" in flags and "fma" in flags else "portable")
    return info


def dispatch(tmp):
    """ns and instructions per op of the 1024-op chain."""
    chain = os.path.join(tmp, "chain.mlir")
    bef = os.path.join(tmp, "chain.bef")
    with open(chain, "w") as f:
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_chain.py"),
                        "1024"], stdout=f, check=True)
    subprocess.run([os.path.join(BIN, "fallback-translate"), "--mlir-to-bef", chain, "-o", bef],
                   check=True)
    scalar = os.path.join(ROOT, "test", "Runtime", "Inputs", "f32_scalar.npy")
    run = [os.path.join(BIN, "fallback-run-lite"), bef, "--input=" + scalar, "--threads=1",
           "--print-limit=0"]
    out = subprocess.run(run + ["--benchmark=3000"], check=True, capture_output=True,
                         text=True).stdout
    median = float(re.search(r"median ([0-9.]+) ms", out).group(1))
    result = {"ns_per_op": median * 1e6 / 1024, "instructions_per_op": None}
    if subprocess.run(["which", "valgrind"], capture_output=True).returncode == 0:
        refs = []
        for runs in (20, 220):
            r = subprocess.run(["valgrind", "--tool=callgrind",
                                "--callgrind-out-file=" + os.path.join(tmp, "cg.%d" % runs)]
                               + run + ["--benchmark=%d" % runs], capture_output=True, text=True)
            refs.append(int(re.search(r"I\s+refs:\s+([0-9,]+)", r.stderr).group(1)
                            .replace(",", "")))
        result["instructions_per_op"] = (refs[1] - refs[0]) / (200 * 1024)
    return result


def kernels():
    """GFLOP/s of BM_Ours (B packed once) per shape, on the best ISA."""
    exe = os.path.join(BIN, "gemm-bench")
    if not os.path.exists(exe):
        return []
    r = subprocess.run([exe, "--benchmark_filter=BM_Ours/", "--benchmark_min_time=0.1",
                        "--benchmark_format=json"], capture_output=True, text=True)
    try:
        data = json.loads(r.stdout)
    except ValueError:
        return []
    best = {}
    for b in data.get("benchmarks", []):
        index = int(b["name"].split("/")[1])
        label = b.get("label", "")
        if "GFLOPS" in b and (index not in best or b["GFLOPS"] > best[index][1]):
            best[index] = (label, b["GFLOPS"])
    rows = []
    for index in sorted(best):
        label, gflops = best[index]
        model = ("MobileNetV2" if index < MNV2_SHAPES else
                 "square" if index == MNV2_SHAPES else "posenet")
        rows.append({"model": model, "shape": label, "gflops": gflops})
    return rows


def models(names, rounds, runs, use_opencv, use_wasm):
    have_peers = peers.available()
    rows = []
    for name in names:
        t = {"ours": [], "ort": [], "opencv": [], "wasm": []}
        ratios = []
        for _ in range(rounds):
            a = peers.ours_ms(name, runs)
            t["ours"].append(a)
            if have_peers:
                b = peers.ort_ms(name, runs)
                if b is not None:
                    t["ort"].append(b)
                    ratios.append(a / b)
                if use_opencv:
                    c = peers.opencv_ms(name, runs)
                    if c is not None:
                        t["opencv"].append(c)
                if use_wasm:
                    w = peers.wasm_ms(name, max(3, runs // 3))
                    if w is not None:
                        t["wasm"].append(w)
        row = {"model": name}
        for k, v in t.items():
            row[k + "_ms"] = statistics.median(v) if v else None
        row["ours_over_ort"] = statistics.median(ratios) if ratios else None
        rows.append(row)
        print("  %-26s ours %s  ORT %s  OpenCV %s  wasm %s  ours/ORT %s" % (
            name, fmt(row["ours_ms"]), fmt(row["ort_ms"]), fmt(row["opencv_ms"]),
            fmt(row["wasm_ms"]), fmt(row["ours_over_ort"])), flush=True)
    return rows


def threads(names, rounds, runs):
    rows = []
    for name in names:
        one, two, speedups = [], [], []
        for _ in range(rounds):
            a = peers.ours_ms(name, runs, threads=1)
            b = peers.ours_ms(name, runs, threads=2)
            one.append(a)
            two.append(b)
            speedups.append(a / b)
        rows.append({"model": name, "one_ms": statistics.median(one),
                     "two_ms": statistics.median(two), "speedup": statistics.median(speedups)})
    return rows


def markdown(m, d, k, rows, trows, command):
    lines = ["Machine: %s, %d cores seen, features: %s; GEMM path: %s. Date: %s." % (
        m.get("cpu", "?"), m["cores"], m["features"], m["gemm_isa"], m["date"]),
        "Command: `%s`." % command, "",
        "### Dispatch (1024-op scalar chain, one thread)", "",
        "| ns per op | instructions per op (callgrind) | target |", "|---|---|---|",
        "| %s | %s | <= 250 instructions |" % (fmt(d["ns_per_op"], 1),
                                            fmt(d["instructions_per_op"], 0)), ""]
    if k:
        lines += ["### Packed GEMM per layer shape (one thread, B packed once)", "",
                  "| model | m x k x n, ISA | GFLOP/s | of the 512^3 GEMM |", "|---|---|---|---|"]
        peak = next((r["gflops"] for r in k if r["model"] == "square"), None)
        for r in k:
            lines.append("| %s | %s | %.1f | %s |" % (
                r["model"], r["shape"], r["gflops"],
                "%.0f%%" % (100 * r["gflops"] / peak) if peak else "-"))
        lines.append("")
    lines += ["### Real models (one thread, median ms of per-round medians)", "",
              "| model | ours | ONNX Runtime | OpenCV DNN | TF.js-wasm | ours / ORT |",
              "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            r["model"], fmt(r["ours_ms"]), fmt(r["ort_ms"]), fmt(r["opencv_ms"]),
            fmt(r["wasm_ms"]), fmt(r["ours_over_ort"])))
    if trows:
        lines += ["", "### Two threads against one (ours)", "",
                  "| model | 1 thread ms | 2 threads ms | speed-up | target |", "|---|---|---|---|---|"]
        for r in trows:
            lines.append("| %s | %.2f | %.2f | %.2fx | >= 1.6x |" % (
                r["model"], r["one_ms"], r["two_ms"], r["speedup"]))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description="every benchmark of docs/Performance.md")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--no-opencv", action="store_true")
    parser.add_argument("--no-wasm", action="store_true")
    parser.add_argument("--markdown", help="write the tables here")
    parser.add_argument("models", nargs="*", default=DEFAULT_MODELS)
    args = parser.parse_args()
    fetch.ensure()
    missing = [n for n in args.models
               if not os.path.exists(os.path.join(fetch.CACHE, "ours", n, "model.bef"))]
    if missing:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "run-models.py"), "--bef"]
                       + missing, check=True, stdout=subprocess.DEVNULL)
    if not peers.available():
        print("bench: no peers at %s: their columns stay empty" % peers.PEERS)
    m = machine()
    print("machine: %s (%s), GEMM %s" % (m.get("cpu"), m["features"], m["gemm_isa"]), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        d = dispatch(tmp)
    print("dispatch: %.1f ns/op, %s instructions/op" % (
        d["ns_per_op"], fmt(d["instructions_per_op"], 0)), flush=True)
    k = kernels()
    print("kernels: %d GEMM shapes" % len(k), flush=True)
    rows = models(args.models, args.rounds, args.runs, not args.no_opencv, not args.no_wasm)
    trows = threads([n for n in THREAD_MODELS if n in args.models], args.rounds, args.runs)
    text = markdown(m, d, k, rows, trows, "scripts/bench.sh " + " ".join(sys.argv[1:]))
    print()
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
