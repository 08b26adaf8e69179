#!/usr/bin/env python3
"""Conformance of the TFLite importer's builtin operators against TFLite.

A developer tool, not part of CI: it needs TFLite's wasm runtime (the
@tensorflow/tfjs-tflite package that scripts/models/fetch.py puts in
~/.cache/tfrt-fallback-models/tflite/node_modules), Node.js, flatc and
NumPy (/usr/bin/python3 has it).

usage: /usr/bin/python3 test/Import/Inputs/tflite-conformance.py
           [--mode random|nice|both] [--filter REGEX] [--keep DIR]
           [--jobs N] [--freeze] [--list]

CASES below is a table of small models of one builtin operator each (a
trailing CAST when the operator's output is int64, which tfjs-tflite
cannot expose), written with tflite-from-json.py's JSON. For each case the
script writes the model and its inputs (seeded from the case's name), runs
TFLite itself (scripts/models/tflite-reference.js: TFLite's builtin
kernels, XNNPACK off, one thread) and build/bin/fallback-run, and compares
every output: equal shapes and |ours - tflite| <= 1e-5 + 1e-4 |tflite| for
floats, exact for integers and bools. One line per case:

  PASS | FAIL (what differs, the first differing element) |
  TFLITE-ERROR (TFLite cannot load or run it: not a test of ours) |
  OURS-ERROR (the first error line of fallback-translate/fallback-run)

--mode random takes uniform float32 inputs of full precision; nice (the
default is both) takes multiples of 0.25 (small integers for the integer
inputs), whose results print exactly or nearly; --filter runs the cases
whose name matches; --keep DIR keeps each case's files (model, inputs,
tflite/ and ours/ outputs) in DIR/<case>.<mode>/; --jobs runs N cases at
once (default: the number of CPUs); --list prints the cases.

tflite-reference.js takes its output tensors before the run, so a dynamic
output (WHERE, UNIQUE) keeps its shape and data from before; the script runs
a copy of it that takes them again after the run.

--freeze (with nice inputs) rewrites test/Import/tflite-builtins-*.test:
every case that passes becomes a split-file section with its JSON model and
inputs and FileCheck lines of TFLite's outputs as fallback-run prints them
("%.6g", integral floats with a trailing dot). A value whose six digits are
rounded matches any last digit ({{[0-9]*}}), or any last few where ours,
within the tolerance, prints otherwise; a zero matches either sign.

The environment: FALLBACK_BIN (default build/bin), NODE (default node),
TFRT_FALLBACK_MODELS_CACHE (tflite-reference.js's cache).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
FROM_JSON = os.path.join(HERE, "tflite-from-json.py")
REFERENCE = os.path.join(ROOT, "scripts", "models", "tflite-reference.js")
BIN = os.environ.get("FALLBACK_BIN", os.path.join(ROOT, "build", "bin"))
CACHE = os.environ.get("TFRT_FALLBACK_MODELS_CACHE", os.path.join(
    os.path.expanduser("~"), ".cache", "tfrt-fallback-models"))
RUNTIME = "TFLite 2.x wasm builtin kernels (tfjs-tflite 0.0.1-alpha.10)"

TYPES = {"f32": "FLOAT32", "f16": "FLOAT16", "i32": "INT32", "i64": "INT64",
         "bool": "BOOL", "i8": "INT8", "u8": "UINT8", "i16": "INT16"}
NP = {"f32": np.float32, "f16": np.float16, "i32": np.int32,
      "i64": np.int64, "bool": np.bool_, "i8": np.int8, "u8": np.uint8,
      "i16": np.int16}

# ---- Tensors of a case --------------------------------------------------


class In:
    """A runtime input: gen(rng, nice) -> values of the shape."""

    def __init__(self, dtype, shape, gen, quant=None):
        self.dtype, self.shape, self.gen, self.quant = dtype, list(shape), gen, quant


class Const:
    def __init__(self, values, dtype="f32", shape=None, quant=None):
        a = np.asarray(values)
        self.dtype, self.quant = dtype, quant
        self.shape = list(a.shape) if shape is None else list(shape)
        self.values = [v.item() if hasattr(v, "item") else v
                       for v in a.reshape(-1)]


class Out:
    def __init__(self, dtype, shape, signature=None, quant=None):
        self.dtype, self.shape, self.signature = dtype, list(shape), signature
        self.quant = quant


def F(shape, lo=-4.0, hi=4.0):
    """float32 input, uniform in [lo, hi] (nice: multiples of 0.25)."""
    def gen(rng, nice):
        v = rng.uniform(lo, hi, size=shape)
        if nice:
            v = np.clip(np.round(v * 4) / 4, lo, hi) + 0.0
        return v.astype(np.float32)
    return In("f32", shape, gen)


def I(shape, lo=-8, hi=8, nonzero=False, dtype="i32"):
    """integer input in [lo, hi], optionally without zeros."""
    def gen(rng, nice):
        v = rng.integers(lo, hi + 1, size=shape)
        if nonzero:
            v = np.where(v == 0, hi if hi != 0 else lo, v)
        return v.astype(NP[dtype])
    return In(dtype, shape, gen)


def B(shape):
    return In("bool", shape, lambda rng, nice: rng.random(size=shape) < 0.5)


def D(shape, step=0.5):
    """float32 input whose elements are distinct along the last axis (for
    ARG_MAX, TOPK_V2): a permutation of multiples of step (nice) or of
    spread random values."""
    def gen(rng, nice):
        n = shape[-1]
        rows = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
        out = []
        for _ in range(rows):
            base = (np.arange(n) - n // 2) * step
            if not nice:
                base = base + rng.uniform(0, step * 0.9, size=n)
            out.append(rng.permutation(base))
        return np.array(out, dtype=np.float32).reshape(shape)
    return In("f32", shape, gen)


def V(values, dtype="f32", shape=None):
    """A runtime input of fixed values."""
    a = np.asarray(values, dtype=NP[dtype])
    if shape is not None:
        a = a.reshape(shape)
    return In(dtype, list(a.shape), lambda rng, nice: a.copy())


def C(values, dtype="f32", shape=None):
    return Const(values, dtype, shape)


def W(shape, lo=-1.0, hi=1.0, seed=0):
    """Constant float weights (nice: multiples of 0.25), fixed per seed."""
    rng = np.random.default_rng(1000 + seed)
    v = np.round(rng.uniform(lo, hi, size=shape) * 4) / 4
    return Const(v.astype(np.float32), "f32", shape)


def O(dtype, shape, signature=None, quant=None):
    return Out(dtype, shape, signature, quant)


def Q(scale, zero_point=0, dim=None):
    """Quantization parameters: one scale and zero point, or lists along
    dimension dim."""
    scales = scale if isinstance(scale, list) else [scale]
    zeros = zero_point if isinstance(zero_point, list) else \
        [zero_point] * len(scales)
    q = {"scale": [float(np.float32(v)) for v in scales],
         "zero_point": [int(z) for z in zeros]}
    if dim is not None:
        q["quantized_dimension"] = dim
    return q


def QI(shape, q, dtype="i8"):
    """A quantized runtime input of uniform random integers over the whole
    range of its type."""
    lo, hi = (-128, 127) if dtype == "i8" else (0, 255)
    def gen(rng, nice):
        return rng.integers(lo, hi + 1, size=shape).astype(NP[dtype])
    return In(dtype, shape, gen, q)


def QW(shape, q, dtype="i8", seed=0):
    """Constant quantized weights, random integers fixed per seed (int8:
    -127..127, TFLite's symmetric range)."""
    rng = np.random.default_rng(2000 + seed)
    lo, hi = (-127, 127) if dtype == "i8" else (0, 255)
    v = rng.integers(lo, hi + 1, size=shape)
    return Const(v.astype(NP[dtype]), dtype, shape, q)


def QB(n, scale, seed=0, span=3000):
    """A constant int32 bias of n values with scale input * filter scale."""
    rng = np.random.default_rng(3000 + seed)
    v = rng.integers(-span, span + 1, size=[n])
    scales = scale if isinstance(scale, list) else [scale]
    return Const(v.astype(np.int32), "i32", [n],
                 Q(scales, 0, 0 if len(scales) > 1 else None))


def channel_scales(n, seed, lo=0.004, hi=0.03):
    rng = np.random.default_rng(4000 + seed)
    return [float(np.float32(v)) for v in rng.uniform(lo, hi, size=n)]


# ---- The table ----------------------------------------------------------

CASES = []


class Case:
    def __init__(self, name, family, op, ins, outs, opt_type=None, opts=None,
                 doc="", version=1):
        self.name, self.family, self.op = name, family, op
        self.version = version
        self.ins, self.outs = ins, outs if isinstance(outs, list) else [outs]
        self.opt_type, self.opts, self.doc = opt_type, opts, doc


def case(name, family, op, ins, outs, opt_type=None, opts=None, doc="",
         version=1):
    CASES.append(Case(name, family, op, ins, outs, opt_type, opts, doc,
                      version))


ACT = "fused_activation_function"


def binary(name, op, opt_type, act, a, b, out, doc="", family="elementwise"):
    opts = {ACT: act} if act else ({} if opt_type else None)
    case(name, family, op, [a, b], O(out[0], out[1]), opt_type, opts, doc)


# Elementwise binary ops, with fused activations and broadcasting.
binary("add", "ADD", "AddOptions", None, F([2, 3]), F([2, 3]), ("f32", [2, 3]))
binary("add_relu6_bcast", "ADD", "AddOptions", "RELU6", F([2, 1, 3], -8, 8),
       F([4, 1], -8, 8), ("f32", [2, 4, 3]))
binary("add_i32", "ADD", "AddOptions", None, I([2, 3]), I([3]), ("i32", [2, 3]))
binary("sub_relu", "SUB", "SubOptions", "RELU", F([2, 3]), F([3]),
       ("f32", [2, 3]))
binary("sub_relu_n1_to_1", "SUB", "SubOptions", "RELU_N1_TO_1", F([2, 3]),
       F([2, 3]), ("f32", [2, 3]))
binary("mul_tanh", "MUL", "MulOptions", "TANH", F([2, 3], -2, 2),
       F([1, 3], -2, 2), ("f32", [2, 3]))
binary("add_tanh", "ADD", "AddOptions", "TANH", F([2, 3], -2, 2),
       F([2, 3], -2, 2), ("f32", [2, 3]),
       doc="TFLite's float kernels clamp only for RELU, RELU6, RELU_N1_TO_1")
binary("add_sign_bit", "ADD", "AddOptions", "SIGN_BIT", F([2, 3]), F([2, 3]),
       ("f32", [2, 3]))
binary("add_i32_relu6", "ADD", "AddOptions", "RELU6", I([2, 3]), I([2, 3]),
       ("i32", [2, 3]))
binary("sub_i32_relu", "SUB", "SubOptions", "RELU", I([2, 3]), I([2, 3]),
       ("i32", [2, 3]))
binary("mul_i32_relu_n1_to_1", "MUL", "MulOptions", "RELU_N1_TO_1",
       I([2, 3], -2, 2), I([2, 3], -2, 2), ("i32", [2, 3]))
binary("mul_i32", "MUL", "MulOptions", None, I([2, 3]), I([2, 3]),
       ("i32", [2, 3]))
binary("div", "DIV", "DivOptions", None, F([2, 3]), F([2, 3], 0.5, 4),
       ("f32", [2, 3]))
binary("div_relu6", "DIV", "DivOptions", "RELU6", F([2, 3], -8, 8),
       F([3], 0.5, 2), ("f32", [2, 3]))
binary("div_i32_neg", "DIV", "DivOptions", None, I([2, 4], -9, 9),
       I([2, 4], -4, 4, nonzero=True), ("i32", [2, 4]),
       doc="int32 DIV of negatives")
binary("floor_div_i32", "FLOOR_DIV", "FloorDivOptions", None, I([2, 4], -9, 9),
       I([2, 4], -4, 4, nonzero=True), ("i32", [2, 4]))
binary("floor_div_f32", "FLOOR_DIV", "FloorDivOptions", None, F([2, 4]),
       F([2, 4], 0.5, 2), ("f32", [2, 4]))
binary("floor_mod_i32", "FLOOR_MOD", "FloorModOptions", None, I([2, 4], -9, 9),
       I([2, 4], -4, 4, nonzero=True), ("i32", [2, 4]))
binary("floor_mod_f32", "FLOOR_MOD", "FloorModOptions", None, F([2, 4]),
       V([1.5, -1.5, 2.5, -0.75, 1, -2, 0.5, 3], shape=[2, 4]), ("f32", [2, 4]))
binary("maximum_bcast", "MAXIMUM", "MaximumMinimumOptions", None, F([2, 3]),
       F([3]), ("f32", [2, 3]))
binary("minimum_i32", "MINIMUM", "MaximumMinimumOptions", None, I([2, 3]),
       I([1, 3]), ("i32", [2, 3]))
binary("squared_difference", "SQUARED_DIFFERENCE", "SquaredDifferenceOptions",
       None, F([2, 3]), F([1, 3]), ("f32", [2, 3]))
binary("squared_difference_i32", "SQUARED_DIFFERENCE",
       "SquaredDifferenceOptions", None, I([2, 3]), I([2, 3]), ("i32", [2, 3]))
binary("pow", "POW", "PowOptions", None, F([2, 3], 0.25, 3), F([2, 3], -2, 2),
       ("f32", [2, 3]))
binary("pow_i32", "POW", "PowOptions", None, I([2, 3], -3, 3), I([2, 3], 0, 4),
       ("i32", [2, 3]))
binary("atan2", "ATAN2", None, None, F([2, 3]), F([2, 3]), ("f32", [2, 3]))
case("add_n", "elementwise", "ADD_N", [F([2, 3]), F([2, 3]), F([2, 3])],
     O("f32", [2, 3]), "AddNOptions", {})

# Elementwise unary ops and activations.
for op, lo, hi in [("ABS", -4, 4), ("NEG", -4, 4), ("EXP", -3, 3),
                   ("LOG", 0.25, 8), ("SQRT", 0, 8), ("RSQRT", 0.25, 8),
                   ("SQUARE", -4, 4), ("TANH", -3, 3), ("LOGISTIC", -4, 4),
                   ("RELU", -4, 4), ("RELU6", -8, 8), ("ELU", -3, 3),
                   ("FLOOR", -4, 4), ("CEIL", -4, 4), ("ROUND", -4, 4),
                   ("SIN", -4, 4), ("COS", -4, 4), ("SIGN", -4, 4),
                   ("HARD_SWISH", -5, 5), ("RELU_N1_TO_1", -2, 2),
                   ("RELU_0_TO_1", -2, 2)]:
    case(op.lower(), "activations", op, [F([4, 3], lo, hi)], O("f32", [4, 3]))
case("abs_i32", "activations", "ABS", [I([2, 4])], O("i32", [2, 4]))
case("neg_i32", "activations", "NEG", [I([2, 4])], O("i32", [2, 4]))
case("leaky_relu", "activations", "LEAKY_RELU", [F([2, 5])], O("f32", [2, 5]),
     "LeakyReluOptions", {"alpha": 0.2})
case("prelu_channel", "activations", "PRELU",
     [F([1, 2, 2, 3]), C([0.25, 0.5, -1])], O("f32", [1, 2, 2, 3]),
     doc="alpha [3] broadcast over [1, 2, 2, 3]")
case("prelu_bcast", "activations", "PRELU",
     [F([2, 2, 3]), C([[0.5, 1, 2]], shape=[1, 1, 3])], O("f32", [2, 2, 3]))
case("gelu_exact", "activations", "GELU", [F([2, 5], -3, 3)],
     O("f32", [2, 5]), "GeluOptions", {"approximate": False})
case("gelu_approximate", "activations", "GELU", [F([2, 5], -3, 3)],
     O("f32", [2, 5]), "GeluOptions", {"approximate": True})
case("softmax_beta", "activations", "SOFTMAX", [F([2, 5])], O("f32", [2, 5]),
     "SoftmaxOptions", {"beta": 0.5})
case("softmax_no_options", "activations", "SOFTMAX", [F([2, 3])],
     O("f32", [2, 3]), doc="no SoftmaxOptions: TFLite's beta is 0")
case("softmax_rank3", "activations", "SOFTMAX", [F([2, 2, 3])],
     O("f32", [2, 2, 3]), "SoftmaxOptions", {"beta": 1.0})
case("log_softmax", "activations", "LOG_SOFTMAX", [F([2, 5])],
     O("f32", [2, 5]), "LogSoftmaxOptions", {})
case("l2_normalization", "activations", "L2_NORMALIZATION", [F([2, 4])],
     O("f32", [2, 4]), "L2NormOptions", {})
case("l2_normalization_zero", "activations", "L2_NORMALIZATION",
     [V([0, 0, 0, 3, -4, 0], shape=[2, 3])], O("f32", [2, 3]),
     "L2NormOptions", {}, doc="a row of zeros")
case("l2_normalization_rank4", "activations", "L2_NORMALIZATION",
     [F([1, 2, 1, 3])], O("f32", [1, 2, 1, 3]), "L2NormOptions", {})
case("local_response_normalization", "activations",
     "LOCAL_RESPONSE_NORMALIZATION", [F([1, 1, 2, 6])], O("f32", [1, 1, 2, 6]),
     "LocalResponseNormalizationOptions",
     {"radius": 2, "bias": 1.0, "alpha": 0.5, "beta": 0.75})
case("fake_quant", "activations", "FAKE_QUANT", [F([2, 5], -1.5, 1.5)],
     O("f32", [2, 5]), "FakeQuantOptions",
     {"min": -1.0, "max": 1.0, "num_bits": 8, "narrow_range": False})

# Comparisons and logical ops.
for op, opt in [("EQUAL", "EqualOptions"), ("NOT_EQUAL", "NotEqualOptions"),
                ("LESS", "LessOptions"), ("LESS_EQUAL", "LessEqualOptions"),
                ("GREATER", "GreaterOptions"),
                ("GREATER_EQUAL", "GreaterEqualOptions")]:
    case(op.lower() + "_i32", "compare", op, [I([2, 4], -2, 2), I([4], -2, 2)],
         O("bool", [2, 4]), opt, {})
    case(op.lower(), "compare", op, [F([2, 3]), F([2, 3])], O("bool", [2, 3]),
         opt, {})
case("logical_and", "compare", "LOGICAL_AND", [B([2, 3]), B([3])],
     O("bool", [2, 3]), "LogicalAndOptions", {})
case("logical_or", "compare", "LOGICAL_OR", [B([2, 3]), B([2, 1])],
     O("bool", [2, 3]), "LogicalOrOptions", {})
case("logical_not", "compare", "LOGICAL_NOT", [B([2, 3])], O("bool", [2, 3]),
     "LogicalNotOptions", {})
case("select", "compare", "SELECT", [B([2, 3]), F([2, 3]), F([2, 3])],
     O("f32", [2, 3]), "SelectOptions", {})
case("select_rank1_cond", "compare", "SELECT", [B([2]), F([2, 3]), F([2, 3])],
     O("f32", [2, 3]), "SelectOptions", {},
     doc="SELECT's rank-1 condition picks rows")
case("select_v2_bcast", "compare", "SELECT_V2", [B([1, 3]), F([2, 1]),
                                                 F([2, 3])],
     O("f32", [2, 3]), "SelectV2Options", {})
case("select_v2_scalar_cond", "compare", "SELECT_V2", [B([]), F([2, 3]),
                                                      F([1, 3])],
     O("f32", [2, 3]), "SelectV2Options", {})
case("where_bool", "compare", "WHERE", [B([2, 3])],
     O("i64", [1, 2], [-1, 2]), "WhereOptions", {},
     doc="WHERE's int64 coordinates, then CAST to int32")
case("where_f32", "compare", "WHERE", [V([0, 1.5, 0, -2, 0, 0, 3, 0],
                                         shape=[2, 4])],
     O("i64", [1, 2], [-1, 2]), "WhereOptions", {})

# Convolutions, fully connected, pools.
case("conv2d_same_s2_relu", "conv", "CONV_2D",
     [F([1, 5, 5, 2], -2, 2), W([3, 3, 3, 2]), W([3], seed=1)],
     O("f32", [1, 3, 3, 3]), "Conv2DOptions",
     {"padding": "SAME", "stride_w": 2, "stride_h": 2, ACT: "RELU"},
     doc="5x5 input, 3x3 filter, SAME, stride 2, bias, RELU")
case("conv2d_same_s2_even", "conv", "CONV_2D",
     [F([1, 6, 4, 1], -2, 2), W([2, 2, 2, 1]), W([2], seed=8)],
     O("f32", [1, 3, 2, 2]), "Conv2DOptions",
     {"padding": "SAME", "stride_w": 2, "stride_h": 2},
     doc="2x2 filter, SAME, stride 2 on even sizes")
case("conv2d_grouped", "conv", "CONV_2D",
     [F([1, 3, 3, 4], -2, 2), W([2, 2, 2, 2], seed=10), W([2], seed=11)],
     O("f32", [1, 2, 2, 2]), "Conv2DOptions",
     {"padding": "VALID", "stride_w": 1, "stride_h": 1},
     doc="a grouped convolution: 4 input channels, a filter of 2")
case("conv2d_no_bias", "conv", "CONV_2D",
     [F([1, 3, 3, 1], -2, 2), W([1, 2, 2, 1], seed=9), None],
     O("f32", [1, 2, 2, 1]), "Conv2DOptions",
     {"padding": "VALID", "stride_w": 1, "stride_h": 1},
     doc="no bias (input -1)")
case("conv2d_valid_dilation", "conv", "CONV_2D",
     [F([1, 7, 6, 1], -2, 2), W([2, 3, 3, 1]), W([2], seed=2)],
     O("f32", [1, 3, 2, 2]), "Conv2DOptions",
     {"padding": "VALID", "stride_w": 1, "stride_h": 1,
      "dilation_w_factor": 2, "dilation_h_factor": 2, ACT: "RELU6"},
     doc="VALID, dilation 2, RELU6")
case("conv2d_same_dilation_s1", "conv", "CONV_2D",
     [F([1, 5, 5, 1], -2, 2), W([1, 3, 3, 1]), W([1], seed=3)],
     O("f32", [1, 5, 5, 1]), "Conv2DOptions",
     {"padding": "SAME", "stride_w": 1, "stride_h": 1,
      "dilation_w_factor": 2, "dilation_h_factor": 2, ACT: "RELU_N1_TO_1"},
     doc="SAME, dilation 2, RELU_N1_TO_1")
case("conv2d_tanh_stride_hw", "conv", "CONV_2D",
     [F([1, 5, 6, 2], -2, 2), W([2, 3, 2, 2]), W([2], seed=4)],
     O("f32", [1, 2, 2, 2]), "Conv2DOptions",
     {"padding": "VALID", "stride_w": 3, "stride_h": 2, ACT: "TANH"},
     doc="VALID, stride_h 2, stride_w 3, TANH")
case("depthwise_same_s2_mult2", "conv", "DEPTHWISE_CONV_2D",
     [F([1, 5, 5, 2], -2, 2), W([1, 3, 3, 4]), W([4], seed=1)],
     O("f32", [1, 3, 3, 4]), "DepthwiseConv2DOptions",
     {"padding": "SAME", "stride_w": 2, "stride_h": 2, "depth_multiplier": 2,
      ACT: "RELU6"},
     doc="depth_multiplier 2, SAME, stride 2, RELU6")
case("depthwise_valid_dilation", "conv", "DEPTHWISE_CONV_2D",
     [F([1, 5, 5, 2], -2, 2), W([1, 2, 2, 2]), W([2], seed=2)],
     O("f32", [1, 3, 3, 2]), "DepthwiseConv2DOptions",
     {"padding": "VALID", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1,
      "dilation_w_factor": 2, "dilation_h_factor": 2, ACT: "RELU"},
     doc="VALID, dilation 2, RELU")
case("depthwise_tanh", "conv", "DEPTHWISE_CONV_2D",
     [F([1, 3, 3, 2], -2, 2), W([1, 2, 2, 2], seed=4), W([2], seed=5)],
     O("f32", [1, 2, 2, 2]), "DepthwiseConv2DOptions",
     {"padding": "VALID", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1,
      ACT: "TANH"})
case("depthwise_multiplier_0", "conv", "DEPTHWISE_CONV_2D",
     [F([1, 3, 3, 2], -2, 2), W([1, 2, 2, 4], seed=6), W([4], seed=7)],
     O("f32", [1, 2, 2, 4]), "DepthwiseConv2DOptions",
     {"padding": "VALID", "stride_w": 1, "stride_h": 1},
     doc="depth_multiplier omitted (0): the multiplier 2 from the shapes")
case("depthwise_same_dilation_mult3", "conv", "DEPTHWISE_CONV_2D",
     [F([1, 4, 4, 1], -2, 2), W([1, 3, 3, 3]), W([3], seed=3)],
     O("f32", [1, 4, 4, 3]), "DepthwiseConv2DOptions",
     {"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 3,
      "dilation_w_factor": 2, "dilation_h_factor": 2},
     doc="depth_multiplier 3, SAME, dilation 2")
case("transpose_conv_same_s2_bias", "conv", "TRANSPOSE_CONV",
     [C([1, 5, 5, 1], "i32"), W([1, 3, 3, 2]), F([1, 3, 3, 2], -2, 2),
      W([1], seed=5)],
     O("f32", [1, 5, 5, 1]), "TransposeConvOptions",
     {"padding": "SAME", "stride_w": 2, "stride_h": 2},
     doc="output 5x5 from 3x3, SAME, stride 2, bias")
case("transpose_conv_same_s2_even", "conv", "TRANSPOSE_CONV",
     [C([1, 6, 4, 2], "i32"), W([2, 3, 3, 1]), F([1, 3, 2, 1], -2, 2)],
     O("f32", [1, 6, 4, 2]), "TransposeConvOptions",
     {"padding": "SAME", "stride_w": 2, "stride_h": 2},
     doc="no bias, output 6x4 from 3x2, SAME, stride 2")
case("transpose_conv_valid_s2", "conv", "TRANSPOSE_CONV",
     [C([1, 5, 5, 1], "i32"), W([1, 2, 2, 1]), F([1, 2, 2, 1], -2, 2),
      W([1], seed=6)],
     O("f32", [1, 5, 5, 1]), "TransposeConvOptions",
     {"padding": "VALID", "stride_w": 2, "stride_h": 2},
     doc="VALID, stride 2, output 5x5 from 2x2 (one row/column not "
         "reached), bias")
case("transpose_conv_relu", "conv", "TRANSPOSE_CONV",
     [C([1, 4, 4, 1], "i32"), W([1, 2, 2, 1]), F([1, 2, 2, 1], -2, 2),
      W([1], seed=7)],
     O("f32", [1, 4, 4, 1]), "TransposeConvOptions",
     {"padding": "SAME", "stride_w": 2, "stride_h": 2, ACT: "RELU"},
     doc="a fused RELU")
case("conv3d_same_s2", "conv", "CONV_3D",
     [F([1, 3, 4, 4, 2], -2, 2), W([2, 2, 2, 2, 3]), W([3], seed=1)],
     O("f32", [1, 2, 2, 2, 3]), "Conv3DOptions",
     {"padding": "SAME", "stride_d": 2, "stride_w": 2, "stride_h": 2,
      ACT: "RELU"},
     doc="SAME, stride 2, bias, RELU")
case("conv3d_valid_dilation", "conv", "CONV_3D",
     [F([1, 3, 4, 4, 1], -2, 2), W([2, 2, 2, 1, 2])],
     O("f32", [1, 1, 2, 2, 2]), "Conv3DOptions",
     {"padding": "VALID", "stride_d": 1, "stride_w": 1, "stride_h": 1,
      "dilation_d_factor": 2, "dilation_w_factor": 2,
      "dilation_h_factor": 2},
     doc="VALID, dilation 2")
case("fully_connected_relu", "conv", "FULLY_CONNECTED",
     [F([2, 3]), W([4, 3]), W([4], seed=1)], O("f32", [2, 4]),
     "FullyConnectedOptions", {ACT: "RELU"})
case("fully_connected_rank4_flatten", "conv", "FULLY_CONNECTED",
     [F([1, 2, 2, 3]), W([2, 6], seed=2), W([2], seed=3)], O("f32", [2, 2]),
     "FullyConnectedOptions", {},
     doc="rank-4 input flattened to [-1, 6]")
case("fully_connected_keep_dims_rank4", "conv", "FULLY_CONNECTED",
     [F([1, 2, 2, 3]), W([2, 3], seed=4), None], O("f32", [1, 2, 2, 2]),
     "FullyConnectedOptions", {"keep_num_dims": True, ACT: "RELU6"},
     doc="keep_num_dims on a rank-4 input, no bias (-1), RELU6")
case("fully_connected_keep_dims_rank3", "conv", "FULLY_CONNECTED",
     [F([2, 2, 3]), W([3, 3], seed=5), W([3], seed=6)], O("f32", [2, 2, 3]),
     "FullyConnectedOptions", {"keep_num_dims": True, ACT: "RELU_N1_TO_1"})
case("fully_connected_tanh", "conv", "FULLY_CONNECTED",
     [F([2, 3]), W([2, 3], seed=9), W([2], seed=10)], O("f32", [2, 2]),
     "FullyConnectedOptions", {ACT: "TANH"},
     doc="TFLite's FULLY_CONNECTED refuses a fused TANH")
case("fully_connected_no_keep_rank3", "conv", "FULLY_CONNECTED",
     [F([2, 2, 3]), W([2, 3], seed=7), W([2], seed=8)], O("f32", [4, 2]),
     "FullyConnectedOptions", {"keep_num_dims": False})


def pool(name, op, shape, out, padding, f, s, act=None, doc="", lo=-4.0,
         hi=4.0):
    opts = {"padding": padding, "stride_w": s[1], "stride_h": s[0],
            "filter_width": f[1], "filter_height": f[0]}
    if act:
        opts[ACT] = act
    case(name, "pool", op, [F(shape, lo, hi)], O("f32", out), "Pool2DOptions",
         opts, doc)


pool("avg_pool_same_s2", "AVERAGE_POOL_2D", [1, 5, 5, 2], [1, 3, 3, 2], "SAME",
     (3, 3), (2, 2), doc="SAME at the edges: the window's in-bounds mean")
pool("avg_pool_same_s2_f2_relu6", "AVERAGE_POOL_2D", [1, 5, 4, 1],
     [1, 3, 2, 1], "SAME", (2, 2), (2, 2), "RELU6")
pool("avg_pool_valid", "AVERAGE_POOL_2D", [1, 5, 5, 1], [1, 2, 2, 1], "VALID",
     (3, 2), (2, 2))
pool("max_pool_valid_s2_relu", "MAX_POOL_2D", [1, 7, 7, 1], [1, 3, 3, 1],
     "VALID", (3, 3), (2, 2), "RELU")
pool("max_pool_same_s2", "MAX_POOL_2D", [1, 5, 5, 2], [1, 3, 3, 2], "SAME",
     (3, 3), (2, 2))
pool("max_pool_same_neg", "MAX_POOL_2D", [1, 3, 3, 1], [1, 2, 2, 1], "SAME",
     (2, 2), (2, 2), doc="all negative: SAME padding adds no zeros",
     lo=-4, hi=-0.25)
pool("avg_pool_tanh", "AVERAGE_POOL_2D", [1, 4, 4, 1], [1, 2, 2, 1], "VALID",
     (2, 2), (2, 2), "TANH")
pool("l2_pool_same_s2", "L2_POOL_2D", [1, 5, 5, 1], [1, 3, 3, 1], "SAME",
     (2, 2), (2, 2))
pool("l2_pool_valid_relu", "L2_POOL_2D", [1, 4, 4, 2], [1, 2, 2, 2], "VALID",
     (2, 2), (2, 2), "RELU")

# Resizes.
for op, opt, kinds in [
        ("RESIZE_BILINEAR", "ResizeBilinearOptions",
         [("", {}), ("_align", {"align_corners": True}),
          ("_half", {"half_pixel_centers": True})]),
        ("RESIZE_NEAREST_NEIGHBOR", "ResizeNearestNeighborOptions",
         [("", {}), ("_align", {"align_corners": True}),
          ("_half", {"half_pixel_centers": True})])]:
    short = "bilinear" if op == "RESIZE_BILINEAR" else "nearest"
    for suffix, o in kinds:
        case("resize_%s%s_up" % (short, suffix), "resize", op,
             [F([1, 2, 3, 1]), C([3, 5], "i32")], O("f32", [1, 3, 5, 1]),
             opt, dict(o))
        case("resize_%s%s_down" % (short, suffix), "resize", op,
             [F([1, 5, 5, 1]), C([3, 2], "i32")], O("f32", [1, 3, 2, 1]),
             opt, dict(o))

# Reductions.
X234 = [2, 3, 4]
for name, op, axes, keep, out in [
        ("mean_keep", "MEAN", [1], True, [2, 1, 4]),
        ("mean_hw_keep", "MEAN", [1, 2], True, [2, 1, 1]),
        ("mean_all", "MEAN", [0, 1, 2], False, []),
        ("sum_axes", "SUM", [0, 2], False, [3]),
        ("sum_neg_keep", "SUM", [-1], True, [2, 3, 1]),
        ("reduce_max_keep", "REDUCE_MAX", [-1], True, [2, 3, 1]),
        ("reduce_max", "REDUCE_MAX", [0, 1], False, [4]),
        ("reduce_min", "REDUCE_MIN", [1], False, [2, 4]),
        ("reduce_prod", "REDUCE_PROD", [2], True, [2, 3, 1])]:
    case(name, "reduce", op, [F(X234, -2, 2) if op == "REDUCE_PROD"
                              else F(X234)],
         O("f32", out), "ReducerOptions", {"keep_dims": keep})
    CASES[-1].ins.append(C(axes, "i32"))
case("mean_i32", "reduce", "MEAN", [I([2, 3]), C([1], "i32")], O("i32", [2]),
     "ReducerOptions", {"keep_dims": False}, doc="int32 mean of negatives")
case("sum_i32", "reduce", "SUM", [I([2, 3]), C([1], "i32")], O("i32", [2]),
     "ReducerOptions", {"keep_dims": False})
case("sum_no_axes", "reduce", "SUM", [F([2, 3]), C([], "i32", [0])],
     O("f32", [2, 3]), "ReducerOptions", {"keep_dims": False},
     doc="an empty axes constant: the input")
case("mean_dup_axes", "reduce", "MEAN", [F(X234), C([1, -2], "i32")],
     O("f32", [2, 4]), "ReducerOptions", {"keep_dims": False},
     doc="the same axis twice (1 and -2)")
case("reduce_any", "reduce", "REDUCE_ANY", [B([2, 3]), C([1], "i32")],
     O("bool", [2]), "ReducerOptions", {"keep_dims": False})
case("reduce_all_keep", "reduce", "REDUCE_ALL", [B([2, 3]), C([0], "i32")],
     O("bool", [1, 3]), "ReducerOptions", {"keep_dims": True})
case("arg_max_i32", "reduce", "ARG_MAX", [D([3, 5]), C([1], "i32")],
     O("i32", [3]), "ArgMaxOptions", {"output_type": "INT32"})
case("arg_max_i64_axis0", "reduce", "ARG_MAX", [D([3, 5]), C([0], "i32")],
     O("i64", [5]), "ArgMaxOptions", {"output_type": "INT64"},
     doc="int64 output (then CAST to int32), axis 0")
case("arg_max_ties", "reduce", "ARG_MAX",
     [V([[1, 3, 3, 0], [2, 2, 2, 2], [-1, 5, -1, 5]]), C([1], "i32")],
     O("i32", [3]), "ArgMaxOptions", {"output_type": "INT32"},
     doc="ties: the first index")
case("arg_min_ties", "reduce", "ARG_MIN",
     [V([[1, 0, 3, 0], [2, 2, 2, 2], [-1, 5, -1, 5]]), C([1], "i32")],
     O("i32", [3]), "ArgMinOptions", {"output_type": "INT32"},
     doc="ties: the first index")
case("arg_min_i32", "reduce", "ARG_MIN", [D([2, 3, 4]), C([-1], "i32")],
     O("i32", [2, 3]), "ArgMinOptions", {"output_type": "INT32"})
case("topk_v2", "reduce", "TOPK_V2", [D([3, 6]), C(3, "i32")],
     [O("f32", [3, 3]), O("i32", [3, 3])], "TopKV2Options", {})
case("topk_v2_ties", "reduce", "TOPK_V2",
     [V([[1, 3, 3, 0, 3], [2, 2, 1, 2, 2]]), C(3, "i32")],
     [O("f32", [2, 3]), O("i32", [2, 3])], "TopKV2Options", {},
     doc="ties: lower indices first")
case("cumsum", "reduce", "CUMSUM", [F([2, 5]), C(1, "i32")], O("f32", [2, 5]),
     "CumsumOptions", {})
case("cumsum_exclusive", "reduce", "CUMSUM", [F([2, 5]), C(1, "i32")],
     O("f32", [2, 5]), "CumsumOptions", {"exclusive": True})
case("cumsum_reverse", "reduce", "CUMSUM", [F([2, 5]), C(-1, "i32")],
     O("f32", [2, 5]), "CumsumOptions", {"reverse": True})
case("cumsum_exclusive_reverse_axis0", "reduce", "CUMSUM",
     [I([3, 2]), C(0, "i32")], O("i32", [3, 2]), "CumsumOptions",
     {"exclusive": True, "reverse": True})
case("segment_sum", "reduce", "SEGMENT_SUM",
     [F([5, 2]), C([0, 0, 1, 2, 2], "i32")], O("f32", [3, 2]),
     "SegmentSumOptions", {}, doc="TFLite wants ids without gaps")
for op in ["SUM", "PROD", "MAX", "MIN"]:
    case("unsorted_segment_" + op.lower(), "reduce", "UNSORTED_SEGMENT_" + op,
         [F([5, 2], -2, 2), C([1, 0, 1, 3, 0], "i32"), C(4, "i32")],
         O("f32", [4, 2]), "UnsortedSegment%sOptions" % op.capitalize(), {},
         doc="segment 2 is empty")

# Shapes and layout.
case("reshape_input", "shape", "RESHAPE", [F([2, 3, 2]), C([3, -1], "i32")],
     O("f32", [3, 4]), "ReshapeOptions", {})
case("reshape_new_shape", "shape", "RESHAPE", [F([2, 6])], O("f32", [4, 3]),
     "ReshapeOptions", {"new_shape": [4, -1]},
     doc="the shape from ReshapeOptions.new_shape, one input")
case("reshape_runtime_shape", "shape", "RESHAPE",
     [F([2, 3, 2]), V([2, -1, 2], "i32")], O("f32", [2, 3, 2], [-1, -1, -1]),
     "ReshapeOptions", {}, doc="the shape as a runtime input")
case("reshape_output_shape", "shape", "RESHAPE", [F([2, 6])],
     O("f32", [3, 4]), doc="no shape input, no options: the output's shape")
case("squeeze_dims", "shape", "SQUEEZE", [F([1, 3, 1, 2])], O("f32", [3, 2]),
     "SqueezeOptions", {"squeeze_dims": [0, 2]})
case("squeeze_all", "shape", "SQUEEZE", [F([1, 3, 1, 2])], O("f32", [3, 2]),
     "SqueezeOptions", {})
case("squeeze_neg", "shape", "SQUEEZE", [F([1, 3, 1])], O("f32", [1, 3]),
     "SqueezeOptions", {"squeeze_dims": [-1]})
case("expand_dims_neg", "shape", "EXPAND_DIMS", [F([2, 3]), C(-1, "i32")],
     O("f32", [2, 3, 1]), "ExpandDimsOptions", {})
case("expand_dims_0", "shape", "EXPAND_DIMS", [F([2, 3]), C([0], "i32")],
     O("f32", [1, 2, 3]), "ExpandDimsOptions", {})
case("transpose", "shape", "TRANSPOSE", [F([2, 3, 4]), C([2, 0, 1], "i32")],
     O("f32", [4, 2, 3]), "TransposeOptions", {})
case("transpose_5d", "shape", "TRANSPOSE",
     [F([1, 2, 1, 3, 2]), C([4, 3, 0, 2, 1], "i32")],
     O("f32", [2, 3, 1, 1, 2]), "TransposeOptions", {})
case("shape", "shape", "SHAPE", [F([2, 3, 4])], O("i32", [3]),
     "ShapeOptions", {"out_type": "INT32"})
case("rank", "shape", "RANK", [F([2, 3, 4])], O("i32", []), "RankOptions", {})
case("zeros_like", "shape", "ZEROS_LIKE", [F([2, 3])], O("f32", [2, 3]),
     "ZerosLikeOptions", {})
case("fill", "shape", "FILL", [C([2, 3], "i32"), F([])], O("f32", [2, 3]),
     "FillOptions", {})
case("fill_i32", "shape", "FILL", [C([3], "i32"), I([])], O("i32", [3]),
     "FillOptions", {})
case("range_i32", "shape", "RANGE", [C(1, "i32"), C(10, "i32"), C(3, "i32")],
     O("i32", [3]), "RangeOptions", {})
case("range_f32_neg", "shape", "RANGE", [C(2.0), C(-1.0), C(-0.75)],
     O("f32", [4]), "RangeOptions", {})
case("broadcast_to", "shape", "BROADCAST_TO", [F([3]), C([2, 3], "i32")],
     O("f32", [2, 3]), "BroadcastToOptions", {}, version=2)
case("broadcast_to_rank3", "shape", "BROADCAST_TO",
     [F([2, 1]), C([2, 2, 3], "i32")], O("f32", [2, 2, 3]),
     "BroadcastToOptions", {}, version=2)
case("broadcast_args", "shape", "BROADCAST_ARGS",
     [C([2, 1, 3], "i32"), C([4, 1], "i32")], O("i32", [3]))
case("tile", "shape", "TILE", [F([2, 3]), C([2, 1], "i32")], O("f32", [4, 3]),
     "TileOptions", {})
case("tile_i32", "shape", "TILE", [I([1, 2]), C([2, 3], "i32")],
     O("i32", [2, 6]), "TileOptions", {})
case("space_to_depth", "shape", "SPACE_TO_DEPTH", [F([1, 4, 4, 1])],
     O("f32", [1, 2, 2, 4]), "SpaceToDepthOptions", {"block_size": 2})
case("depth_to_space", "shape", "DEPTH_TO_SPACE", [F([1, 2, 2, 4])],
     O("f32", [1, 4, 4, 1]), "DepthToSpaceOptions", {"block_size": 2})
case("space_to_batch_nd", "shape", "SPACE_TO_BATCH_ND",
     [F([1, 5, 4, 1]), C([2, 2], "i32"), C([[1, 0], [0, 2]], "i32")],
     O("f32", [4, 3, 3, 1]), "SpaceToBatchNDOptions", {})
case("space_to_batch_nd_3d", "shape", "SPACE_TO_BATCH_ND",
     [F([1, 5, 2]), C([2], "i32"), C([[1, 0]], "i32")],
     O("f32", [2, 3, 2]), "SpaceToBatchNDOptions", {},
     doc="one spatial dimension")
case("batch_to_space_nd_3d", "shape", "BATCH_TO_SPACE_ND",
     [F([2, 3, 2]), C([2], "i32"), C([[1, 0]], "i32")],
     O("f32", [1, 5, 2]), "BatchToSpaceNDOptions", {})
case("batch_to_space_nd", "shape", "BATCH_TO_SPACE_ND",
     [F([4, 2, 2, 1]), C([2, 2], "i32"), C([[0, 1], [1, 0]], "i32")],
     O("f32", [1, 3, 3, 1]), "BatchToSpaceNDOptions", {})
case("cast_f32_i32", "shape", "CAST", [F([2, 4])], O("i32", [2, 4]),
     "CastOptions", {"in_data_type": "FLOAT32", "out_data_type": "INT32"},
     doc="truncation toward zero")
case("cast_i32_f32", "shape", "CAST", [I([2, 3])], O("f32", [2, 3]),
     "CastOptions", {"in_data_type": "INT32", "out_data_type": "FLOAT32"})
case("cast_bool_f32", "shape", "CAST", [B([2, 3])], O("f32", [2, 3]),
     "CastOptions", {"in_data_type": "BOOL", "out_data_type": "FLOAT32"})
case("cast_f32_bool", "shape", "CAST",
     [V([0, 0.5, -1, 0, 2, -0.25], shape=[2, 3])], O("bool", [2, 3]),
     "CastOptions", {"in_data_type": "FLOAT32", "out_data_type": "BOOL"})
case("cast_i32_bool", "shape", "CAST", [I([2, 3], -1, 1)], O("bool", [2, 3]),
     "CastOptions", {"in_data_type": "INT32", "out_data_type": "BOOL"})
case("dequantize_i8", "shape", "DEQUANTIZE", [I([2, 3], -128, 127, dtype="i8")],
     O("f32", [2, 3]), "DequantizeOptions", {},
     doc="int8 (q - 3) * 0.5")
CASES[-1].ins[0].quant = {"scale": [0.5], "zero_point": [3]}
case("dequantize_u8", "shape", "DEQUANTIZE", [I([2, 3], 0, 255, dtype="u8")],
     O("f32", [2, 3]), "DequantizeOptions", {},
     doc="uint8 (q - 128) * 0.25")
CASES[-1].ins[0].quant = {"scale": [0.25], "zero_point": [128]}
case("dequantize_f16", "shape", "DEQUANTIZE",
     [Const([1.5, -2.25, 0.1, 65504], "f16")], O("f32", [4]),
     "DequantizeOptions", {}, doc="a float16 constant")

# Slicing, concatenation, padding and friends.
case("concat_relu_neg_axis", "array", "CONCATENATION", [F([2, 2]), F([2, 3])],
     O("f32", [2, 5]), "ConcatenationOptions", {"axis": -1, ACT: "RELU"})
case("concat_i32_axis0", "array", "CONCATENATION",
     [I([1, 3]), I([2, 3]), I([1, 3])], O("i32", [4, 3]),
     "ConcatenationOptions", {"axis": 0})
case("concat_axis1", "array", "CONCATENATION",
     [F([1, 1, 2], -8, 8), F([1, 2, 2], -8, 8)], O("f32", [1, 3, 2]),
     "ConcatenationOptions", {"axis": 1})
case("split", "array", "SPLIT", [C(1, "i32"), F([2, 6])],
     [O("f32", [2, 2])] * 3, "SplitOptions", {"num_splits": 3})
case("split_neg_axis", "array", "SPLIT", [C([-1], "i32"), I([2, 4])],
     [O("i32", [2, 2])] * 2, "SplitOptions", {"num_splits": 2})
case("split_v", "array", "SPLIT_V", [F([2, 7]), C([2, -1, 1], "i32"),
                                     C(-1, "i32")],
     [O("f32", [2, 2]), O("f32", [2, 4]), O("f32", [2, 1])], "SplitVOptions",
     {"num_splits": 3}, doc="size_splits with a -1")
case("split_v_axis0", "array", "SPLIT_V", [F([4, 2]), C([1, 3], "i32"),
                                           C(0, "i32")],
     [O("f32", [1, 2]), O("f32", [3, 2])], "SplitVOptions", {"num_splits": 2})
case("pack_axis1", "array", "PACK", [F([2, 3]), F([2, 3]), F([2, 3])],
     O("f32", [2, 3, 3]), "PackOptions", {"values_count": 3, "axis": 1})
case("pack_scalars", "array", "PACK", [F([]), F([]), F([])], O("f32", [3]),
     "PackOptions", {"values_count": 3, "axis": 0})
case("pack_neg_axis", "array", "PACK", [I([2]), I([2])], O("i32", [2, 2]),
     "PackOptions", {"values_count": 2, "axis": -1})
case("unpack_axis1", "array", "UNPACK", [F([3, 2, 2])],
     [O("f32", [3, 2])] * 2, "UnpackOptions", {"num": 2, "axis": 1})
case("unpack_neg_axis", "array", "UNPACK", [I([2, 3])],
     [O("i32", [2])] * 3, "UnpackOptions", {"num": 3, "axis": -1})
case("slice", "array", "SLICE",
     [F([3, 4, 2]), C([1, 1, 0], "i32"), C([2, -1, 1], "i32")],
     O("f32", [2, 3, 1]), "SliceOptions", {}, doc="a size of -1")


def strided(name, shape, begin, end, strides, out, doc="", **masks):
    case(name, "array", "STRIDED_SLICE",
         [F(shape), C(begin, "i32"), C(end, "i32"), C(strides, "i32")],
         O("f32", out), "StridedSliceOptions", dict(masks), doc)


strided("strided_slice", [3, 4, 5], [1, 0, 0], [3, 4, 5], [1, 2, 2],
        [2, 2, 3])
strided("strided_slice_masks", [3, 4, 5], [2, 1, 3], [0, 3, 0], [1, 1, 1],
        [3, 2, 5], begin_mask=5, end_mask=5)
strided("strided_slice_shrink", [3, 4, 5], [1, 0, 2], [2, 4, 3], [1, 1, 1],
        [4], shrink_axis_mask=5)
strided("strided_slice_shrink_neg", [3, 4], [-1, 0], [0, 4], [1, 1], [4],
        doc="shrink of index -1", shrink_axis_mask=1)
strided("strided_slice_neg_stride", [3, 4, 5], [0, 3, 0], [0, 0, 0],
        [1, -1, 2], [3, 3, 3], begin_mask=1, end_mask=5)
strided("strided_slice_neg_stride_full", [5], [0], [0], [-2], [3],
        doc="reversed with stride -2, both masks", begin_mask=1, end_mask=1)
strided("strided_slice_ellipsis", [3, 4, 5], [0, 1], [0, 3], [1, 1],
        [3, 4, 2], ellipsis_mask=1)
strided("strided_slice_new_axis", [3, 4, 5], [0, 0, 0], [2, 0, 3], [1, 1, 1],
        [2, 1, 3, 5], new_axis_mask=2)
strided("strided_slice_mixed", [3, 4, 5], [1, 0, 0, 2], [2, 0, 0, 4],
        [1, 1, 1, 1], [4, 1, 2], doc="x[1, ..., newaxis, 2:4]",
        shrink_axis_mask=1, ellipsis_mask=2, new_axis_mask=4)
strided("strided_slice_offset", [3, 4, 5], [1, 1, 0], [2, 2, 3], [1, 1, 1],
        [2, 2, 3], doc="offset: end is begin + the third input",
        offset=True)
strided("strided_slice_clamp", [4, 5], [-10, 2], [10, 100], [1, 1], [4, 3],
        doc="out-of-range begin and end clamped")

case("pad", "array", "PAD", [F([2, 3]), C([[1, 0], [2, 1]], "i32")],
     O("f32", [3, 6]), "PadOptions", {})
case("padv2", "array", "PADV2",
     [F([2, 3]), C([[0, 1], [1, 1]], "i32"), C(7.5)], O("f32", [3, 5]),
     "PadV2Options", {})
case("mirror_pad_reflect", "array", "MIRROR_PAD",
     [F([3, 4]), C([[1, 2], [2, 1]], "i32")], O("f32", [6, 7]),
     "MirrorPadOptions", {"mode": "REFLECT"})
case("mirror_pad_symmetric", "array", "MIRROR_PAD",
     [F([3, 4]), C([[1, 3], [2, 4]], "i32")], O("f32", [7, 10]),
     "MirrorPadOptions", {"mode": "SYMMETRIC"})
case("reverse_v2", "array", "REVERSE_V2", [F([2, 3, 4]), C([1], "i32")],
     O("f32", [2, 3, 4]), "ReverseV2Options", {})
case("reverse_v2_two_axes", "array", "REVERSE_V2",
     [F([2, 3, 2]), C([0, 2], "i32")], O("f32", [2, 3, 2]),
     "ReverseV2Options", {})
case("reverse_sequence", "array", "REVERSE_SEQUENCE",
     [F([3, 4, 2]), C([2, 4, 1], "i32")], O("f32", [3, 4, 2]),
     "ReverseSequenceOptions", {"seq_dim": 1, "batch_dim": 0})
case("matrix_diag", "array", "MATRIX_DIAG", [F([2, 3])], O("f32", [2, 3, 3]),
     "MatrixDiagOptions", {})
case("matrix_set_diag", "array", "MATRIX_SET_DIAG", [F([2, 3, 4]), F([2, 3])],
     O("f32", [2, 3, 4]), "MatrixSetDiagOptions", {})

# Gathers and scatters.
case("gather", "gather", "GATHER", [F([4, 3]), C([3, 1, 0, 3], "i32")],
     O("f32", [4, 3]), "GatherOptions", {"axis": 0})
case("gather_axis1_2d_indices", "gather", "GATHER",
     [F([2, 4, 3]), C([[3, 0], [1, 1]], "i32")], O("f32", [2, 2, 2, 3]),
     "GatherOptions", {"axis": 1})
case("gather_i64_indices", "gather", "GATHER",
     [F([4, 2]), C([3, 0, 3], "i64")], O("f32", [3, 2]), "GatherOptions",
     {"axis": 0})
case("gather_neg_axis", "gather", "GATHER", [F([2, 4]), C([2, 0], "i32")],
     O("f32", [2, 2]), "GatherOptions", {"axis": -1})
case("gather_batch_dims", "gather", "GATHER",
     [F([2, 4, 3]), C([[0, 3], [2, 1]], "i32")], O("f32", [2, 2, 3]),
     "GatherOptions", {"axis": 1, "batch_dims": 1})
case("gather_batch_dims_axis2", "gather", "GATHER",
     [F([2, 2, 3]), C([[2, 0], [1, 1]], "i32")], O("f32", [2, 2, 2]),
     "GatherOptions", {"axis": 2, "batch_dims": 1})
case("gather_input_indices", "gather", "GATHER",
     [F([5, 2]), I([3], 0, 4)], O("f32", [3, 2]), "GatherOptions",
     {"axis": 0}, doc="indices as a runtime input")
case("gather_nd", "gather", "GATHER_ND",
     [F([3, 4, 2]), C([[0, 1], [2, 3]], "i32")], O("f32", [2, 2]),
     "GatherNdOptions", {})
case("gather_nd_slices", "gather", "GATHER_ND",
     [F([3, 2, 2]), C([[[1]], [[0]]], "i32")], O("f32", [2, 1, 2, 2]),
     "GatherNdOptions", {})
case("scatter_nd", "gather", "SCATTER_ND",
     [C([[1], [3]], "i32"), F([2, 3]), C([4, 3], "i32")], O("f32", [4, 3]),
     "ScatterNdOptions", {})
case("scatter_nd_dup", "gather", "SCATTER_ND",
     [C([[0, 1], [2, 0], [0, 1]], "i32"), F([3]), C([3, 2], "i32")],
     O("f32", [3, 2]), "ScatterNdOptions", {},
     doc="a repeated index sums its updates")
case("embedding_lookup", "gather", "EMBEDDING_LOOKUP",
     [I([3], 0, 3), W([4, 2])], O("f32", [3, 2]))
case("one_hot", "gather", "ONE_HOT",
     [V([[0, 3, -1], [2, 4, 1]], "i32"), C(4, "i32"), C(2.0), C(-1.0)],
     O("f32", [2, 3, 4]), "OneHotOptions", {"axis": -1},
     doc="indices -1 and 4 out of range: all off")
case("one_hot_axis1", "gather", "ONE_HOT",
     [I([2, 3], 0, 2), C(3, "i32"), C(1, "i32"), C(0, "i32")],
     O("i32", [2, 3, 3]), "OneHotOptions", {"axis": 1})
case("unique", "gather", "UNIQUE", [V([3, 1, 3, 0, 1, 1, 7, 0], "i32")],
     [O("i32", [1], [-1]), O("i32", [8])], "UniqueOptions",
     {"idx_out_type": "INT32"})
case("unique_f32", "gather", "UNIQUE",
     [V([0.5, -1, 0.5, 2, -1], "f32")],
     [O("f32", [1], [-1]), O("i32", [5])], "UniqueOptions",
     {"idx_out_type": "INT32"})
case("sparse_to_dense", "gather", "SPARSE_TO_DENSE",
     [C([[0, 1], [2, 3]], "i32"), C([3, 4], "i32"), F([2]), C(0.5)],
     O("f32", [3, 4]), "SparseToDenseOptions", {})
case("bucketize", "gather", "BUCKETIZE", [F([2, 4])], O("i32", [2, 4]),
     "BucketizeOptions", {"boundaries": [-1.0, 0.0, 2.5]})
case("batch_matmul", "gather", "BATCH_MATMUL", [F([2, 2, 3]), F([2, 3, 2])],
     O("f32", [2, 2, 2]), "BatchMatMulOptions", {})
case("batch_matmul_adj_x", "gather", "BATCH_MATMUL",
     [F([2, 3, 2]), F([2, 3, 2])], O("f32", [2, 2, 2]), "BatchMatMulOptions",
     {"adj_x": True})
case("batch_matmul_adj_y_bcast", "gather", "BATCH_MATMUL",
     [F([2, 2, 3]), F([1, 4, 3])], O("f32", [2, 2, 4]), "BatchMatMulOptions",
     {"adj_y": True}, doc="adj_y and a broadcast batch")
case("batch_matmul_adj_both", "gather", "BATCH_MATMUL",
     [F([3, 2]), F([1, 2, 3])], O("f32", [1, 2, 2]), "BatchMatMulOptions",
     {"adj_x": True, "adj_y": True}, doc="a rank-2 and a rank-3 operand")


def boxes(n):
    def gen(rng, nice):
        y = rng.uniform(0, 3, size=n)
        x = rng.uniform(0, 3, size=n)
        h = rng.uniform(0.5, 2, size=n)
        w = rng.uniform(0.5, 2, size=n)
        b = np.stack([y, x, y + h, x + w], axis=1)
        if nice:
            b = np.round(b * 4) / 4
        # Two boxes stored corner-swapped (y2 < y1): TFLite reorders them.
        b[1] = b[1][[2, 3, 0, 1]]
        return b.astype(np.float32)
    return In("f32", [n, 4], gen)


NMS_SCORES = In("f32", [6], lambda rng, nice: rng.permutation(
    np.array([0.9, 0.75, 0.6, 0.5, 0.3, 0.05], dtype=np.float32)))
case("non_max_suppression_v4", "gather", "NON_MAX_SUPPRESSION_V4",
     [boxes(6), NMS_SCORES, C(4, "i32"), C(0.25), C(0.1)],
     [O("i32", [4]), O("i32", [])], "NonMaxSuppressionV4Options", {},
     doc="max 4 boxes, IoU 0.25, score 0.1: padded indices, count")
case("non_max_suppression_v5", "gather", "NON_MAX_SUPPRESSION_V5",
     [boxes(6), NMS_SCORES, C(5, "i32"), C(0.3), C(0.2), C(0.0)],
     [O("i32", [5]), O("f32", [5]), O("i32", [])],
     "NonMaxSuppressionV5Options", {},
     doc="max 5, IoU 0.3, score 0.2, sigma 0: indices, scores, count")
case("non_max_suppression_v5_soft", "gather", "NON_MAX_SUPPRESSION_V5",
     [boxes(6), NMS_SCORES, C(5, "i32"), C(0.5), C(0.2), C(0.5)],
     [O("i32", [5]), O("f32", [5]), O("i32", [])],
     "NonMaxSuppressionV5Options", {}, doc="Soft-NMS, sigma 0.5")


# Full-integer (int8 / uint8) operators: TFLite's integer kernels, exact.
def qconv(name, op, x, w, out, opts, in_q, w_scales, out_q, dtype="i8",
          w_zero=0, bias=True, doc="", seed=0):
    per_channel = isinstance(w_scales, list)
    dim = (3 if op == "DEPTHWISE_CONV_2D" else 0) if per_channel else None
    wq = Q(w_scales, w_zero, dim)
    channels = w[3] if op == "DEPTHWISE_CONV_2D" else w[0]
    bias_scale = [in_q["scale"][0] * s for s in w_scales] if per_channel \
        else in_q["scale"][0] * w_scales
    ins = [QI(x, in_q, dtype), QW(w, wq, dtype, seed)]
    if bias:
        ins.append(QB(channels, bias_scale, seed))
    opt_type = {"CONV_2D": "Conv2DOptions",
                "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
                "FULLY_CONNECTED": "FullyConnectedOptions"}[op]
    case(name, "quant", op, ins, O(dtype, out, quant=out_q), opt_type, opts,
         doc, version=3 if dtype == "i8" else 1)


CONV_OPTS = {"padding": "SAME", "stride_w": 1, "stride_h": 1}
qconv("q_conv_i8_same", "CONV_2D", [1, 6, 6, 4], [5, 3, 3, 4], [1, 6, 6, 5],
      CONV_OPTS, Q(0.05, -3), channel_scales(5, 1), Q(0.12, 7), seed=1)
qconv("q_conv_i8_valid_s2_relu6", "CONV_2D", [1, 7, 7, 3], [4, 3, 3, 3],
      [1, 3, 3, 4], {"padding": "VALID", "stride_w": 2, "stride_h": 2,
                     ACT: "RELU6"},
      Q(0.04, 10), channel_scales(4, 2), Q(0.03, -100), seed=2)
qconv("q_conv_i8_dilated_relu", "CONV_2D", [2, 7, 6, 3], [3, 2, 3, 3],
      [2, 7, 6, 3], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                     "dilation_w_factor": 2, "dilation_h_factor": 2,
                     ACT: "RELU"},
      Q(0.06, 0), channel_scales(3, 3), Q(0.09, -20), seed=3)
