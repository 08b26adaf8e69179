#!/usr/bin/env bash
#===- build.sh - configure and build tfrt-fallback -----------------------===#
#
# Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
#   CXX_COMPILER=g++ scripts/build.sh build-gcc    builds with g++ instead
#   SANITIZER=thread scripts/build.sh build-tsan   ThreadSanitizer build
# Defaults: clang-22 + lld-22 + ccache, Release, build/.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true

"$root/scripts/setup.sh"

cxx="${CXX_COMPILER:-clang++-22}"
case "$cxx" in
  clang*) cc="${cxx/clang++/clang}" ;;
  g++*) cc="${cxx/g++/gcc}" ;;
  *) cc=cc ;;
esac

args=(-G Ninja -S "$root" -B "$build"
  -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}"
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx"
  -DLLVM_USE_LINKER=lld
  -DTFRT_FALLBACK_SANITIZER="${SANITIZER:-}")
if command -v ccache >/dev/null; then
  # Paths below the checkout are hashed relative to it, so a clone in
  # another folder (as CI makes) reuses the cache.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
  export CCACHE_NOHASHDIR=true
  args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build/build.ninja" ] || [ "$#" -gt 0 ] || [ -n "${SANITIZER:-}" ]; then
  cmake "${args[@]}" "$@" >/dev/null
fi
ninja -C "$build" ${JOBS:+-j "$JOBS"}
