#!/usr/bin/env python3
"""The inference ops of TFLite's Flex allowlist, and how many we run.

usage:
  flex-ops.py derive ALLOWLIST           prints the inference list
  flex-ops.py check ALLOWLIST INFERENCE GAPS KERNELS
                                         checks the lists against the
                                         registry, prints the counts

ALLOWLIST is TensorFlow's Flex allowlist, one op a line
(test/Inputs/Flex/allowlist-tf-2.21.txt). `derive` drops the ops of the
categories below (training, queues, TF1 ref variables, ...; issue 13 names
them) and prints what is left: the inference list
(test/Inputs/Flex/inference-ops.txt).

`check` reads the inference list, GAPS (test/Inputs/Flex/known-gaps.txt:
"Op: gap: reason" for an op we have no kernel for yet, "Op: lowered:
reason" for one the compiler handles without a kernel, such as Const) and
KERNELS (the output of `fallback-run --list-kernels`), and fails when
  - INFERENCE is not what `derive` makes of ALLOWLIST,
  - an op of INFERENCE is neither registered nor in GAPS,
  - an op of GAPS is registered (the entry is stale) or not in INFERENCE,
  - a GAPS line has no reason.
It prints the counts either way. Standard library only."""
import re
import sys

# (category, pattern): an allowlist op matching a pattern is not an
# inference op. Checked in this order; the first match names the category.
EXCLUDED = [
    # Gradients and backward passes (StopGradient and PreventGradient are
    # identities in inference graphs; Conv2DBackpropInput and friends are
    # transposed convolutions, kept).
    ("training: gradients",
     r"(?<!^Stop)(?<!^Prevent)(Grad|GradV[23]|GradGrad|GradGradV2|Gradient|"
     r"GradWithShape|GradBoxes|GradImage|GradWithArgmax)$"
     r"|^BroadcastGradientArgs$|^SymbolicGradient$|BackpropFilter"
     r"|^Dilation2DBackpropInput$"),
    ("training: optimizers", r"Apply"),
    ("queues", r"Queue"),
    ("stacks", r"^Stack(V2|Close|CloseV2|Pop|PopV2|Push|PushV2)?$"),
    ("session handles", r"SessionHandle|SessionTensor"),
    ("summaries", r"Summary$"),
    ("checkpoint I/O",
     r"^(Save|SaveV2|SaveSlices|Restore|RestoreV2|RestoreSlice|"
     r"MergeV2Checkpoints|ShardedFilename|ShardedFilespec)$"),
    ("Send/Recv", r"^_?(Host)?(Send|Recv)$|^RemoteCall$"),
    # Ops on TF1 reference tensors (Ref(T) operands or results).
    ("TF1 ref variables",
     r"^Ref[A-Z]|^(Variable|VariableV2|TemporaryVariable|"
     r"DestroyTemporaryVariable|IsVariableInitialized|Assign|AssignAdd|"
     r"AssignSub|StridedSliceAssign|ScatterNd(Update|Add|Sub|Max|Min)|"
     r"HashTable|MutableHashTable|MutableHashTableOfTensors|"
     r"MutableDenseHashTable|InitializeTable|InitializeTableFromTextFile|"
     r"LookupTable(Find|Export|Import|Insert|Size))$"),
    ("BoostedTrees", r"BoostedTrees"),
    ("tf.data", r"Dataset|^Optional(FromValue|GetValue|HasValue|None)$"),
    ("debug and print", r"^(Print|PrintV2|Timestamp|Abort)$|^Debug"),
    ("v1 control flow",
     r"^(Enter|Exit|Merge|Switch|_SwitchN|NextIteration|LoopCond|"
     r"ControlTrigger)$"),
]


def read_names(path):
    """The op names of a list file: one a line, '#' starts a comment."""
    names = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line)
    return names


def derive(allowlist):
    """(inference ops, {category: excluded ops}) of the allowlist."""
    keep, excluded = [], {category: [] for category, _ in EXCLUDED}
    for op in allowlist:
        for category, pattern in EXCLUDED:
            if re.search(pattern, op):
                excluded[category].append(op)
                break
        else:
            keep.append(op)
    return keep, excluded


def read_gaps(path, errors):
    """{op: (kind, reason)} of the gaps file."""
    gaps = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.match(r"^(\w+): (gap|lowered): (\S.*)$", line)
            if not m:
                errors.append("%s:%d: expected 'Op: gap: reason' or "
                              "'Op: lowered: reason', got '%s'"
                              % (path, number, line))
                continue
            if m.group(1) in gaps:
                errors.append("%s:%d: %s is listed twice"
                              % (path, number, m.group(1)))
            gaps[m.group(1)] = (m.group(2), m.group(3))
    return gaps


def registered_ops(path):
    """The ops of a `fallback-run --list-kernels` listing."""
    with open(path) as f:
        return {line.split()[0] for line in f if line.strip()}


def check(allowlist_path, inference_path, gaps_path, kernels_path):
    errors = []
    allowlist = read_names(allowlist_path)
    derived, excluded = derive(allowlist)
    inference = read_names(inference_path)
    if inference != derived:
        errors.append("%s is not what `flex-ops.py derive %s` prints; "
                      "regenerate it" % (inference_path, allowlist_path))
    gaps = read_gaps(gaps_path, errors)
    ops = registered_ops(kernels_path)
    on_list = set(inference)
    registered = [op for op in inference if op in ops]
    for op in inference:
        if op not in ops and op not in gaps:
            errors.append("%s is on the inference list but neither registered "
                          "nor a known gap (%s)" % (op, gaps_path))
    for op, (kind, _) in sorted(gaps.items()):
        if op in ops:
            errors.append("%s is registered now: remove it from %s"
                          % (op, gaps_path))
        if op not in on_list:
            errors.append("%s (%s) is not on the inference list"
                          % (op, gaps_path))
    lowered = [op for op, (kind, _) in gaps.items()
               if kind == "lowered" and op not in ops]
    missing = [op for op, (kind, _) in gaps.items()
               if kind == "gap" and op not in ops]
    print("allowlist: %d ops" % len(allowlist))
    for category, _ in EXCLUDED:
        print("excluded, %s: %d" % (category, len(excluded[category])))
    print("inference list: %d ops" % len(inference))
    print("registered: %d (%.1f%%)" % (
        len(registered), 100.0 * len(registered) / max(1, len(inference))))
    print("lowered by the compiler: %d" % len(lowered))
    print("known gaps: %d" % len(missing))
    for error in errors:
        print("error: " + error, file=sys.stderr)
    return 1 if errors else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "derive":
        for op in derive(read_names(argv[2]))[0]:
            print(op)
        return 0
    if len(argv) == 6 and argv[1] == "check":
        return check(*argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
