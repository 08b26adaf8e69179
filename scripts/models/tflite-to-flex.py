#!/usr/bin/python3
"""Rewrites a .tflite model's builtin operators as Flex (Select TF) ops.

usage: tflite-to-flex.py IN.tflite OUT.tflite [--ops ADD,MUL,...]
                         [--fold-f16] [--minimal-attrs] [--quiet]

Writes OUT as TensorFlow's converter writes Select TF ops
(tf.lite.OpsSet.SELECT_TF_OPS): the operator's code is {builtin_code
CUSTOM (the deprecated byte 32), custom_code "Flex<Op>"}, its
custom_options_format FLEXBUFFERS and its custom_options the FlexBuffer
vector [op name (string), serialized NodeDef (a FlexBuffer *string*:
TF's flex delegate reads v[1].AsString())]. The NodeDef has a name, the op,
its inputs ("tensor" names) and every attribute of TF's OpDef, defaults
included, with TF's types (tensorflow/core/ops/*.cc); --minimal-attrs
leaves out those whose value is the OpDef's default (a NodeDef TF accepts
as well: its op registry adds them).

--ops names the builtins to rewrite (default: every one below); an
operator is rewritten only when TF's op computes exactly what TFLite's
kernel does: float or integer tensors without quantization parameters, and
options TF can express. A fused activation becomes its own Flex op
(Relu, Relu6, Tanh) on a new intermediate tensor; RELU_N1_TO_1 and SIGN_BIT
keep the operator builtin.

  ADD AddV2, SUB Sub, MUL Mul, DIV RealDiv (float), MAXIMUM Maximum,
  MINIMUM Minimum, SQUARED_DIFFERENCE SquaredDifference, LOGISTIC Sigmoid,
  TANH Tanh, RELU Relu, RELU6 Relu6, EXP Exp, SOFTMAX Softmax (beta 1),
  DEQUANTIZE Cast (float16 -> float32 only), RESHAPE Reshape (a shape
  constant from new_shape, else the output's shape, when the op has no
  shape input), TRANSPOSE Transpose, CONCATENATION ConcatV2 (an axis
  constant; two inputs or more), MEAN Mean, SUM Sum, REDUCE_MAX Max,
  PAD Pad, PADV2 PadV2, MAX_POOL_2D MaxPool, AVERAGE_POOL_2D AvgPool,
  RESIZE_BILINEAR ResizeBilinear, DEPTH_TO_SPACE DepthToSpace,
  STRIDED_SLICE StridedSlice (not `offset`), SPLIT Split, PACK Pack,
  UNPACK Unpack, CONV_2D Conv2D + BiasAdd (filter OHWI -> HWIO; no grouped
  convolution), DEPTHWISE_CONV_2D DepthwiseConv2dNative + BiasAdd (filter
  [1,H,W,C*M] -> [H,W,C,M]), FULLY_CONNECTED MatMul (transpose_b) +
  BiasAdd, with Reshape ops around it when the input is not [batch, depth]
  or keep_num_dims.

PRELU, HARD_SWISH, DENSIFY and the custom ops have no TF op of the same
semantics and stay as they are.

A constant filter is transposed (or reshaped) into a new buffer. A filter
that is the DEQUANTIZE of a float16 constant gets a float16 constant in the
new layout and a DEQUANTIZE of its own (then rewritten like any other
DEQUANTIZE); DEQUANTIZE ops left without consumers are dropped. --fold-f16
first replaces every DEQUANTIZE of a float16 constant by a float32
constant. Any other filter gets a Flex Transpose (Reshape) at run time.
Unused tensors, buffers' data and operator codes are dropped.

The model goes through `flatc --json` with lib/Import/TFLite/tflite.fbs
(the subset of TFLite's schema the importer reads; what it leaves out is
lost) and back with `flatc -b`. Prints a summary on stderr (--quiet: none):
Flex ops of the operators, by op, and the builtins kept.

Needs NumPy and python3-flatbuffers (Debian's /usr/bin/python3; another
interpreter without them re-runs the script with it)."""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

try:
    import numpy as np
    from flatbuffers import flexbuffers
except ImportError:
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != \
            os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SCHEMA = os.path.join(ROOT, "lib", "Import", "TFLite", "tflite.fbs")

