#!/usr/bin/env bash
#===- cross-aarch64.sh - the runtime for arm64, built here, run in qemu ---===#
#
# Usage: scripts/cross-aarch64.sh [--test]
#
# Cross-builds the runtime alone (libraries, fallback-run-lite, the C API
# library, the runtime's unit tests) for aarch64-linux-gnu in
# $AARCH64_BUILD_DIR (default build-aarch64/) with clang-22 and lld against
# Debian's arm64 libraries (cmake/aarch64-linux-gnu.cmake); installs the
# cross toolchain first if missing (scripts/setup.sh).
#
# --test also runs, under qemu-aarch64 -cpu max, twice (the NEON and FP16
# paths, then TFRT_FALLBACK_ISA=portable): every unit test (ctest) and the ten benchmark
# models through fallback-run-lite against TF.js's outputs (their .bef from
# the host build, $BUILD_DIR, default build/: `run-models.py --runner`), and
# on the FP16 path the f16 twins of four of them (f16-twins.py); then the
# arm64 size check (CROSS=aarch64 scripts/size-report.sh --check).
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AARCH64_BUILD_DIR:-$root/build-aarch64}"
host="${BUILD_DIR:-$root/build}"
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
# Twice: on the fast paths (NEON with the FP16 arithmetic, which qemu's
# -cpu max offers: f16 computes in f16) and with TFRT_FALLBACK_ISA=portable,
# which turns them off. (NEON without FP16, f16 computed in f32, is ctest's
# KernelTests.gemm-isa-neon.)
for isa in neon-fp16 portable; do
  lap_start=$(date +%s)
  # Unit tests: gtest_discover_tests runs them through qemu-aarch64
  # (CMAKE_CROSSCOMPILING_EMULATOR); the environment reaches the guest.
  if ! TFRT_FALLBACK_ISA=$isa ctest --test-dir "$build" -j "$(nproc)" \
      >"$build/ctest-$isa.log" 2>&1; then
    grep -E "\(Failed\)|\(SEGFAULT\)|\(Subprocess" "$build/ctest-$isa.log" | head -n 20
    status=1
  fi
  grep -E "tests passed|tests failed" "$build/ctest-$isa.log" |
    sed "s/^/arm64 ($isa) unit tests: /"
  # The ten benchmark models' .bef (translated by the host build) on one
  # thread against TF.js, as scripts/run-models.py judges them natively.
  if ! TFRT_FALLBACK_ISA=$isa BUILD_DIR="$host" python3 "$root/scripts/run-models.py" \
      --bench-models --out-tag "arm64-$isa" \
      --runner "qemu-aarch64 -cpu max $build/bin/fallback-run-lite" \
      >"$build/models-$isa.log" 2>&1; then
    grep -vE "^\S+ +PASS " "$build/models-$isa.log" | tail -n 20
    status=1
  fi
  tail -n 1 "$build/models-$isa.log" | sed "s/^/arm64 ($isa) /"
  # The f16 twins of four models (scripts/models/f16-twins.py) in f16
  # arithmetic, on the FP16 path only (the portable one computes f16 in f32,
  # as the host run of test.sh does).
  if [ "$isa" = neon-fp16 ]; then
    if ! TFRT_FALLBACK_ISA=$isa BUILD_DIR="$host" /usr/bin/python3 \
        "$root/scripts/models/f16-twins.py" --out-tag "arm64-$isa" \
        --runner "qemu-aarch64 -cpu max $build/bin/fallback-run-lite" \
        >"$build/f16-twins.log" 2>&1; then
      status=1
    fi
    sed "s/^/arm64 f16 twin: /" "$build/f16-twins.log"
  fi
  echo "cross-aarch64: $isa path tested in $(( $(date +%s) - lap_start )) s"
done

CROSS=aarch64 SIZE_BUILD_DIR="$root/build-size-aarch64" \
  "$root/scripts/size-report.sh" --check || status=1
echo "cross-aarch64: done in $(( $(date +%s) - start )) s"
exit "$status"
