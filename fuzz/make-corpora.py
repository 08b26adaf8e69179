#!/usr/bin/env python3
#===- make-corpora.py - seed corpora of the compiler fuzzers -------------===#
#
# Writes the seed corpora of the compiler-side fuzz targets from the lit
# suite's inputs (fuzz/corpus/<target>/, committed; run again when the
# tests change):
#   mlir-pipeline-fuzzer    each case (split on `// -----`) of the lit
#                           tests' TF and tfrt_fallback programs that fits
#                           MAX_MLIR bytes and has no expected error
#   graphdef-import-fuzzer  the lit tests' GraphDefs, as text (first byte 1)
#                           and as binary (first byte 0, encoded with protoc
#                           and lib/Import/graph.proto)
#   tfjs-import-fuzzer      the lit tests' TF.js models and the model.json of
#                           the smallest real models (scripts/models, if
#                           fetched), without their weights
#   tflite-import-fuzzer    the lit tests' .tflite models (the JSON cases of
#                           test/Import/tflite-*.test, written with
#                           test/Import/Inputs/tflite-from-json.py) and the
#                           smallest real MediaPipe model (hand_recrop,
#                           `scripts/models/fetch.py --tflite`, if fetched)
# Usage: fuzz/make-corpora.py [--models-cache DIR]
#===----------------------------------------------------------------------===#

import argparse
import glob
import hashlib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_MLIR = 6000
MAX_CASES = 160


def write(target, data):
    out = os.path.join(ROOT, "fuzz", "corpus", target)
    os.makedirs(out, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def mlir_cases():
    files = sorted(glob.glob(os.path.join(ROOT, "test", "*", "*.mlir")))
    cases = []
    for path in files:
        text = open(path).read()
        for case in re.split(r"^// -----$", text, flags=re.M):
            if "expected-error" in case or "expected-warning" in case:
                continue
            body = "\n".join(l for l in case.splitlines()
                             if not l.lstrip().startswith("//"))
            body = body.strip() + "\n"
            if "func.func" not in body or len(body) > MAX_MLIR:
                continue
            cases.append(body)
    # Spread over the suite rather than the first files.
    step = max(1, len(cases) // MAX_CASES)
    return cases[::step][:MAX_CASES]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models-cache", default=os.environ.get(
        "TFRT_FALLBACK_MODELS_CACHE",
        os.path.expanduser("~/.cache/tfrt-fallback-models")))
    args = parser.parse_args()

    for case in mlir_cases():
        write("mlir-pipeline-fuzzer", case.encode())

    proto = os.path.join(ROOT, "lib", "Import")
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "Import", "Inputs", "*.pbtxt"))):
        text = open(path, "rb").read()
        write("graphdef-import-fuzzer", b"\x01" + text)
        binary = subprocess.run(
            ["protoc", "--proto_path=" + proto,
             "--encode=tfrt_fallback.graphdef.GraphDef", "graph.proto"],
            input=text, capture_output=True, check=True).stdout
        write("graphdef-import-fuzzer", b"\x00" + binary)

    for path in sorted(glob.glob(os.path.join(ROOT, "test", "Import", "Inputs", "*", "model.json"))):
        write("tfjs-import-fuzzer", open(path, "rb").read())
    # A model whose weights follow its JSON after a NUL byte (the target's
    # input format): w = [1.5, -2] (float32), y = x + w.
    weighted = (b'{"format": "graph-model", "modelTopology": {"node": ['
                b'{"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"},'
                b' "shape": {"shape": {"dim": [{"size": "2"}]}}}},'
                b'{"name": "w", "op": "Const", "attr": {"dtype": {"type": "DT_FLOAT"}, "value": {}}},'
                b'{"name": "y", "op": "AddV2", "input": ["x", "w"], "attr": {"T": {"type": "DT_FLOAT"}}}]},'
                b' "weightsManifest": [{"paths": ["group1-shard1of1.bin"],'
                b' "weights": [{"name": "w", "dtype": "float32", "shape": [2]}]}]}')
    write("tfjs-import-fuzzer", weighted + b"\0" + bytes.fromhex("0000c03f000000c0"))
    for name in ["antispoof", "liveness", "emotion"]:
        path = os.path.join(args.models_cache, "models", "human", name + ".json")
        if os.path.exists(path):
            write("tfjs-import-fuzzer", open(path, "rb").read())

    tflite_json = os.path.join(ROOT, "test", "Import", "Inputs", "tflite-from-json.py")
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "Import", "tflite-*.test"))):
        text = open(path).read()
        for name, body in re.findall(r"^//--- (\S+\.json)\n(.*?)(?=^//--- |\Z)", text,
                                     flags=re.M | re.S):
            with tempfile.TemporaryDirectory() as tmp:
                source = os.path.join(tmp, name)
                with open(source, "w") as f:
                    f.write(body)
                out = os.path.join(tmp, "model.tflite")
                subprocess.run([sys.executable, tflite_json, source, out], check=True)
                if os.path.exists(out):
                    write("tflite-import-fuzzer", open(out, "rb").read())
    path = os.path.join(args.models_cache, "models", "tflite", "hand_recrop.tflite")
    if os.path.exists(path):
        write("tflite-import-fuzzer", open(path, "rb").read())


if __name__ == "__main__":
    main()
