#!/usr/bin/env python3
# ===- bench-arm64.py - instructions per inference on arm64, under qemu --=== #
#
# For each benchmark model, on one thread, counts the arm64 instructions
# qemu-aarch64 executes (bench/qemu-insn-count, a TCG plugin) per inference:
#   ours       build-aarch64's fallback-run-lite on the model's .bef
#   portable   the same with TFRT_FALLBACK_ISA=portable (the switch that
#              turns the fast kernel paths off; arm64 has none yet, so today
#              both run the same code)
#   XNNPACK    ../shared/peers/xnn_run.cpp built for arm64 against Debian's
#              libxnnpack0:arm64, on the graph tfjs2xnn.js writes (converted
#              natively by xnn-peer.sh); skipped for a model it cannot convert
# and the model's multiply-accumulates (bench/count_macs.py on the program
# after the pipeline) per executed instruction. Per inference, without the
# load: ours (--benchmark=1: a warm-up, a timed run and the final run)
# minus (no --benchmark: one run), halved; XNNPACK (RUNS=2: 3 warm-ups and
# 2 runs) minus (RUNS=1). The counts are deterministic to a few hundred
# instructions.
#
#   scripts/bench-arm64.py [--jobs N] [--no-portable] [--no-xnnpack]
#                          [--markdown FILE] [--json FILE] [MODEL...]
#
# scripts/bench-arm64.sh builds what it needs, then runs this (the paths
# come in BENCH_ARM64_* variables). Not a test.
# ===----------------------------------------------------------------------=== #
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "models"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import fetch  # noqa: E402  (scripts/models/fetch.py)
import peers  # noqa: E402  (scripts/models/peers.py)
import count_macs  # noqa: E402  (bench/count_macs.py)

MODELS = fetch.BENCH_MODELS
HOST_BIN = os.path.join(peers.BUILD, "bin")
PLUGIN = os.environ.get("BENCH_ARM64_PLUGIN", "")
RUNNER = os.environ.get("BENCH_ARM64_RUNNER", "")
XNN_RUN = os.environ.get("BENCH_ARM64_XNN_RUN", "")
PEERS_CACHE = os.environ.get("PEERS_CACHE", os.path.expanduser("~/.cache/tfrt-fallback-peers"))


def count(cmd, env=None, timeout=3600):
    """The plugin's counts for one qemu-aarch64 run of cmd."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        full = ["nice", "-n", "10", "qemu-aarch64", "-cpu", "max",
                "-plugin", "%s,outfile=%s" % (PLUGIN, out.name)] + cmd
        r = subprocess.run(full, capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, **(env or {})))
        if r.returncode:
            tail = (r.stderr.strip() or r.stdout.strip()).splitlines()[-3:]
            raise RuntimeError("exit %d: %s" % (r.returncode, " | ".join(tail)))
        with open(out.name) as f:
            return json.load(f)


def per_inference(a, b, n):
    """(b - a) / n for every counter."""
    return {k: (b[k] - a[k]) / n for k in a}


def ours_cmd(name, benchmark):
    ref = os.path.join(fetch.CACHE, "refs", name)
    cmd = [RUNNER, os.path.join(fetch.CACHE, "ours", name, "model.bef"), "--threads=1",
           "--print-limit=0"]
    cmd += ["--input=" + os.path.join(ref, f) for f in sorted(os.listdir(ref))
            if f.startswith("input_")]
    return cmd + (["--benchmark=%d" % benchmark] if benchmark else [])


def measure_ours(name, env=None):
    one = count(ours_cmd(name, 0), env)
    three = count(ours_cmd(name, 1), env)
    return per_inference(one, three, 2)


def measure_xnn(graph):
    four = count([XNN_RUN, graph, graph, "1", "1"])
    five = count([XNN_RUN, graph, graph, "1", "2"])
    return per_inference(four, five, 1)


def xnn_graph(name):
    """The model's XNNPACK graph folder, converted natively by xnn-peer.sh
    (which also runs it once natively), or (None, why not)."""
    model = peers.model_path(name)
    graph = os.path.join(PEERS_CACHE, "xnn", "%s_%s" % (
        os.path.basename(os.path.dirname(model)), os.path.splitext(os.path.basename(model))[0]))
    r = subprocess.run([os.path.join(peers.PEERS, "xnn-peer.sh"), model, "1", "1"],
                       capture_output=True, text=True, timeout=900)
    if r.returncode == 0 and os.path.exists(os.path.join(graph, "graph.txt")):
        return graph, None
    lines = [l.strip() for l in r.stderr.splitlines() if l.strip()]
    why = next((l for l in lines if l.startswith("FAIL")),
               lines[-1] if lines else "exit %d" % r.returncode)
    return None, why.replace("FAIL ", "").replace(model + " ", "")


def macs_of(name, tmp):
    """MACs per inference of the model's program after the pipeline."""
    opt = os.path.join(tmp, name + ".opt.mlir")
    subprocess.run([os.path.join(HOST_BIN, "fallback-opt"), "--tfrt-fallback-pipeline",
                    os.path.join(fetch.CACHE, "ours", name, "model.mlir"), "-o", opt],
                   check=True, capture_output=True)
    total, _, unknown = count_macs.count(opt)
    if unknown:
        print("  %s: MACs of %s not counted (unranked types)" % (name, ", ".join(sorted(unknown))))
    return total


