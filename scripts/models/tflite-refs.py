#!/usr/bin/env python3
"""Makes TFLite's reference outputs for the fetched .tflite models.

usage: tflite-refs.py [--xnnpack] [--runs N] [MODEL ...]

MODEL is a name in models/tflite/ of the cache (`hand_landmark_full`) or a
path to a .tflite file; default: every model of models/tflite/. fetch.py's
ensure_tflite() first fetches the models and TFLite-wasm. For each model,
tflite-reference.js writes into refs-tflite/<name>/ of the cache
(refs-tflite-xnnpack/<name>/ with --xnnpack) input_<i>.npy, output_<i>.npy
and meta.json; a folder made by the same runner and lock file (meta.json's
stamp) is kept. Prints one line per model: its outputs and run time, or why
TFLite cannot run it. Exits 0 even then: some models need MediaPipe's
custom ops."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fetch  # noqa: E402


def reference(model, xnnpack, runs):
    """Returns the reference folder of `model` (a .tflite path) and its meta."""
    name = os.path.basename(model)[:-len(".tflite")]
    out = os.path.join(fetch.CACHE, "refs-tflite-xnnpack" if xnnpack else "refs-tflite", name)
    stamp = fetch.tflite_stamp()
    try:
        with open(os.path.join(out, "meta.json")) as f:
            meta = json.load(f)
        if meta.get("stamp") == stamp and meta.get("sha256") and meta.get("model") == model:
            return out, meta
    except (OSError, ValueError):
        pass
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with fetch.staging(out) as tmp:
        # A model TFLite cannot run still leaves its meta.json (with "error").
        subprocess.run(["node", os.path.join(HERE, "tflite-reference.js"), model, tmp,
                        "--runs", str(runs), "--stamp", stamp] + (["--xnnpack"] if xnnpack else []),
                       env=fetch.tflite_node_env(), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        if not os.path.exists(os.path.join(tmp, "meta.json")):
            raise SystemExit("tflite-refs: tflite-reference.js wrote nothing for %s" % model)
    with open(os.path.join(out, "meta.json")) as f:
        return out, json.load(f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models", nargs="*")
    parser.add_argument("--xnnpack", action="store_true", help="keep TFLite's XNNPACK delegate")
    parser.add_argument("--runs", type=int, default=3, help="timed runs after the first")
    args = parser.parse_args()
    fetch.ensure_tflite()
    folder = os.path.join(fetch.CACHE, "models", "tflite")
    models = [m if m.endswith(".tflite") else os.path.join(folder, m + ".tflite")
              for m in args.models] or \
        [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith(".tflite")]
    for model in models:
        out, meta = reference(os.path.abspath(model), args.xnnpack, args.runs)
        name = os.path.basename(out)
        if "error" in meta:
            print("%-45s error: %s" % (name, meta["error"]))
            continue
        shapes = " ".join("%s%s" % (o["dtype"], o["shape"]) for o in meta["outputs"])
        print("%-45s first %8.1f ms, median %8.1f ms  -> %s" % (
            name, meta["firstRunMs"], meta.get("medianMs", float("nan")), shapes))


if __name__ == "__main__":
    main()
