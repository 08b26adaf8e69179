#!/usr/bin/env python3
"""Compares .npy outputs against reference .npy files.

usage: compare-npy.py ACTUAL EXPECTED [ACTUAL EXPECTED ...]
Passes when every element satisfies |a - b| <= atol + rtol * |b| (defaults
1e-4 and 1e-3: fp32 reassociation), shapes match, and NaNs match. Prints
one line per pair with the max absolute error; exits 1 on any mismatch.
Standard library only (no NumPy needed)."""
import argparse
import array
import ast
import math
import struct
import sys

CODES = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|u1": "B",
         "|i1": "b", "|b1": "B", "<i2": "h", "<u2": "H", "<f2": "e"}


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError("%s: not a .npy file" % path)
    if data[6] == 1:
        length = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        length = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    descr = header["descr"].replace("=", "<")
    code = CODES.get(descr)
    if code is None:
        raise ValueError("%s: unsupported dtype %s" % (path, descr))
    body = data[start + length:]
    if code == "e":
        values = [struct.unpack("<e", body[i:i + 2])[0] for i in range(0, len(body), 2)]
    else:
        values = array.array(code)
        values.frombytes(body)
    return tuple(header["shape"]), list(values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--atol", type=float, default=1e-4)
    parser.add_argument("--rtol", type=float, default=1e-3)
    args = parser.parse_args()
    if len(args.files) % 2:
        parser.error("give ACTUAL EXPECTED pairs")
    ok = True
    for actual_path, expected_path in zip(args.files[::2], args.files[1::2]):
        shape_a, a = read_npy(actual_path)
        shape_b, b = read_npy(expected_path)
        if shape_a != shape_b:
            print("FAIL %s: shape %s, expected %s" % (actual_path, shape_a, shape_b))
            ok = False
            continue
        worst = 0.0
        bad = 0
        for x, y in zip(a, b):
            if math.isnan(y) or math.isnan(x):
                if not (math.isnan(x) and math.isnan(y)):
                    bad += 1
                continue
            err = abs(x - y)
            worst = max(worst, err)
            if err > args.atol + args.rtol * abs(y):
                bad += 1
        status = "ok" if bad == 0 else "FAIL"
        ok = ok and bad == 0
        print("%s %s: max |a-b| = %.3g over %d elements%s" % (
            status, expected_path.split("/")[-1], worst, len(b),
            "" if bad == 0 else ", %d out of tolerance" % bad))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
