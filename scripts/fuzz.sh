#!/usr/bin/env bash
#===- fuzz.sh - build and run the libFuzzer targets -----------------------===#
#
# Usage: scripts/fuzz.sh [SECONDS]      run each target SECONDS (default 60)
#        scripts/fuzz.sh --regressions  run fuzz/regressions/<target>/* once
#   FUZZ_TARGETS="npy-fuzzer" scripts/fuzz.sh 600   only some targets
#
# Configures build-fuzz/ (BUILD_DIR=...): clang-22, the runtime alone
# (-DTFRT_FALLBACK_ENABLE_COMPILER=OFF) with every library instrumented
# (-fsanitize=fuzzer-no-link plus the TFRT_FALLBACK_SANITIZER build mode,
# address,undefined), and builds the fuzz/ targets only. Each target runs on
# a working copy of its seed corpus, fuzz/corpus/<target>/, kept in
# build-fuzz/fuzz-work/<target>/corpus so later runs start from what earlier
# ones found. Exits non-zero on any crash, leak, timeout or out-of-memory;
# the input is left in build-fuzz/fuzz-work/<target>/. See
# docs/Reliability.md.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-fuzz}"

mode=fuzz
seconds=60
case "${1:-}" in
  --regressions) mode=regressions ;;
  '') ;;
  *[!0-9]*) echo "usage: $0 [SECONDS | --regressions]" >&2; exit 2 ;;
  *) seconds="$1" ;;
esac

targets=(${FUZZ_TARGETS:-bef-loader-fuzzer npy-fuzzer})
# -max_len per target: the seed programs are a few KB.
declare -A maxLen=([bef-loader-fuzzer]=16384 [npy-fuzzer]=4096)

"$root/scripts/setup.sh"
args=(-G Ninja -S "$root" -B "$build"
  -DCMAKE_BUILD_TYPE=RelWithDebInfo
  # -O1 compiles the Eigen kernels much faster than -O2; asserts stay on.
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only"
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only"
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
  -DLLVM_USE_LINKER=lld
  -DTFRT_FALLBACK_SANITIZER=address,undefined
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined"
  -DTFRT_FALLBACK_ENABLE_COMPILER=OFF
  -DTFRT_FALLBACK_ENABLE_TESTS=OFF
  -DTFRT_FALLBACK_ENABLE_FUZZERS=ON)
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
  export CCACHE_NOHASHDIR=true
  args+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake "${args[@]}" >/dev/null
fi
ninja -C "$build" ${JOBS:+-j "$JOBS"} "${targets[@]}"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

status=0
if [ "$mode" = regressions ]; then
  for target in "${targets[@]}"; do
    dir="$root/fuzz/regressions/$target"
    mapfile -t inputs < <(find "$dir" -type f 2>/dev/null | sort)
    if [ "${#inputs[@]}" -eq 0 ]; then
      echo "fuzz: $target: no regression inputs"
      continue
    fi
    log="$build/fuzz-work/$target-regressions.log"
    mkdir -p "$(dirname "$log")"
    if "$build/bin/$target" -rss_limit_mb=2048 -timeout=10 "${inputs[@]}" \
        >"$log" 2>&1; then
      echo "fuzz: $target: ${#inputs[@]} regression input(s) pass"
    else
      echo "fuzz: $target: a regression input FAILS (log: $log)"
      tail -n 40 "$log"
      status=1
    fi
  done
  exit "$status"
fi

for target in "${targets[@]}"; do
  work="$build/fuzz-work/$target"
  mkdir -p "$work/corpus"
  cp -n "$root/fuzz/corpus/$target"/* "$work/corpus/" 2>/dev/null || true
  dict=()
  [ -f "$root/fuzz/$target.dict" ] && dict=(-dict="$root/fuzz/$target.dict")
  log="$work/fuzz.log"
  echo "fuzz: $target for ${seconds}s (log: $log)"
  if "$build/bin/$target" "$work/corpus" "${dict[@]}" \
      -max_total_time="$seconds" -max_len="${maxLen[$target]:-4096}" \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$work/" >"$log" 2>&1; then
    result=ok
  else
    result=FAILED
    status=1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  echo "fuzz: $target: $result, ${execs:-?} execs, corpus $(ls "$work/corpus" | wc -l) inputs"
  if [ "$result" = FAILED ]; then
    grep -E "^==[0-9]+==ERROR|runtime error|SUMMARY|Test unit written|deadly signal|out-of-memory|timeout" "$log" | head -n 20 || true
  fi
done
exit "$status"
