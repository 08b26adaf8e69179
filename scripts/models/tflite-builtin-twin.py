#!/usr/bin/python3
"""Rewrites MediaPipe's custom ops of a .tflite model as TFLite builtins.

usage: tflite-builtin-twin.py IN.tflite OUT.tflite [--quiet]

Writes OUT, IN with every operator of REPLACES turned into TFLite's builtin
of the same semantics, so that TFLite itself (its BuiltinOpResolver, as
tflite-reference.js runs it) can run a model it otherwise refuses for an
unresolved custom op. run-models.py uses it to compare fallback-run on the
original model with TFLite on the rewritten one.

Convolution2DTransposeBias (mediapipe/util/tflite/operations/
transpose_conv_bias.cc) -> TRANSPOSE_CONV version 3 (the version with a
bias input), inputs [output_shape, weights, x, bias]: output_shape a new
int32 [4] constant, the weights [O, H, W, I] and the bias [O] the custom
op's own tensors; TransposeConvOptions {padding, stride_w, stride_h} from
the custom options (raw TfLiteTransposeConvParams int32s: padding 1 SAME,
2 VALID, then stride_width, stride_height).

Why TRANSPOSE_CONV computes what MediaPipe's kernel does. Per spatial
dimension, with input size I, filter size F and stride S, MediaPipe's
Prepare sizes the output O = S (I - 1) + F - P with P = max(0, F -
(I - 1) % S - 1) for SAME and P = 0 for VALID, and its Eval scatters input
element i into output rows S i - P/2 + f, f < F, dropping those outside
[0, O), onto the bias. The output_shape constant is exactly that O (the
shape MediaPipe's Prepare gives the output). TFLite's transpose_conv.cc
Eval takes its padding from ComputePaddingHeightWidth(S, dilation 1,
in = O, F, padding) (kernels/padding.h), the forward convolution that
maps O back to I:
  - SAME: out = ceil(O / S); total = max(0, (out - 1) S + F - O);
    padding = total / 2 (offset total % 2). When P > 0, O = S (I - 1) +
    r + 1 with r = (I - 1) % S < S, so out = I and total = S (I - 1) +
    F - O = P. When P = 0 (F <= r + 1 <= S), O = S (I - 1) + F with
    1 <= F <= S, so out = I again and total = 0 = P.
  - VALID: out = (O + S - F) / S = I and total = max(0, (I - 1) S + F -
    O) = 0 = P (padding.h computes it for VALID as well).
So the padding before is P/2 in both kernels. The reference kernel
(internal/reference/transpose_conv.h) scatters input element i into
output row S i - padding + f, f < F, within [0, O), exactly MediaPipe's
loop (which is a copy of it), and adds the bias after the sum where
MediaPipe starts from it: the same products, the bias added last instead
of first (a rounding difference of an ulp or so). The builtin's optimized
kernel (TransposeConvV2, the one the BuiltinOpResolver registers) computes
the same sums: a GEMM of the HWOI-transposed weights and col2im with that
top/left padding (bottom/right padding + offset, its extent), then the
bias. The checks are Prepare's: float32 input, weights, bias and output,
weights' I = the input's depth, bias of O elements.

TRANSPOSE_CONV version 3 (bias) is registered by TFLite's BuiltinOpResolver
since TF 2.4; the tfjs-tflite wasm build (~TFLite 2.13) runs it (checked on
selfie_segmentation: its output matches the TF.js twin's to 1e-9).

An operator whose shapes are not static or whose types or options differ
stays custom. The JSON round trip (flatc with lib/Import/TFLite/tflite.fbs)
and the model bookkeeping (new constants, unused tensors, operator codes and
buffers dropped) are tflite-to-flex.py's, imported. Prints on stderr (not
with --quiet) the operators rewritten and the custom ops left.

Needs NumPy and python3-flatbuffers (Debian's /usr/bin/python3; another
interpreter without them re-runs the script with it)."""
import argparse
import importlib
import json
import os
import shutil
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# MediaPipe custom op -> the TFLite builtin the writer emits for it
# (run-models.py reads this: a model whose custom ops are all here can be
# run by TFLite once rewritten).
REPLACES = {"Convolution2DTransposeBias": "TRANSPOSE_CONV"}
TRANSPOSE_CONV_CODE, TRANSPOSE_CONV_BIAS_VERSION = 67, 3
PADDING = {1: "SAME", 2: "VALID"}  # TfLitePadding -> the schema's Padding


