#!/usr/bin/env python3
"""Prints what a .tflite file holds: subgraphs, inputs and outputs, operators.

usage: tflite-inspect.py [--json] MODEL.tflite ...

For each model: its schema version and description, the metadata and
signature names, and for every subgraph its inputs and outputs (name, dtype,
shape; shape_signature when it has unknown dimensions), its operators counted
by builtin name (CUSTOM ones by their custom code, as `CUSTOM:Name`), and
the tensors that are sparse, float16, quantized or variable. --json prints
the same as one JSON object per model, a line each.

Reads the FlatBuffer by hand with `struct` (no flatbuffers package needed),
following TFLite's schema.fbs: the tables Model, SubGraph, Tensor, Operator
and OperatorCode, and the enums BuiltinOperator and TensorType below."""
import json
import os
import struct
import sys

# TFLite's enum BuiltinOperator (schema.fbs), by value.
BUILTIN_OPERATORS = """
ADD AVERAGE_POOL_2D CONCATENATION CONV_2D DEPTHWISE_CONV_2D DEPTH_TO_SPACE DEQUANTIZE
EMBEDDING_LOOKUP FLOOR FULLY_CONNECTED HASHTABLE_LOOKUP L2_NORMALIZATION L2_POOL_2D
LOCAL_RESPONSE_NORMALIZATION LOGISTIC LSH_PROJECTION LSTM MAX_POOL_2D MUL RELU RELU_N1_TO_1
RELU6 RESHAPE RESIZE_BILINEAR RNN SOFTMAX SPACE_TO_DEPTH SVDF TANH CONCAT_EMBEDDINGS SKIP_GRAM
CALL CUSTOM EMBEDDING_LOOKUP_SPARSE PAD UNIDIRECTIONAL_SEQUENCE_RNN GATHER BATCH_TO_SPACE_ND
SPACE_TO_BATCH_ND TRANSPOSE MEAN SUB DIV SQUEEZE UNIDIRECTIONAL_SEQUENCE_LSTM STRIDED_SLICE
BIDIRECTIONAL_SEQUENCE_RNN EXP TOPK_V2 SPLIT LOG_SOFTMAX DELEGATE BIDIRECTIONAL_SEQUENCE_LSTM
CAST PRELU MAXIMUM ARG_MAX MINIMUM LESS NEG PADV2 GREATER GREATER_EQUAL LESS_EQUAL SELECT SLICE
SIN TRANSPOSE_CONV SPARSE_TO_DENSE TILE EXPAND_DIMS EQUAL NOT_EQUAL LOG SUM SQRT RSQRT SHAPE POW
ARG_MIN FAKE_QUANT REDUCE_PROD REDUCE_MAX PACK LOGICAL_OR ONE_HOT LOGICAL_AND LOGICAL_NOT UNPACK
REDUCE_MIN FLOOR_DIV REDUCE_ANY SQUARE ZEROS_LIKE FILL FLOOR_MOD RANGE RESIZE_NEAREST_NEIGHBOR
LEAKY_RELU SQUARED_DIFFERENCE MIRROR_PAD ABS SPLIT_V UNIQUE CEIL REVERSE_V2 ADD_N GATHER_ND COS
WHERE RANK ELU REVERSE_SEQUENCE MATRIX_DIAG QUANTIZE MATRIX_SET_DIAG ROUND HARD_SWISH IF WHILE
NON_MAX_SUPPRESSION_V4 NON_MAX_SUPPRESSION_V5 SCATTER_ND SELECT_V2 DENSIFY SEGMENT_SUM
BATCH_MATMUL PLACEHOLDER_FOR_GREATER_OP_CODES CUMSUM CALL_ONCE BROADCAST_TO RFFT2D CONV_3D IMAG
REAL COMPLEX_ABS HASHTABLE HASHTABLE_FIND HASHTABLE_IMPORT HASHTABLE_SIZE REDUCE_ALL
CONV_3D_TRANSPOSE VAR_HANDLE READ_VARIABLE ASSIGN_VARIABLE BROADCAST_ARGS RANDOM_STANDARD_NORMAL
BUCKETIZE RANDOM_UNIFORM MULTINOMIAL GELU DYNAMIC_UPDATE_SLICE RELU_0_TO_1 UNSORTED_SEGMENT_PROD
UNSORTED_SEGMENT_MAX UNSORTED_SEGMENT_SUM ATAN2 UNSORTED_SEGMENT_MIN SIGN BITCAST BITWISE_XOR
RIGHT_SHIFT STABLEHLO_LOGISTIC STABLEHLO_ADD STABLEHLO_DIVIDE STABLEHLO_MULTIPLY
STABLEHLO_MAXIMUM STABLEHLO_RESHAPE STABLEHLO_CLAMP STABLEHLO_CONCATENATE
STABLEHLO_BROADCAST_IN_DIM STABLEHLO_CONVOLUTION STABLEHLO_SLICE STABLEHLO_CUSTOM_CALL
STABLEHLO_REDUCE STABLEHLO_ABS STABLEHLO_AND STABLEHLO_COSINE STABLEHLO_EXPONENTIAL
STABLEHLO_FLOOR STABLEHLO_LOG STABLEHLO_MINIMUM STABLEHLO_NEGATE STABLEHLO_OR STABLEHLO_POWER
STABLEHLO_REMAINDER STABLEHLO_RSQRT STABLEHLO_SELECT STABLEHLO_SUBTRACT STABLEHLO_TANH
STABLEHLO_SCATTER STABLEHLO_COMPARE STABLEHLO_CONVERT STABLEHLO_DYNAMIC_SLICE
STABLEHLO_DYNAMIC_UPDATE_SLICE STABLEHLO_PAD STABLEHLO_IOTA STABLEHLO_DOT_GENERAL
STABLEHLO_REDUCE_WINDOW STABLEHLO_SORT STABLEHLO_WHILE STABLEHLO_GATHER STABLEHLO_TRANSPOSE
DILATE STABLEHLO_RNG_BIT_GENERATOR REDUCE_WINDOW STABLEHLO_COMPOSITE COMPLEX
""".split()
CUSTOM = BUILTIN_OPERATORS.index("CUSTOM")
assert CUSTOM == 32 and BUILTIN_OPERATORS.index("DENSIFY") == 124 and len(BUILTIN_OPERATORS) == 208