qconv("q_conv_i8_per_tensor", "CONV_2D", [1, 5, 5, 2],
      [3, 3, 3, 2], [1, 5, 5, 3], CONV_OPTS, Q(0.05, 5), 0.01, Q(0.04, -5),
      seed=4, doc="one filter scale (TFLite's int8 CONV_2D needs a bias)")
qconv("q_conv_u8", "CONV_2D", [1, 6, 6, 3], [4, 3, 3, 3], [1, 6, 3, 4],
      {"padding": "SAME", "stride_w": 2, "stride_h": 1, ACT: "RELU"},
      Q(0.02, 128), 0.015, Q(0.1, 120), dtype="u8", w_zero=131, seed=5)
qconv("q_depthwise_i8_m2", "DEPTHWISE_CONV_2D", [1, 6, 6, 3],
      [1, 3, 3, 6], [1, 6, 6, 6],
      {"padding": "SAME", "stride_w": 1, "stride_h": 1,
       "depth_multiplier": 2},
      Q(0.05, -7), channel_scales(6, 6), Q(0.07, 3), seed=6)
qconv("q_depthwise_i8_valid_s2_relu6", "DEPTHWISE_CONV_2D", [1, 7, 7, 4],
      [1, 3, 3, 4], [1, 3, 3, 4],
      {"padding": "VALID", "stride_w": 2, "stride_h": 2,
       "depth_multiplier": 1, ACT: "RELU6"},
      Q(0.03, 20), channel_scales(4, 7), Q(0.04, -128), seed=7)
