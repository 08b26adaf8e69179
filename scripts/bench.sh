#!/usr/bin/env bash
#===- bench.sh - build, then run every benchmark in one interleaved run ---===#
#
# Builds build/ (or $BUILD_DIR) with its benchmark programs, fetches the real
# models, and runs scripts/bench.py: the dispatch chain, the GEMM per layer
# shape, real models against ONNX Runtime, OpenCV DNN and TF.js-wasm
# (../shared/peers, when present) and the two-thread speed-up; prints the
# tables docs/Performance.md records. Arguments go to bench.py
# (--rounds N, --runs N, --no-wasm, --no-opencv, --markdown FILE, MODEL...).
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" "$build"
ninja -C "$build" gemm-bench fallback-run-lite >/dev/null
peers="$(dirname "$root")/shared/peers"
if [ -x "$peers/setup.sh" ]; then
  "$peers/setup.sh" >/dev/null
fi
BUILD_DIR="$build" exec python3 "$root/scripts/bench.py" "$@"
