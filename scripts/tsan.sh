#!/usr/bin/env bash
#===- tsan.sh - the runtime's unit tests under ThreadSanitizer ------------===#
#
# Builds the runtime alone (no MLIR) with -fsanitize=thread into build-tsan/
# and runs its unit tests, including the executor's concurrency tests.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-tsan}"
SANITIZER=thread BUILD_TYPE=RelWithDebInfo "$root/scripts/build.sh" "$build" \
  -DTFRT_FALLBACK_ENABLE_COMPILER=OFF
cd "$build"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/scripts/tsan.supp" \
  ctest --output-on-failure -j "$(nproc)"
