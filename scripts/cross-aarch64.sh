#!/usr/bin/env bash
#===- cross-aarch64.sh - the runtime for arm64, built here, run in qemu ---===#
#
# Usage: scripts/cross-aarch64.sh [--test]
#
# Cross-builds the runtime alone (libraries, fallback-run-lite, the C API
# library, the runtime's unit tests) for aarch64-linux-gnu in
# $AARCH64_BUILD_DIR (default build-aarch64/) with clang-22 and lld against
# Debian's arm64 libraries (cmake/aarch64-linux-gnu.cmake); installs the
# cross toolchain first if missing (scripts/setup.sh --cross).
#
# --test also runs, under qemu-aarch64: every unit test (ctest), MobileNetV2
# through fallback-run-lite against TF.js's output (the model and its .bef
# come from `run-models.py --bef`), and the arm64 size check
# (CROSS=aarch64 scripts/size-report.sh --check).
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AARCH64_BUILD_DIR:-$root/build-aarch64}"
test=0
[ "${1:-}" = --test ] && test=1
start=$(date +%s)

"$root/scripts/setup.sh" --cross

args=(-G Ninja -S "$root" -B "$build"
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake"
  -DCMAKE_BUILD_TYPE=Release
  -DTFRT_FALLBACK_ENABLE_COMPILER=OFF)
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR=true
  args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
mkdir -p "$build"
cmake "${args[@]}" >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
ninja -C "$build" ${JOBS:+-j "$JOBS"} >"$build/build.log" 2>&1 ||
  { tail -n 40 "$build/build.log"; exit 1; }
llvm-readelf-22 -h "$build/bin/fallback-run-lite" | grep -E "Class|Machine" | tr -s " "
echo "cross-aarch64: built in $(( $(date +%s) - start )) s"
[ "$test" = 1 ] || exit 0

status=0
# Unit tests: gtest_discover_tests runs them through qemu-aarch64
# (CMAKE_CROSSCOMPILING_EMULATOR).
if ! ctest --test-dir "$build" -j "$(nproc)" >"$build/ctest.log" 2>&1; then
  grep -E "\(Failed\)|\(SEGFAULT\)|\(Subprocess" "$build/ctest.log" | head -n 20
  status=1
fi
grep -E "tests passed|tests failed" "$build/ctest.log" | sed 's/^/arm64 unit tests: /'

# MobileNetV2 on arm64 against TF.js.
cache="${TFRT_FALLBACK_MODELS_CACHE:-$HOME/.cache/tfrt-fallback-models}"
mnv2="$cache/ours/nsfwjs_mobilenet_v2_mid"
ref="$cache/refs/nsfwjs_mobilenet_v2_mid"
mkdir -p "$build/mnv2-out"
if qemu-aarch64 "$build/bin/fallback-run-lite" "$mnv2/model.bef" --threads=1 \
    --print-limit=0 --output-dir="$build/mnv2-out" --benchmark=1 \
    --input="$(ls "$ref"/input_*.npy)" >"$build/mnv2.log" 2>&1 &&
   python3 "$root/scripts/compare-npy.py" "$build/mnv2-out/output_0.npy" \
     "$(ls "$ref"/output_0_*.cpu.npy)"; then
  echo "arm64 MobileNetV2 under qemu: matches TF.js ($(grep -o 'median [0-9.]* ms' "$build/mnv2.log") emulated)"
else
  cat "$build/mnv2.log"
  status=1
fi

CROSS=aarch64 SIZE_BUILD_DIR="$root/build-size-aarch64" \
  "$root/scripts/size-report.sh" --check || status=1
echo "cross-aarch64: done in $(( $(date +%s) - start )) s"
exit "$status"