def flex_module():
    """tflite-to-flex.py (NumPy and flatbuffers, imported on first use so
    that reading REPLACES needs neither)."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    return importlib.import_module("tflite-to-flex")


def mediapipe_output_size(size, filter_size, stride, padding):
    """MediaPipe's Convolution2DTransposeBias output size along a dimension."""
    pad = max(0, filter_size - (size - 1) % stride - 1) if padding == 1 else 0
    return stride * (size - 1) + filter_size - pad


def rewriter(model):
    """A tflite-to-flex Rewriter of `model` that converts the custom ops of
    REPLACES (and nothing else)."""
    flex = flex_module()

    class BuiltinTwin(flex.Rewriter):
        def builtin_opcode(self, name, code, version):
            for i, c in enumerate(self.codes):
                if c.get("builtin_code") == name and c.get("version", 1) == version:
                    return i
            self.codes.append({"deprecated_builtin_code": code, "builtin_code": name,
                               "version": version})
            return len(self.codes) - 1

        def convert(self, name, op):
            if name != "CUSTOM:Convolution2DTransposeBias":
                raise flex.Skip
            ins, outs = op.get("inputs", []), op.get("outputs", [])
            options = bytes(op.get("custom_options", []))
            if len(ins) != 3 or len(outs) != 1 or len(options) < 12 or min(ins) < 0:
                raise flex.Skip
            padding, stride_w, stride_h = struct.unpack("<3i", options[:12])
            if padding not in PADDING or stride_w < 1 or stride_h < 1:
                raise flex.Skip
            self.check(ins + outs, flex.FLOATS)
            x, w, bias = ins
            xs, ws = self.shape(x), self.shape(w)
            if len(xs) != 4 or len(ws) != 4 or min(xs + ws) < 1 or ws[3] != xs[3] or \
                    self.shape(bias) != [ws[0]]:
                raise flex.Skip
            out_shape = [xs[0], mediapipe_output_size(xs[1], ws[1], stride_h, padding),
                         mediapipe_output_size(xs[2], ws[2], stride_w, padding), ws[0]]
            if self.shape(outs[0]) not in ([], out_shape):
                raise flex.Skip
            shape = self.const_tensor(self.tensors[outs[0]]["name"] + "/output_shape",
                                      out_shape)
            return [{"opcode_index": self.builtin_opcode(
                         "TRANSPOSE_CONV", TRANSPOSE_CONV_CODE, TRANSPOSE_CONV_BIAS_VERSION),
                     "inputs": [shape, w, x, bias], "outputs": outs,
                     "builtin_options_type": "TransposeConvOptions",
                     "builtin_options": {"padding": PADDING[padding], "stride_w": stride_w,
                                         "stride_h": stride_h}}]

    return BuiltinTwin(model, ["CUSTOM:" + c for c in REPLACES], fold_f16=False), flex


def custom_ops(rw):
    """{custom code: operators} of the rewriter's model."""
    counts = {}
    for sg in rw.model.get("subgraphs", []):
        for op in sg.get("operators", []):
            name = rw.code_name(op)
            if name.startswith("CUSTOM:"):
                counts[name[7:]] = counts.get(name[7:], 0) + 1
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    flex = flex_module()
    tmp = tempfile.mkdtemp(prefix="tflite-builtin-twin.")
    try:
        src = os.path.join(tmp, "model.tflite")
        shutil.copyfile(args.input, src)
        flex.run_flatc(["--json", "--strict-json", "--raw-binary", "-o", tmp, flex.SCHEMA,
                        "--", src])
        with open(os.path.join(tmp, "model.json")) as f:
            model = json.load(f)
        rw, _ = rewriter(model)
        before = custom_ops(rw)
        rw.run()
        after = custom_ops(rw)
        with open(os.path.join(tmp, "twin.json"), "w") as f:
            json.dump(model, f, separators=(",", ":"))
        flex.run_flatc(["-b", "-o", tmp, flex.SCHEMA, os.path.join(tmp, "twin.json")])
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        shutil.move(os.path.join(tmp, "twin.tflite"), args.output)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not args.quiet:
        done = {c: n - after.get(c, 0) for c, n in before.items() if n > after.get(c, 0)}
        print("%s: %s" % (args.output, ", ".join(
            "%d %s -> %s" % (n, c, REPLACES[c]) for c, n in sorted(done.items())) or
            "nothing rewritten"), file=sys.stderr)
        print("  custom ops left: " + (", ".join(
            "%s %d" % kv for kv in sorted(after.items())) or "none"), file=sys.stderr)


if __name__ == "__main__":
    main()
