#!/usr/bin/env bash
#===- size-report.sh - binary size of the runtime, as an app ships it -----===#
#
# Usage: scripts/size-report.sh [--check] [--samples N]
#        scripts/size-report.sh --model MODEL [--model MODEL ...]
#
# Builds the runtime alone (no MLIR) the way an app would ship it: -Os,
# -ffunction-sections/-fdata-sections, --gc-sections, identical code
# folding, packed relative relocations (RELR), no PLT (-fno-plt, -z now),
# no unwind tables, no RTTI,
# Abseil linked statically, the C and C++
# standard libraries shared, no kernel plugin export table, no profiler
# (--profile), the per-op path at -Oz like the rest of the framework
# (TFRT_FALLBACK_FRAMEWORK_FOR_SIZE), full LTO with virtual function
# elimination; then strips and
# measures (bytes of the file):
#   framework   a runner (fallback-run-lite: .bef loader, executor, .npy
#               I/O, flags) with no kernel registered
#   C API       libtfrt_fallback_c.so with no kernel registered (what an
#               app embedding the runtime links)
#   families    the same runner with one kernel family (lib/Runtime/Kernels)
#   all         fallback-run-lite with every kernel
#   kernels     the marginal size of single (op, dtype) kernels: what one
#               more kernel adds to an app's runtime, the MobileNetV2 runner
#               built with that kernel too minus the MobileNetV2 runner; N
#               kernels spread over the families (default 12; 0 skips)
#   MobileNetV2 the selective runner for nsfwjs's MobileNetV2
#               (scripts/models/nsfwjs_mobilenet_v2_mid.manifest)
# Builds go to $SIZE_BUILD_DIR (default build-size/, build-size-aarch64/
# with CROSS=aarch64), sharing ccache.
#
# --check (scripts/test.sh, after run-models.py --bef): builds only the
# framework and MobileNetV2 runners, checks that the MobileNetV2 runner runs
# MobileNetV2 (against TF.js's output, using its memory plan) and refuses
# BlazeFace naming the missing kernels, that both refuse programs needing
# control flow or string
# tensors (which their manifests leave out), and fails if either runner
# exceeds its size target (docs/BinarySize.md); builds and runs the
# executor's unit tests (TFRTFallbackExecutorTests) in the same
# configuration.
#
# --model MODEL (a .tflite, model.json, GraphDef or .mlir; repeatable):
# instead of the report, the selective runner of each model, as an app that
# ships that model builds it: the model compiled to a .bef (BUILD_DIR's
# fallback-translate), its kernel manifest (--emit-kernel-manifest), the
# runner built with exactly those kernels; prints its stripped size and
# checks that it loads the .bef (docs/BinarySize.md, "TFLite models").
#
# Environment: CROSS=aarch64 builds for arm64 with the cross toolchain of
# scripts/setup.sh (see scripts/cross-aarch64.sh). SIZE_LTO=0
# builds without LTO (per-file -Os/-Oz only).
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=0
samples=12
models=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --model) models+=("$2"); shift ;;
    --model=*) models+=("${1#*=}") ;;
    --samples) samples="$2"; shift ;;
    --samples=*) samples="${1#*=}" ;;
    *) echo "size-report.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
# A cross build has a folder of its own (a configured folder keeps its
# compilers): build-size-aarch64/.
out="${SIZE_BUILD_DIR:-$root/build-size${CROSS:+-$CROSS}}"
mkdir -p "$out"
manifest="$root/scripts/models/nsfwjs_mobilenet_v2_mid.manifest"
# Targets (bytes): docs/BinarySize.md.
framework_target=$((100 * 1024))
mobilenet_target=$((400 * 1024))

strip_tool=strip
run=()
# Whole-program optimization, as an app built for size links: full LTO
# (cross-module inlining and dead code), whole-program vtables with virtual
# function elimination (a virtual function no call can reach is dropped
# with its vtable slot; -fvisibility=hidden makes every class of ours
# eligible: the runner exports nothing). SIZE_LTO=0 measures without.
# Not LLVM's machine outliner (-enable-machine-outliner): 1.1 KB less
# framework, but it turns repeated sequences inside kernel loops (the
# activation epilogue, the executor's per-op path) into calls.
lto_cxx="" lto_link=""
if [ "${SIZE_LTO:-1}" = 1 ]; then
  lto_cxx="-flto -fwhole-program-vtables -fvirtual-function-elimination -fvisibility=hidden"
  lto_link="-flto -fwhole-program-vtables"
