#!/usr/bin/env bash
#===- fuzz.sh - build and run the libFuzzer targets -----------------------===#
#
# Usage: scripts/fuzz.sh [SECONDS]      run each target SECONDS (default 60)
#        scripts/fuzz.sh --smoke        each target SMOKE_RUNS inputs (default
#                                       20000) from its seeds alone, with a
#                                       fixed seed: what CI runs, the same
#                                       inputs on every machine
#        scripts/fuzz.sh --regressions  run fuzz/regressions/<target>/* once
#   FUZZ_TARGETS="npy-fuzzer" scripts/fuzz.sh 600   only some targets
#
# Builds the targets in the sanitizer build of `scripts/test.sh
# --sanitize=address,undefined` (build-asan/, BUILD_DIR=...: clang-22, ASan
# and UBSan, every library instrumented for libFuzzer's coverage; see
# scripts/build.sh). The targets: the .bef loader and the executor on what
# it loads, the .npy reader, the TF.js and GraphDef importers and the MLIR
# path (parse, lower, write a .bef, load it back). Each runs on a working
# copy of its seed corpus, fuzz/corpus/<target>/, kept in
# BUILD/fuzz-work/<target>/corpus so later runs start from what earlier ones
# found, with its dictionary fuzz/<target>.dict if there is one. Exits
# non-zero on any crash, sanitizer report, leak, timeout or out-of-memory;
# the input is left in BUILD/fuzz-work/<target>/. See docs/Reliability.md.
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build-asan}"

mode=fuzz
seconds=60
case "${1:-}" in
  --regressions) mode=regressions ;;
  --smoke) mode=smoke ;;
  '') ;;
  *[!0-9]*) echo "usage: $0 [SECONDS | --smoke | --regressions]" >&2; exit 2 ;;
  *) seconds="$1" ;;
esac

targets=(${FUZZ_TARGETS:-bef-loader-fuzzer npy-fuzzer tensor-bundle-fuzzer
  tfjs-import-fuzzer graphdef-import-fuzzer tflite-import-fuzzer
  mlir-pipeline-fuzzer})
# -max_len per target: the seeds are a few KB (real models' model.json up
# to 18 KB).
declare -A maxLen=([bef-loader-fuzzer]=16384 [npy-fuzzer]=4096
  [tensor-bundle-fuzzer]=4096
  [tfjs-import-fuzzer]=32768 [graphdef-import-fuzzer]=8192
  [tflite-import-fuzzer]=8192 [mlir-pipeline-fuzzer]=8192)

CXX_COMPILER=clang++-22 SANITIZER=address,undefined TARGETS="${targets[*]}" \
  "$root/scripts/build.sh" "$build"

# allow_user_poisoning=0: Debian's libLLVM is not instrumented, and
# MLIR's allocators poison memory our instrumented code then reads
# (docs/Reliability.md).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allow_user_poisoning=0}"
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
  budget=(-max_total_time="$seconds")
  if [ "$mode" = smoke ]; then
    # A fresh copy of the seeds and a fixed seed: the same inputs run here
    # and in CI.
    work="$build/fuzz-smoke/$target"
    rm -rf "$work"
    budget=(-runs="${SMOKE_RUNS:-20000}" -seed=1)
  fi
  mkdir -p "$work/corpus"
  cp -n "$root/fuzz/corpus/$target"/* "$work/corpus/" 2>/dev/null || true
  dict=()
  [ -f "$root/fuzz/$target.dict" ] && dict=(-dict="$root/fuzz/$target.dict")
  log="$work/fuzz.log"
  echo "fuzz: $target ${budget[*]} (log: $log)"
  if "$build/bin/$target" "$work/corpus" "${dict[@]}" \
      "${budget[@]}" -max_len="${maxLen[$target]:-4096}" \
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