qconv("q_depthwise_u8", "DEPTHWISE_CONV_2D", [1, 5, 5, 2], [1, 3, 3, 2],
      [1, 5, 5, 2],
      {"padding": "SAME", "stride_w": 1, "stride_h": 1,
       "depth_multiplier": 1},
      Q(0.02, 120), 0.01, Q(0.05, 128), dtype="u8", w_zero=127, seed=8)
qconv("q_fully_connected_i8", "FULLY_CONNECTED", [3, 16], [5, 16], [3, 5],
      {}, Q(0.05, -4), 0.012, Q(0.15, 9), seed=9)
qconv("q_fully_connected_i8_per_channel_relu", "FULLY_CONNECTED", [2, 12],
      [6, 12], [2, 6], {ACT: "RELU"}, Q(0.05, 2), channel_scales(6, 10),
      Q(0.1, -30), seed=10)
qconv("q_fully_connected_i8_keep_dims", "FULLY_CONNECTED", [2, 2, 8],
      [3, 8], [2, 2, 3], {"keep_num_dims": True}, Q(0.04, 0), 0.02,
      Q(0.1, 1), seed=11)
qconv("q_fully_connected_u8", "FULLY_CONNECTED", [2, 10], [4, 10], [2, 4],
      {}, Q(0.03, 130), 0.02, Q(0.2, 125), dtype="u8", w_zero=120, seed=12)



