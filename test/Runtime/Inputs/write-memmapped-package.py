#!/usr/bin/env python3
"""Writes a package of TensorFlow's memmapped file system for tests.

  write-memmapped-package.py OUT [--unaligned] NAME:DTYPE:V1,V2,... ...

The regions in order, each starting at a multiple of 64 bytes (with
--unaligned, one byte later), then the MemmappedFileSystemDirectory proto
(element = 1: offset = 1, name = 2, length = 3), then the directory's
offset as 8 little-endian bytes, as TF's MemmappedFileSystemWriter lays a
package out. Written from the format, not with TF.
"""
import struct
import sys

# Element formats of struct, little-endian.
FORMATS = {"float32": "f", "float64": "d", "int32": "i", "int64": "q",
           "int8": "b", "uint8": "B", "int16": "h"}


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(num, wire, payload):
    tag = varint(num << 3 | wire)
    if wire == 0:
        return tag + varint(payload)
    return tag + varint(len(payload)) + payload


def main(argv):
    out, args = argv[0], argv[1:]
    unaligned = "--unaligned" in args
    args = [a for a in args if a != "--unaligned"]
    data, directory = bytearray(), bytearray()
    for spec in args:
        name, dtype, values = spec.split(":")
        fmt = FORMATS[dtype]
        items = values.split(",") if values else []
        nums = [float(v) if fmt in "fd" else int(v) for v in items]
        raw = struct.pack("<%d%s" % (len(nums), fmt), *nums)
        data += b"\0" * (-len(data) % 64 + (1 if unaligned else 0))
        element = (field(1, 0, len(data)) + field(2, 2, name.encode()) +
                   field(3, 0, len(raw)))
        directory += field(1, 2, element)
        data += raw
    offset = len(data)
    with open(out, "wb") as f:
        f.write(bytes(data) + bytes(directory) + struct.pack("<Q", offset))


if __name__ == "__main__":
    main(sys.argv[1:])
