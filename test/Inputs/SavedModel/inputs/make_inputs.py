#!/usr/bin/env python3
"""Writes the .npy inputs of test/Import/saved-model-*.test (run from this
folder). The tf.Example strings are encoded by hand from example.proto and
feature.proto (Example{features=1}, Features{map<string, Feature> feature=1},
Feature{float_list=2}, FloatList{repeated float value=1 [packed]})."""

import struct

import numpy as np


def field(number, payload):
    """A length-delimited field (wire type 2); payloads here are < 128."""
    assert len(payload) < 128
    return bytes([number << 3 | 2, len(payload)]) + payload


def example(**features):
    entries = b""
    for key, values in sorted(features.items()):
        floats = field(1, b"".join(struct.pack("<f", v) for v in values))
        entries += field(1, field(1, key.encode()) + field(2, field(2, floats)))
    return field(1, entries)


np.save("x_3x1.npy", np.array([[1.0], [2.0], [5.0]], np.float32))
np.save("x_1.npy", np.array([2.0], np.float32))
np.save("x_3.npy", np.array([1.0, 2.0, 5.0], np.float32))
np.save("delta.npy", np.array(3.0, np.float32))
np.save("example_x2.npy", np.array([example(x=[2.0])], dtype="S"))
np.save("examples_80_20.npy",
        np.array([example(x=[80.0]), example(x=[20.0], x2=[10.0])], dtype="S"))
