#!/usr/bin/env python3
# ===- bench-peers.py - our runtime against ONNX Runtime, interleaved -----=== #
#
# Times real models in our runtime (fallback-run-lite on the .bef that
# `run-models.py --bef` writes) and in ONNX Runtime (the peer scripts of
# ../shared/peers, when present), one thread each, alternating the two in
# ROUNDS rounds so that both see the same machine load; prints per model the
# median of the per-round medians and the median of the per-round ratios
# (ours / ORT, < 1 is faster). The machine is noisy: compare ratios from one
# run, not milliseconds across runs.
#
#   scripts/bench-peers.py [--rounds 5] [--runs 20] [MODEL...]
#
# Needs the models' .bef (BUILD_DIR/bin/fallback-translate via run-models.py
# --bef; this script makes them when missing) and the ONNX Runtime peer
# (PEERS, default ../shared/peers next to the checkout). Not a test: the
# product never needs the peers.
# ===----------------------------------------------------------------------=== #
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
CACHE = os.environ.get("TFRT_FALLBACK_MODELS_CACHE",
                       os.path.expanduser("~/.cache/tfrt-fallback-models"))
PEERS = os.environ.get("PEERS",
                       os.path.join(os.path.dirname(ROOT), "shared", "peers"))
DEFAULT_MODELS = ["nsfwjs_mobilenet_v2_mid", "handlandmark-lite",
                  "handlandmark-full", "blazeface", "posenet",
                  "movenet-lightning", "centernet", "facemesh", "selfie",
                  "mobilefacenet"]


def model_json(name):
    if name == "nsfwjs_mobilenet_v2_mid":
        return os.path.join(CACHE, "models", name, "model.json")
    return os.path.join(CACHE, "models", "human", name + ".json")


def ours(name, runs):
    bef = os.path.join(CACHE, "ours", name, "model.bef")
    ref = os.path.join(CACHE, "refs", name)
    inputs = sorted(f for f in os.listdir(ref) if f.startswith("input_"))
    cmd = [os.path.join(BUILD, "bin", "fallback-run-lite"), bef, "--threads=1",
           "--print-limit=0", "--benchmark=%d" % runs]
    cmd += ["--input=" + os.path.join(ref, f) for f in inputs]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("benchmark:"):
            return float(line.split("median ")[1].split(" ms")[0])
    raise RuntimeError("no benchmark line from " + " ".join(cmd))


def ort(name, runs):
    out = subprocess.run(
        [os.path.join(PEERS, "ort-peer.sh"), model_json(name), "1", str(runs)],
        check=True, capture_output=True, text=True).stdout
    return float(json.loads(out.strip().splitlines()[-1])["medianMs"])


def main():
    parser = argparse.ArgumentParser(description="our runtime against ONNX Runtime")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("models", nargs="*", default=DEFAULT_MODELS)
    args = parser.parse_args()
    if not os.path.exists(os.path.join(PEERS, "ort-peer.sh")):
        sys.exit("bench-peers: no ONNX Runtime peer at %s (set PEERS)" % PEERS)
    missing = [m for m in args.models
               if not os.path.exists(os.path.join(CACHE, "ours", m, "model.bef"))]
    if missing:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts",
                                                     "run-models.py"), "--bef"]
                       + missing, check=True)
    print("%-26s %10s %10s %8s" % ("model", "ours ms", "ORT ms", "ours/ORT"))
    for name in args.models:
        times = {"ours": [], "ort": []}
        ratios = []
        for _ in range(args.rounds):
            a = ours(name, args.runs)
            b = ort(name, args.runs)
            times["ours"].append(a)
            times["ort"].append(b)
            ratios.append(a / b)
        print("%-26s %10.2f %10.2f %8.2f" % (
            name, statistics.median(times["ours"]),
            statistics.median(times["ort"]), statistics.median(ratios)),
            flush=True)


if __name__ == "__main__":
    main()
