#!/usr/bin/env bash
#===- build.sh - configure and build tfrt-fallback -----------------------===#
#
# Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
#   CXX_COMPILER=g++ scripts/build.sh build-gcc    builds with g++ instead
#   SANITIZER=thread scripts/build.sh build-tsan   ThreadSanitizer build
#   SANITIZER=address,undefined scripts/build.sh build-asan
#       the ASan+UBSan build of `scripts/test.sh --sanitize` and of
#       scripts/fuzz.sh: -O1 with asserts (RelWithDebInfo without NDEBUG),
#       and with clang the libFuzzer targets and their coverage everywhere
#       (-DTFRT_FALLBACK_ENABLE_FUZZERS=ON)
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

build_type="${BUILD_TYPE:-Release}"
extra=()
case "${SANITIZER:-}" in
  *address* | *undefined*)
    build_type="${BUILD_TYPE:-RelWithDebInfo}"
    # -O1: the Eigen kernels build much faster than at -O2, and reports
    # stay readable; RelWithDebInfo without NDEBUG keeps our asserts on.
    extra+=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1
            -DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1)
    case "$cxx:$SANITIZER" in
      clang*:*address*) extra+=(-DTFRT_FALLBACK_ENABLE_FUZZERS=ON) ;;
    esac
    ;;
esac

args=(-G Ninja -S "$root" -B "$build"
  -DCMAKE_BUILD_TYPE="$build_type"
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx"
  -DLLVM_USE_LINKER=lld
  -DTFRT_FALLBACK_SANITIZER="${SANITIZER:-}"
  "${extra[@]}")
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
# TARGETS="a b": only those (scripts/fuzz.sh builds its targets alone).
ninja -C "$build" ${JOBS:+-j "$JOBS"} ${TARGETS:-}
