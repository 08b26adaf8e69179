#!/usr/bin/env python3
"""Real models as SavedModels: each TF.js graph model's GraphDef with its
weights moved into a tensor bundle, run through the SavedModel importer and
compared with the same model run from model.json.

usage: saved-model-twins.py [MODEL ...] [--all]

MODEL is a name run-models.py knows (default: nsfwjs_mobilenet_v2_mid
blazeface handlandmark-lite posenet). For each, this test helper writes
$CACHE/saved-models/<name>/ as TF1's SavedModelBuilder would:

- saved_model.pb: one MetaGraphDef tagged `serve` whose GraphDef is the
  model's topology (TF.js's model.json holds a GraphDef in protobuf's JSON
  form) with each weight's Const turned into a VariableV2 of its dtype and
  shape, a saver restore graph (RestoreV2 of checkpoint keys
  `model_weights/<node>`, unlike the node names, so the importer must read
  the restore graph) and the signature `serving_default` (the Placeholders
  in, the nodes nothing consumes out; keys prefixed by their position so
  that their order is TF.js's).
- variables/variables.index and .data-00000-of-00001: the weights,
  dequantized as TF.js does, in a tensor bundle written here (our own
  Python writer, independent of the runtime's: LevelDB's table format and
  TF's BundleEntryProto, masked CRC-32C).

fallback-run runs the SavedModel and model.json on the TF.js reference input;
every output must be bitwise equal (same graph, same weights), and within
|a - b| <= 1e-4 + 1e-3 |b| of TF.js's. Exits 1 on a mismatch. Needs
Debian's python3-protobuf (scripts/setup.sh) and protoc."""
import argparse
import importlib.util
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BIN = os.path.join(os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), "bin")
sys.path.insert(0, HERE)
import fetch  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "compare_npy", os.path.join(ROOT, "scripts", "compare-npy.py"))
compare_npy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_npy)

DEFAULT = ["nsfwjs_mobilenet_v2_mid", "blazeface", "handlandmark-lite", "posenet"]
NP_DTYPES = {"float32": np.float32, "int32": np.int32, "bool": np.bool_,
             "uint8": np.uint8, "uint16": np.uint16, "float16": np.float16}
DT = {"float32": 1, "int32": 3, "bool": 10}


def protos():
    """graph.proto and saved_model.proto compiled for Python."""
    out = tempfile.mkdtemp(prefix="saved-model-protos-")
    subprocess.run(["protoc", "-I" + os.path.join(ROOT, "lib", "Import"),
                    "-I" + os.path.join(ROOT, "lib", "Import", "SavedModel"),
                    "--python_out=" + out, "graph.proto", "saved_model.proto"],
                   check=True)
    sys.path.insert(0, out)
    import graph_pb2  # noqa: F401
    import saved_model_pb2
    return saved_model_pb2


# --- the tensor bundle, written as TF's BundleWriter writes it -------------

def _crc_table():
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        table.append(crc)
    return table