# TFLite's enum TensorType, by value, as NumPy-style names.
TENSOR_TYPES = ("float32 float16 int32 uint8 int64 string bool int16 complex64 int8 float64 "
                "complex128 uint64 resource variant uint32 uint16 int4 bfloat16").split()


class Table:
    """A FlatBuffer table at `pos` of `buf`; fields are read by their index
    in the schema's declaration order."""

    def __init__(self, buf, pos):
        self.buf, self.pos = buf, pos
        self.vtable = pos - struct.unpack_from("<i", buf, pos)[0]
        self.vtable_size = struct.unpack_from("<H", buf, self.vtable)[0]

    def _offset(self, field):
        at = 4 + 2 * field
        if at >= self.vtable_size:
            return 0
        return struct.unpack_from("<H", self.buf, self.vtable + at)[0]

    def scalar(self, field, fmt, default=0):
        off = self._offset(field)
        return struct.unpack_from("<" + fmt, self.buf, self.pos + off)[0] if off else default

    def _indirect(self, field):
        off = self._offset(field)
        if not off:
            return None
        return self.pos + off + struct.unpack_from("<I", self.buf, self.pos + off)[0]

    def table(self, field):
        pos = self._indirect(field)
        return None if pos is None else Table(self.buf, pos)

    def vector(self, field, fmt):
        pos = self._indirect(field)
        if pos is None:
            return []
        n = struct.unpack_from("<I", self.buf, pos)[0]
        return list(struct.unpack_from("<%d%s" % (n, fmt), self.buf, pos + 4))

    def vector_size(self, field):
        pos = self._indirect(field)
        return 0 if pos is None else struct.unpack_from("<I", self.buf, pos)[0]

    def tables(self, field):
        pos = self._indirect(field)
        if pos is None:
            return []
        n = struct.unpack_from("<I", self.buf, pos)[0]
        slots = [pos + 4 + 4 * i for i in range(n)]
        return [Table(self.buf, s + struct.unpack_from("<I", self.buf, s)[0]) for s in slots]

    def string(self, field):
        pos = self._indirect(field)
        if pos is None:
            return None
        n = struct.unpack_from("<I", self.buf, pos)[0]
        return self.buf[pos + 4:pos + 4 + n].decode("utf-8", "replace")


def op_name(code):
    """An OperatorCode's name: the larger of deprecated_builtin_code (field
    0) and builtin_code (field 3) is the builtin (as TFLite's GetBuiltinCode
    takes it); CUSTOM ones are named by custom_code (field 1)."""
    builtin = max(code.scalar(0, "b"), code.scalar(3, "i"))
    if builtin == CUSTOM:
        return "CUSTOM:%s" % code.string(1)
    if builtin >= len(BUILTIN_OPERATORS):
        return "BUILTIN_%d" % builtin
    return BUILTIN_OPERATORS[builtin]


