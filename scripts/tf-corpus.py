#!/usr/bin/env python3
#===- tf-corpus.py - parse and lower TensorFlow's own MLIR test inputs ----===#
#
# Measures how much of TensorFlow's own MLIR test inputs our tools accept
# (docs/TFCompatibility.md). Not part of scripts/test.sh: it needs a
# TensorFlow checkout, which is large.
#
# Usage: scripts/tf-corpus.py TF_REPO [--build DIR] [--verbose]
#                             [--failures parse|lower|translate] [--keep DIR]
#   TF_REPO  a TensorFlow checkout (a work tree) or a git directory without
#            one (files are then read with `git show HEAD:<path>`)
#
# Every .mlir file under tensorflow/compiler/mlir/tfrt/tests and
# tensorflow/compiler/mlir/tensorflow/tests is split on `// -----`. A case is
# kept when TensorFlow considers it valid (no `expected-error`, and its file's
# RUN lines do not expect a failure) and it uses only the tf, tf_executor,
# tf_type, func, builtin and arith dialects. For each kept case:
#   parse      `fallback-opt CASE` succeeds
#   lower      `fallback-opt --tfrt-fallback-pipeline=allow-unsupported CASE`
#              succeeds (the pipeline is what users run: TF's inputs are
#              mostly tf_executor graphs; allow-unsupported because kernel
#              coverage is measured elsewhere, docs/Kernels.md)
#   translate  the lowered module goes through `fallback-translate
#              --mlir-to-bef` and back with `--bef-to-mlir`, or is refused
#              with an error
# A crash (a signal, an assertion, LLVM's crash banner) in any tool is
# counted and listed; the exit status is 1 when there is one.
#===----------------------------------------------------------------------===#

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

DIRS = ["tensorflow/compiler/mlir/tfrt/tests",
        "tensorflow/compiler/mlir/tensorflow/tests"]
ALLOWED = {"tf", "tf_executor", "tf_type", "func", "builtin", "arith"}
# Builtin names that look like dialect prefixes in the patterns below.
BUILTIN_WORDS = {"loc", "affine_map", "affine_set", "dense", "array",
                 "dense_resource", "sparse", "strided", "distinct", "opaque",
                 "complex", "tensor", "memref", "vector", "tuple", "none",
                 "index", "unit", "true", "false"}

OP_AT_START = re.compile(
    r'^\s*(?:(?:%[\w#:.$-]+\s*,\s*)*%[\w#:.$-]+\s*=\s*)?'
    r'"?([A-Za-z_][\w$]*)\.(?![\w.$]*"?\s*=)[A-Za-z_]')
GENERIC_OP = re.compile(r'"([A-Za-z_][\w$]*)\.[A-Za-z_][\w.$]*"\s*\(')
DIALECT_TYPE = re.compile(r'!([A-Za-z_][\w$]*)[.<]')
DIALECT_ATTR = re.compile(r'#([A-Za-z_][\w$]*)[.<]')
ALIAS_DEF = re.compile(r'^\s*[#!]([\w$.-]+)\s*=', re.M)
CRASH = re.compile(r'PLEASE submit a bug report|Stack dump:|Assertion .* failed'
                   r'|UNREACHABLE executed|LLVM ERROR')


def listFiles(repo):
    if os.path.isdir(os.path.join(repo, DIRS[0])):
        files = []
        for d in DIRS:
            for root, _, names in os.walk(os.path.join(repo, d)):
                files += [os.path.relpath(os.path.join(root, n), repo)
                          for n in names if n.endswith(".mlir")]
        return sorted(files), lambda p: open(os.path.join(repo, p)).read()
    out = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only",
                          "HEAD", "--"] + DIRS, capture_output=True, text=True,
                         check=True).stdout.split()
    read = lambda p: subprocess.run(
        ["git", "-C", repo, "show", "HEAD:" + p], capture_output=True,
        text=True, check=True).stdout
    return sorted(p for p in out if p.endswith(".mlir")), read


def dialectsOf(text):
    """The dialect prefixes `text` uses for ops, types and attributes."""
    code = "\n".join(line.split("//")[0] if not line.lstrip().startswith("//")
                     else "" for line in text.splitlines())
    # Strings may hold anything (names, devices): blank them out, except the
    # names of generic ops ("tf.Foo"(...)), which GENERIC_OP reads first.
    found = set(GENERIC_OP.findall(code))
    code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', code)
    aliases = set(ALIAS_DEF.findall(code))
    for line in code.splitlines():
        m = OP_AT_START.match(line)
        if m:
            found.add(m.group(1))
    found |= set(DIALECT_TYPE.findall(code))
    found |= {d for d in DIALECT_ATTR.findall(code) if d not in aliases}
    return {d for d in found if d not in BUILTIN_WORDS}


