#!/usr/bin/env python3
"""Real models in half precision: each model's TF-dialect program with every
f32 tensor made f16 (types, type attributes and weights), compiled, run and
compared with TF.js's f32 outputs within what f16 keeps.

usage: f16-twins.py [MODEL ...] [--runner CMD] [--out-tag TAG]
                    [--instructions PLUGIN]

MODEL is a benchmark model run-models.py has imported (its
$CACHE/ours/<name>/model.mlir; default: nsfwjs_mobilenet_v2_mid blazeface
handlandmark-lite posenet; not selfie, whose reference mask is all below
f16's smallest subnormal). For each, this writes $CACHE/f16/<name>/:

- model.mlir: the program with `f32` element types and type attributes
  (T = f32, dtype = f32) made f16, and the weights converted: inline dense
  constants reparsed as f16 by the MLIR parser, dense_resource blobs (raw
  little-endian f32 after a 4-byte alignment word) rewritten as f16 here
  with NumPy's round-to-nearest-even. Float attributes that are not types
  (epsilon, alpha) stay f32, as TF's op definitions have them, and so do
  the outputs TF's OpDefs fix to float (ResizeBilinear's), followed by a
  Cast to f16.
- model.bef (fallback-translate --mlir-to-bef), and the TF.js reference
  inputs as f16 .npy files.

The program runs with fallback-run, or --runner (the arm64 phase: qemu and
fallback-run-lite, where f16 computes in f16 on the FP16 path). An output
passes when |a - b| <= 0.08 * max|b| + 1e-3 against TF.js and, for a
classifier's single vector of probabilities, the same top class. f16 keeps
11 bits, and the sums of the FP16 path round at every multiply-add: the
worst element of the dozens of layers' outputs lands 0.2-5% of the range
away (posenet's offsets, handlandmark's coordinates), so the bound catches
a wrong kernel (off by the whole range), not the last percent. With --instructions PLUGIN (insn_count.so) the runner
is run under that qemu plugin twice (one run; --benchmark=1, three runs)
and the instructions per inference are printed. Exits 1 on a mismatch."""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BIN = os.path.join(os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), "bin")
sys.path.insert(0, HERE)
import fetch  # noqa: E402

DEFAULT = ["nsfwjs_mobilenet_v2_mid", "blazeface", "handlandmark-lite", "posenet"]
RTOL_OF_RANGE, ATOL = 0.08, 1e-3

RESOURCE_USE = re.compile(r"dense_resource<([^>]+)>\s*:\s*tensor<([^>]*)>")
RESOURCE_BLOB = re.compile(r'^(\s*)([A-Za-z0-9_.$-]+): "0x([0-9A-Fa-f]*)"', re.M)
INLINE_HEX = re.compile(r'dense<"0x([0-9A-Fa-f]*)">\s*:\s*tensor<([^>]*)>')


def to_f16(text):
    """The program with f32 tensors, type attributes and weights in f16."""
    f32_blobs = {name for name, ty in RESOURCE_USE.findall(text)
                 if ty.endswith("f32")}

    def blob(m):
        if m.group(2) not in f32_blobs:
            return m.group(0)
        raw = bytes.fromhex(m.group(3))
        data = np.frombuffer(raw[4:], dtype="<f4").astype("<f2")
        return '%s%s: "0x%s%s"' % (m.group(1), m.group(2), raw[:4].hex().upper(),
                                    data.tobytes().hex().upper())

    def inline_hex(m):
        if not m.group(2).endswith("f32"):
            return m.group(0)
        data = np.frombuffer(bytes.fromhex(m.group(1)), dtype="<f4").astype("<f2")
        return 'dense<"0x%s"> : tensor<%sf16>' % (data.tobytes().hex().upper(),
                                                  m.group(2)[:-3])

    text = RESOURCE_BLOB.sub(blob, text)
    text = INLINE_HEX.sub(inline_hex, text)
    # Element types (tensor<1x2xf32>, tensor<f32>, tensor<*xf32>) and type
    # attributes (T = f32, dtype = f32, Tout = [f32, ...]), not the `: f32`
    # of float attributes.
    text = re.sub(r"(tensor<(?:[^<>]*x)?)f32>", r"\1f16>", text)
    text = re.sub(r"(= \[?(?:[a-z0-9]+, )*)f32\b", r"\1f16", text)
    text = re.sub(r"(, )f32(?=[\],])", r"\1f16", text)

    # Ops whose OpDef fixes an f32 output for any T: it stays f32 and a
    # Cast makes it f16 for the ops that read it.
    def fixed_f32(m):
        indent, name, op, rest, shape = m.groups()
        wide = "%%f32_%s" % re.sub(r"\W", "_", name)
        return ('%s%s = "tf.%s"%s -> %sf32>\n'
                '%s%%%s = "tf.Cast"(%s) {DstT = f16, SrcT = f32, Truncate = false}'
                ' : (%sf32>) -> %sf16>' % (indent, wide, op, rest, shape,
                                           indent, name, wide, shape, shape))

    text = re.sub(r'^(\s*)%(\S+) = "tf\.(ResizeBilinear|ResizeBicubic)"(.*) -> '
                  r'(tensor<[^<>]*)f16>$', fixed_f32, text, flags=re.M)
    return text