def qrounding(name, op, dtype, in_q, w_q, out_q, biases, doc=""):
    """A 1x1 contraction whose input is its zero point and whose filter is
    its zero point plus one, so that each output channel's accumulator is
    its bias: biases picked where TFLite's multiplier or rounding decides
    the last bit."""
    n, typ = len(biases), NP[dtype]
    zi, zw = in_q["zero_point"][0], w_q["zero_point"][0]
    conv = op != "FULLY_CONNECTED"
    xs = [1, 1, 1, n if op == "DEPTHWISE_CONV_2D" else 1] if conv else [1, 1]
    ws = {"CONV_2D": [n, 1, 1, 1], "DEPTHWISE_CONV_2D": [1, 1, 1, n],
          "FULLY_CONNECTED": [n, 1]}[op]
    bias_scale = float(np.float32(np.float32(in_q["scale"][0]) *
                                  np.float32(w_q["scale"][0])))
    ins = [In(dtype, xs, lambda rng, nice: np.full(xs, zi, typ), in_q),
           Const(np.full(ws, zw + 1, typ), dtype, ws, w_q),
           Const(np.array(biases, np.int32), "i32", [n], Q(bias_scale))]
    opt_type, opts = {
        "CONV_2D": ("Conv2DOptions", dict(CONV_OPTS)),
        "DEPTHWISE_CONV_2D": ("DepthwiseConv2DOptions",
                              dict(CONV_OPTS, depth_multiplier=1)),
        "FULLY_CONNECTED": ("FullyConnectedOptions", {})}[op]
    case(name, "quant", op, ins,
         O(dtype, [1, 1, 1, n] if conv else [1, n], quant=out_q), opt_type,
         opts, doc, version=3 if dtype == "i8" else 1)


