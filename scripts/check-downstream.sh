#!/usr/bin/env bash
#===- check-downstream.sh - build the downstream examples on an install --===#
#
# Installs the build into a fresh prefix, then configures, builds and runs
# the two projects of examples/downstream against it, as an embedder would:
#  * my-opt: a C++ mlir-opt tool with upstream dialects plus ours
#    (find_package(TFRTFallback COMPONENTS Compiler)), checked with FileCheck;
#  * c-app: a C-only project on the C API (COMPONENTS CAPI), running the
#    bundled example's binary program made by the installed fallback-translate.
#
#   scripts/check-downstream.sh [BUILD_DIR]
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
work="$build/downstream"
prefix="$work/prefix"
llvm_bin=/usr/lib/llvm-22/bin

rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

cmake -G Ninja -S "$root/examples/downstream/c-app" -B "$work/c-app" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" \
  > "$work/c-app.log"
ninja -C "$work/c-app" >> "$work/c-app.log"
"$prefix/bin/fallback-translate" --mlir-to-bef "$root/examples/mlp.mlir" \
  -o "$work/mlp.bef"
"$work/c-app/c-app" "$work/mlp.bef"

if [ -x "$prefix/bin/fallback-opt" ]; then
  cmake -G Ninja -S "$root/examples/downstream/my-opt" -B "$work/my-opt" \
    -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld \
    -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" > "$work/my-opt.log"
  ninja -C "$work/my-opt" >> "$work/my-opt.log"
  input="$root/examples/downstream/my-opt/pipeline.mlir"
  "$work/my-opt/my-opt" "$input" --canonicalize --tfrt-fallback-pipeline |
    "$llvm_bin/FileCheck" "$input"
  echo "my-opt: ok"
fi
echo "downstream: 2 passed, 0 failed"