# TFLite TensorType -> (TF DataType, NumPy dtype).
TYPES = {
    "FLOAT32": (1, "<f4"), "FLOAT64": (2, "<f8"), "INT32": (3, "<i4"),
    "UINT8": (4, "u1"), "INT16": (5, "<i2"), "INT8": (6, "i1"),
    "STRING": (7, None), "COMPLEX64": (8, "<c8"), "INT64": (9, "<i8"),
    "BOOL": (10, "?"), "UINT16": (17, "<u2"), "COMPLEX128": (18, "<c16"),
    "FLOAT16": (19, "<f2"), "UINT32": (22, "<u4"), "UINT64": (23, "<u8"),
}
DT_FLOAT, DT_INT32, DT_HALF = 1, 3, 19
FLOATS = {"FLOAT32"}
NUMBERS = {"FLOAT32", "INT32", "INT64"}
ACTIVATIONS = {"RELU": "Relu", "RELU6": "Relu6", "TANH": "Tanh"}

UNARY = {"LOGISTIC": "Sigmoid", "TANH": "Tanh", "RELU": "Relu", "RELU6": "Relu6",
         "EXP": "Exp"}
BINARY = {"ADD": "AddV2", "SUB": "Sub", "MUL": "Mul", "DIV": "RealDiv",
          "MAXIMUM": "Maximum", "MINIMUM": "Minimum",
          "SQUARED_DIFFERENCE": "SquaredDifference"}
REDUCE = {"MEAN": "Mean", "SUM": "Sum", "REDUCE_MAX": "Max"}
OTHER = ["DEQUANTIZE", "SOFTMAX", "RESHAPE", "TRANSPOSE", "CONCATENATION", "PAD",
         "PADV2", "MAX_POOL_2D", "AVERAGE_POOL_2D", "RESIZE_BILINEAR", "DEPTH_TO_SPACE",
         "STRIDED_SLICE", "SPLIT", "PACK", "UNPACK", "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"]
ALL_OPS = list(UNARY) + list(BINARY) + list(REDUCE) + OTHER

# The attributes with a default in TF's OpDefs, and the default
# (--minimal-attrs leaves out those that have it).
_NHWC = {"data_format": ("s", "NHWC")}
_IDX = {"Tidx": ("type", DT_INT32)}
DEFAULTS = {
    "Conv2D": dict(_NHWC, use_cudnn_on_gpu=("b", True), explicit_paddings=("ints", []),
                   dilations=("ints", [1, 1, 1, 1])),
    "DepthwiseConv2dNative": dict(_NHWC, explicit_paddings=("ints", []),
                                  dilations=("ints", [1, 1, 1, 1])),
    "MaxPool": dict(_NHWC, explicit_paddings=("ints", []), T=("type", DT_FLOAT)),
    "AvgPool": _NHWC, "BiasAdd": _NHWC, "DepthToSpace": _NHWC,
    "MatMul": {k: ("b", False) for k in ("transpose_a", "transpose_b", "grad_a", "grad_b")},
    "Mean": dict(_IDX, keep_dims=("b", False)), "Sum": dict(_IDX, keep_dims=("b", False)),
    "Max": dict(_IDX, keep_dims=("b", False)), "ConcatV2": _IDX,
    "Reshape": {"Tshape": ("type", DT_INT32)}, "Transpose": {"Tperm": ("type", DT_INT32)},
    "Pad": {"Tpaddings": ("type", DT_INT32)}, "PadV2": {"Tpaddings": ("type", DT_INT32)},
    "ResizeBilinear": {"align_corners": ("b", False), "half_pixel_centers": ("b", False)},
    "StridedSlice": {k: ("i", 0) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                           "new_axis_mask", "shrink_axis_mask")},
    "Cast": {"Truncate": ("b", False)},
    "Pack": {"axis": ("i", 0)}, "Unpack": {"axis": ("i", 0)},
}


# --- protobuf: NodeDef and AttrValue (field numbers of TF's node_def.proto
# and attr_value.proto, as lib/Import/graph.proto has them).

def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def field(number, wire, payload):
    if wire == 2:
        return varint(number << 3 | 2) + varint(len(payload)) + payload
    return varint(number << 3 | wire) + payload


def attr_value(kind, value):
    """AttrValue bytes of `value`; kind: type, i, b, s, f, ints."""
    if kind == "type":
        return field(6, 0, varint(value))
    if kind == "i":
        return field(3, 0, varint(value))
    if kind == "b":
        return field(5, 0, varint(1 if value else 0))
    if kind == "s":
        return field(2, 2, value.encode())
    if kind == "f":
        return field(4, 5, struct.pack("<f", value))
    if kind == "ints":
        # ListValue.i, packed; an empty list is `list {}`.
        packed = b"".join(varint(v) for v in value)
        return field(1, 2, field(3, 2, packed) if value else b"")
    raise ValueError(kind)


def node_def(name, op, inputs, attrs):
    out = field(1, 2, name.encode()) + field(2, 2, op.encode())
    for i in inputs:
        out += field(3, 2, i.encode())
    for key in sorted(attrs):
        kind, value = attrs[key]
        entry = field(1, 2, key.encode()) + field(2, 2, attr_value(kind, value))
        out += field(5, 2, entry)
    return out


