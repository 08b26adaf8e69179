#!/usr/bin/env python3
"""Writes a copy of a binary program with its memory-plan section (kind 4,
docs/BinaryFormat.md) broken in one way, for the loader's checks.

usage: patch-memory-plan.py IN OUT MODE
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bef_sections import last_section, repeat_or_extend  # noqa: E402


def main():
    src, dst, mode = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    entry, start, length = last_section(data, 4, "memory-plan")
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
        repeat_or_extend(data, mode, entry, start, length, plan)
    else:
        sys.exit("unknown mode " + mode)
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
