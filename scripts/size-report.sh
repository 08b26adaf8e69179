#!/usr/bin/env bash
#===- size-report.sh - binary size of the runtime, as an app ships it -----===#
#
# Usage: scripts/size-report.sh [--check] [--samples N]
#
# Builds the runtime alone (no MLIR) the way an app would ship it: -Os,
# -ffunction-sections/-fdata-sections, --gc-sections, identical code
# folding, no unwind tables, Abseil linked statically, the C and C++
# standard libraries shared, no kernel plugin export table; then strips and
# measures (bytes of the file):
#   framework   a runner (fallback-run-lite: .bef loader, executor, .npy
#               I/O, flags) with no kernel registered
#   families    the same runner with one kernel family (lib/Runtime/Kernels)
#   all         fallback-run-lite with every kernel
#   kernels     the marginal size of single (op, dtype) kernels: a selective
#               build (-DTFRT_FALLBACK_KERNELS) with that one kernel, minus
#               one with none; N kernels spread over the families (default
#               12; 0 skips)
#   MobileNetV2 the selective runner for nsfwjs's MobileNetV2
#               (scripts/models/nsfwjs_mobilenet_v2_mid.manifest)
# Builds go to $SIZE_BUILD_DIR (default build-size/), sharing ccache.
#
# --check (scripts/test.sh): builds only the framework and MobileNetV2
# runners and fails if they exceed the targets of docs/BinarySize.md.
#
# Environment: CROSS=aarch64 builds for arm64 with the cross toolchain of
# scripts/setup.sh --cross (see scripts/cross-aarch64.sh).
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=0
samples=12
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --samples) samples="$2"; shift ;;
    --samples=*) samples="${1#*=}" ;;
    *) echo "size-report.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
out="${SIZE_BUILD_DIR:-$root/build-size}"
mkdir -p "$out"
manifest="$root/scripts/models/nsfwjs_mobilenet_v2_mid.manifest"
# Targets (bytes): docs/BinarySize.md.
framework_target=$((100 * 1024))
mobilenet_target=$((400 * 1024))

strip_tool=strip
args=(-G Ninja -S "$root"
  -DCMAKE_BUILD_TYPE=MinSizeRel
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
  -DLLVM_USE_LINKER=lld
  -DTFRT_FALLBACK_ENABLE_COMPILER=OFF -DTFRT_FALLBACK_ENABLE_TESTS=OFF
  -DTFRT_FALLBACK_STATIC_ABSEIL=ON -DTFRT_FALLBACK_PLUGIN_HOST=OFF
  "-DCMAKE_CXX_FLAGS=-ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-rtti"
  "-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -Wl,--gc-sections -Wl,--icf=all")
if [ "${CROSS:-}" = aarch64 ]; then
  args+=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake")
  strip_tool=llvm-strip-22
fi
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR=true
  args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# build NAME TARGETS... [-- CMAKE_ARGS...]: configures and builds $out/NAME.
build() {
  local name="$1"; shift
  local targets=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do targets+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  cmake "${args[@]}" -B "$out/$name" "$@" >"$out/$name.configure.log" 2>&1 ||
    { cat "$out/$name.configure.log"; exit 1; }
  ninja -C "$out/$name" "${targets[@]}" >"$out/$name.build.log" 2>&1 ||
    { tail -n 30 "$out/$name.build.log"; exit 1; }
}
# size FILE: bytes of FILE stripped.
size() {
  "$strip_tool" -o "$1.stripped" "$1"
  stat -c %s "$1.stripped"
}
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }

empty="$out/empty.manifest"
echo "# tfrt-fallback kernel manifest v1" >"$empty"

build none fallback-run-lite -- -DTFRT_FALLBACK_KERNELS="$empty"
build mobilenet fallback-run-lite -- -DTFRT_FALLBACK_KERNELS="$manifest"
framework=$(size "$out/none/bin/fallback-run-lite")
mobilenet=$(size "$out/mobilenet/bin/fallback-run-lite")

if [ "$check" = 1 ]; then
  status=0
  echo "framework (runner, no kernels): $framework bytes ($(kb "$framework")); target <= $(kb $framework_target)"
  echo "MobileNetV2 selective runner:   $mobilenet bytes ($(kb "$mobilenet")); target <= $(kb $mobilenet_target)"
  [ "$framework" -le "$framework_target" ] || { echo "size-report: the framework is over its target" >&2; status=1; }
  [ "$mobilenet" -le "$mobilenet_target" ] || { echo "size-report: the MobileNetV2 runner is over its target" >&2; status=1; }
  exit "$status"
fi

build all all -- -DTFRT_FALLBACK_SIZE_PROBES=ON
all=$(size "$out/all/bin/fallback-run-lite")
probe_none=$(size "$out/all/bin/size-probe-None")
defs=$("$out/all/bin/fallback-run-lite" --list-kernels | wc -l)

echo "## $(uname -m) sizes (stripped bytes; $(date -u +%Y-%m-%d))"
echo
echo "| binary | bytes | KB |"
echo "|---|---:|---:|"
echo "| framework: runner with no kernel (selective build, empty manifest) | $framework | $(kb "$framework") |"
echo "| framework: runner with no kernel (family probe) | $probe_none | $(kb "$probe_none") |"
echo "| MobileNetV2 selective runner ($(grep -c '^kernel' "$manifest") kernels) | $mobilenet | $(kb "$mobilenet") |"
echo "| every kernel ($defs registry entries) | $all | $(kb "$all") |"
echo
echo "| family | defs | bytes over the framework |"
echo "|---|---:|---:|"
for probe in "$out"/all/bin/size-probe-*; do
  case "$probe" in *.stripped|*None) continue ;; esac
  family="${probe##*size-probe-}"
  bytes=$(size "$probe")
  n=$("$probe" --list-kernels | wc -l)
  echo "| $family | $n | $((bytes - probe_none)) |"
done

if [ "$samples" -gt 0 ]; then
  echo
  echo "| kernel (op, dtype) | marginal bytes |"
  echo "|---|---:|"
  # Every sample-th typed def of the full registry, so the sample spreads
  # over the families and ops.
  "$out/all/bin/fallback-run-lite" --list-kernels |
    awk '$2 == "T" && $3 == "in" { gsub(/[{},]/, " "); for (i = 4; i <= NF; ++i) print $1, $i }' \
      >"$out/typed-kernels.txt"
  total=$(wc -l <"$out/typed-kernels.txt")
  step=$(( total / samples ))
  [ "$step" -ge 1 ] || step=1
  marginals=()
  i=0
  while read -r op dtype; do
    i=$((i + 1))
    [ $(( (i - 1) % step )) -eq 0 ] || continue
    [ "${#marginals[@]}" -lt "$samples" ] || break
    name="kernel-$op-$dtype"
    printf '# tfrt-fallback kernel manifest v1\nkernel %s T=%s\n' "$op" "$dtype" \
      >"$out/$name.manifest"
    build "$name" fallback-run-lite -- -DTFRT_FALLBACK_KERNELS="$out/$name.manifest"
    bytes=$(( $(size "$out/$name/bin/fallback-run-lite") - framework ))
    marginals+=("$bytes")
    echo "| $op $dtype | $bytes |"
  done <"$out/typed-kernels.txt"
  median=$(printf '%s\n' "${marginals[@]}" | sort -n |
    awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
  echo
  echo "median marginal kernel over ${#marginals[@]} samples: $median bytes ($(kb "$median"))"
  echo "mean over every def: (all - framework) / defs = $(( (all - framework) / defs )) bytes"
fi