def flex_options(op, nodedef):
    b = flexbuffers.Builder()
    with b.Vector():
        b.String(op)
        # A string of any bytes (the NodeDef is not UTF-8), as TF writes it.
        b._WriteBlob(nodedef, append_zero=True, type_=flexbuffers.Type.STRING)
    return list(b.Finish())


def builtin_values():
    text = open(SCHEMA).read()
    body = text[text.index("enum BuiltinOperator"):]
    body = body[body.index("{") + 1:body.index("}")]
    values = {}
    for entry in body.replace("\n", " ").split(","):
        if "=" in entry:
            name, value = entry.split("=")
            values[name.strip()] = int(value)
    return values


class Skip(Exception):
    """The operator stays builtin: TF has no op of the same semantics."""


class Rewriter:
    def __init__(self, model, ops, fold_f16, minimal_attrs=False):
        self.model = model
        self.minimal_attrs = minimal_attrs
        self.ops = set(ops)
        self.fold_f16 = fold_f16
        self.values = builtin_values()
        self.names = {v: k for k, v in self.values.items()}
        self.codes = model.setdefault("operator_codes", [])
        self.buffers = model.setdefault("buffers", [{}])
        if not self.buffers or self.buffers[0].get("data"):
            self.buffers.insert(0, {})  # keep buffer 0 the empty one
            for sg in model.get("subgraphs", []):
                for t in sg.get("tensors", []):
                    t["buffer"] = t.get("buffer", 0) + 1
            for m in model.get("metadata", []):
                m["buffer"] = m.get("buffer", 0) + 1
            model["metadata_buffer"] = [b + 1 for b in model.get("metadata_buffer", [])]

    # --- model helpers

    def code_name(self, op):
        code = self.codes[op.get("opcode_index", 0)]
        value = code.get("builtin_code", 0)
        if isinstance(value, str):
            value = self.values[value]
        value = max(value, code.get("deprecated_builtin_code", 0))
        name = self.names.get(value, "BUILTIN_%d" % value)
        if name == "CUSTOM":
            return "CUSTOM:" + code.get("custom_code", "")
        return name

    def opcode(self, custom):
        """The index of the custom operator code `custom`, added if new."""
        for i, code in enumerate(self.codes):
            if code.get("custom_code") == custom:
                return i
        self.codes.append({"deprecated_builtin_code": 32, "custom_code": custom,
                           "builtin_code": "CUSTOM"})
        return len(self.codes) - 1

    def ttype(self, index):
        return self.tensors[index].get("type", "FLOAT32")

    def shape(self, index):
        return list(self.tensors[index].get("shape", []))

    def quantized(self, index):
        q = self.tensors[index].get("quantization") or {}
        return bool(q.get("scale") or q.get("zero_point") or q.get("details"))

    def const(self, index):
        """The tensor's value as a NumPy array, or None."""
        if index < 0:
            return None
        t = self.tensors[index]
        data = self.buffers[t.get("buffer", 0)].get("data") if t.get("buffer", 0) else None
        if not data:
            return None
        dtype = TYPES[t.get("type", "FLOAT32")][1]
        if dtype is None or t.get("sparsity"):
            return None
        return np.frombuffer(bytes(data), dtype=dtype).reshape(t.get("shape", []))

    def new_tensor(self, like, shape, name, ttype=None, value=None):
        """Appends a tensor (a constant when `value` is given)."""
        base, k = name, 1
        while name in self.tensor_names:
            k += 1
            name = "%s_%d" % (base, k)
        self.tensor_names.add(name)
        t = {"shape": list(shape), "type": ttype or self.ttype(like), "buffer": 0, "name": name}
        if value is not None:
            self.buffers.append({"data": list(np.ascontiguousarray(value).tobytes())})
            t["buffer"] = len(self.buffers) - 1
        elif like is not None and "shape_signature" in self.tensors[like] and \
                len(self.tensors[like]["shape_signature"]) == len(shape) and \
                list(self.tensors[like]["shape"]) == list(shape):
            t["shape_signature"] = list(self.tensors[like]["shape_signature"])
        self.tensors.append(t)
        return len(self.tensors) - 1

    def const_tensor(self, name, values, ttype="INT32"):
        arr = np.array(values, dtype=TYPES[ttype][1])
        return self.new_tensor(None, arr.shape, name, ttype, arr)

    def node_name(self, index):
        return self.tensors[index]["name"].replace(":", "_")

    def flex(self, tf_op, inputs, outputs, attrs):
        """A Flex operator computing `tf_op`."""
        if self.minimal_attrs:
            defaults = DEFAULTS.get(tf_op, {})
            attrs = {k: v for k, v in attrs.items() if defaults.get(k) != v}
        nodedef = node_def(self.node_name(outputs[0]), tf_op,
                           [self.node_name(i) for i in inputs], attrs)
        return {"opcode_index": self.opcode(custom="Flex" + tf_op),
                "inputs": list(inputs), "outputs": list(outputs),
                "custom_options": flex_options(tf_op, nodedef),
                "custom_options_format": "FLEXBUFFERS"}

    def check(self, indices, types):
        for i in indices:
            if i < 0:
                continue
            if self.quantized(i) or self.ttype(i) not in types:
                raise Skip

    @staticmethod
    def options(op):
        return op.get("builtin_options") or {}

    def activation(self, op, out):
        """(tensor the op itself writes, ops after it) for the fused
        activation of `op` writing `out`."""
        act = self.options(op).get("fused_activation_function", "NONE")
        if act == "NONE":
            return out, []
        if act not in ACTIVATIONS:
            raise Skip
        pre = self.new_tensor(out, self.shape(out), self.tensors[out]["name"] + "/pre_activation")
        tf_op = ACTIVATIONS[act]
        return pre, [lambda: self.flex(tf_op, [pre], [out], {"T": ("type", self.dtype(out))})]

    def dtype(self, index):
        return TYPES[self.ttype(index)][0]

    # --- weights

    def weights(self, index, transform, new_shape, name):
        """A tensor holding transform(value of `index`) in shape new_shape,
        and the ops that must run before the consumer."""
        value = self.const(index)
        if value is not None:
            return self.new_tensor(index, new_shape, name, value=transform(value)), []
        producer = self.producers.get(index)
        if producer is not None and self.code_name(producer) == "DEQUANTIZE":
            source = producer["inputs"][0]
            value = self.const(source)
            if value is not None and not self.quantized(source):
                dq_in = self.new_tensor(source, new_shape, name + "/source",
                                        value=transform(value))
                dq_out = self.new_tensor(index, new_shape, name)
                op = {"opcode_index": producer.get("opcode_index", 0),
                      "inputs": [dq_in], "outputs": [dq_out]}
                for key in ("builtin_options_type", "builtin_options"):
                    if key in producer:
                        op[key] = producer[key]
                return dq_out, self.emit(op)
        return None, []

    def filter_hwio(self, index, ops):
        shape = self.shape(index)
        new_shape = [shape[1], shape[2], shape[3], shape[0]]
        name = self.tensors[index]["name"] + "/hwio"
        out, pre = self.weights(index, lambda v: v.transpose(1, 2, 3, 0), new_shape, name)
        if out is None:
            perm = self.const_tensor(name + "/perm", [1, 2, 3, 0])
            out = self.new_tensor(index, new_shape, name)
            pre = [self.flex("Transpose", [index, perm], [out],
                             {"T": ("type", self.dtype(index)), "Tperm": ("type", DT_INT32)})]
        ops.extend(pre)
        return out

    def filter_depthwise(self, index, channels, ops):
        shape = self.shape(index)
        if shape[0] != 1 or shape[3] % channels:
            raise Skip
        new_shape = [shape[1], shape[2], channels, shape[3] // channels]
        name = self.tensors[index]["name"] + "/hwcm"
        out, pre = self.weights(index, lambda v: v.reshape(new_shape), new_shape, name)
        if out is None:
            target = self.const_tensor(name + "/shape", new_shape)
            out = self.new_tensor(index, new_shape, name)
            pre = [self.flex("Reshape", [index, target], [out],
                             {"T": ("type", self.dtype(index)), "Tshape": ("type", DT_INT32)})]
        ops.extend(pre)
        return out

    # --- operators

    def emit(self, op):
        """The operators that replace `op` (itself when it stays builtin)."""
        name = self.code_name(op)
        if name in self.ops:
            mark = (len(self.tensors), len(self.buffers), set(self.tensor_names))
            try:
                ops = self.convert(name, op)
                if op.get("_dequantize"):
                    for new in ops:
                        new["_dequantize"] = True  # dropped when unused
                return ops
            except Skip:
                # Undo what the failed attempt appended.
                del self.tensors[mark[0]:]
                del self.buffers[mark[1]:]
                self.tensor_names = mark[2]
        return [op]

    def convert(self, name, op):
        ins, outs = op.get("inputs", []), op.get("outputs", [])
        opts = self.options(op)
        if name in UNARY:
            self.check(ins + outs, FLOATS)
            return [self.flex(UNARY[name], ins, outs, {"T": ("type", self.dtype(outs[0]))})]
        if name in BINARY:
            self.check(ins + outs, FLOATS if name == "DIV" else NUMBERS)
            if len(ins) != 2:
                raise Skip
            pre, after = self.activation(op, outs[0])
            return [self.flex(BINARY[name], ins, [pre], {"T": ("type", self.dtype(outs[0]))})] + \
                [f() for f in after]
        if name in REDUCE:
            self.check(ins[:1] + outs, NUMBERS)
            self.check(ins[1:], {"INT32", "INT64"})
            return [self.flex(REDUCE[name], ins, outs, {
                "T": ("type", self.dtype(outs[0])), "Tidx": ("type", self.dtype(ins[1])),
                "keep_dims": ("b", opts.get("keep_dims", False))})]
        return getattr(self, "convert_" + name.lower())(op, ins, outs, opts)

    def convert_dequantize(self, op, ins, outs, opts):
        if self.ttype(ins[0]) != "FLOAT16" or self.ttype(outs[0]) != "FLOAT32" or \
                self.quantized(ins[0]):
            raise Skip
        return [self.flex("Cast", ins, outs, {"SrcT": ("type", DT_HALF),
                                              "DstT": ("type", DT_FLOAT),
                                              "Truncate": ("b", False)})]

    def convert_softmax(self, op, ins, outs, opts):
        self.check(ins + outs, FLOATS)
        if opts.get("beta", 0.0) != 1.0 or not self.shape(ins[0]):
            raise Skip
        return [self.flex("Softmax", ins, outs, {"T": ("type", DT_FLOAT)})]

    def convert_reshape(self, op, ins, outs, opts):
        if self.quantized(ins[0]) or self.quantized(outs[0]):
            raise Skip
        ops = []
        if len(ins) > 1 and ins[1] >= 0:
            shape_in = ins[1]
            self.check([shape_in], {"INT32", "INT64"})
            if len(self.shape(shape_in)) != 1:
                raise Skip
        else:
            new_shape = opts.get("new_shape")
            if new_shape is None:
                new_shape = self.tensors[outs[0]].get("shape_signature", self.shape(outs[0]))
            shape_in = self.const_tensor(self.tensors[outs[0]]["name"] + "/shape", new_shape)
        ops.append(self.flex("Reshape", [ins[0], shape_in], outs, {
            "T": ("type", self.dtype(ins[0])), "Tshape": ("type", self.dtype(shape_in))}))
        return ops

    def convert_transpose(self, op, ins, outs, opts):
        self.check(ins[:1] + outs, NUMBERS | {"FLOAT16", "BOOL", "INT8", "UINT8"})
        self.check(ins[1:], {"INT32", "INT64"})
        return [self.flex("Transpose", ins, outs, {"T": ("type", self.dtype(ins[0])),
                                                   "Tperm": ("type", self.dtype(ins[1]))})]

    def convert_concatenation(self, op, ins, outs, opts):
        self.check(ins + outs, NUMBERS)
        if len(ins) < 2:
            raise Skip  # ConcatV2 wants N >= 2
        axis = self.const_tensor(self.tensors[outs[0]]["name"] + "/axis",
                                 np.int32(opts.get("axis", 0)))
        pre, after = self.activation(op, outs[0])
        return [self.flex("ConcatV2", ins + [axis], [pre], {
            "N": ("i", len(ins)), "T": ("type", self.dtype(outs[0])),
            "Tidx": ("type", DT_INT32)})] + [f() for f in after]

    def convert_pad(self, op, ins, outs, opts):
        self.check(ins[:1] + outs, NUMBERS)
        self.check(ins[1:2], {"INT32", "INT64"})
        return [self.flex("Pad", ins[:2], outs, {"T": ("type", self.dtype(ins[0])),
                                                 "Tpaddings": ("type", self.dtype(ins[1]))})]

    def convert_padv2(self, op, ins, outs, opts):
        self.check(ins[:1] + ins[2:] + outs, NUMBERS)
        self.check(ins[1:2], {"INT32", "INT64"})
        if len(ins) != 3:
            raise Skip
        return [self.flex("PadV2", ins, outs, {"T": ("type", self.dtype(ins[0])),
                                               "Tpaddings": ("type", self.dtype(ins[1]))})]

    def pool(self, op, ins, outs, opts, tf_op):
        self.check(ins + outs, FLOATS)
        pre, after = self.activation(op, outs[0])
        attrs = {"T": ("type", DT_FLOAT),
                 "ksize": ("ints", [1, opts.get("filter_height", 0),
                                    opts.get("filter_width", 0), 1]),
                 "strides": ("ints", [1, opts.get("stride_h", 0), opts.get("stride_w", 0), 1]),
                 "padding": ("s", opts.get("padding", "SAME")),
                 "data_format": ("s", "NHWC")}
        if tf_op == "MaxPool":
            attrs["explicit_paddings"] = ("ints", [])
        return [self.flex(tf_op, ins, [pre], attrs)] + [f() for f in after]

    def convert_max_pool_2d(self, op, ins, outs, opts):
        return self.pool(op, ins, outs, opts, "MaxPool")

    def convert_average_pool_2d(self, op, ins, outs, opts):
        return self.pool(op, ins, outs, opts, "AvgPool")

    def convert_resize_bilinear(self, op, ins, outs, opts):
        self.check(ins[:1] + outs, FLOATS)
        self.check(ins[1:], {"INT32"})
        return [self.flex("ResizeBilinear", ins, outs, {
            "T": ("type", DT_FLOAT),
            "align_corners": ("b", opts.get("align_corners", False)),
            "half_pixel_centers": ("b", opts.get("half_pixel_centers", False))})]

    def convert_depth_to_space(self, op, ins, outs, opts):
        self.check(ins + outs, NUMBERS)
        return [self.flex("DepthToSpace", ins, outs, {
            "T": ("type", self.dtype(ins[0])), "block_size": ("i", opts.get("block_size", 0)),
            "data_format": ("s", "NHWC")})]

    def convert_strided_slice(self, op, ins, outs, opts):
        self.check(ins[:1] + outs, NUMBERS)
        self.check(ins[1:], {"INT32", "INT64"})
        if opts.get("offset", False) or len(ins) != 4:
            raise Skip
        attrs = {"T": ("type", self.dtype(ins[0])), "Index": ("type", self.dtype(ins[1]))}
        for key in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                    "shrink_axis_mask"):
            attrs[key] = ("i", opts.get(key, 0))
        return [self.flex("StridedSlice", ins, outs, attrs)]

    def convert_split(self, op, ins, outs, opts):
        self.check(ins[:1], {"INT32"})
        self.check(ins[1:] + outs, NUMBERS)
        return [self.flex("Split", ins, outs, {"T": ("type", self.dtype(ins[1])),
                                               "num_split": ("i", len(outs))})]

    def convert_pack(self, op, ins, outs, opts):
        self.check(ins + outs, NUMBERS)
        return [self.flex("Pack", ins, outs, {"T": ("type", self.dtype(outs[0])),
                                              "N": ("i", len(ins)),
                                              "axis": ("i", opts.get("axis", 0))})]

    def convert_unpack(self, op, ins, outs, opts):
        self.check(ins + outs, NUMBERS)
        return [self.flex("Unpack", ins, outs, {"T": ("type", self.dtype(ins[0])),
                                                "num": ("i", len(outs)),
                                                "axis": ("i", opts.get("axis", 0))})]

    def conv_tail(self, op, ops, conv_out, bias, out, main):
        """Appends main(y) -> BiasAdd -> activation, writing `out`."""
        pre, after = self.activation(op, out)
        if bias >= 0:
            raw = self.new_tensor(out, self.shape(out), self.tensors[out]["name"] + "/" + conv_out)
            ops.append(main(raw))
            ops.append(self.flex("BiasAdd", [raw, bias], [pre], {
                "T": ("type", DT_FLOAT), "data_format": ("s", "NHWC")}))
        else:
            ops.append(main(pre))
        ops.extend(f() for f in after)
        return ops

    def convert_conv_2d(self, op, ins, outs, opts):
        self.check(ins + outs, FLOATS)
        x, w = ins[0], ins[1]
        bias = ins[2] if len(ins) > 2 else -1
        if len(self.shape(w)) != 4 or self.shape(w)[3] != self.shape(x)[3]:
            raise Skip  # grouped convolution
        ops = []
        filt = self.filter_hwio(w, ops)
        attrs = {"T": ("type", DT_FLOAT),
                 "strides": ("ints", [1, opts.get("stride_h", 0), opts.get("stride_w", 0), 1]),
                 "use_cudnn_on_gpu": ("b", True),
                 "padding": ("s", opts.get("padding", "SAME")),
                 "explicit_paddings": ("ints", []),
                 "data_format": ("s", "NHWC"),
                 "dilations": ("ints", [1, opts.get("dilation_h_factor", 1),
                                        opts.get("dilation_w_factor", 1), 1])}
        return self.conv_tail(op, ops, "Conv2D", bias, outs[0],
                              lambda y: self.flex("Conv2D", [x, filt], [y], attrs))

    def convert_depthwise_conv_2d(self, op, ins, outs, opts):
        self.check(ins + outs, FLOATS)
        x, w = ins[0], ins[1]
        bias = ins[2] if len(ins) > 2 else -1
        if len(self.shape(w)) != 4 or len(self.shape(x)) != 4:
            raise Skip
        ops = []
        filt = self.filter_depthwise(w, self.shape(x)[3], ops)
        attrs = {"T": ("type", DT_FLOAT),
                 "strides": ("ints", [1, opts.get("stride_h", 0), opts.get("stride_w", 0), 1]),
                 "padding": ("s", opts.get("padding", "SAME")),
                 "explicit_paddings": ("ints", []),
                 "data_format": ("s", "NHWC"),
                 "dilations": ("ints", [1, opts.get("dilation_h_factor", 1),
                                        opts.get("dilation_w_factor", 1), 1])}
        return self.conv_tail(op, ops, "DepthwiseConv2dNative", bias, outs[0],
                              lambda y: self.flex("DepthwiseConv2dNative", [x, filt], [y], attrs))

    def convert_fully_connected(self, op, ins, outs, opts):
        self.check(ins + outs, FLOATS)
        if opts.get("weights_format", 0) not in (0, "DEFAULT") or len(outs) != 1:
            raise Skip
        x, w = ins[0], ins[1]
        bias = ins[2] if len(ins) > 2 else -1
        out = outs[0]
        depth = self.shape(w)[1] if len(self.shape(w)) == 2 else None
        x_shape = self.shape(x)
        if depth is None or not x_shape or int(np.prod(x_shape)) % depth:
            raise Skip
        batch = int(np.prod(x_shape)) // depth
        units = self.shape(w)[0]
        ops = []
        if x_shape != [batch, depth]:
            flat = self.new_tensor(x, [batch, depth], self.tensors[x]["name"] + "/flat")
            target = self.const_tensor(self.tensors[flat]["name"] + "/shape", [-1, depth])
            ops.append(self.flex("Reshape", [x, target], [flat], {
                "T": ("type", DT_FLOAT), "Tshape": ("type", DT_INT32)}))
            x = flat
        final = out
        if self.shape(out) != [batch, units]:
            if int(np.prod(self.shape(out))) != batch * units:
                raise Skip
            out = self.new_tensor(out, [batch, units], self.tensors[out]["name"] + "/2d")
        attrs = {"T": ("type", DT_FLOAT), "transpose_a": ("b", False),
                 "transpose_b": ("b", True), "grad_a": ("b", False), "grad_b": ("b", False)}
        self.conv_tail(op, ops, "MatMul", bias, out,
                       lambda y: self.flex("MatMul", [x, w], [y], attrs))
        if out != final:
            target = self.const_tensor(self.tensors[final]["name"] + "/shape",
                                       self.shape(final))
            ops.append(self.flex("Reshape", [out, target], [final], {
                "T": ("type", DT_FLOAT), "Tshape": ("type", DT_INT32)}))
        return ops

    # --- driver

    def fold_dequantize(self, operators):
        """Replaces each DEQUANTIZE of a float16 constant by a float32
        constant (the tensor keeps its index)."""
        kept = []
        for op in operators:
            if self.code_name(op) == "DEQUANTIZE":
                src, dst = op["inputs"][0], op["outputs"][0]
                value = self.const(src)
                if value is not None and self.ttype(src) == "FLOAT16" and \
                        not self.quantized(src) and self.ttype(dst) == "FLOAT32":
                    self.buffers.append({"data": list(value.astype("<f4").tobytes())})
                    self.tensors[dst]["buffer"] = len(self.buffers) - 1
                    continue
            kept.append(op)
        return kept

    def rewrite_subgraph(self, sg):
        self.tensors = sg.setdefault("tensors", [])
        self.tensor_names = {t.get("name", "") for t in self.tensors}
        operators = sg.get("operators", [])
        if self.fold_f16:
            operators = self.fold_dequantize(operators)
        self.producers = {}
        for op in operators:
            for o in op.get("outputs", []):
                self.producers[o] = op
            if self.code_name(op) == "DEQUANTIZE":
                op["_dequantize"] = True
        new_ops = []
        for op in operators:
            new_ops.extend(self.emit(op))
        # Drop DEQUANTIZE ops (builtin or Cast) nobody reads any more.
        while True:
            used = set(sg.get("outputs", []))
            for op in new_ops:
                used.update(op.get("inputs", []))
            dead = [op for op in new_ops if op.get("_dequantize") and
                    not any(o in used for o in op.get("outputs", []))]
            if not dead:
                break
            new_ops = [op for op in new_ops if not any(op is d for d in dead)]
        for op in new_ops:
            op.pop("_dequantize", None)
        sg["operators"] = new_ops
        self.compact_tensors(sg)

    def compact_tensors(self, sg):
        used = set(sg.get("inputs", [])) | set(sg.get("outputs", []))
        for op in sg["operators"]:
            for key in ("inputs", "outputs", "intermediates"):
                used.update(i for i in op.get(key, []) if i >= 0)
        order = sorted(used)
        remap = {old: new for new, old in enumerate(order)}
        sg["tensors"] = [sg["tensors"][i] for i in order]
        for op in sg["operators"]:
            for key in ("inputs", "outputs", "intermediates"):
                if key in op:
                    op[key] = [remap[i] if i >= 0 else i for i in op[key]]
        for key in ("inputs", "outputs"):
            sg[key] = [remap[i] for i in sg.get(key, [])]
        return remap

    def run(self):
        for k, sg in enumerate(self.model.get("subgraphs", [])):
            before = len(sg.get("tensors", []))
            old_names = [t.get("name") for t in sg.get("tensors", [])]
            self.rewrite_subgraph(sg)
            # Signature tensor indices follow the compaction (by name).
            index = {t.get("name"): i for i, t in enumerate(sg["tensors"])}
            for sig in self.model.get("signature_defs", []):
                if sig.get("subgraph_index", 0) != k:
                    continue
                for m in sig.get("inputs", []) + sig.get("outputs", []):
                    old = m.get("tensor_index", 0)
                    if old < before and old_names[old] in index:
                        m["tensor_index"] = index[old_names[old]]
        self.compact_codes()
        self.clear_buffers()

    def summary(self):
        """({TF op: Flex operators}, {code: other operators}) of the model."""
        flex, kept = {}, {}
        for sg in self.model.get("subgraphs", []):
            for op in sg.get("operators", []):
                name = self.code_name(op)
                if name.startswith("CUSTOM:Flex"):
                    flex[name[len("CUSTOM:Flex"):]] = flex.get(name[len("CUSTOM:Flex"):], 0) + 1
                else:
                    kept[name] = kept.get(name, 0) + 1
        return flex, kept

    def compact_codes(self):
        used = sorted({op.get("opcode_index", 0) for sg in self.model.get("subgraphs", [])
                       for op in sg.get("operators", [])})
        remap = {old: new for new, old in enumerate(used)}
        self.model["operator_codes"] = [self.codes[i] for i in used]
        for sg in self.model.get("subgraphs", []):
            for op in sg.get("operators", []):
                op["opcode_index"] = remap[op.get("opcode_index", 0)]
        self.codes = self.model["operator_codes"]

    def clear_buffers(self):
        used = {0}
        for sg in self.model.get("subgraphs", []):
            used.update(t.get("buffer", 0) for t in sg.get("tensors", []))
        used.update(m.get("buffer", 0) for m in self.model.get("metadata", []))
        used.update(self.model.get("metadata_buffer", []))
        for i, b in enumerate(self.buffers):
            if i not in used:
                self.buffers[i] = {}


