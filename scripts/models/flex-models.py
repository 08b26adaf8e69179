#!/usr/bin/env python3
"""Runs MediaPipe's .tflite models rewritten with Flex (Select TF) ops.

usage: flex-models.py [MODEL ...] [--all] [--fold-f16] [--minimal-attrs]
                      [--ops ADD,...] [--tflite-refuses] [--jobs N]

MODEL is a name in models/tflite/ of the cache (fetch.py --tflite); default:
hand_landmark_lite face_detection_short_range selfie_segmentation
palm_detection_lite; --all takes every model there. For each model,
tflite-to-flex.py writes models/tflite-flex/<name>.tflite with every
operator it can rewrite turned into a Flex op, again whenever the writer,
the schema, the model or the options change (<name>.stamp). --fold-f16,
--minimal-attrs and --ops are the writer's options; they write
<name>.fold-f16.tflite, <name>.minimal-attrs.tflite, <name>.ops-<hash>.tflite.

fallback-run runs the Flex model on the reference input and its outputs
are compared, |a - b| <= 1e-4 + 1e-3 |b|, with
  - TFLite's outputs for the original model (refs-tflite/<name>,
    tflite-refs.py); when they miss those and so do the original model's
    outputs from fallback-run (the pose models' float32 sensitivity, which
    run-models.py judges with a float64 oracle), with the latter instead;
  - for a model TFLite cannot run (selfie_segmentation: MediaPipe's custom
    op), the original model's outputs from fallback-run, on an input made as
    tflite-reference.js makes them.
A model whose original fails in fallback-run too (custom ops without a
kernel) is skipped.

Prints one line per model: Flex operators of all operators, the max error
and against what, the operators kept, or the error. --tflite-refuses also
runs TFLite (wasm, no Flex delegate) on each Flex model, which must refuse
it, and prints its error. Exits 1 on any mismatch or failure. BUILD_DIR
names the build (default: build/). Standard library only; the writer runs
with Debian's /usr/bin/python3 (NumPy, python3-flatbuffers). Four models
take about 8 s when their Flex files are stale, 1 s when not."""
import argparse
import concurrent.futures
import hashlib
import importlib
import importlib.util
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BIN = os.path.join(os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), "bin")
WRITER = os.path.join(HERE, "tflite-to-flex.py")
sys.path.insert(0, HERE)
import fetch  # noqa: E402  (scripts/models/fetch.py)
tflite_refs = importlib.import_module("tflite-refs")  # scripts/models/tflite-refs.py
tflite_inspect = importlib.import_module("tflite-inspect")
_spec = importlib.util.spec_from_file_location(
    "compare_npy", os.path.join(ROOT, "scripts", "compare-npy.py"))
compare_npy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_npy)

CACHE = fetch.CACHE
DEFAULT = ["hand_landmark_lite", "face_detection_short_range", "selfie_segmentation",
           "palm_detection_lite"]
ATOL, RTOL = 1e-4, 1e-3
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
NPY_DTYPES = {"float32": ("<f4", "f"), "int32": ("<i4", "i"), "int64": ("<i8", "q"),
              "uint8": ("|u1", "B"), "int8": ("|i1", "b"), "bool": ("|b1", "B")}


def sha(path):
    return fetch.file_sha(path, "sha256").hexdigest()


def variant(args):
    """The file name suffix and writer options of the command line's variant."""
    suffix, options = "", []
    if args.fold_f16:
        suffix, options = suffix + ".fold-f16", options + ["--fold-f16"]
    if args.minimal_attrs:
        suffix, options = suffix + ".minimal-attrs", options + ["--minimal-attrs"]
    if args.ops:
        ops = ",".join(sorted(o.strip().upper() for o in args.ops.split(",") if o.strip()))
        suffix += ".ops-" + hashlib.sha256(ops.encode()).hexdigest()[:8]
        options += ["--ops", ops]
    return suffix, options