def run(runner, program, inputs, out_dir, extra=(), plugin=None, counts=None):
    os.makedirs(out_dir, exist_ok=True)
    cmd = list(runner)
    if plugin:
        cmd = cmd[:1] + ["-plugin", "%s,outfile=%s" % (plugin, counts)] + cmd[1:]
    cmd += [program, "--threads=1", "--print-limit=0", "--output-dir=" + out_dir]
    cmd += ["--input=" + i for i in inputs] + list(extra)
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode:
        lines = result.stderr.strip().splitlines() or ["exit %d" % result.returncode]
        raise RuntimeError(lines[-1])


def outputs(out_dir):
    files = [f for f in os.listdir(out_dir) if re.match(r"output_\d+\.npy$", f)]
    return [np.load(os.path.join(out_dir, f)) for f in
            sorted(files, key=lambda f: int(f.split("_")[1].split(".")[0]))]


def compare(ours, ref):
    """(ok, max |error| / max |ref|)."""
    ours, ref = ours.astype(np.float64), ref.astype(np.float64)
    if ours.shape != ref.shape:
        return False, float("inf")
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    err = float(np.max(np.abs(ours - ref))) if ref.size else 0.0
    ok = err <= RTOL_OF_RANGE * scale + ATOL
    flat = ref.reshape(-1)
    if ok and ref.ndim <= 2 and flat.size > 1 and abs(flat.sum() - 1) < 1e-3:
        ok = int(np.argmax(ours)) == int(np.argmax(ref))  # a classifier
    return ok, err / scale if scale else float(err > ATOL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*")
    parser.add_argument("--runner", help="command that runs a .bef (default fallback-run)")
    parser.add_argument("--out-tag", default="host", help="outputs go to $CACHE/f16/<name>/<tag>")
    parser.add_argument("--instructions", metavar="PLUGIN",
                        help="count the runner's instructions per inference with this qemu plugin")
    args = parser.parse_args()
    runner = shlex.split(args.runner) if args.runner else [os.path.join(BIN, "fallback-run")]
    failed = False
    for name in args.models or DEFAULT:
        src = os.path.join(fetch.CACHE, "ours", name, "model.mlir")
        refs = os.path.join(fetch.CACHE, "refs", name)
        out = os.path.join(fetch.CACHE, "f16", name)
        try:
            if not os.path.exists(src):
                raise RuntimeError("no %s: run scripts/run-models.py --bef first" % src)
            os.makedirs(out, exist_ok=True)
            mlir, bef = os.path.join(out, "model.mlir"), os.path.join(out, "model.bef")
            # Translated every time: the compiler may have changed.
            with open(src) as f:
                text = to_f16(f.read())
            with open(mlir, "w") as f:
                f.write(text)
            r = subprocess.run([os.path.join(BIN, "fallback-translate"), "--mlir-to-bef",
                                mlir, "-o", bef], capture_output=True, text=True)
            if r.returncode:
                raise RuntimeError("compile: " + r.stderr.strip().splitlines()[-1][:300])
            inputs = []
            for f in sorted(x for x in os.listdir(refs) if x.startswith("input_")):
                x = np.load(os.path.join(refs, f))
                path = os.path.join(out, f)
                np.save(path, x.astype(np.float16) if x.dtype == np.float32 else x)
                inputs.append(path)
            # TF.js's output_<k>_<name>.cpu.npy (TFLite's output_<k>.npy).
            expected = [np.load(os.path.join(refs, f)) for f in
                        sorted((f for f in os.listdir(refs)
                                if re.match(r"output_\d+(_.*\.cpu)?\.npy$", f)),
                               key=lambda f: int(re.match(r"output_(\d+)", f).group(1)))]
            out_dir = os.path.join(out, args.out_tag)
            note = ""
            if args.instructions:
                counts = []
                with tempfile.TemporaryDirectory() as tmp:
                    for extra in ((), ("--benchmark=1",)):
                        path = os.path.join(tmp, "counts.json")
                        run(runner, bef, inputs, out_dir, extra, args.instructions, path)
                        with open(path) as f:
                            counts.append(json.load(f)["insns"])
                note = "  %.1f M instructions per inference" % ((counts[1] - counts[0]) / 2e6)
            else:
                run(runner, bef, inputs, out_dir)
            got = outputs(out_dir)
            if len(got) != len(expected):
                raise RuntimeError("%d outputs, TF.js has %d" % (len(got), len(expected)))
            worst, ok = 0.0, True
            for g, e in zip(got, expected):
                good, rel = compare(g, e)
                ok, worst = ok and good, max(worst, rel)
            print("%-28s %s  max error %.4f of the output's range%s" %
                  (name, "PASS" if ok else "FAIL", worst, note))
            failed |= not ok
        except (RuntimeError, OSError, ValueError) as e:
            print("%-28s FAIL  %s" % (name, e))
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
