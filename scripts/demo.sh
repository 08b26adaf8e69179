#!/usr/bin/env bash
#===- demo.sh - set up, build and run the bundled example -----------------===#
#
# Lowers examples/mlp.mlir (a small TF program) to the tfrt_fallback dialect,
# compiles it into a binary program, and runs it on the MLIR-free runtime.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" "$build"
bin="$build/bin"
example="$root/examples/mlp.mlir"
out="$(mktemp -d)"

echo "== 1. TensorFlow program ($example) lowered by fallback-opt --tfrt-fallback-pipeline"
"$bin/fallback-opt" --tfrt-fallback-pipeline "$example"

echo
echo "== 2. compiled into a binary program"
"$bin/fallback-translate" --mlir-to-bef "$example" -o "$out/mlp.bef"
echo "$out/mlp.bef: $(wc -c <"$out/mlp.bef") bytes"

if [ -x "$bin/fallback-run" ]; then
  echo
  echo "== 3. run on the fallback runtime with input examples/mlp_input.npy = [[1, 2, 3, 4]]"
  "$bin/fallback-run" "$out/mlp.bef" --input="$root/examples/mlp_input.npy" \
    --output-dir="$out" --threads=1
  echo "(outputs written to $out/output_0.npy)"
fi
