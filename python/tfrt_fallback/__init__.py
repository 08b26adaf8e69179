"""tfrt-fallback from Python: compile TensorFlow models and run them.

    import numpy as np
    import tfrt_fallback

    program = tfrt_fallback.Program("model.json")   # or a .pb, .mlir or .bef
    print(program.signature())                       # names, dtypes, shapes
    outputs = program.run({"input": np.zeros((1, 224, 224, 3), np.float32)})

`compile()` turns a model file (TF.js model.json, GraphDef .pb/.pbtxt,
TF-dialect .mlir) or MLIR text into a binary program (the bytes of a .bef
file); `Program` loads one and runs its functions on NumPy arrays. Failures
raise `Error`, whose `code` is absl::StatusCode's number and `message` the
text. See docs/Python.md.
"""

import os

from ._tfrt_fallback import Error
from ._tfrt_fallback import Program as _Program
from ._tfrt_fallback import compile as _compile

__all__ = ["Error", "Program", "compile"]

_INVALID_ARGUMENT = 3


def _error(message, code=_INVALID_ARGUMENT):
    error = Error(message)
    error.code = code
    error.message = message
    return error

_MODEL_SUFFIXES = (".json", ".pb", ".pbtxt", ".mlir")


def compile(path_or_mlir_text, manifest=None):
    """Compiles a model into a binary program and returns its bytes.

    `path_or_mlir_text` is the path of a TF.js model.json (its weight files
    next to it), a GraphDef (.pb, .pbtxt), a SavedModel directory or a
    TF-dialect .mlir file, or MLIR text. `manifest` is the kernel manifest of the runtime the program is
    for (`fallback-run --list-kernels --manifest=FILE`); by default, this
    package's.
    """
    source = os.fspath(path_or_mlir_text)
    is_path = "\n" not in source and (os.path.exists(source) or
                                      source.endswith(_MODEL_SUFFIXES))
    return _compile("" if is_path else source, source if is_path else "",
                    "" if manifest is None else os.fspath(manifest))


class Program:
    """A loaded binary program.

    `Program(source)`: the bytes of a binary program, or a path: a .bef file
    is loaded as it is, a model file (.json, .pb, .pbtxt, .mlir) or a
    SavedModel directory is compiled first. A SavedModel's signatures are
    its functions (`run(inputs, function="serving_default")`); its
    variables are set before the first run and shared by all runs.
    """

    def __init__(self, source):
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
        else:
            path = os.fspath(source)
            if path.endswith(_MODEL_SUFFIXES) or os.path.isdir(path):
                data = compile(path)
            else:
                with open(path, "rb") as f:
                    data = f.read()
        self._program = _Program(data)
        # Per function, the signature run() reads its names from.
        self._signatures = {}

    def signature(self, function="main"):
        """The inputs and outputs of `function`, in order:
        {"inputs": [{"name", "dtype", "shape"}, ...], "outputs": [...]}.
        dtype is NumPy's name ("float32") or TensorFlow's for those NumPy
        lacks ("string", "bfloat16"); shape is a tuple with None for an
        unknown dimension, or None for an unknown rank."""
        return self._program.signature(function)

    def run(self, inputs, function="main", threads=1, deadline_ms=None):
        """Runs `function` and returns its outputs as {name: ndarray}.

        `inputs` is {name: array} (the names of signature(); "x" also finds
        "x:0") or a list of arrays in order. Arrays that are C-contiguous,
        64-byte aligned and of a runtime dtype are used without a copy (and
        never written); outputs are arrays over the runtime's memory. The
        GIL is released while the program runs. `threads` > 1 runs
        independent kernels (and the kernels' own loops) on that many
        threads; `deadline_ms` ends the run with Error (code 4,
        DEADLINE_EXCEEDED) once it has taken that long.
        """
        signature = self._signatures.get(function)
        if signature is None:
            signature = self._signatures[function] = self._program.signature(function)
        names = [entry["name"] for entry in signature["inputs"]]
        if isinstance(inputs, dict):
            ordered = [None] * len(names)
            for name, value in inputs.items():
                index = self._program.input_index(function, str(name))
                if index < 0:
                    raise _error("'%s' has no input named '%s' (its inputs: %s)" % (
                        function, name, ", ".join(names)))
                if ordered[index] is not None:
                    raise _error("input '%s' of '%s' is given twice" % (names[index], function))
                ordered[index] = value
            missing = [names[i] for i, value in enumerate(ordered) if value is None]
            if missing:
                raise _error("no value for input(s) %s of '%s'" % (", ".join(missing), function))
            inputs = ordered
        # The extension takes anything NumPy makes an array of.
        outputs = self._program.run(function, list(inputs), int(threads),
                                    0.0 if deadline_ms is None else float(deadline_ms))
        return {entry["name"]: value
                for entry, value in zip(signature["outputs"], outputs)}