fi
# The runners and the C API library link alike. Calls into the shared C
# and C++ libraries go through the GOT (-fno-plt, bound at load with
# -z now): no PLT stubs, 0.5 KB less framework.
link_flags="-fuse-ld=lld -Wl,--gc-sections -Wl,--icf=all -Wl,-z,pack-relative-relocs -Wl,-z,now ${lto_link}"
args=(-G Ninja -S "$root"
  -DCMAKE_BUILD_TYPE=MinSizeRel
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
  -DLLVM_USE_LINKER=lld
  -DTFRT_FALLBACK_ENABLE_COMPILER=OFF -DTFRT_FALLBACK_ENABLE_TESTS=OFF
  -DTFRT_FALLBACK_STATIC_ABSEIL=ON -DTFRT_FALLBACK_PLUGIN_HOST=OFF
  -DTFRT_FALLBACK_RUNNER_PROFILER=OFF -DTFRT_FALLBACK_FRAMEWORK_FOR_SIZE=ON
  "-DCMAKE_CXX_FLAGS=-ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-rtti -fno-plt ${lto_cxx}"
  "-DCMAKE_EXE_LINKER_FLAGS=${link_flags}"
  "-DCMAKE_SHARED_LINKER_FLAGS=${link_flags}")
if [ "${CROSS:-}" = aarch64 ]; then
  args+=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake")
  strip_tool=llvm-strip-22
  run=(qemu-aarch64)
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

