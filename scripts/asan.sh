#!/usr/bin/env bash
#===- asan.sh - the runtime's unit tests under ASan and UBSan -------------===#
#
# Builds the runtime alone (no MLIR) with -fsanitize=address,undefined into
# build-asan/ (BUILD_DIR=...) and runs its unit tests. Any UB report fails
# the test (-fno-sanitize-recover), and LeakSanitizer checks every test
# binary at exit. The fuzzers (scripts/fuzz.sh) use the same build mode.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-asan}"
SANITIZER=address,undefined BUILD_TYPE=RelWithDebInfo \
  "$root/scripts/build.sh" "$build" \
  -DTFRT_FALLBACK_ENABLE_COMPILER=OFF \
  -DCMAKE_CXX_FLAGS=-fno-sanitize-recover=undefined \
  -DCMAKE_C_FLAGS=-fno-sanitize-recover=undefined
cd "$build"
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
  ctest --output-on-failure -j "$(nproc)"