def tensor_info(tensor):
    """Tensor fields: 0 shape, 1 type, 2 buffer, 3 name, 4 quantization,
    5 is_variable, 6 sparsity, 7 shape_signature."""
    info = {"name": tensor.string(3), "dtype": TENSOR_TYPES[tensor.scalar(1, "b")],
            "shape": tensor.vector(0, "i")}
    signature = tensor.vector(7, "i")
    if any(d < 0 for d in signature):
        info["shape_signature"] = signature
    return info


def inspect(path):
    with open(path, "rb") as f:
        buf = f.read()
    if buf[4:8] != b"TFL3":
        raise SystemExit("tflite-inspect: %s: no TFL3 file identifier" % path)
    # Model fields: 0 version, 1 operator_codes, 2 subgraphs, 3 description,
    # 4 buffers, 5 metadata_buffer, 6 metadata, 7 signature_defs.
    model = Table(buf, struct.unpack_from("<I", buf, 0)[0])
    codes = [op_name(c) for c in model.tables(1)]
    buffers = model.tables(4)
    result = {
        "file": os.path.basename(path), "bytes": len(buf), "version": model.scalar(0, "I"),
        "description": model.string(3),
        "metadata": [m.string(0) for m in model.tables(6)],
        "signatures": [s.string(2) for s in model.tables(7)],
        "subgraphs": [],
    }
    for index, subgraph in enumerate(model.tables(2)):
        # SubGraph fields: 0 tensors, 1 inputs, 2 outputs, 3 operators, 4 name.
        tensors = subgraph.tables(0)
        ops = {}
        for op in subgraph.tables(3):  # Operator field 0: opcode_index
            name = codes[op.scalar(0, "I")]
            ops[name] = ops.get(name, 0) + 1
        kinds = {"sparse": 0, "float16": 0, "quantized": 0, "variable": 0, "constant": 0}
        constant_bytes = 0
        for t in tensors:
            quantization = t.table(4)  # QuantizationParameters field 2: scale
            kinds["sparse"] += t.table(6) is not None
            kinds["float16"] += t.scalar(1, "b") == 1
            kinds["quantized"] += quantization is not None and quantization.vector_size(2) > 0
            kinds["variable"] += bool(t.scalar(5, "B"))
            buffer = t.scalar(2, "I")
            data = buffers[buffer].vector_size(0) if buffer < len(buffers) else 0
            kinds["constant"] += data > 0
            constant_bytes += data
        result["subgraphs"].append({
            "index": index, "name": subgraph.string(4), "tensors": len(tensors),
            "operators": sum(ops.values()), "op_counts": dict(sorted(ops.items())),
            "inputs": [tensor_info(tensors[i]) for i in subgraph.vector(1, "i")],
            "outputs": [tensor_info(tensors[i]) for i in subgraph.vector(2, "i")],
            "tensor_kinds": kinds, "constant_bytes": constant_bytes,
        })
    result["custom_ops"] = sorted({c[len("CUSTOM:"):] for c in codes if c.startswith("CUSTOM:")})
    return result


def describe(t):
    text = "%s %s%s" % (t["name"], t["dtype"], t["shape"])
    if "shape_signature" in t:
        text += " (signature %s)" % t["shape_signature"]
    return text


def main():
    args = sys.argv[1:]
    as_json = "--json" in args
    paths = [a for a in args if a != "--json"]
    if not paths:
        raise SystemExit("usage: tflite-inspect.py [--json] MODEL.tflite ...")
    for path in paths:
        info = inspect(path)
        if as_json:
            print(json.dumps(info))
            continue
        print("%s: %d bytes, schema version %d, %d subgraph(s)%s" % (
            info["file"], info["bytes"], info["version"], len(info["subgraphs"]),
            ", description %r" % info["description"] if info["description"] else ""))
        if info["metadata"]:
            print("  metadata: %s" % ", ".join(info["metadata"]))
        if info["signatures"]:
            print("  signatures: %s" % ", ".join(info["signatures"]))
        for g in info["subgraphs"]:
            print("  subgraph %d%s: %d tensors, %d operators, %d constant bytes" % (
                g["index"], " (%s)" % g["name"] if g["name"] else "", g["tensors"],
                g["operators"], g["constant_bytes"]))
            for t in g["inputs"]:
                print("    input  %s" % describe(t))
            for t in g["outputs"]:
                print("    output %s" % describe(t))
            print("    ops: %s" % ", ".join("%s %d" % kv for kv in g["op_counts"].items()))
            kinds = ", ".join("%s %d" % kv for kv in g["tensor_kinds"].items())
            print("    tensors: %s" % kinds)
        print("  custom ops: %s" % (", ".join(info["custom_ops"]) or "none"))


if __name__ == "__main__":
    main()
