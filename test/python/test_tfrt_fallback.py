"""pytest suite of the Python package (docs/Python.md): compile, load, the
signature, runs by name and by position, NumPy in and out, errors as
tfrt_fallback.Error, threads, and a real model against its TF.js reference.

scripts/test.sh runs it with Debian's python3 and
PYTHONPATH=build/python_packages. Expected values are hand-derived or
TF.js's (the model test), never the package's own."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import tfrt_fallback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
NAMED = os.path.join(ROOT, "test", "Runtime", "signature.mlir")
CACHE = os.environ.get("TFRT_FALLBACK_MODELS_CACHE",
                       os.path.expanduser("~/.cache/tfrt-fallback-models"))


def test_example_from_mlir_and_bef(tmp_path):
    # examples/mlp.mlir, hand-derived (test/Runtime/mlp.mlir): softmax of
    # [-3.55, 12, -1.45].
    logits = np.array([-3.55, 12.0, -1.45])
    expected = np.exp(logits - logits.max())
    expected /= expected.sum()
    x = np.load(os.path.join(EXAMPLES, "mlp_input.npy"))
    from_mlir = tfrt_fallback.Program(os.path.join(EXAMPLES, "mlp.mlir"))
    bef = tfrt_fallback.compile(os.path.join(EXAMPLES, "mlp.mlir"))
    assert bef[:4] == b"TFBP"
    path = tmp_path / "mlp.bef"
    path.write_bytes(bef)
    for program in (from_mlir, tfrt_fallback.Program(bef), tfrt_fallback.Program(path)):
        (out,) = program.run([x]).values()
        assert out.shape == (1, 3) and out.dtype == np.float32
        np.testing.assert_allclose(out[0], expected, rtol=1e-5, atol=1e-7)


def test_compile_mlir_text():
    text = """
    func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
      %0 = "tf.Square"(%x) {T = f32} : (tensor<3xf32>) -> tensor<3xf32>
      return %0 : tensor<3xf32>
    }"""
    program = tfrt_fallback.Program(tfrt_fallback.compile(text))
    out = program.run([np.array([1, -2, 3], np.float32)])["output_0"]
    assert out.tolist() == [1, 4, 9]


def test_signature_and_names():
    program = tfrt_fallback.Program(NAMED)
    signature = program.signature()
    assert [(i["name"], i["dtype"], i["shape"]) for i in signature["inputs"]] == [
        ("alpha", "float32", (2,)), ("beta", "float32", (3,)), ("gamma", "float32", ())]
    assert [o["name"] for o in signature["outputs"]] == [
        "scaled_alpha", "StatefulPartitionedCall/beta:0"]
    alpha = np.array([1, 2], np.float32)
    beta = np.array([10, 20, 30], np.float32)
    gamma = np.float32(2.5)
    # By name in any order ("alpha:0" finds "alpha"), and by position.
    by_name = program.run({"gamma": gamma, "beta": beta, "alpha:0": alpha})
    by_position = program.run([alpha, beta, gamma])
    for out in (by_name, by_position):
        assert out["scaled_alpha"].tolist() == [2.5, 5.0]
        assert out["StatefulPartitionedCall/beta:0"].tolist() == [25, 50, 75]


def test_unknown_shapes_in_signature():
    text = """
    func.func @main(%x: tensor<?x3xf32>, %y: tensor<*xi32>) -> tensor<*xi32> {
      return %y : tensor<*xi32>
    }"""
    signature = tfrt_fallback.Program(tfrt_fallback.compile(text)).signature()
    assert signature["inputs"][0]["shape"] == (None, 3)
    assert signature["inputs"][1]["shape"] is None
    assert signature["inputs"][1]["dtype"] == "int32"


def test_errors_carry_code_and_message():
    with pytest.raises(tfrt_fallback.Error) as error:
        tfrt_fallback.compile("func.func @main( {")
    assert error.value.code == 3 and "error:" in error.value.message
    with pytest.raises(tfrt_fallback.Error) as error:
        tfrt_fallback.Program(b"not a program")
    assert error.value.code == 3 and "invalid binary program" in error.value.message
    program = tfrt_fallback.Program(NAMED)
    with pytest.raises(tfrt_fallback.Error) as error:
        program.run([np.zeros(3, np.float32), np.zeros(2, np.float32), np.float32(1)])
    assert error.value.code == 3
    assert "input #0 of 'main': expected tensor<2xf32>, got tensor<3xf32>" in str(error.value)
    with pytest.raises(tfrt_fallback.Error) as error:
        program.run({"delta": np.float32(1)})
    assert "has no input named 'delta'" in error.value.message
    with pytest.raises(tfrt_fallback.Error) as error:
        program.run({"alpha": np.zeros(2, np.float32)})
    assert "no value for input(s) beta, gamma" in error.value.message
    with pytest.raises(tfrt_fallback.Error) as error:
        program.signature("nope")
    assert error.value.code == 5
    with pytest.raises(tfrt_fallback.Error) as error:
        program.run([np.zeros(2, np.float32), np.array(["a", "b", "c"]), np.float32(1)])
    assert error.value.code == 3
    with pytest.raises(tfrt_fallback.Error) as error:
        program.run([np.array([1, 2], dtype=object), np.zeros(3, np.float32), np.float32(1)])
    assert "a string tensor takes bytes or str elements" in error.value.message
    with pytest.raises(tfrt_fallback.Error) as error:
        program.run([np.zeros(2, "datetime64[s]"), np.zeros(3, np.float32), np.float32(1)])
    assert "has no runtime dtype" in error.value.message
    # bfloat16 has no NumPy dtype: an output of it is UNIMPLEMENTED.
    bf16 = tfrt_fallback.Program(tfrt_fallback.compile("""
    func.func @main(%x: tensor<2xf32>) -> tensor<2xbf16> {
      %0 = "tf.Cast"(%x) {SrcT = f32, DstT = bf16, Truncate = false}
          : (tensor<2xf32>) -> tensor<2xbf16>
      return %0 : tensor<2xbf16>
    }"""))
    assert bf16.signature()["outputs"][0]["dtype"] == "bfloat16"
    with pytest.raises(tfrt_fallback.Error) as error:
        bf16.run([np.zeros(2, np.float32)])
    assert error.value.code == 12 and "bfloat16" in error.value.message


def test_deadline():
    # 300 products of 256x256 matrices: far more than a millisecond.
    chain = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_chain.py"),
                            "300", "--matmul=256"], check=True, capture_output=True,
                           text=True).stdout
    program = tfrt_fallback.Program(tfrt_fallback.compile(chain))
    x = np.ones((256, 256), np.float32)
    with pytest.raises(tfrt_fallback.Error) as error:
        program.run([x], deadline_ms=1)
    assert error.value.code == 4
    # Without one it completes: x * (1/256 everywhere) keeps ones.
    out = program.run([x])["output_0"]
    np.testing.assert_allclose(out, 1.0, rtol=1e-5)


def test_numpy_in_and_out_without_copies():
    text = """
    func.func @main(%x: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
      %0 = "tf.Neg"(%x) {T = f32} : (tensor<1024xf32>) -> tensor<1024xf32>
      return %0, %x : tensor<1024xf32>, tensor<1024xf32>
    }"""
    program = tfrt_fallback.Program(tfrt_fallback.compile(text))
    # A 64-byte aligned C-contiguous array is used in place and never
    # written (Neg could write over an input it alone holds).
    raw = np.zeros(1024 + 16, np.float32)
    start = (-raw.ctypes.data % 64) // 4
    x = raw[start:start + 1024]
    assert x.ctypes.data % 64 == 0
    x[:] = np.arange(1024, dtype=np.float32)
    out = program.run([x])
    assert x[5] == 5.0
    assert out["output_0"][5] == -5.0
    # The returned input is the caller's memory itself.
    assert out["output_1"].ctypes.data == x.ctypes.data
    # A strided view and another dtype are copied (and converted).
    out = program.run([np.arange(2048, dtype=np.float32)[::2]])
    assert out["output_0"][3] == -6.0


def test_strings_in_and_out():
    text = """
    func.func @main(%s: tensor<?x!tf_type.string>) -> (tensor<?x!tf_type.string>, tensor<?xi32>) {
      %j = "tf.StringJoin"(%s, %s) {N = 2 : i64, separator = "-"}
          : (tensor<?x!tf_type.string>, tensor<?x!tf_type.string>) -> tensor<?x!tf_type.string>
      %l = "tf.StringLength"(%s) {unit = "BYTE"} : (tensor<?x!tf_type.string>) -> tensor<?xi32>
      return %j, %l : tensor<?x!tf_type.string>, tensor<?xi32>
    }"""
    program = tfrt_fallback.Program(tfrt_fallback.compile(text))
    out = program.run([np.array([b"tf", b"li\x00te", "\u00e9"], dtype=object)])
    assert out["output_0"].tolist() == [b"tf-tf", b"li\x00te-li\x00te", b"\xc3\xa9-\xc3\xa9"]
    assert out["output_1"].tolist() == [2, 5, 2]


def test_threads_and_concurrent_runs():
    chain = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_chain.py"),
                            "20", "--matmul=64"], check=True, capture_output=True,
                           text=True).stdout
    program = tfrt_fallback.Program(tfrt_fallback.compile(chain))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    # x * w (w = 1/64 everywhere) puts each row's mean in every column.
    expected = np.repeat(x.mean(axis=1, keepdims=True), 64, axis=1)
    one = program.run([x], threads=1)["output_0"]
    two = program.run([x], threads=2)["output_0"]
    np.testing.assert_allclose(one, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(two, expected, rtol=1e-4, atol=1e-5)
    # Python threads run at once (the GIL is released while a run goes on).
    results = [None] * 4

    def work(i):
        results[i] = program.run([x * (i + 1)], threads=1 + i % 2)["output_0"]

    workers = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for i, out in enumerate(results):
        np.testing.assert_allclose(out, expected * (i + 1), rtol=1e-4, atol=1e-4)


def test_real_model_matches_tfjs():
    """blazeface (TF.js graph model from npm) against TF.js-cpu's outputs,
    which scripts/test.sh's model step caches."""
    model = os.path.join(CACHE, "models", "human", "blazeface.json")
    refs = os.path.join(CACHE, "refs", "blazeface")
    if not os.path.exists(os.path.join(refs, "meta.cpu.json")):
        pytest.skip("no TF.js reference of blazeface in %s (scripts/run-models.py blazeface)" % CACHE)
    program = tfrt_fallback.Program(model)
    (entry,) = program.signature()["inputs"]
    assert entry["name"] == "input:0" and entry["shape"] == (1, 256, 256, 3)
    x = np.load(os.path.join(refs, "input_input.npy"))
    out = program.run({"input": x})
    expected = {"Identity_3:0": "output_0_Identity_3", "Identity:0": "output_1_Identity",
                "Identity_1:0": "output_2_Identity_1", "Identity_2:0": "output_3_Identity_2"}
    assert list(out) == list(expected)
    for name, ref in expected.items():
        b = np.load(os.path.join(refs, ref + ".cpu.npy"))
        a = out[name]
        assert a.shape == b.shape
        assert np.all(np.abs(a - b) <= 1e-4 + 1e-3 * np.abs(b)), name