CRC_TABLE = _crc_table()


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc = CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def mask(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def block(entries, restart_interval):
    """A LevelDB block: prefix-compressed entries, restart offsets."""
    out, restarts, last = bytearray(), [], b""
    for i, (key, value) in enumerate(entries):
        shared = 0
        if i % restart_interval:
            while shared < min(len(key), len(last)) and key[shared] == last[shared]:
                shared += 1
        else:
            restarts.append(len(out))
        out += varint(shared) + varint(len(key) - shared) + varint(len(value))
        out += key[shared:] + value
        last = key
    restarts = restarts or [0]
    out += b"".join(struct.pack("<I", r) for r in restarts)
    out += struct.pack("<I", len(restarts))
    return bytes(out)


def write_bundle(prefix, tensors, sm):
    """tensors: [(key, np.ndarray)], one shard, uncompressed blocks."""
    data, entries = bytearray(), []
    header = sm.BundleHeaderProto(num_shards=1)
    header.version.producer = 1
    entries.append((b"", header.SerializeToString()))
    for key, array in sorted(tensors, key=lambda kv: kv[0].encode()):
        raw = np.ascontiguousarray(array).tobytes()
        entry = sm.BundleEntryProto(dtype=DT[str(array.dtype)], offset=len(data),
                                    size=len(raw), crc32c=mask(crc32c(raw)))
        entry.shape.SetInParent()
        for dim in array.shape:
            entry.shape.dim.add().size = dim
        data += raw
        entries.append((key.encode(), entry.SerializeToString()))
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        f.write(data)
    table = bytearray()

    def emit(contents):
        offset = len(table)
        table.extend(contents + b"\0")
        table.extend(struct.pack("<I", mask(crc32c(contents + b"\0"))))
        return varint(offset) + varint(len(contents))

    data_handle = emit(block(entries, 16))
    # The index's key: any key >= the block's last one.
    index_key = entries[-1][0] + b"\0"
    meta_handle = emit(block([], 16))
    index_handle = emit(block([(index_key, data_handle)], 1))
    footer = (meta_handle + index_handle).ljust(40, b"\0")
    footer += struct.pack("<Q", 0xDB4775248B80FB57)
    with open(prefix + ".index", "wb") as f:
        f.write(table + footer)


# --- the SavedModel -----------------------------------------------------------

def read_weights(model_json, folder):
    """TF.js's weights by name, dequantized as tfjs-core's io does."""
    weights = {}
    for group in model_json.get("weightsManifest", []):
        raw = b"".join(open(os.path.join(folder, p), "rb").read() for p in group["paths"])
        at = 0
        for w in group["weights"]:
            shape = [int(d) for d in w["shape"]]
            count = int(np.prod(shape)) if shape else 1
            quant = w.get("quantization")
            stored = NP_DTYPES[quant["dtype"] if quant else w["dtype"]]
            size = count * np.dtype(stored).itemsize
            values = np.frombuffer(raw[at:at + size], dtype=stored)
            at += size
            if quant and quant["dtype"] in ("uint8", "uint16"):
                values = (values.astype(np.float64) * quant["scale"] + quant["min"])
            weights[w["name"]] = values.astype(NP_DTYPES[w["dtype"]]).reshape(shape)
    return weights


def write_saved_model(name, out_dir, sm):
    from google.protobuf import json_format
    path = fetch_model_path(name)
    model = json.load(open(path))
    weights = read_weights(model, os.path.dirname(path))
    meta = sm.MetaGraphDef()
    meta.meta_info_def.tags.append("serve")
    json_format.ParseDict(model["modelTopology"], meta.graph_def,
                          ignore_unknown_fields=True)
    graph = meta.graph_def
    consumed, placeholders, variables = set(), [], []
    for node in graph.node:
        for i in node.input:
            consumed.add(i.lstrip("^").split(":")[0])
    for node in graph.node:
        if node.op == "Placeholder":
            placeholders.append(node.name)
        if node.op == "Const" and node.name in weights:
            array = weights[node.name]
            node.op = "VariableV2"
            dtype = node.attr["dtype"].type
            node.ClearField("attr")
            node.attr["dtype"].type = dtype
            for dim in array.shape:
                node.attr["shape"].shape.dim.add().size = dim
            node.attr["shape"].shape.SetInParent()
            node.attr["container"].s = b""
            node.attr["shared_name"].s = b""
            variables.append((node.name, array))
    outputs = [n.name for n in graph.node
               if n.name not in consumed and n.op not in ("NoOp", "Placeholder")
               and n.name not in weights]

    def const(node_name, strings):
        node = graph.node.add(name=node_name, op="Const")
        node.attr["dtype"].type = 7
        tensor = node.attr["value"].tensor
        tensor.dtype = 7
        if isinstance(strings, list):
            tensor.tensor_shape.dim.add().size = len(strings)
            tensor.string_val.extend(s.encode() for s in strings)
        else:
            tensor.tensor_shape.SetInParent()
            tensor.string_val.append(strings.encode())

    keys = ["model_weights/" + v for v, _ in variables]
    const("save/Const", "model")
    const("save/RestoreV2/tensor_names", keys)
    const("save/RestoreV2/shape_and_slices", [""] * len(keys))
    restore = graph.node.add(name="save/RestoreV2", op="RestoreV2",
                             input=["save/Const", "save/RestoreV2/tensor_names",
                                    "save/RestoreV2/shape_and_slices"])
    restore.attr["dtypes"].list.type.extend(
        DT[str(a.dtype)] for _, a in variables)
    done = graph.node.add(name="save/restore_all", op="NoOp")
    for i, (var, array) in enumerate(variables):
        assign = graph.node.add(name="save/Assign_%d" % i, op="Assign",
                                input=[var, "save/RestoreV2:%d" % i])
        assign.attr["T"].type = DT[str(array.dtype)]
        assign.attr["validate_shape"].b = True
        assign.attr["use_locking"].b = True
        done.input.append("^" + assign.name)
    meta.saver_def.filename_tensor_name = "save/Const:0"
    meta.saver_def.restore_op_name = "save/restore_all"
    signature = meta.signature_def["serving_default"]
    signature.method_name = "tensorflow/serving/predict"
    for prefix, names, infos in (("in", placeholders, signature.inputs),
                                 ("out", outputs, signature.outputs)):
        for i, tensor in enumerate(names):
            infos["%s%02d_%s" % (prefix, i, tensor)].name = tensor + ":0"
    saved = sm.SavedModel(saved_model_schema_version=1)
    saved.meta_graphs.append(meta)
    os.makedirs(os.path.join(out_dir, "variables"), exist_ok=True)
    with open(os.path.join(out_dir, "saved_model.pb"), "wb") as f:
        f.write(saved.SerializeToString())
    write_bundle(os.path.join(out_dir, "variables", "variables"),
                 [(k, a) for k, (_, a) in zip(keys, variables)], sm)
    return path, len(variables), len(outputs)


def fetch_model_path(name):
    if name == "nsfwjs_mobilenet_v2_mid":
        return os.path.join(fetch.CACHE, "models", name, "model.json")
    return os.path.join(fetch.CACHE, "models", "human", name + ".json")


def output_names(program):
    """The names fallback-run --signature gives the outputs, in order."""
    result = subprocess.run([os.path.join(BIN, "fallback-run"), program, "--signature"],
                            capture_output=True, text=True, check=True)
    return [line.split("'")[1] for line in result.stdout.splitlines()
            if line.startswith("output ")]


def run(program, inputs, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    cmd = [os.path.join(BIN, "fallback-run"), program, "--threads=1",
           "--print-limit=0", "--output-dir=" + out_dir]
    cmd += ["--input=" + i for i in inputs]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(result.stderr.strip().splitlines()[-1])
    files = sorted(f for f in os.listdir(out_dir) if f.startswith("output_"))
    return [np.load(os.path.join(out_dir, f)) for f in
            sorted(files, key=lambda f: int(f.split("_")[1].split(".")[0]))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*")
    args = parser.parse_args()
    sm = protos()
    failed = False
    for name in args.models or DEFAULT:
        out_dir = os.path.join(fetch.CACHE, "saved-models", name)
        refs = os.path.join(fetch.CACHE, "refs", name)
        try:
            path, num_vars, _ = write_saved_model(name, out_dir, sm)
            inputs = sorted(os.path.join(refs, f) for f in os.listdir(refs)
                            if f.startswith("input_"))
            frozen = run(path, inputs, out_dir + ".frozen-out")
            saved = run(out_dir, inputs, out_dir + ".saved-out")
            if len(frozen) != len(saved):
                raise RuntimeError("%d outputs, the frozen model has %d" % (len(saved), len(frozen)))
            # The frozen model's order is its importer's; the SavedModel's
            # keys name the tensors.
            frozen_index = {n.split(":")[0]: k for k, n in enumerate(output_names(path))}
            worst = 0.0
            for key, a in zip(output_names(out_dir), saved):
                k = frozen_index[key[len("out00_"):]]
                b = frozen[k]
                if a.shape != b.shape or not np.array_equal(a, b):
                    raise RuntimeError("output %s differs from the frozen model's" % key)
                ref = [f for f in os.listdir(refs) if f.startswith("output_%d_" % k)
                       and f.endswith(".cpu.npy")]
                if ref:
                    r = np.load(os.path.join(refs, ref[0]))
                    err = np.abs(a.astype(np.float64) - r)
                    if not np.all(err <= 1e-4 + 1e-3 * np.abs(r)):
                        raise RuntimeError("output %s is off TF.js's by %g" % (key, err.max()))
                    worst = max(worst, float(err.max()))
            print("%-26s ok: %d variables, %d outputs equal to the frozen model's, "
                  "max |error| vs TF.js %.2g" % (name, num_vars, len(saved), worst))
        except Exception as e:  # noqa: BLE001 (reported per model)
            failed = True
            print("%-26s FAILED: %s" % (name, e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
