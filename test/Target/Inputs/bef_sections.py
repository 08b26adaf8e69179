"""The section table of a binary program (docs/BinaryFormat.md), for the
scripts that break one section on purpose (patch-*.py)."""
import struct
import sys


def last_section(data, kind, name):
    """(table entry offset, start, length) of the section of `kind`, which
    must be the file's last bytes (so that it can grow)."""
    (count,) = struct.unpack_from("<I", data, 12)
    found = None
    for i in range(count):
        at = 16 + 24 * i
        k, _, offset, size = struct.unpack_from("<IIQQ", data, at)
        if k == kind:
            found = (at, offset, size)
    if found is None:
        sys.exit("no %s section" % name)
    if found[1] + found[2] != len(data):
        sys.exit("the %s section is not the last bytes of the file" % name)
    return found


def repeat_or_extend(data, mode, entry, start, length, first):
    """Mode 'twice': the section's count becomes 2 and its first record is
    appended again; 'trailing': four zero bytes follow its records. The
    section table's size follows."""
    extra = data[first:] if mode == "twice" else b"\0\0\0\0"
    if mode == "twice":
        struct.pack_into("<I", data, start, 2)
    data += extra
    struct.pack_into("<Q", data, entry + 16, length + len(extra))
