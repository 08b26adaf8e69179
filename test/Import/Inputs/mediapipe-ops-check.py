#!/usr/bin/env python3
"""Writes random cases of MediaPipe's three custom ops (as
face_landmark_with_attention.tflite uses them) with their expected outputs
from mediapipe_ops_ref.py, a NumPy implementation written apart from
lib/Runtime/Kernels/image/MediaPipeKernels.cpp from MediaPipe's CPU kernels.

usage: mediapipe-ops-check.py OUTDIR
Writes OUTDIR/<case>.tflite, <case>.input_<i>.npy and <case>.expected.npy
for the cases matrix, bilinear, landmarks."""
import importlib.util
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mediapipe_ops_ref as ref  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "tflite_from_json", os.path.join(HERE, "tflite-from-json.py"))
writer = importlib.util.module_from_spec(spec)
spec.loader.exec_module(writer)

# The lips instance of the model (its custom options).
LIPS = {"left_rotation_idx": 61, "right_rotation_idx": 291, "output_height": 16,
        "output_width": 16, "scale_x": 1.5, "scale_y": 1.5,
        "target_rotation_radians": 0.0,
        "subset_idxs": [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 185, 40,
                        39, 37, 0, 267, 269, 270, 409, 78, 95, 88, 178, 87, 14, 317,
                        402, 318, 324, 308, 191, 80, 81, 82, 13, 312, 311, 310, 415,
                        76, 77, 90, 180, 85, 16, 315, 404, 320, 307, 306, 184, 74,
                        73, 72, 11, 302, 303, 304, 408, 62, 96, 89, 179, 86, 15, 316,
                        403, 319, 325, 292, 183, 42, 41, 38, 12, 268, 271, 272, 407,
                        193]}


def model(code, inputs, output, options=None, constants=()):
    """A one-operator model: `inputs` [(name, shape)], `constants` [(name,
    shape, values)] appended as constant inputs."""
    tensors, buffers = [], [{}]
    for name, shape in inputs:
        tensors.append({"shape": list(shape), "type": "FLOAT32", "name": name})
    for name, shape, values in constants:
        buffers.append({"f32": [float(v) for v in np.ravel(values)]})
        tensors.append({"shape": list(shape), "type": "FLOAT32", "name": name,
                        "buffer": len(buffers) - 1})
    tensors.append({"shape": list(output), "type": "FLOAT32", "name": "out"})
    op = {"opcode_index": 0, "inputs": list(range(len(tensors) - 1)),
          "outputs": [len(tensors) - 1]}
    if options is not None:
        op["flexmap"] = options
    return {"version": 3,
            "operator_codes": [{"opcode": "CUSTOM", "custom_code": code, "version": 2}],
            "subgraphs": [{"tensors": tensors, "inputs": list(range(len(inputs))),
                           "outputs": [len(tensors) - 1], "operators": [op]}],
            "buffers": buffers}


def write(out, case, description, inputs, expected):
    path = os.path.join(out, case + ".json")
    with open(path, "w") as f:
        json.dump(description, f)
    sys.argv = ["tflite-from-json.py", path, os.path.join(out, case + ".tflite")]
    writer.main()
    for i, x in enumerate(inputs):
        np.save(os.path.join(out, "%s.input_%d.npy" % (case, i)), x.astype(np.float32))
    np.save(os.path.join(out, case + ".expected.npy"), expected.astype(np.float32))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(2026)

    # A face mesh in the 48-px crop, tilted: 468 points around a centre.
    mesh = np.zeros((1, 468, 3), np.float32)
    mesh[0, :, :2] = rng.uniform(8, 40, (468, 2))
    mesh[0, :, 2] = rng.uniform(-5, 5, 468)
    mesh[0, 291, :2] = mesh[0, 61, :2] + [14.0, 3.5]  # the mouth corners
    options = dict(LIPS, subset_idxs=LIPS["subset_idxs"])
    matrix = ref.landmarks_to_transform_matrix_v2(mesh, options)
    write(out, "matrix", model("Landmarks2TransformMatrix", [("mesh", mesh.shape)],
                               (1, 4, 4), options), [mesh], matrix)

    # The lips crop of a feature map with that matrix.
    features = rng.standard_normal((1, 48, 48, 32)).astype(np.float32)
    crop = ref.transform_tensor_bilinear_v2(features, matrix, (1, 16, 16, 32))
    write(out, "bilinear",
          model("TransformTensorBilinear", [("features", features.shape)],
                (1, 16, 16, 32), {"output_height": 16, "output_width": 16},
                [("matrix", (1, 4, 4), matrix)]),
          [features], crop)

    # Landmarks in the 64-px crop back into the image (the model's K).
    k = np.array([[[1, 1, 4, 4], [1, 1, 4, 4], [.25, .25, 1, 1], [.25, .25, 1, 1]]],
                 np.float32)
    scaled = (matrix * k).astype(np.float32)
    points = rng.uniform(0, 64, (1, 80, 2)).astype(np.float32)
    moved = ref.transform_landmarks_v2(points, scaled)
    write(out, "landmarks",
          model("TransformLandmarks", [("points", points.shape)], points.shape, None,
                [("matrix", (1, 4, 4), scaled)]),
          [points], moved)


if __name__ == "__main__":
    main()