def flex_model(name, args):
    """The Flex version of `name`, written again when it is stale."""
    source = os.path.join(CACHE, "models", "tflite", name + ".tflite")
    folder = os.path.join(CACHE, "models", "tflite-flex")
    suffix, options = variant(args)
    stamp = {"writer": sha(WRITER), "schema": sha(os.path.join(
        ROOT, "lib", "Import", "TFLite", "tflite.fbs")), "model": sha(source), "options": options}

    def write(tmp):
        r = subprocess.run([PYTHON, WRITER, source, tmp, "--quiet"] + options,
                           capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError("tflite-to-flex.py failed: " + r.stderr.strip()[-300:])
    return fetch.remade(os.path.join(folder, name + suffix + ".tflite"), stamp, write)


def write_npy(path, dtype, shape, values):
    descr, code = NPY_DTYPES[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d," % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), code), *values))


def made_inputs(model, folder):
    """Inputs made as tflite-reference.js makes them: element i of each
    input from u = uint32(i * 1103515245 + 12345), v = (u >> 8) / 2^24."""
    paths = []
    for k, spec in enumerate(tflite_inspect.inspect(model)["subgraphs"][0]["inputs"]):
        dtype, shape = spec["dtype"], spec["shape"]
        count = 1
        for d in shape:
            count *= d
        v = [((i * 1103515245 + 12345) & 0xFFFFFFFF) >> 8 for i in range(count)]
        if dtype == "float32":
            values = [x / 16777216.0 for x in v]
        elif dtype == "bool":
            values = [x >= 8388608 for x in v]
        elif dtype == "int8":
            values = [(x >> 16) - 128 for x in v]
        elif dtype in NPY_DTYPES:
            values = [x >> 16 for x in v]
        else:
            raise RuntimeError("cannot make an input of dtype " + dtype)
        path = os.path.join(folder, "input_%d.npy" % k)
        write_npy(path, dtype, shape, values)
        paths.append(path)
    return paths


def run(program, inputs, out_dir):
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    r = subprocess.run([os.path.join(BIN, "fallback-run"), program, "--output-dir=" + out_dir,
                        "--threads=1", "--print-limit=0"] + ["--input=" + i for i in inputs],
                       capture_output=True, text=True)
    if r.returncode:
        lines = r.stderr.strip().splitlines() or ["exit code %d" % r.returncode]
        err = [l for l in lines if "error" in l] or lines
        raise RuntimeError("fallback-run: " + err[0][:400])
    return sorted((f for f in os.listdir(out_dir) if f.startswith("output_")),
                  key=lambda f: int(f[len("output_"):-len(".npy")]))


def compare(actual, expected):
    """(max |a - b|, elements out of tolerance, shape mismatch text)."""
    shape_a, a = compare_npy.read_npy(actual)
    shape_b, b = compare_npy.read_npy(expected)
    if shape_a != shape_b:
        return math.inf, 0, "shape %s, expected %s" % (shape_a, shape_b)
    worst, bad = 0.0, 0
    for x, y in zip(a, b):
        if math.isnan(x) or math.isnan(y):
            if not (math.isnan(x) and math.isnan(y)):
                bad += 1
            continue
        err = abs(x - y)
        worst = max(worst, err)
        if err > ATOL + RTOL * abs(y):
            bad += 1
    return worst, bad, None


def outputs_error(produced, expected):
    """(max error, problems) of output files against expected ones."""
    if len(produced) != len(expected):
        return math.inf, ["%d outputs, expected %d" % (len(produced), len(expected))]
    worst, problems = 0.0, []
    for k, (actual, path) in enumerate(zip(produced, expected)):
        err, bad, shape = compare(actual, path)
        worst = max(worst, err)
        if shape:
            problems.append("output %d: %s" % (k, shape))
        elif bad:
            problems.append("output %d: %d elements out of tolerance" % (k, bad))
    return worst, problems


def tflite_refuses(flex):
    """TFLite's error for the Flex model, or None when it runs it."""
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["node", os.path.join(HERE, "tflite-reference.js"), flex, tmp,
                            "--runs", "1"], env=fetch.tflite_node_env(),
                           capture_output=True, text=True)
        if r.returncode == 0:
            return None
        try:
            with open(os.path.join(tmp, "meta.json")) as f:
                return json.load(f)["error"]
        except (OSError, ValueError, KeyError):
            lines = [l for l in r.stderr.strip().splitlines() if l.strip()] or ["exit code %d" % r.returncode]
            return lines[0].strip().replace("tflite-reference.js: %s: " % flex, "")


def check(name, args):
    row = {"model": name}
    try:
        source = os.path.join(CACHE, "models", "tflite", name + ".tflite")
        flex = flex_model(name, args)
        counts = {}
        for sg in tflite_inspect.inspect(flex)["subgraphs"]:
            for op, n in sg["op_counts"].items():
                counts[op] = counts.get(op, 0) + n
        row["flex"] = sum(n for op, n in counts.items() if op.startswith("CUSTOM:Flex"))
        row["total"] = sum(counts.values())
        row["kept"] = sorted(op for op in counts if not op.startswith("CUSTOM:Flex"))
        tag = name + variant(args)[0]
        work = os.path.join(CACHE, "ours", "flex", tag)
        os.makedirs(work, exist_ok=True)
        ref_dir, meta = tflite_refs.reference(source, False, 1)
        orig_dir = os.path.join(work, "original")
        if "error" not in meta:
            inputs = [os.path.join(ref_dir, "input_%d.npy" % i) for i in range(len(meta["inputs"]))]
            expected = [os.path.join(ref_dir, "output_%d.npy" % k)
                        for k in range(len(meta["outputs"]))]
            row["against"] = "TFLite"
        else:
            inputs = made_inputs(source, work)
            expected = None
            row["against"] = "the original model (TFLite cannot run it)"
        out_dir = os.path.join(work, "out")
        try:
            produced = [os.path.join(out_dir, f) for f in run(flex, inputs, out_dir)]
        except RuntimeError as e:
            try:
                run(source, inputs, orig_dir)
            except RuntimeError as e2:
                row["status"] = "skipped: the original model fails too (%s)" % e2
                return row
            raise e
        if expected is None:
            expected = [os.path.join(orig_dir, f) for f in run(source, inputs, orig_dir)]
        worst, problems = outputs_error(produced, expected)
        row["max_err"] = worst
        if problems and row["against"] == "TFLite":
            # The original model's outputs from fallback-run: when they miss
            # TFLite's too (float32 sensitivity, judged in run-models.py by a
            # float64 oracle), the Flex model must match them instead.
            original = [os.path.join(orig_dir, f) for f in run(source, inputs, orig_dir)]
            orig_worst, orig_problems = outputs_error(original, expected)
            flex_worst, flex_problems = outputs_error(produced, original)
            if orig_problems and not flex_problems:
                row["max_err"] = flex_worst
                row["against"] = ("the original model (which misses TFLite's outputs by "
                                  "%.3g, as the Flex model by %.3g)" % (orig_worst, worst))
                problems = []
        row["status"] = "match" if not problems else "MISMATCH: " + "; ".join(problems)
        if args.tflite_refuses:
            error = tflite_refuses(flex)
            row["tflite"] = error
            if error is None:
                row["status"] = "FAIL: TFLite runs the Flex model"
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        row["status"] = "error: %s" % e
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="*")
    parser.add_argument("--all", action="store_true", help="every model of models/tflite/")
    parser.add_argument("--fold-f16", action="store_true",
                        help="fold float16 weights to float32 constants first")
    parser.add_argument("--minimal-attrs", action="store_true",
                        help="NodeDefs without the attributes that have their default")
    parser.add_argument("--ops", help="only these builtins become Flex ops (tflite-to-flex.py --ops)")
    parser.add_argument("--tflite-refuses", action="store_true",
                        help="check that TFLite (no Flex delegate) refuses each Flex model")
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    args = parser.parse_args()
    fetch.ensure_tflite()
    names = list(args.models)
    if args.all:
        folder = os.path.join(CACHE, "models", "tflite")
        names += [f[:-len(".tflite")] for f in sorted(os.listdir(folder))
                  if f.endswith(".tflite") and f[:-len(".tflite")] not in names]
    names = names or DEFAULT
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda n: check(n, args), names))
    ok = True
    for row in rows:
        line = "%-38s" % (row["model"] + variant(args)[0])
        if "flex" in row:
            line += " %3d/%-3d Flex" % (row["flex"], row["total"])
        if "max_err" in row:
            line += "  max |a-b| %.3g vs %s" % (row["max_err"], row["against"])
        line += "  " + row["status"]
        if row.get("kept"):
            line += "  (kept: %s)" % ", ".join(row["kept"])
        if row.get("tflite"):
            line += "\n    TFLite refuses it: " + row["tflite"][:300]
        print(line)
        ok = ok and (row["status"] == "match" or row["status"].startswith("skipped"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