def run_flatc(args):
    r = subprocess.run(["flatc"] + args, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("tflite-to-flex: flatc %s failed: %s" % (" ".join(args), r.stderr.strip()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--ops", default=",".join(ALL_OPS),
                        help="builtins to rewrite, comma-separated (default: all it knows)")
    parser.add_argument("--fold-f16", action="store_true",
                        help="turn DEQUANTIZE of float16 constants into float32 constants")
    parser.add_argument("--minimal-attrs", action="store_true",
                        help="leave out the attributes whose value is the OpDef's default")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    ops = [o.strip().upper() for o in args.ops.split(",") if o.strip()]
    unknown = [o for o in ops if o not in ALL_OPS]
    if unknown:
        parser.error("no Flex rewrite for %s (known: %s)" % (", ".join(unknown), ", ".join(ALL_OPS)))
    tmp = tempfile.mkdtemp(prefix="tflite-to-flex.")
    try:
        src = os.path.join(tmp, "model.tflite")
        shutil.copyfile(args.input, src)
        run_flatc(["--json", "--strict-json", "--raw-binary", "-o", tmp, SCHEMA, "--", src])
        with open(os.path.join(tmp, "model.json")) as f:
            model = json.load(f)
        rewriter = Rewriter(model, ops, args.fold_f16, args.minimal_attrs)
        rewriter.run()
        with open(os.path.join(tmp, "flex.json"), "w") as f:
            json.dump(model, f, separators=(",", ":"))
        run_flatc(["-b", "-o", tmp, SCHEMA, os.path.join(tmp, "flex.json")])
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        shutil.move(os.path.join(tmp, "flex.tflite"), args.output)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not args.quiet:
        flex, kept = rewriter.summary()
        print("%s: %d Flex ops of %d operators" % (
            args.output, sum(flex.values()), sum(flex.values()) + sum(kept.values())),
            file=sys.stderr)
        print("  Flex: " + (", ".join("%s %d" % kv for kv in sorted(flex.items())) or "none"),
              file=sys.stderr)
        print("  kept: " + (", ".join("%s %d" % kv for kv in sorted(kept.items())) or "none"),
              file=sys.stderr)


if __name__ == "__main__":
    main()
