#!/usr/bin/env python3
"""Writes a copy of a binary program with its signatures section (kind 5,
docs/BinaryFormat.md) broken in one way, for the loader's checks.

usage: patch-signatures.py IN OUT MODE
  MODE: count (the first signature names one argument more than its
  function has), function (it names a function past the table), twice (two
  signatures of one function), trailing (bytes after the last signature)
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
        if kind == 5:
            entry, start, length = at, offset, size
    if entry is None:
        sys.exit("no signatures section")
    if start + length != len(data):
        sys.exit("the signatures section is not the last bytes of the file")
    # The first signature: u32 function, u32 argument count, then each
    # name as str {u32 offset, u32 length}.
    first = start + 4
    if mode == "count":
        (args,) = struct.unpack_from("<I", data, first + 4)
        struct.pack_into("<I", data, first + 4, args + 1)
    elif mode == "function":
        struct.pack_into("<I", data, first, 1000)
    elif mode in ("twice", "trailing"):
        extra = data[first:] if mode == "twice" else b"\0\0\0\0"
        if mode == "twice":
            struct.pack_into("<I", data, start, 2)
        data += extra
        struct.pack_into("<Q", data, entry + 16, length + len(extra))
    else:
        sys.exit("unknown mode " + mode)
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