def millions(v, digits=1):
    return "-" if v is None else "{:,.{}f}".format(v / 1e6, digits)


def ratio(a, b, digits=2):
    return "-" if a is None or not b else "%.*f" % (digits, a / b)


def markdown(rows, info):
    lines = ["qemu-aarch64 %s -cpu max, one thread; %s; XNNPACK %s (Debian, arm64). "
             "Instructions per inference (load excluded), millions." % (
                 info["qemu"], info["commit"], info["xnnpack"]), "",
             "| model | MACs (M) | ours | ours portable | XNNPACK | MACs/instr ours | "
             "MACs/instr XNNPACK | ours / XNNPACK | FMLA share ours / XNNPACK |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        ours, port, xnn = r.get("ours"), r.get("portable"), r.get("xnnpack")
        oi = ours["insns"] if ours else None
        pi = port["insns"] if port else None
        xi = xnn["insns"] if xnn else None
        share = "%s / %s" % (
            "%.0f%%" % (100 * ours["simd_fma"] / oi) if ours else "-",
            "%.0f%%" % (100 * xnn["simd_fma"] / xi) if xnn else "-")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["model"], millions(r["macs"], 0), millions(oi), millions(pi),
            millions(xi),
            ratio(r["macs"], oi), ratio(r["macs"], xi), ratio(oi, xi), share))
    notes = [r for r in rows if r.get("xnnpack_error") or r.get("errors")]
    if notes:
        lines.append("")
        for r in notes:
            if r.get("xnnpack_error"):
                lines.append("- %s, XNNPACK: %s" % (r["model"], r["xnnpack_error"]))
            for e in r.get("errors", []):
                lines.append("- %s: %s" % (r["model"], e))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description="instructions per inference on arm64 (qemu)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="qemu runs at once (default: the cores)")
    parser.add_argument("--no-portable", action="store_true")
    parser.add_argument("--no-xnnpack", action="store_true")
    parser.add_argument("--markdown", help="write the table here")
    parser.add_argument("--json", help="write the counts here")
    parser.add_argument("models", nargs="*", default=MODELS)
    args = parser.parse_args()
    for what, path in (("plugin", PLUGIN), ("runner", RUNNER)):
        if not os.path.exists(path):
            sys.exit("bench-arm64: no %s at '%s' (run scripts/bench-arm64.sh)" % (what, path))
    use_xnn = not args.no_xnnpack and os.path.exists(XNN_RUN) and peers.available()
    start = time.time()
    fetch.ensure()
    missing = [n for n in args.models
               if not os.path.exists(os.path.join(fetch.CACHE, "ours", n, "model.bef"))]
    if missing:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "run-models.py"), "--bef"]
                       + missing, check=True, stdout=subprocess.DEVNULL)
    rows = {n: {"model": n, "errors": []} for n in args.models}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.models:
            rows[n]["macs"] = macs_of(n, tmp)
    tasks = []
    for n in args.models:
        tasks.append((n, "ours", measure_ours, (n,)))
        if not args.no_portable:
            tasks.append((n, "portable", measure_ours, (n, {"TFRT_FALLBACK_ISA": "portable"})))
        if use_xnn:
            graph, why = xnn_graph(n)
            if graph:
                tasks.append((n, "xnnpack", measure_xnn, (graph,)))
            else:
                rows[n]["xnnpack_error"] = "not converted (" + why + ")"
    # The longest first, so the last runs finish together.
    tasks.sort(key=lambda t: -rows[t[0]]["macs"])
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(fn, *a): (n, col) for n, col, fn, a in tasks}
        for f in concurrent.futures.as_completed(futures):
            n, col = futures[f]
            try:
                rows[n][col] = f.result()
                print("  %-24s %-9s %s M instructions per inference (%.0f s in)" % (
                    n, col, millions(rows[n][col]["insns"]), time.time() - start), flush=True)
            except (RuntimeError, subprocess.SubprocessError, OSError, ValueError) as e:
                err = "%s failed: %s" % (col, str(e)[:300])
                if col == "xnnpack":
                    rows[n]["xnnpack_error"] = err
                else:
                    rows[n]["errors"].append(err)
                print("  %-24s %s" % (n, err), flush=True)
    qemu = subprocess.run(["qemu-aarch64", "--version"], capture_output=True,
                          text=True).stdout.split()[2]
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "?"
    info = {"qemu": qemu, "commit": "commit " + commit,
            "xnnpack": os.environ.get("BENCH_ARM64_XNNPACK_VERSION", "?"),
            "seconds": round(time.time() - start)}
    ordered = [rows[n] for n in args.models]
    text = markdown(ordered, info)
    print()
    print(text)
    print("bench-arm64: %d s" % info["seconds"])
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"info": info, "models": ordered}, f, indent=1)
    return 1 if any(r["errors"] for r in ordered) else 0


if __name__ == "__main__":
    sys.exit(main())