# TFLite's scalar multiplier (uint8, per-tensor FULLY_CONNECTED) is
# QuantizeMultiplier(double(float(input scale * filter scale)) / output
# scale); the second bias of each is an accumulator where the product in
# double gives another last bit. The first is one where ruy's single
# rounding (int8 GEMMs) and gemmlowp's two (uint8) differ.
qrounding("q_conv_u8_scalar_multiplier", "CONV_2D", "u8",
          Q(0.005298770498484373, 100), Q(0.014043308794498444, 120),
          Q(0.19345097243785858, 128), [61093, 289868],
          doc="uint8 CONV_2D: the float scale product decides output 1")
qrounding("q_conv_u8_scalar_multiplier_2", "CONV_2D", "u8",
          Q(0.03101099655032158, 100), Q(0.019255341961979866, 120),
          Q(1.2986725568771362, 128), [118530, 244672])
qrounding("q_depthwise_u8_scalar_multiplier", "DEPTHWISE_CONV_2D", "u8",
          Q(0.005298770498484373, 100), Q(0.014043308794498444, 120),
          Q(0.19345097243785858, 128), [61093, 289868])
qrounding("q_fully_connected_u8_scalar_multiplier", "FULLY_CONNECTED", "u8",
          Q(0.03101099655032158, 100), Q(0.019255341961979866, 120),
          Q(1.2986725568771362, 128), [118530, 244672])
