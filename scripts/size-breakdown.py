#!/usr/bin/env python3
# ===- size-breakdown.py - where a binary's code bytes come from ---------=== #
#
# Usage: scripts/size-breakdown.py BINARY [--by file|function|line]
#                                          [--inside FUNCTION] [--top N]
#
# Attributes every instruction of BINARY (built with -g; with LTO, pass -g
# to the compile flags: scripts/size-report.sh's builds with
# CMAKE_CXX_FLAGS+=-g measure within a few bytes of the stripped ones) to
# the source it came from, through the inlining chain that
# llvm-symbolizer reports. With whole-program optimization a symbol table
# says little (ProgramLoader::load is 25 KB with all it inlines); this
# says which source lines and which inlined callees the bytes are.
#
#   --by file       bytes per source file of the innermost frame (default)
#   --by function   bytes per innermost (inlined) function
#   --by line       bytes per source line of the innermost frame
#   --inside F      only code inlined into (or in) a function whose
#                   demangled name starts with F, grouped by the callee F
#                   inlined directly (what F's bytes are made of)
#
# Needs llvm-objdump-22 and llvm-symbolizer-22 (scripts/setup.sh).
# ===----------------------------------------------------------------------=== #
import argparse
import collections
import json
import re
import subprocess
import sys


def instructions(binary):
    """(address, size) of every instruction in the executable sections."""
    out = subprocess.run(
        ["llvm-objdump-22", "-d", "--no-show-raw-insn", binary],
        check=True, capture_output=True, text=True).stdout
    addresses = [int(m.group(1), 16)
                 for m in re.finditer(r"^\s*([0-9a-f]+):", out, re.M)]
    result = []
    for i, address in enumerate(addresses):
        size = addresses[i + 1] - address if i + 1 < len(addresses) else 0
        # The gap to the next function's first instruction is padding.
        result.append((address, size if size <= 16 else 1))
    return result


def frames(binary, addresses):
    """The inlining chain (innermost first) of every address."""
    query = "\n".join(hex(a) for a in addresses)
    out = subprocess.run(
        ["llvm-symbolizer-22", "--obj=" + binary, "--inlines", "--demangle",
         "--functions=linkage", "--output-style=JSON"],
        input=query, check=True, capture_output=True, text=True).stdout
    return [json.loads(line)["Symbol"] for line in out.splitlines() if line]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--by", choices=["file", "function", "line"],
                        default="file")
    parser.add_argument("--inside")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()

    insts = instructions(args.binary)
    chains = frames(args.binary, [a for a, _ in insts])
    totals = collections.Counter()
    for (_, size), chain in zip(insts, chains):
        if not chain:
            continue
        if args.inside:
            for depth, frame in enumerate(chain):
                if frame["FunctionName"].startswith(args.inside):
                    callee = chain[depth - 1]["FunctionName"] if depth else \
                        "(its own code)"
                    totals[callee] += size
                    break
            continue
        inner = chain[0]
        where = re.sub(r".*?/(lib|include|tools|usr)/", r"\1/",
                       inner["FileName"]) or "(no source)"
        if args.by == "file":
            totals[where] += size
        elif args.by == "function":
            totals[inner["FunctionName"]] += size
        else:
            totals["%s:%d" % (where, inner["Line"])] += size
    total = sum(totals.values())
    for key, size in totals.most_common(args.top):
        print("%7d  %s" % (size, key[:150]))
    print("%7d  in all" % total)


if __name__ == "__main__":
    sys.exit(main())
