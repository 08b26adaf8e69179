#!/usr/bin/env python3
"""Writes a copy of a binary program with its signatures section (kind 5,
docs/BinaryFormat.md) broken in one way, for the loader's checks.

usage: patch-signatures.py IN OUT MODE
  MODE: count (the first signature names one argument more than its
  function has), function (it names a function past the table), twice (two
  signatures of one function), trailing (bytes after the last signature)
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bef_sections import last_section, repeat_or_extend  # noqa: E402


def main():
    src, dst, mode = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    entry, start, length = last_section(data, 5, "signatures")
    # The first signature: u32 function, u32 argument count, then each
    # name as str {u32 offset, u32 length}.
    first = start + 4
    if mode == "count":
        (args,) = struct.unpack_from("<I", data, first + 4)
        struct.pack_into("<I", data, first + 4, args + 1)
    elif mode == "function":
        struct.pack_into("<I", data, first, 1000)
    elif mode in ("twice", "trailing"):
        repeat_or_extend(data, mode, entry, start, length, first)
    else:
        sys.exit("unknown mode " + mode)
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