qrounding("q_fully_connected_i8_single_rounding", "FULLY_CONNECTED", "i8",
          Q(0.036171671003103256, -20), Q(0.018543675541877747, 0),
          Q(1.0836807489395142, 0), [-28273],
          doc="int8 per-tensor FULLY_CONNECTED rounds once (ruy)")
qrounding("q_fully_connected_i8_single_rounding_2", "FULLY_CONNECTED", "i8",
          Q(0.047867778688669205, -20), Q(0.00677042780444026, 0),
          Q(0.7841598391532898, 0), [-170582])

def qbinary(name, op, a, b, out, qa, qb, qo, act=None, dtype="i8"):
    opt_type = {"ADD": "AddOptions", "SUB": "SubOptions",
                "MUL": "MulOptions"}[op]
    case(name, "quant", op, [QI(a, qa, dtype), QI(b, qb, dtype)],
         O(dtype, out, quant=qo), opt_type, {ACT: act} if act else {},
         version=2)


qbinary("q_add_i8", "ADD", [2, 3, 4], [2, 3, 4], [2, 3, 4], Q(0.05, -3),
        Q(0.08, 10), Q(0.1, -1))
qbinary("q_add_i8_bcast_relu", "ADD", [2, 1, 5], [3, 1], [2, 3, 5],
        Q(0.02, 4), Q(0.07, -20), Q(0.06, -60), "RELU")
qbinary("q_sub_i8", "SUB", [3, 4], [4], [3, 4], Q(0.05, 0), Q(0.03, 7),
        Q(0.07, 2))
qbinary("q_add_u8_relu6", "ADD", [4, 6], [4, 6], [4, 6], Q(0.03, 128),
        Q(0.05, 120), Q(0.05, 110), "RELU6", dtype="u8")
qbinary("q_mul_i8_bcast", "MUL", [2, 3, 4], [4], [2, 3, 4], Q(0.05, -3),
        Q(0.04, 5), Q(0.02, 1))
qbinary("q_mul_u8", "MUL", [3, 5], [3, 5], [3, 5], Q(0.03, 130),
        Q(0.02, 125), Q(0.01, 128), dtype="u8")


def qpool(name, op, shape, out, padding, f, s, q, act=None, dtype="i8"):
    opts = {"padding": padding, "stride_w": s[1], "stride_h": s[0],
            "filter_width": f[1], "filter_height": f[0]}
    if act:
        opts[ACT] = act
    case(name, "quant", op, [QI(shape, q, dtype)], O(dtype, out, quant=q),
         "Pool2DOptions", opts, version=2)


qpool("q_avg_pool_i8_same_s2", "AVERAGE_POOL_2D", [1, 5, 5, 3],
      [1, 3, 3, 3], "SAME", (3, 3), (2, 2), Q(0.05, -5))
qpool("q_avg_pool_u8_valid_relu6", "AVERAGE_POOL_2D", [1, 6, 6, 2],
      [1, 3, 3, 2], "VALID", (2, 2), (2, 2), Q(0.05, 128), "RELU6", "u8")
qpool("q_max_pool_i8_same_relu", "MAX_POOL_2D", [1, 5, 5, 2],
      [1, 3, 3, 2], "SAME", (3, 3), (2, 2), Q(0.05, 10), "RELU")
qpool("q_max_pool_u8_valid", "MAX_POOL_2D", [1, 6, 6, 2], [1, 3, 3, 2],
      "VALID", (2, 2), (2, 2), Q(0.1, 100), dtype="u8")

case("q_quantize_f32_i8", "quant", "QUANTIZE", [F([4, 8], -6, 6)],
     O("i8", [4, 8], quant=Q(0.1, -3)), doc="float -> int8")
case("q_quantize_f32_u8", "quant", "QUANTIZE", [F([4, 8], -3, 10)],
     O("u8", [4, 8], quant=Q(0.05, 60)), doc="float -> uint8")
case("q_quantize_i8_u8", "quant", "QUANTIZE", [QI([4, 8], Q(0.05, -3))],
     O("u8", [4, 8], quant=Q(0.05, 125)), version=2,
     doc="int8 -> uint8 requantization")
case("q_quantize_i8_i8", "quant", "QUANTIZE", [QI([4, 8], Q(0.05, -3))],
     O("i8", [4, 8], quant=Q(0.07, 10)), version=2,
     doc="int8 -> int8 of another scale")
case("q_dequantize_i8", "quant", "DEQUANTIZE", [QI([3, 4], Q(0.05, -3))],
     O("f32", [3, 4]), version=2)
case("q_logistic_i8", "quant", "LOGISTIC", [QI([4, 16], Q(0.06, -10))],
     O("i8", [4, 16], quant=Q(1 / 256, -128)), version=2)
case("q_tanh_i8", "quant", "TANH", [QI([4, 16], Q(0.03, 5))],
     O("i8", [4, 16], quant=Q(1 / 128, 0)), version=2)
case("q_reshape_i8", "quant", "RESHAPE",
     [QI([2, 6], Q(0.05, -3)), C([3, 4], "i32")],
     O("i8", [3, 4], quant=Q(0.05, -3)))
case("q_squeeze_i8", "quant", "SQUEEZE", [QI([1, 3, 1, 2], Q(0.05, 7))],
     O("i8", [3, 2], quant=Q(0.05, 7)), "SqueezeOptions", {})
case("q_concatenation_i8", "quant", "CONCATENATION",
     [QI([2, 3], Q(0.05, -3)), QI([2, 2], Q(0.05, -3))],
     O("i8", [2, 5], quant=Q(0.05, -3)), "ConcatenationOptions",
     {"axis": 1}, version=2)
case("q_pad_i8", "quant", "PAD",
     [QI([2, 3], Q(0.05, -9)), C([[1, 0], [0, 2]], "i32")],
     O("i8", [3, 5], quant=Q(0.05, -9)), version=2,
     doc="the padding is the zero point")
case("q_padv2_u8", "quant", "PADV2",
     [QI([2, 2], Q(0.05, 100), "u8"), C([[0, 1], [1, 1]], "i32"),
      Const([77], "u8", [], Q(0.05, 100))],
     O("u8", [3, 4], quant=Q(0.05, 100)))

def qmean(name, shape, axes, keep, out, qi, qo, dtype="i8", doc=""):
    case(name, "quant", "MEAN", [QI(shape, qi, dtype), C(axes, "i32")],
         O(dtype, out, quant=qo), "ReducerOptions", {"keep_dims": keep},
         doc, version=2)


# MEAN: TFLite's 4-D mean over H and W with keep_dims (its optimized
# integer kernel), the general quantized mean, and the ordinary mean of one
# scale and zero point in and out.
qmean("q_mean_i8_hw_keep", [1, 5, 5, 8], [1, 2], True, [1, 1, 1, 8],
      Q(0.05, -3), Q(0.02, 5))
