#!/usr/bin/env python3
"""Writes the .npy inputs of the runtime lit tests with the standard library
only (independently of the runtime's own .npy writer).

Usage: make_npy.py  (writes into this folder)"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def npy(name, descr, fmt, shape, values, version=1):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    prefix = 10 if version == 1 else 12
    total = prefix + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    head = b"\x93NUMPY" + bytes([version, 0])
    head += struct.pack("<H" if version == 1 else "<I", len(header))
    data = struct.pack("<%d%s" % (len(values), fmt), *values)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(head + header.encode("latin1") + data)


npy("f32_2x3.npy", "<f4", "f", (2, 3), [1, 2, 3, 4, 5, 6])
npy("f32_3.npy", "<f4", "f", (3,), [10, 20, 30])
npy("f32_2.npy", "<f4", "f", (2,), [1, 2])
npy("f32_4x4.npy", "<f4", "f", (4, 4), list(range(1, 17)))
npy("f32_scalar.npy", "<f4", "f", (), [2.5])
npy("f32_2x3_v2.npy", "<f4", "f", (2, 3), [1, 2, 3, 4, 5, 6], version=2)
# Complex numbers: (re, im) pairs; [1+2j, 3-4j, 0.5+0j, -1-1j].
npy("c64_4.npy", "<c8", "f", (4,), [1, 2, 3, -4, 0.5, 0, -1, -1])
npy("f64_2.npy", "<f8", "d", (2,), [0.5, -1.25])
npy("f16_2.npy", "<f2", "e", (2,), [1.5, -2.0])
npy("i32_4.npy", "<i4", "i", (4,), [1, -2, 3, -4])
npy("i64_2.npy", "<i8", "q", (2,), [-9007199254740993, 7])
npy("u8_3.npy", "|u1", "B", (3,), [0, 128, 255])
npy("i8_2.npy", "|i1", "b", (2,), [-128, 127])
npy("bool_3.npy", "|b1", "?", (3,), [True, False, True])
npy("i32_shape_2.npy", "<i4", "i", (2,), [3, 2])
npy("i32_indices_2.npy", "<i4", "i", (2,), [2, 0])
npy("f32_empty.npy", "<f4", "f", (0, 3), [])
# A shape of 2^62 elements for Fill (limits.mlir).
npy("i32_shape_huge.npy", "<i4", "i", (2,), [2147483647, 2147483647])


def npy_strings(name, descr, shape, values):
    """NumPy's fixed-width strings: '|Sn' bytes or '<Un' UTF-32, NUL-padded."""
    width = int(descr[2:])
    if descr[1] == "S":
        data = b"".join(v.ljust(width, b"\0") for v in values)
    else:
        data = b"".join(v.encode("utf-32-le").ljust(4 * width, b"\0") for v in values)
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + data)


npy_strings("str_2x2.npy", "|S5", (2, 2), [b"hello", b"a", b"", b"tf"])
npy_strings("str_3.npy", "|S4", (3,), [b"ab", b"cde", b"f"])
npy_strings("unicode_3.npy", "<U3", (3,), ["\u00e9t\u00e9", "ab", "\U0001f600"])
# Broken files.
with open(os.path.join(HERE, "truncated.npy"), "wb") as f:
    f.write(open(os.path.join(HERE, "f32_2x3.npy"), "rb").read()[:-5])
with open(os.path.join(HERE, "bigendian.npy"), "wb") as f:
    f.write(open(os.path.join(HERE, "f32_3.npy"), "rb").read().replace(b"<f4", b">f4"))
with open(os.path.join(HERE, "fortran.npy"), "wb") as f:
    f.write(open(os.path.join(HERE, "f32_2x3.npy"), "rb").read().replace(b"False", b"True "))
with open(os.path.join(HERE, "notnpy.npy"), "wb") as f:
    f.write(b"hello, world")
# A header asking for 2^62 floats (2^64 bytes), with no data.
npy("huge_shape.npy", "<f4", "f", (4611686018427387904,), [])
