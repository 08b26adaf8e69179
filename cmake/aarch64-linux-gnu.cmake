#===- aarch64-linux-gnu.cmake - cross-build the runtime for arm64 ---------===#
#
# clang-22 and lld-22 targeting aarch64-linux-gnu against Debian's arm64
# multiarch libraries (scripts/setup.sh --cross installs them); run the
# results with qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR). Runtime only:
# -DTFRT_FALLBACK_ENABLE_COMPILER=OFF. Used by scripts/cross-aarch64.sh.
#===----------------------------------------------------------------------===#
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(triple aarch64-linux-gnu)
set(CMAKE_C_COMPILER clang-22)
set(CMAKE_CXX_COMPILER clang++-22)
set(CMAKE_C_COMPILER_TARGET ${triple})
set(CMAKE_CXX_COMPILER_TARGET ${triple})
set(LLVM_USE_LINKER lld CACHE STRING "")
set(CMAKE_AR llvm-ar-22 CACHE FILEPATH "")
set(CMAKE_RANLIB llvm-ranlib-22 CACHE FILEPATH "")
set(CMAKE_STRIP llvm-strip-22 CACHE FILEPATH "")
# Debian's multiarch layout: arm64 libraries in /usr/lib/aarch64-linux-gnu,
# arch-independent headers (Abseil, Eigen, gtest) in /usr/include.
# farmhash's arm64 packages cannot be installed beside the native ones, so
# scripts/setup.sh --cross unpacks them into a folder of their own, searched
# first.
set(CMAKE_LIBRARY_ARCHITECTURE ${triple})
if(DEFINED ENV{TFRT_FALLBACK_CROSS_SYSROOT})
  set(cross_sysroot "$ENV{TFRT_FALLBACK_CROSS_SYSROOT}")
else()
  set(cross_sysroot "$ENV{HOME}/.cache/tfrt-fallback-cross/sysroot")
endif()
set(CMAKE_FIND_ROOT_PATH ${cross_sysroot} /usr/lib/${triple} /usr)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# libc6:arm64 puts the arm64 loader at /lib/ld-linux-aarch64.so.1, so qemu
# finds it and the multiarch libraries without -L.
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-cpu;max")
# Debian's /usr/bin/ld only links x86; lld links any target.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-fuse-ld=lld")