qmean("q_mean_i8_hw_keep_7x7", [2, 7, 7, 16], [2, 1], True, [2, 1, 1, 16],
      Q(0.1, 10), Q(0.03, -20), doc="axes [2, 1], 49 elements")
qmean("q_mean_i8_hw_keep_one_scale", [1, 4, 6, 5], [1, 2], True, [1, 1, 1, 5],
      Q(0.05, -3), Q(0.05, -3))
qmean("q_mean_i8_hw_keep_small_out", [1, 3, 3, 6], [1, 2], True,
      [1, 1, 1, 6], Q(0.04, 7), Q(0.005, -2),
      doc="an output scale below the input's: saturation")
qmean("q_mean_u8_hw_keep", [2, 4, 3, 5], [1, 2], True, [2, 1, 1, 5],
      Q(0.03, 128), Q(0.01, 120), "u8")
qmean("q_mean_i8_hw_keep_neg_axes", [1, 4, 5, 6], [-3, -2], True,
      [1, 1, 1, 6], Q(0.05, -3), Q(0.02, 5),
      doc="axes [-3, -2]: TFLite's 4-D kernel takes [1, 2] only")
qmean("q_mean_i8_hw", [1, 4, 4, 6], [1, 2], False, [1, 6],
      Q(0.05, -3), Q(0.02, 5), doc="without keep_dims: the general kernel")
qmean("q_mean_i8_last", [3, 4, 7], [-1], False, [3, 4], Q(0.07, 12),
      Q(0.03, -9))
qmean("q_mean_i8_last_one_scale", [3, 4, 7], [2], False, [3, 4], Q(0.05, 4),
      Q(0.05, 4))
qmean("q_mean_i8_axes02_keep", [3, 5, 4], [0, 2], True, [1, 5, 1],
      Q(0.06, -30), Q(0.05, 11))
qmean("q_mean_i8_all", [2, 3, 5], [0, 1, 2], False, [], Q(0.08, 0),
      Q(0.01, -100))
qmean("q_mean_u8_axis0", [6, 5], [0], False, [5], Q(0.02, 100),
      Q(0.03, 140), "u8")
qmean("q_mean_u8_one_scale_keep", [2, 5, 3], [1], True, [2, 1, 3], Q(0.02, 130),
      Q(0.02, 130), "u8")

def qsoftmax(name, shape, beta, qi, qo, dtype="i8", out="i8", doc=""):
    case(name, "quant", "SOFTMAX", [QI(shape, qi, dtype)],
         O(out, shape, quant=qo), "SoftmaxOptions", {"beta": beta}, doc,
         version=2 if out == dtype else 3)


# SOFTMAX: TFLite's optimized kernel (a float table of exp over the 256
# differences from the row's maximum); TFLite requires these output
# parameters.
P8, P8U, P16 = Q(1 / 256, -128), Q(1 / 256, 0), Q(1 / 32768, 0)
qsoftmax("q_softmax_i8", [3, 10], 1.0, Q(0.1, 5), P8)
qsoftmax("q_softmax_i8_beta", [2, 3, 7], 0.5, Q(0.05, -20), P8,
         doc="beta 0.5, rank 3")
qsoftmax("q_softmax_i8_sharp", [4, 16], 2.0, Q(0.25, 0), P8,
         doc="large logits: most outputs saturate")
qsoftmax("q_softmax_i8_flat", [2, 33], 1.0, Q(0.01, -3), P8,
         doc="small logits over 33 classes")
qsoftmax("q_softmax_i8_1d", [12], 0.7, Q(0.08, 10), P8)
qsoftmax("q_softmax_u8", [3, 9], 1.0, Q(0.06, 128), P8U, "u8", "u8")
qsoftmax("q_softmax_u8_beta", [2, 2, 20], 1.5, Q(0.02, 100), P8U, "u8",
         "u8")
qsoftmax("q_softmax_i8_i16", [3, 11], 1.0, Q(0.1, -7), P16, "i8", "i16",
         doc="int8 in, int16 out")
qsoftmax("q_softmax_i8_i16_beta", [2, 25], 0.3, Q(0.2, 30), P16, "i8",
         "i16")
qsoftmax("q_softmax_u8_i16", [2, 9], 1.0, Q(0.05, 100), P16, "u8", "i16",
         doc="uint8 in, int16 out")

FAMILIES = {
    "elementwise": "elementwise binary operators, fused activations, "
                   "broadcasting, integer division",
    "activations": "unary operators and activations",
    "compare": "comparisons, logical operators, SELECT and WHERE",
    "conv": "convolutions and FULLY_CONNECTED",
    "pool": "pools", "resize": "resizes",
    "reduce": "reductions, ARG_MAX/ARG_MIN, TOPK_V2, CUMSUM, segments",
    "shape": "shapes, layouts, CAST and DEQUANTIZE",
    "array": "concatenation, splits, packs, slices and pads",
    "gather": "gathers, scatters, ONE_HOT, UNIQUE, BATCH_MATMUL and NMS",
    "quant": "full-integer (int8 / uint8) operators, exact",
}

# ---- Models -------------------------------------------------------------


def seed_of(name, mode):
    return int(hashlib.sha256((name + "/" + mode).encode()).hexdigest()[:8],
               16)


def build(c, mode):
    """The case's JSON model (tflite-from-json.py's form) and its inputs."""
    rng = np.random.default_rng(seed_of(c.name, mode))
    nice = mode == "nice"
    tensors, buffers, inputs, npy = [], [{}], [], {}
    op_inputs = []
    for i, t in enumerate(c.ins):
        if t is None:
            op_inputs.append(-1)
            continue
        entry = {"shape": t.shape, "type": TYPES[t.dtype]}
        if isinstance(t, Const):
            entry["buffer"] = len(buffers)
            entry["name"] = "c%d" % i
            buffers.append({t.dtype: t.values})
            if t.quant:
                entry["quantization"] = t.quant
        else:
            entry["name"] = "x%d" % i
            values = np.asarray(t.gen(rng, nice), dtype=NP[t.dtype])
            assert list(values.shape) == t.shape, (c.name, values.shape)
            inputs.append(len(tensors))
            file = "%s.x%d.npy" % (c.name, i)
            npy[file] = {"dtype": t.dtype, "shape": t.shape,
                         "values": [v.item() for v in values.reshape(-1)]}
            if t.quant:
                entry["quantization"] = t.quant
        op_inputs.append(len(tensors))
        tensors.append(entry)
    outputs, op_outputs, casts = [], [], []
    for i, o in enumerate(c.outs):
        entry = {"shape": o.shape, "type": TYPES[o.dtype], "name": "y%d" % i}
        if o.quant:
            entry["quantization"] = o.quant
        if o.signature is not None:
            entry["shape_signature"] = o.signature
        op_outputs.append(len(tensors))
        if o.dtype == "i64":
            # tfjs-tflite cannot expose int64: CAST it to int32.
            entry["name"] = "y%d_i64" % i
            tensors.append(entry)
            cast = dict(entry, type="INT32", name="y%d" % i)
            casts.append((len(tensors) - 1, len(tensors)))
            outputs.append(len(tensors))
            tensors.append(cast)
        else:
            outputs.append(len(tensors))
            tensors.append(entry)
    codes = [{"opcode": c.op}]
    if c.version != 1:
        codes[0]["version"] = c.version
    operator = {"opcode_index": 0, "inputs": op_inputs,
                "outputs": op_outputs}
    if c.opt_type:
        operator["builtin_options_type"] = c.opt_type
        operator["builtin_options"] = c.opts or {}
    operators = [operator]
    if casts:
        codes.append({"opcode": "CAST"})
        for src, dst in casts:
            operators.append({"opcode_index": 1, "inputs": [src],
                              "outputs": [dst],
                              "builtin_options_type": "CastOptions",
                              "builtin_options": {"in_data_type": "INT64",
                                                  "out_data_type": "INT32"}})
    model = {"version": 3, "operator_codes": codes,
             "subgraphs": [{"tensors": tensors, "inputs": inputs,
                            "outputs": outputs, "operators": operators}],
             "buffers": buffers}
    if npy:
        model["npy"] = npy
    return model


# ---- Running ------------------------------------------------------------

_REFERENCE = None


def reference_script(tmp):
    """tflite-reference.js, reading the outputs after Infer: its tensor
    objects, taken before the run, keep the shape and data of a dynamic
    output (WHERE, UNIQUE) as they were before it."""
    global _REFERENCE
    if _REFERENCE:
        return _REFERENCE
    text = open(REFERENCE).read()
    old = "  const outputs = outputTensors.map((t) => t.data().slice());\n"
    new = ("  const fresh = vectorToArray(runner.GetOutputs());\n"
           "  meta.outputs = fresh.map(tensorInfo);\n"
           "  const outputs = fresh.map((t) => t.data().slice());\n")
    if old in text:
        text = text.replace(old, new)
        path = os.path.join(tmp, "tflite-reference.js")
        with open(path, "w") as f:
            f.write(text)
        _REFERENCE = path
    else:
        _REFERENCE = REFERENCE
    return _REFERENCE