def splitCases(text):
    return re.split(r'^// -----.*$', text, flags=re.M)


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=120)
    err = p.stderr.decode(errors="replace")
    crashed = p.returncode < 0 or bool(CRASH.search(err))
    return p.returncode == 0 and not crashed, crashed, p.stdout, err


def firstError(err):
    for line in err.splitlines():
        m = re.search(r'error: (.*)', line)
        if m:
            return m.group(1)
    return err.strip().splitlines()[0] if err.strip() else "(no message)"


def main():
    ap = argparse.ArgumentParser(description="Parse and lower TensorFlow's own MLIR test inputs")
    ap.add_argument("repo")
    ap.add_argument("--build", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--failures", choices=["parse", "lower", "translate"],
                    help="print each failing case of this step")
    ap.add_argument("--keep", help="write the kept cases into this directory")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "fallback-opt")
    translate = os.path.join(args.build, "bin", "fallback-translate")

    files, read = listFiles(args.repo)
    counts = collections.Counter()
    reasons = {"parse": collections.Counter(), "lower": collections.Counter(),
               "translate": collections.Counter()}
    crashes = []
    for path in files:
        text = read(path)
        runLines = " ".join(re.findall(r'//\s*RUN:(.*)', text))
        if re.search(r'\bnot\b', runLines):
            counts["files expecting failure"] += 1
            continue
        for index, case in enumerate(splitCases(text)):
            name = "%s#%d" % (path, index)
            if not case.strip():
                continue
            counts["cases"] += 1
            if "expected-error" in case:
                counts["invalid (expected-error)"] += 1
                continue
            other = dialectsOf(case) - ALLOWED
            if other:
                counts["other dialects"] += 1
                continue
            counts["kept"] += 1
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                with open(os.path.join(args.keep, name.replace("/", "_")
                                       .replace("#", "_") + ".mlir"),
                          "w") as f:
                    f.write(case)
            data = case.encode()
            steps = [
                ("parse", [opt, "-"], data),
                ("lower", [opt, "--tfrt-fallback-pipeline=allow-unsupported",
                           "-"], data),
            ]
            lowered = None
            for step, cmd, stdin in steps:
                ok, crashed, out, err = run(cmd, stdin)
                if crashed:
                    crashes.append((name, step, err.strip()[-400:]))
                if not ok:
                    reasons[step][firstError(err)[:110]] += 1
                    if args.failures == step:
                        print("%s: %s: %s" % (name, step, firstError(err)))
                    break
                counts[step] += 1
                lowered = out
            else:
                # Round trip through the binary program; an error is fine.
                with tempfile.TemporaryDirectory() as tmp:
                    bef = os.path.join(tmp, "case.bef")
                    ok, crashed, _, err = run(
                        [translate, "--mlir-to-bef", "-", "-o", bef], lowered)
                    if crashed:
                        crashes.append((name, "mlir-to-bef", err[-400:]))
                    if ok:
                        counts["translate"] += 1
                        ok, crashed, _, err = run(
                            [translate, "--bef-to-mlir", bef])
                        if crashed:
                            crashes.append((name, "bef-to-mlir", err[-400:]))
                        if ok:
                            counts["round trip"] += 1
                    if not ok:
                        reasons["translate"][firstError(err)[:110]] += 1
                        if args.failures == "translate":
                            print("%s: translate: %s" % (name, firstError(err)))

    kept = counts["kept"]
    pct = lambda n: "%.1f%%" % (100.0 * n / kept) if kept else "-"
    print("files: %d (%d expect a failure and are skipped)" %
          (len(files), counts["files expecting failure"]))
    print("cases: %d; invalid: %d; other dialects: %d; kept: %d" %
          (counts["cases"], counts["invalid (expected-error)"],
           counts["other dialects"], kept))
    print("parse: %d (%s)" % (counts["parse"], pct(counts["parse"])))
    print("lower: %d (%s)" % (counts["lower"], pct(counts["lower"])))
    print("translate to .bef: %d, and back: %d" %
          (counts["translate"], counts["round trip"]))
    print("crashes: %d" % len(crashes))
    for name, step, err in crashes:
        print("  CRASH %s (%s)\n    %s" % (name, step,
                                          err.replace("\n", "\n    ")))
    for step in ["parse", "lower", "translate"]:
        if reasons[step]:
            print("most common %s failures:" % step)
            for reason, n in reasons[step].most_common(
                    None if args.verbose else 12):
                print("  %4d  %s" % (n, reason))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
