#!/usr/bin/env python3
"""Prints the header and pixels of the PNG in a string .npy (a result of
fallback-run --output-dir), read with zlib and the PNG filters written
here: an independent reader of what EncodePng writes (8-bit, not
interlaced).

Usage: png_pixels.py OUTPUT.npy (a '|S' scalar)"""
import ast
import struct
import sys
import zlib

with open(sys.argv[1], "rb") as f:
    npy = f.read()
assert npy[:6] == b"\x93NUMPY", npy[:6]
(header_length,) = struct.unpack("<H", npy[8:10])
header = ast.literal_eval(npy[10:10 + header_length].decode("latin1"))
assert header["descr"].startswith("|S") and header["shape"] == (), header
# NumPy's fixed-width bytes: trailing NULs are padding (a PNG ends with
# IEND's CRC, AE 42 60 82).
data = npy[10 + header_length:].rstrip(b"\0")
assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
at, idat = 8, b""
while at < len(data):
    (length,) = struct.unpack(">I", data[at:at + 4])
    kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
    (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
    assert zlib.crc32(kind + body) == crc, kind
    if kind == b"IHDR":
        width, height, depth, color, _, _, interlace = struct.unpack(
            ">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    at += 12 + length
channels = {0: 1, 2: 3, 4: 2, 6: 4}[color]
print("IHDR width %d height %d depth %d color %d interlace %d" %
      (width, height, depth, color, interlace))
raw = zlib.decompress(idat)
bpp, stride = channels, width * channels
prev = [0] * stride
for y in range(height):
    line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
    kind, row = line[0], list(line[1:])
    for i in range(stride):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if kind == 1:
            row[i] = (row[i] + a) & 0xff
        elif kind == 2:
            row[i] = (row[i] + b) & 0xff
        elif kind == 3:
            row[i] = (row[i] + (a + b) // 2) & 0xff
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            row[i] = (row[i] + pred) & 0xff
    print("row %d: %s" % (y, row))
    prev = row
