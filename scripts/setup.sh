#!/usr/bin/env bash
#===- setup.sh - install what tfrt-fallback needs to build and test -------===#
#
# Installs exactly the Debian packages the project needs when any is missing.
# A fast no-op when everything is present.
#
# That includes the arm64 cross toolchain, which scripts/test.sh's arm64
# phase always uses: Debian's arm64 libraries (dpkg --add-architecture arm64)
# for clang-22 --target=aarch64-linux-gnu, and qemu-user to run the result.
#
#   scripts/setup.sh --no-cross   the host packages only
#
# farmhash is not co-installable for two architectures (its libfarmhash0 is
# not Multi-Arch: same; the arm64 one replaces the native one), so its arm64
# packages are only unpacked, into $TFRT_FALLBACK_CROSS_SYSROOT (default
# ~/.cache/tfrt-fallback-cross/sysroot), and so are XNNPACK's for the arm64
# peer of scripts/bench-arm64.sh (same reason).
#===----------------------------------------------------------------------===#
set -euo pipefail
cross=1
# --cross (what the arm64 scripts pass) is the default.
[ "${1:-}" = --no-cross ] && cross=0

PACKAGES=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22 clang-format-22
  cmake ninja-build ccache
  libclang-rt-22-dev
  libeigen3-dev libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev
  libprotobuf-dev protobuf-compiler
  libre2-dev libfarmhash-dev
  libjpeg62-turbo-dev libpng-dev libgif-dev
  python3-dev python3-numpy python3-pytest python3-pip python3-setuptools pybind11-dev
  python3-psutil
  libflatbuffers-dev flatbuffers-compiler python3-flatbuffers python3-protobuf
)

if [ "$cross" = 1 ]; then
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "setup: adding the arm64 architecture"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO dpkg --add-architecture arm64
    $SUDO apt-get update -qq
  fi
  PACKAGES+=(qemu-user llvm-22
    libc6-dev:arm64 libstdc++-12-dev:arm64 libgcc-12-dev:arm64
    libabsl-dev:arm64 libgtest-dev:arm64
    libre2-dev:arm64
    libjpeg62-turbo-dev:arm64 libpng-dev:arm64 libgif-dev:arm64)
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

# An arm64 libfarmhash0 installed by an earlier version of this script
# replaced the native one (and with it the native libfarmhash-dev): take it
# out so the native packages below go back in.
if dpkg-query -W -f='${Status}' libfarmhash0:arm64 2>/dev/null |
    grep -q "install ok installed"; then
  echo "setup: removing libfarmhash0:arm64 (it displaces the native farmhash)"
  $SUDO apt-get remove -y -qq libfarmhash-dev:arm64 libfarmhash0:arm64 \
    >/dev/null
fi

native="$(dpkg --print-architecture)"
missing=()
for p in "${PACKAGES[@]}"; do
  q="$p"
  # farmhash's packages by their native name: with a foreign one present,
  # the bare name may report that one.
  case "$p" in libfarmhash*) q="$p:$native" ;; esac
  if ! dpkg-query -W -f='${Status}' "$q" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node.js and npm run TF.js, the reference of the real-model tests
# (scripts/models); any install that puts them on PATH will do.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# arm64 packages unpacked beside the system, for those whose arm64 and
# native packages cannot be installed together: farmhash (static archive
# and header) for scripts/cross-aarch64.sh, and XNNPACK with pthreadpool and
# cpuinfo (shared libraries and headers; Debian's libxnnpack0 and
# libpthreadpool0 are not Multi-Arch: same either, and the native ones serve
# ../shared/peers/xnn-peer.sh) for scripts/bench-arm64.sh's arm64 peer.
unpack_arm64() {  # FILE PACKAGE...: unpack the packages unless FILE exists
  local file="$1"; shift
  [ -f "$sysroot/usr/lib/aarch64-linux-gnu/$file" ] && return 0
  echo "setup: unpacking the arm64 $* into $sysroot"
  local debs p
  debs="$(dirname "$sysroot")/debs"
  mkdir -p "$debs" "$sysroot"
  (cd "$debs" && apt-get download -qq "${@/%/:arm64}")
  for p in "$@"; do dpkg-deb -x "$(ls "$debs/${p}_"*_arm64.deb | tail -n 1)" "$sysroot"; done
}
if [ "$cross" = 1 ]; then
  sysroot="${TFRT_FALLBACK_CROSS_SYSROOT:-$HOME/.cache/tfrt-fallback-cross/sysroot}"
  unpack_arm64 libfarmhash.a libfarmhash-dev libfarmhash0
  unpack_arm64 libXNNPACK.so.0 libxnnpack-dev libxnnpack0 \
    libpthreadpool-dev libpthreadpool0 libcpuinfo0
fi