build none fallback-run-lite tfrt_fallback_c -- -DTFRT_FALLBACK_KERNELS="$empty"
if [ ${#models[@]} -gt 0 ]; then
  bin="${BUILD_DIR:-$root/build}/bin"
  echo "framework (no kernel): $(kb "$(size "$out/none/bin/fallback-run-lite")")"
  for model in "${models[@]}"; do
    name="$(basename "$model")"; name="${name%.*}"
    dir="$out/model-$name"
    mkdir -p "$dir"
    "$bin/fallback-translate" --mlir-to-bef "$model" -o "$dir/model.bef"
    "$bin/fallback-translate" --emit-kernel-manifest "$dir/model.bef" \
      -o "$dir/kernels.manifest"
    build "model-$name/build" fallback-run-lite -- \
      -DTFRT_FALLBACK_KERNELS="$dir/kernels.manifest"
    runner="$dir/build/bin/fallback-run-lite"
    bytes=$(size "$runner")
    "${run[@]}" "$runner.stripped" "$dir/model.bef" --signature >/dev/null ||
      { echo "size-report: the $name runner does not load its program" >&2; exit 1; }
    kernels=$(grep -c '^kernel ' "$dir/kernels.manifest" || true)
    echo "$name: $(kb "$bytes") ($bytes bytes, $kernels kernels)"
  done
  exit 0
fi
build mobilenet fallback-run-lite -- -DTFRT_FALLBACK_KERNELS="$manifest"
framework=$(size "$out/none/bin/fallback-run-lite")
# What an app that embeds the runtime through the C API ships with no
# kernel: libtfrt_fallback_c.so (loader, executor, core; no runner).
capi=$(size "$out/none/lib/libtfrt_fallback_c.so")
mobilenet=$(size "$out/mobilenet/bin/fallback-run-lite")

if [ "$check" = 1 ]; then
  status=0
  # The selective runner runs MobileNetV2 (matching TF.js) and refuses
  # BlazeFace at load, naming the kernels it lacks. The models, their .bef
  # and references come from `run-models.py --bef` (scripts/test.sh runs it
  # first).
  cache="${TFRT_FALLBACK_MODELS_CACHE:-$HOME/.cache/tfrt-fallback-models}"
  bin="${BUILD_DIR:-$root/build}/bin"
  mnv2="$cache/ours/nsfwjs_mobilenet_v2_mid"
  ref="$cache/refs/nsfwjs_mobilenet_v2_mid"
  "$bin/fallback-translate" --emit-kernel-manifest "$mnv2/model.bef" -o "$out/mnv2.manifest"
  if ! diff -u "$manifest" "$out/mnv2.manifest"; then
    echo "size-report: $manifest is not MobileNetV2's manifest (above)" >&2
    status=1
  fi
  runner="$out/mobilenet/bin/fallback-run-lite.stripped"
  mkdir -p "$out/mnv2-out"
  "${run[@]}" "$runner" "$mnv2/model.bef" --threads=1 --print-limit=0 \
    --output-dir="$out/mnv2-out" --input="$(ls "$ref"/input_*.npy)" >/dev/null
  python3 "$root/scripts/compare-npy.py" "$out/mnv2-out/output_0.npy" \
    "$(ls "$ref"/output_0_*.cpu.npy)" || status=1
  # Its peak memory against what the model needs at least (reported; not
  # under an emulator).
  # It keeps the memory plan (its manifest's `feature memory-plan`): every
  # planned result takes its planned buffer.
  "${run[@]}" "$runner" "$mnv2/model.bef" --threads=1 --print-limit=0 \
    --benchmark=3 --input="$(ls "$ref"/input_*.npy)" >"$out/mnv2-bench.log"
  if [ "${#run[@]}" -eq 0 ]; then
    grep '^memory:' "$out/mnv2-bench.log" | sed 's/^/MobileNetV2 selective runner /' || true
  fi
  if ! grep -q '^memory plan: .* [0-9]* buffers, [1-9][0-9]* results in them, 0 allocated' \
      "$out/mnv2-bench.log"; then
    echo "size-report: the MobileNetV2 runner did not use its memory plan:" >&2
    cat "$out/mnv2-bench.log" >&2
    status=1
  else
    grep '^memory plan:' "$out/mnv2-bench.log" | sed 's/^/MobileNetV2 selective runner /'
  fi
  if "${run[@]}" "$runner" "$cache/ours/blazeface/model.bef" >"$out/blazeface.log" 2>&1; then
    echo "size-report: the MobileNetV2 runner ran BlazeFace" >&2
    status=1
  elif ! grep -q "lacks [0-9]* kernels the program needs" "$out/blazeface.log" ||
      ! grep -q "op 'DepthwiseConv2dNative'" "$out/blazeface.log"; then
    echo "size-report: BlazeFace was refused for another reason:" >&2
    cat "$out/blazeface.log" >&2
    status=1
  else
    echo "MobileNetV2 runner refuses BlazeFace: $(head -n 1 "$out/blazeface.log")"
  fi
  # Both runners leave control flow and string tensors out (their manifests
  # have no `feature` line): they refuse programs that need them, at load,
  # naming what is missing.
  for feature in control-flow strings; do
    "$bin/fallback-translate" --mlir-to-bef \
      "$root/test/Runtime/Inputs/needs-$feature.mlir" -o "$out/needs-$feature.bef"
    for kind in none mobilenet; do
      log="$out/needs-$feature.$kind.log"
      if "${run[@]}" "$out/$kind/bin/fallback-run-lite.stripped" \
          "$out/needs-$feature.bef" >"$log" 2>&1; then
        echo "size-report: the $kind runner ran a program that needs $feature" >&2
        status=1
      elif ! grep -q "which this runtime leaves out (a selective build whose kernel manifest has no 'feature $feature' line)" "$log"; then
        echo "size-report: the $kind runner refused needs-$feature.mlir for another reason:" >&2
        cat "$log" >&2
        status=1
      fi
    done
    echo "the framework and MobileNetV2 runners refuse a program that needs $feature: $(head -n 1 "$log")"
  done
  # Neither runner needs a shared library beyond the C and C++ runtime: the
  # kernels' external libraries (RE2, the image codecs) come with the ops
  # that call them (cmake/KernelLibraries.cmake).
  for kind in none mobilenet; do
    needed=$(readelf -d "$out/$kind/bin/fallback-run-lite" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
      grep -v -E '^(libstdc\+\+|libm|libgcc_s|libc|ld-linux[-a-z0-9_]*)\.so' || true)
    if [ -n "$needed" ]; then
      echo "size-report: the $kind runner needs $(echo $needed)" >&2
      status=1
    fi
  done
  echo "the framework and MobileNetV2 runners need no shared library but the C and C++ runtime"
  # The executor's unit tests in this configuration (the per-op path at
  # -Oz, whole-program optimization): the code a shipped runtime runs.
  # (Without virtual function elimination: the tests' classes are called
  # from GoogleTest, which is not part of the whole program.) Once, on the
  # host: the arm64 phase runs them in its own build.
  if [ -z "${CROSS:-}" ]; then
    build executor-tests TFRTFallbackExecutorTests -- -DTFRT_FALLBACK_ENABLE_TESTS=ON \
      "-DCMAKE_CXX_FLAGS=-ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-rtti -fno-plt ${lto_cxx/ -fwhole-program-vtables -fvirtual-function-elimination/}" \
      "-DCMAKE_EXE_LINKER_FLAGS=${link_flags/ -fwhole-program-vtables/}"
    if "${run[@]}" "$out/executor-tests/bin/TFRTFallbackExecutorTests" \
        --gtest_brief=1 >"$out/executor-tests.log" 2>&1; then
      echo "executor unit tests in the size configuration: $(grep -o '[0-9]* tests from' \
        "$out/executor-tests.log" | tail -n 1 | cut -d' ' -f1) passed"
    else
      echo "size-report: the executor's unit tests fail in the size configuration:" >&2
      tail -n 40 "$out/executor-tests.log" >&2
      status=1
    fi
  fi
  echo "framework (runner, no kernels): $framework bytes ($(kb "$framework")); target <= $(kb $framework_target)"
  echo "MobileNetV2 selective runner:   $mobilenet bytes ($(kb "$mobilenet")); target <= $(kb $mobilenet_target)"
  echo "C API library, no kernels:      $capi bytes ($(kb "$capi"))"
  # The targets hold for the size report's own build (whole-program
  # optimization); SIZE_LTO=0 measures without it and only reports.
  if [ "${SIZE_LTO:-1}" = 1 ]; then
    [ "$framework" -le "$framework_target" ] || { echo "size-report: the framework is over its target" >&2; status=1; }
  fi
  [ "$mobilenet" -le "$mobilenet_target" ] || { echo "size-report: the MobileNetV2 runner is over its target" >&2; status=1; }
  exit "$status"
fi

build all fallback-run-lite -- -DTFRT_FALLBACK_SIZE_PROBES=ON
mapfile -t probes < <(ninja -C "$out/all" -t targets all |
  grep -o '^size-probe-[A-Za-z0-9]*' | sort -u)
ninja -C "$out/all" "${probes[@]}" >>"$out/all.build.log" 2>&1 ||
  { tail -n 30 "$out/all.build.log"; exit 1; }
all=$(size "$out/all/bin/fallback-run-lite")
probe_none=$(size "$out/all/bin/size-probe-None")
defs=$("$out/all/bin/fallback-run-lite" --list-kernels | wc -l)

echo "## $(uname -m) sizes (stripped bytes; $(date -u +%Y-%m-%d))"
echo
echo "| binary | bytes | KB |"
echo "|---|---:|---:|"
echo "| framework: runner with no kernel (selective build, empty manifest) | $framework | $(kb "$framework") |"
echo "| framework: runner with no kernel (family probe) | $probe_none | $(kb "$probe_none") |"
echo "| C API library with no kernel (libtfrt_fallback_c.so) | $capi | $(kb "$capi") |"
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
  echo "| kernel (op, dtype) | bytes over the MobileNetV2 runner |"
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
    # Kernels MobileNetV2 has already would add nothing.
    grep -q "^kernel $op T=$dtype\$" "$manifest" && continue
    name="kernel-$op-$dtype"
    { cat "$manifest"; echo "kernel $op T=$dtype"; } >"$out/$name.manifest"
    build "$name" fallback-run-lite -- -DTFRT_FALLBACK_KERNELS="$out/$name.manifest"
    bytes=$(( $(size "$out/$name/bin/fallback-run-lite") - mobilenet ))
    marginals+=("$bytes")
    echo "| $op $dtype | $bytes |"
  done <"$out/typed-kernels.txt"
  median=$(printf '%s\n' "${marginals[@]}" | sort -n |
    awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
  echo
  echo "median marginal kernel over ${#marginals[@]} samples: $median bytes ($(kb "$median"))"
  echo "mean over every def: (all - framework) / defs = $(( (all - framework) / defs )) bytes"
fi
