#!/usr/bin/env bash
#===- setup.sh - install what tfrt-fallback needs to build and test -------===#
#
# Installs exactly the Debian packages the project needs when any is missing.
# A fast no-op when everything is present.
#
#   scripts/setup.sh --cross   also the arm64 cross toolchain: Debian's arm64
#                              libraries (dpkg --add-architecture arm64) for
#                              clang-22 --target=aarch64-linux-gnu, and
#                              qemu-user to run the result
#===----------------------------------------------------------------------===#
set -euo pipefail
cross=0
[ "${1:-}" = --cross ] && cross=1

PACKAGES=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22 clang-format-22
  cmake ninja-build ccache
  libclang-rt-22-dev
  libeigen3-dev libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev
  libprotobuf-dev protobuf-compiler
  libre2-dev libfarmhash-dev
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
    libre2-dev:arm64 libfarmhash-dev:arm64)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node.js and npm run TF.js, the reference of the real-model tests
# (scripts/models); any install that puts them on PATH will do.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
