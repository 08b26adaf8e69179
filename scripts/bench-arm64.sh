#!/usr/bin/env bash
#===- bench-arm64.sh - instructions per inference on arm64, under qemu ----===#
#
# Usage: scripts/bench-arm64.sh [--no-build] [bench-arm64.py's arguments]
#   (--jobs N, --no-portable, --no-xnnpack, --markdown FILE, --json FILE,
#   MODEL...)
#
# There is no arm64 machine here, so this measures what emulation measures
# exactly: the instructions qemu-aarch64 executes. Builds
#   - the TCG plugin bench/qemu-insn-count/insn_count.c (qemu 7.2's plugin
#     API) into $AARCH64_BUILD_DIR/qemu-insn-count/insn_count.so,
#   - the arm64 runtime (scripts/cross-aarch64.sh, $AARCH64_BUILD_DIR,
#     default build-aarch64/) and the host build (scripts/build.sh,
#     $BUILD_DIR, default build/: fallback-translate for the models' .bef,
#     fallback-opt for their MACs),
#   - the XNNPACK peer ../shared/peers/xnn_run.cpp for arm64 against
#     Debian's arm64 XNNPACK (scripts/setup.sh unpacks it),
# then runs scripts/bench-arm64.py: per benchmark model, one thread,
# instructions per inference for ours, ours with the portable kernels
# (TFRT_FALLBACK_ISA=portable) and XNNPACK, and MACs per instruction;
# prints a markdown table (docs/Performance.md, "arm64"). --no-build skips
# the two runtime builds when their binaries exist. The 10 models take 11
# minutes on a 2-core VM that was also building (--jobs 2). Not a test.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AARCH64_BUILD_DIR:-$root/build-aarch64}"
host="${BUILD_DIR:-$root/build}"
no_build=0
[ "${1:-}" = --no-build ] && { no_build=1; shift; }

"$root/scripts/setup.sh" --cross
if [ "$no_build" = 0 ] || [ ! -x "$build/bin/fallback-run-lite" ]; then
  AARCH64_BUILD_DIR="$build" "$root/scripts/cross-aarch64.sh"
fi
if [ "$no_build" = 0 ] || [ ! -x "$host/bin/fallback-opt" ]; then
  "$root/scripts/build.sh" "$host" >/dev/null
  ninja -C "$host" fallback-translate fallback-opt fallback-run >/dev/null
fi

# The plugin: plain C against our declarations of the plugin API (no glib).
src="$root/bench/qemu-insn-count"
plugin="$build/qemu-insn-count/insn_count.so"
if [ ! -f "$plugin" ] || [ "$src/insn_count.c" -nt "$plugin" ] ||
   [ "$src/qemu_plugin_v1.h" -nt "$plugin" ]; then
  mkdir -p "$(dirname "$plugin")"
  clang-22 -O2 -Wall -Wextra -Werror -shared -fPIC "$src/insn_count.c" \
    -o "$plugin"
fi

# The arm64 XNNPACK peer. Debian's arm64 XNNPACK is unpacked into the cross
# sysroot (its packages displace the native ones); the runpath (as
# DT_RPATH, which also serves libXNNPACK's own dependencies) points there,
# and qemu-aarch64 opens host paths as they are.
peers="$(dirname "$root")/shared/peers"
sysroot="${TFRT_FALLBACK_CROSS_SYSROOT:-$HOME/.cache/tfrt-fallback-cross/sysroot}"
lib="$sysroot/usr/lib/aarch64-linux-gnu"
xnn_run="$build/xnn/xnn_run"
if [ -f "$peers/xnn_run.cpp" ]; then
  if [ ! -x "$xnn_run" ] || [ "$peers/xnn_run.cpp" -nt "$xnn_run" ]; then
    mkdir -p "$(dirname "$xnn_run")"
    clang++-22 --target=aarch64-linux-gnu -fuse-ld=lld -std=c++17 -O2 \
      -I"$sysroot/usr/include" "$peers/xnn_run.cpp" -o "$xnn_run" \
      -L"$lib" -Wl,--disable-new-dtags,-rpath,"$lib" -lXNNPACK -lpthreadpool
  fi
  "$peers/setup.sh" >/dev/null
fi
xnn_version="$(ls "$(dirname "$sysroot")"/debs/libxnnpack0_*_arm64.deb 2>/dev/null |
  tail -n 1 | sed 's/.*libxnnpack0_\(.*\)_arm64.deb/\1/; s/%3a/:/')"

BUILD_DIR="$host" BENCH_ARM64_PLUGIN="$plugin" \
  BENCH_ARM64_RUNNER="$build/bin/fallback-run-lite" \
  BENCH_ARM64_XNN_RUN="$xnn_run" BENCH_ARM64_XNNPACK_VERSION="${xnn_version:-?}" \
  exec python3 "$root/scripts/bench-arm64.py" "$@"
