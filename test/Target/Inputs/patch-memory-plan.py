#!/usr/bin/env python3
"""Writes a copy of a binary program with its memory-plan section (kind 4,
docs/BinaryFormat.md) broken in one way, for the loader's checks.

usage: patch-memory-plan.py IN OUT MODE
"""
import struct
import sys


def main():
    src, dst, mode = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    (count,) = struct.unpack_from("<I", data, 12)
    entry = None
    for i in range(count):
        at = 16 + 24 * i
        kind, _, offset, size = struct.unpack_from("<IIQQ", data, at)
        if kind == 4:
            entry, start, length = at, offset, size
    if entry is None:
        sys.exit("no memory-plan section")
    if start + length != len(data):
        sys.exit("the memory-plan section is not the last bytes of the file")
    # The first plan: u32 function, u64 arena, u32 buffer count, buffers
    # {u64 offset, u64 bytes}, u32 value count, values {u32 reg, u32 buffer}.
    plan = start + 4
    (arena,) = struct.unpack_from("<Q", data, plan + 4)
    (buffers,) = struct.unpack_from("<I", data, plan + 12)
    first_buffer = plan + 16
    values_at = first_buffer + 16 * buffers
    first_value = values_at + 4
    if mode == "outside":
        struct.pack_into("<Q", data, first_buffer + 8, arena + 1)
    elif mode == "arena":
        struct.pack_into("<Q", data, plan + 4, 1 << 41)
    elif mode == "register":
        struct.pack_into("<I", data, first_value, 0)  # an argument
    elif mode == "buffer":
        struct.pack_into("<I", data, first_value + 4, buffers)
    elif mode in ("twice", "trailing"):
        extra = data[plan:] if mode == "twice" else b"\0\0\0\0"
        if mode == "twice":
            struct.pack_into("<I", data, start, 2)
        data += extra
        struct.pack_into("<Q", data, entry + 16, length + len(extra))
    else:
        sys.exit("unknown mode " + mode)
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