def first_error(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower():
            return l
    return lines[0] if lines else "(no output)"


def compare(ours, ref):
    """None when equal within the tolerance, else what differs."""
    if ours.shape != ref.shape:
        return "shape %s, TFLite %s" % (list(ours.shape), list(ref.shape))
    if ref.dtype.kind == "f":
        if ours.dtype.kind != "f":
            return "dtype %s, TFLite %s" % (ours.dtype, ref.dtype)
        a, b = ours.astype(np.float64), ref.astype(np.float64)
        nan = np.isnan(a) & np.isnan(b)
        err = np.where(nan, 0, np.abs(a - b))
        bad = ~(err <= 1e-5 + 1e-4 * np.abs(b))
        if not bad.any():
            return None
        at = np.unravel_index(np.argmax(bad), bad.shape) if bad.ndim else ()
        return "max error %.3g at %d elements; first at %s: ours %r, " \
               "TFLite %r" % (np.nanmax(np.where(nan, 0, err)), bad.sum(),
                              list(map(int, at)), a[at].item(),
                              b[at].item())
    if ours.dtype.kind == "f" and ref.dtype.kind != "f":
        return "dtype %s, TFLite %s" % (ours.dtype, ref.dtype)
    bad = ours.astype(np.int64) != ref.astype(np.int64)
    if not bad.any():
        return None
    at = np.unravel_index(np.argmax(bad), bad.shape) if bad.ndim else ()
    return "%d elements differ; first at %s: ours %r, TFLite %r" % (
        bad.sum(), list(map(int, at)), ours[at].item(), ref[at].item())


def run_case(c, mode, work):
    d = os.path.join(work, c.name + "." + mode)
    os.makedirs(d, exist_ok=True)
    model = build(c, mode)
    source = os.path.join(d, c.name + ".json")
    with open(source, "w") as f:
        json.dump(model, f)
    tflite = os.path.join(d, "model.tflite")
    r = subprocess.run([sys.executable, FROM_JSON, source, tflite],
                       capture_output=True, text=True)
    if r.returncode:
        return "SCRIPT-ERROR", "tflite-from-json: " + first_error(r.stderr), \
            model, None
    files = [os.path.join(d, n) for n in model.get("npy", {})]
    ref_dir, ours_dir = os.path.join(d, "tflite"), os.path.join(d, "ours")
    env = dict(os.environ)
    env["NODE_PATH"] = os.path.join(CACHE, "tflite", "node_modules")
    cmd = [os.environ.get("NODE", "node"), reference_script(work), tflite,
           ref_dir, "--runs", "1"]
    for i, f in enumerate(files):
        cmd += ["--input", "%d=%s" % (i, f)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode:
        try:
            message = json.load(open(os.path.join(ref_dir, "meta.json")))[
                "error"]
        except (OSError, ValueError, KeyError):
            message = first_error(r.stderr)
        return "TFLITE-ERROR", message, model, None
    meta = json.load(open(os.path.join(ref_dir, "meta.json")))
    cmd = [os.path.join(BIN, "fallback-run"), tflite, "--threads=1",
           "--output-dir=" + ours_dir] + ["--input=" + f for f in files]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return "OURS-ERROR", first_error(r.stderr + r.stdout), model, None
    refs = [np.load(os.path.join(ref_dir, "output_%d.npy" % i))
            for i in range(len(meta["outputs"]))]
    problems, ours = [], []
    for i, ref in enumerate(refs):
        path = os.path.join(ours_dir, "output_%d.npy" % i)
        if not os.path.exists(path):
            problems.append("output %d: ours is missing" % i)
            continue
        ours.append(np.load(path))
        why = compare(ours[-1], ref)
        if why:
            problems.append("output %d: %s" % (i, why))
    declared = [o.signature or o.shape for o in c.outs]
    for i, ref in enumerate(refs):
        if i < len(declared) and not c.outs[i].signature and \
                list(ref.shape) != declared[i]:
            problems.append("output %d: the table declares %s, TFLite "
                            "computes %s" % (i, declared[i], list(ref.shape)))
    if problems:
        return "FAIL", "; ".join(problems), model, refs
    return "PASS", "", model, (refs, ours)


# ---- Freezing into lit tests --------------------------------------------


def format_float(v):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "-inf" if v < 0 else "inf"
    s = "%.6g" % v
    if "." not in s and "e" not in s:
        s += "."
    return s


class FreezeError(Exception):
    pass


def pattern_float(v, ours):
    """The FileCheck pattern of TFLite's float v as fallback-run prints it
    ("%.6g"): the text itself when it is v exactly; else (and where ours
    prints otherwise) its digits up to the last, or as many last digits as
    ours differs in within the tolerance, match any digits. ours: our
    value, which must match."""
    s, t = format_float(v), format_float(ours)
    if v == 0 and ours == 0:
        return "{{-?}}0."
    m = re.match(r"^(-?)([0-9.]+)(e.*)?$", s)
    if not m or s in ("nan", "inf", "-inf"):
        if s == t:
            return s
        raise FreezeError("TFLite %s, ours %s" % (s, t))
    sign, mantissa, exp = m.group(1), m.group(2), m.group(3) or ""
    digits = len(mantissa.replace(".", "").lstrip("0"))
    if s == t and (float(s) == v or digits < 6):
        # Exact, or the float nearest a short decimal ("4.6").
        return s
    if digits < 6 and "." in mantissa:
        mantissa += "0" * (6 - digits)
        digits = 6
    for drop in range(1, digits - 1):
        head = mantissa[:-drop]
        if "." not in head:
            # Digits before the point: keep the point literal.
            pattern = None
            break
        pattern = sign + head + "{{[0-9]*}}" + exp
        regex = re.escape(sign + head) + "[0-9]*" + re.escape(exp)
        if re.fullmatch(regex, t):
            return pattern
    raise FreezeError("TFLite %s, ours %s: no common digits" % (s, t))


def printed_lines(a, ours):
    """fallback-run's text of a result (Tensor::debugString), TFLite's
    values a, as FileCheck patterns of its lines; ours: our result of the
    same shape, which the float patterns must match."""
    flat, ours_flat = a.reshape(-1), ours.reshape(-1)
    kind = a.dtype.kind

    def element(i):
        v = flat[i]
        if kind == "b":
            return "True" if v else "False"
        if kind in "iu":
            return "%d" % v
        return pattern_float(float(v), float(ours_flat[i]))

    def render(axis, offset, strides):
        rank = a.ndim
        if axis == rank:
            return element(offset)
        sep = "," + (" " if axis == rank - 1 else
                     "\n" * (rank - 1 - axis) + " " * (axis + 1))
        parts = [render(axis + 1, offset + i * strides[axis], strides)
                 for i in range(a.shape[axis])]
        return "[" + sep.join(parts) + "]"

    strides, s = [], 1
    for dim in reversed(a.shape):
        strides.insert(0, s)
        s *= dim
    return render(0, 0, strides).split("\n")


def check_text(line):
    """A printed line as a FileCheck pattern: '[[' opens a variable, so runs
    of brackets become a regex."""
    def brackets(m):
        return "{{" + "\\" + "\\".join(m.group(0)) + "}}"
    # Split off the {{...}} regexes of inexact elements first.
    out, rest = "", line
    while rest:
        i = rest.find("{{")
        chunk = rest if i < 0 else rest[:i]
        out += re.sub(r"\[\[+", brackets, chunk)
        if i < 0:
            break
        j = rest.index("}}", i) + 2
        out += rest[i:j]
        rest = rest[j:]
    return out


MLIR_TYPES = {"float32": "f32", "int32": "i32", "bool": "i1", "int8": "i8",
              "uint8": "ui8", "float16": "f16", "int64": "i64",
              "int16": "i16"}


def tensor_type(a):
    dims = "x".join(str(d) for d in a.shape)
    return "tensor<%s%s>" % (dims + "x" if dims else "",
                             MLIR_TYPES[str(a.dtype)])


def wrap_json(line, width=96):
    """A JSON line wrapped at its spaces (none are inside strings here)."""
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, width, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False,
                         drop_whitespace=True)


def json_lines(model):
    """A compact, readable JSON of the model: one tensor or operator a
    line, long ones wrapped."""
    lines = []
    for line in json_lines_unwrapped(model):
        lines += wrap_json(line) if len(line) > 96 else [line]
    return lines


def json_lines_unwrapped(model):
    sg = model["subgraphs"][0]
    dump = lambda v: json.dumps(v)
    lines = ['{"version": 3, "operator_codes": %s,' %
             dump(model["operator_codes"]),
             ' "subgraphs": [{"inputs": %s, "outputs": %s, "tensors": [' %
             (dump(sg["inputs"]), dump(sg["outputs"]))]
    for i, t in enumerate(sg["tensors"]):
        lines.append("   " + dump(t) + ("," if i + 1 < len(sg["tensors"])
                                        else "],"))
    lines.append('  "operators": [')
    for i, op in enumerate(sg["operators"]):
        lines.append("   " + dump(op) + ("," if i + 1 < len(sg["operators"])
                                         else "]}],"))
    bufs = model["buffers"]
    end = "," if "npy" in model else "}"
    if len(bufs) == 1:
        lines.append(' "buffers": [{}]' + end)
    else:
        lines.append(' "buffers": [{},')
        for i, b in enumerate(bufs[1:]):
            lines.append("   " + dump(b) + ("," if i + 2 < len(bufs)
                                            else "]" + end))
    if "npy" in model:
        items = list(model["npy"].items())
        lines.append(' "npy": {')
        for i, (k, v) in enumerate(items):
            lines.append("   %s: %s%s" % (dump(k), dump(v),
                                          "," if i + 1 < len(items)
                                          else "}}"))
    return lines


def describe(c):
    opts = ""
    if c.opts:
        opts = " " + ", ".join("%s=%s" % (k, json.dumps(v))
                               for k, v in c.opts.items())
    return "%s%s%s" % (c.op, opts, ("; " + c.doc) if c.doc else "")


def run_lines(words):
    """A RUN line of these words, continued with a backslash past 98
    columns."""
    lines, line = [], "// RUN:"
    for w in words:
        if len(line) + len(w) + 3 > 98 and line.strip() != "// RUN:":
            lines.append(line + " \\")
            line = "// RUN: "
        line += " " + w
    return lines + [line]


def check_lines(prefix, pattern):
    """PREFIX-NEXT: pattern, its tail in PREFIX-SAME lines past 98
    columns (split after the commas between elements)."""
    lines, kind, rest = [], "NEXT", pattern
    while True:
        head = "// %s-%s: " % (prefix, kind)
        if len(head) + len(rest) <= 98 or ", " not in rest:
            return lines + [head + rest]
        cut = rest.rfind(", ", 0, max(98 - len(head), 1))
        if cut < 0:
            cut = rest.find(", ")
        lines.append(head + rest[:cut + 1])
        rest, kind = rest[cut + 2:], "SAME"


def freeze(results):
    """Writes test/Import/tflite-builtins-<family>[-N].test of the passing
    nice cases."""
    by_family = {}
    for c, (status, _, model, extra) in results:
        if status == "PASS":
            by_family.setdefault(c.family, []).append((c, model, *extra))
    test_dir = os.path.join(ROOT, "test", "Import")
    for name in os.listdir(test_dir):
        if name.startswith("tflite-builtins-") and name.endswith(".test"):
            os.remove(os.path.join(test_dir, name))
    written = []
    for family, items in by_family.items():
        sections = []
        for c, model, refs, ours in items:
            prefix = c.name.upper().replace("_", "-")
            files = list(model.get("npy", {}))
            run = ["// " + l for l in textwrap.wrap(
                describe(c), 93, break_on_hyphens=False)]
            run += run_lines([
                "%python", "%S/Inputs/tflite-from-json.py",
                "%%t/%s.json" % c.name, "%%t/%s.tflite" % c.name])
            run += run_lines(["fallback-run", "%%t/%s.tflite" % c.name] + [
                "--input=%%t/%s" % f for f in files] + [
                "| FileCheck %s", "--check-prefix=" + prefix])
            checks = []
            for i, ref in enumerate(refs):
                checks.append("// %s%s: result #%d: %s" % (
                    prefix, "" if i == 0 else "-NEXT", i, tensor_type(ref)))
                try:
                    lines = printed_lines(ref, ours[i])
                except FreezeError as e:
                    print("cannot freeze %s: %s" % (c.name, e))
                    checks = None
                    break
                for line in lines:
                    if line.strip():
                        checks += check_lines(prefix,
                                              check_text(line.lstrip()))
                    else:
                        checks.append("// %s-EMPTY:" % prefix)
            if checks is None:
                continue
            body = ["//--- %s.json" % c.name] + json_lines(model)
            sections.append((run + checks, body))
        # Split a family into files of under 400 lines, evenly.
        sizes = [len(s[0]) + len(s[1]) + 2 for s in sections]
        count = 1
        while True:
            target = sum(sizes) / count
            chunks, current, size = [], [], 0
            for s, n in zip(sections, sizes):
                if current and size + n > target + 20 and \
                        len(chunks) + 1 < count:
                    chunks.append(current)
                    current, size = [], 0
                current.append(s)
                size += n
            chunks.append(current)
            if all(sum(len(s[0]) + len(s[1]) + 2 for s in ch) < 380
                   for ch in chunks):
                break
            count += 1
        for k, chunk in enumerate(chunks):
            name = "tflite-builtins-%s%s.test" % (
                family, "" if len(chunks) == 1 else "-%d" % (k + 1))
            path = os.path.join(ROOT, "test", "Import", name)
            header = (
                "TFLite builtin operators against TFLite itself: %s. The "
                "expected values are the outputs of %s, XNNPACK off, on "
                "these inputs; written by test/Import/Inputs/"
                "tflite-conformance.py --freeze (a rounded value matches "
                "any last digit, or the last few where ours differs within "
                "1e-4)." % (FAMILIES[family], RUNTIME))
            lines = ["// " + l for l in textwrap.wrap(
                header, 93, break_on_hyphens=False)] + [
                "// RUN: rm -rf %t && split-file %s %t", ""]
            for head, _ in chunk:
                lines += head + [""]
            for _, body in chunk:
                lines += body + [""]
            with open(path, "w") as f:
                f.write("\n".join(lines).rstrip("\n") + "\n")
            written.append(name)
    return written


# ---- Main ---------------------------------------------------------------


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mode", choices=["random", "nice", "both"],
                   default="both")
    p.add_argument("--filter", default="")
    p.add_argument("--keep")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    p.add_argument("--freeze", action="store_true")
    p.add_argument("--list", action="store_true")
    args = p.parse_args()
    names = [c.name for c in CASES]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, dup
    cases = [c for c in CASES if re.search(args.filter, c.name)]
    if args.list:
        for c in cases:
            print("%-36s %s" % (c.name, describe(c)))
        return 0
    modes = ["random", "nice"] if args.mode == "both" else [args.mode]
    if args.freeze:
        if args.filter:
            p.error("--freeze writes every case's test: no --filter")
        modes = ["nice"]
    work = args.keep or tempfile.mkdtemp(prefix="tflite-conformance-")
    os.makedirs(work, exist_ok=True)
    reference_script(work)
    counts = {}
    results = {m: [] for m in modes}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [(m, c, pool.submit(run_case, c, m, work))
                for m in modes for c in cases]
        for m, c, job in jobs:
            status, message, model, extra = job.result()
            results[m].append((c, (status, message, model, extra)))
            counts[(m, status)] = counts.get((m, status), 0) + 1
            print("%-13s %-6s %-36s %s" % (status, m, c.name, message),
                  flush=True)
    for m in modes:
        print("%s: %d cases: %s" % (m, len(cases), ", ".join(
            "%d %s" % (counts[(mm, s)], s) for (mm, s) in sorted(counts)
            if mm == m)))
    if args.freeze:
        for name in freeze(results["nice"]):
            print("wrote test/Import/" + name)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
