#!/usr/bin/env python3
"""Writes a .tflite file from a JSON description, for the importer's tests.

usage: tflite-from-json.py MODEL.json OUT.tflite [NAME.npy ...]

MODEL.json is TFLite's schema in FlatBuffers' JSON form (what `flatc --json`
prints for a .tflite), converted by `flatc -b` with lib/Import/TFLite/
tflite.fbs, plus shorthands the script expands first:
  - a buffer {"f32": [...]} (also f16, f64, i8, i16, i32, i64, u8, bool)
    holds those values little-endian; {"strings": [...]} TFLite's string
    tensor layout; {"raw": [...]} bytes as given;
  - an operator's "flex": ["Op", "<NodeDef in protobuf text format>"]
    becomes custom_options: the FlexBuffer vector [op name, serialized
    NodeDef] that TensorFlow's converter writes for Select TF ops (the
    NodeDef encoded by protoc with lib/Import/graph.proto);
  - an operator's "flexmap": {...} becomes custom_options: that FlexBuffer
    map (the attributes of a TF op written as a plain custom op);
  - "opcode": "CONV_2D" in an operator_codes entry sets builtin_code and the
    deprecated byte as converters write them;
  - a top-level "npy": {"file.npy": {"dtype": "f32", "shape": [..],
    "values": [..]}} writes input files next to OUT (or to the paths given);
    dtype "hex" writes byte strings given in hex.
Lines starting with // are dropped, so a lit test can hold its RUN lines.
"""
import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SCHEMA = os.path.join(ROOT, "lib", "Import", "TFLite", "tflite.fbs")
GRAPH_PROTO = os.path.join(ROOT, "lib", "Import", "graph.proto")

FORMATS = {"f32": "f", "f16": "e", "f64": "d", "i8": "b", "i16": "h",
           "i32": "i", "i64": "q", "u8": "B", "bool": "?"}
NPY_DTYPES = {"f32": "<f4", "f16": "<f2", "f64": "<f8", "i8": "|i1",
              "i16": "<i2", "i32": "<i4", "i64": "<i8", "u8": "|u1",
              "bool": "|b1"}
# The enum's value of the builtin names the tests use.
BUILTINS = {}


def builtin_codes():
    """BuiltinOperator's values, read from the schema."""
    if BUILTINS:
        return BUILTINS
    text = open(SCHEMA).read()
    body = text[text.index("enum BuiltinOperator"):]
    body = body[body.index("{") + 1:body.index("}")]
    for entry in body.replace("\n", " ").split(","):
        if "=" in entry:
            name, value = entry.split("=")
            BUILTINS[name.strip()] = int(value)
    return BUILTINS


def pack(kind, values):
    return list(struct.pack("<%d%s" % (len(values), FORMATS[kind]), *values))


def strings(values):
    data = [v.encode() for v in values]
    header = 4 * (len(data) + 2)
    offsets, at = [], header
    for d in data:
        offsets.append(at)
        at += len(d)
    offsets.append(at)
    out = struct.pack("<%di" % (len(data) + 2), len(data), *offsets)
    return list(out + b"".join(data))


def flex(op, nodedef_text):
    nodedef = subprocess.run(
        ["protoc", "--encode=tfrt_fallback.graphdef.NodeDef",
         "-I", os.path.dirname(GRAPH_PROTO), GRAPH_PROTO],
        input=nodedef_text.encode(), capture_output=True, check=True).stdout
    from flatbuffers import flexbuffers
    b = flexbuffers.Builder()
    with b.Vector():
        b.String(op)
        # A string of any bytes: the serialized NodeDef is not UTF-8.
        b._WriteBlob(nodedef, append_zero=True, type_=flexbuffers.Type.STRING)
    return list(b.Finish())


def write_npy(path, spec):
    dtype = spec["dtype"]
    shape = tuple(spec["shape"])
    if dtype == "hex":
        # Byte strings given in hex, numpy's fixed-width "S" dtype.
        items = [bytes.fromhex(v) for v in spec["values"]]
        width = max(1, max(len(v) for v in items))
        descr = "|S%d" % width
        payload = b"".join(v.ljust(width, b"\0") for v in items)
    else:
        descr = NPY_DTYPES[dtype]
        payload = bytes(pack(dtype, spec["values"]))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, "(%s)" % "".join("%d," % d for d in shape)
        if len(shape) != 1 else "(%d,)" % shape[0])
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(payload)


def main():
    source, out = sys.argv[1], sys.argv[2]
    text = "".join(line for line in open(source)
                   if not line.lstrip().startswith("//"))
    model = json.loads(text)
    for buffer in model.get("buffers", []):
        for kind in list(buffer):
            if kind in FORMATS:
                buffer["data"] = pack(kind, buffer.pop(kind))
            elif kind == "strings":
                buffer["data"] = strings(buffer.pop(kind))
            elif kind == "raw":
                buffer["data"] = buffer.pop(kind)
    for code in model.get("operator_codes", []):
        if "opcode" in code:
            value = builtin_codes()[code.pop("opcode")]
            code["builtin_code"] = value
            code["deprecated_builtin_code"] = min(value, 127)
    for subgraph in model.get("subgraphs", []):
        for op in subgraph.get("operators", []):
            if "flex" in op:
                op["custom_options"] = flex(*op.pop("flex"))
            if "flexmap" in op:
                from flatbuffers import flexbuffers
                op["custom_options"] = list(flexbuffers.Dumps(op.pop("flexmap")))
    npy = model.pop("npy", {})
    base = os.path.splitext(out)[0]
    with open(base + ".json", "w") as f:
        json.dump(model, f)
    subprocess.run(["flatc", "-b", "-o", os.path.dirname(out) or ".",
                    SCHEMA, base + ".json"], check=True)
    produced = base + ".tflite"
    if os.path.abspath(produced) != os.path.abspath(out):
        os.replace(produced, out)
    for i, (name, spec) in enumerate(npy.items()):
        path = sys.argv[3 + i] if len(sys.argv) > 3 + i else os.path.join(
            os.path.dirname(out) or ".", name)
        write_npy(path, spec)


if __name__ == "__main__":
    main()
