# ===- peers.py - time the runtimes a user would pick instead ------------=== #
#
# One-thread median latencies of a real model (by the names run-models.py
# uses) in our runtime and in the peers of ../shared/peers: ONNX Runtime
# (ort-peer.sh), OpenCV DNN (opencv-peer.sh, on the --unfuse GraphDef) and
# TF.js-wasm (wasm-latency.js, on our reference's inputs). Every function
# returns milliseconds, or None when that runtime cannot run the model. Used by scripts/run-models.py
# --peers and scripts/bench.py; the product's tests never need the peers.
# ===----------------------------------------------------------------------=== #
import json
import os
import subprocess

import fetch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEERS = os.environ.get("PEERS", os.path.join(os.path.dirname(ROOT), "shared", "peers"))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
CACHE = fetch.CACHE


def available():
    return os.path.exists(os.path.join(PEERS, "ort-peer.sh"))


def model_path(name):
    if name == "nsfwjs_mobilenet_v2_mid":
        return os.path.join(CACHE, "models", name, "model.json")
    return os.path.join(CACHE, "models", "human", name + ".json")


def _last_json(stdout):
    return json.loads(stdout.strip().splitlines()[-1])


def ours_ms(name, runs, threads=1):
    """fallback-run-lite on the model's .bef (run-models.py --bef writes it)
    with the reference inputs."""
    bef = os.path.join(CACHE, "ours", name, "model.bef")
    ref = os.path.join(CACHE, "refs", name)
    inputs = sorted(f for f in os.listdir(ref) if f.startswith("input_"))
    cmd = [os.path.join(BUILD, "bin", "fallback-run-lite"), bef,
           "--threads=%d" % threads, "--print-limit=0", "--benchmark=%d" % runs]
    cmd += ["--input=" + os.path.join(ref, f) for f in inputs]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("benchmark:"):
            return float(line.split("median ")[1].split(" ms")[0])
    raise RuntimeError("no benchmark line from " + " ".join(cmd))


def ort_ms(name, runs):
    try:
        r = subprocess.run([os.path.join(PEERS, "ort-peer.sh"), model_path(name), "1", str(runs)],
                           check=True, capture_output=True, text=True, timeout=900)
        return float(_last_json(r.stdout)["medianMs"])
    except (subprocess.SubprocessError, ValueError, IndexError, KeyError, OSError):
        return None


def _peers_cache():
    """The peers' cache (../shared/peers/setup.sh prints it last): TF.js
    with the wasm backend, under node_modules."""
    r = subprocess.run([os.path.join(PEERS, "setup.sh")], check=True,
                       capture_output=True, text=True, timeout=900)
    return r.stdout.strip().splitlines()[-1]


def wasm_ms(name, runs):
    """TF.js-wasm (XNNPACK, one thread) fed our reference's inputs
    ($CACHE/refs/<name>/input_*.npy) by scripts/models/wasm-latency.js, so it
    computes what fallback-run computes (reference.sh feeds its own pattern,
    which differs where our reference takes a model's own values, as rvm's
    downsample_ratio, or dtype)."""
    try:
        env = dict(os.environ)
        env["NODE_PATH"] = os.path.join(_peers_cache(), "node_modules")
        r = subprocess.run(["node", os.path.join(ROOT, "scripts", "models", "wasm-latency.js"),
                            model_path(name), os.path.join(CACHE, "refs", name), str(runs)],
                           check=True, capture_output=True, text=True, timeout=900, env=env)
        return float(_last_json(r.stdout)["medianMs"])
    except (subprocess.SubprocessError, ValueError, IndexError, KeyError, OSError):
        return None


def opencv_ms(name, runs):
    pb = os.path.join(CACHE, "peers", "graphdefs", name + ".unfused.pb")
    try:
        if not os.path.exists(pb):
            os.makedirs(os.path.dirname(pb), exist_ok=True)
            subprocess.run([os.path.join(PEERS, "to-graphdef.sh"), model_path(name), pb, "--unfuse"],
                           check=True, capture_output=True, timeout=900)
        with open(os.path.join(CACHE, "refs", name, "meta.cpu.json")) as f:
            shape = json.load(f)["inputs"][0]["shape"]
        if len(shape) != 4:
            return None
        r = subprocess.run([os.path.join(PEERS, "opencv-peer.sh"), pb, str(shape[1]), str(shape[2]),
                            str(shape[3]), "1", str(runs)],
                           check=True, capture_output=True, text=True, timeout=900)
        return float(_last_json(r.stdout)["medianMs"])
    except (subprocess.SubprocessError, ValueError, IndexError, KeyError, OSError):
        return None