SAVED_MODELS = os.path.join(ROOT, "test", "Inputs", "SavedModel")


def test_saved_model_counter_keeps_state():
    # TF Serving's saved_model_counter and the sequence its
    # predict_util_test expects on one loaded model: get 0, incr 1,
    # reset 0, incr 1, incr_by(3) 4.
    program = tfrt_fallback.Program(
        os.path.join(SAVED_MODELS, "saved_model_counter", "00000123"))
    values = [
        program.run({}, function="get_counter")["output"],
        program.run({}, function="incr_counter")["output"],
        program.run({}, function="reset_counter")["output"],
        program.run({}, function="incr_counter")["output"],
        program.run({"delta": np.float32(3)}, function="incr_counter_by")["output"],
    ]
    assert [float(v) for v in values] == [0.0, 1.0, 0.0, 1.0, 4.0]
    # Another thread count is another executor: its own variables.
    assert float(program.run({}, function="get_counter", threads=2)["output"]) == 0.0


def test_saved_model_signatures_by_name():
    # half_plus_two (TF2 object graph): y = 0.5 x + 2 for TF Serving's
    # instances [1, 2, 5].
    program = tfrt_fallback.Program(
        os.path.join(SAVED_MODELS, "saved_model_half_plus_two_tf2_cpu", "00000123"))
    signature = program.signature("serving_default")
    assert [e["name"] for e in signature["inputs"]] == ["x"]
    assert [e["name"] for e in signature["outputs"]] == ["y"]
    for x, y in [(1.0, 2.5), (2.0, 3.0), (5.0, 4.5)]:
        out = program.run({"x": np.array([x], np.float32)}, function="serving_default")
        np.testing.assert_array_equal(out["y"], np.array([y], np.float32))
