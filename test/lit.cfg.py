# -*- Python -*-
# lit configuration of the tfrt-fallback test suite.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TFRT_FALLBACK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
# A test that hangs fails after 10 minutes instead of holding CI's whole
# budget (lit needs psutil to kill it: python3-psutil, scripts/setup.sh).
if lit_config.maxIndividualTestTimeIsSupported[0]:
    lit_config.maxIndividualTestTime = 600
config.test_exec_root = os.path.join(config.tfrt_fallback_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%src_root", config.tfrt_fallback_src_root))
config.substitutions.append(
    ("%tfrt_lib_dir", os.path.join(config.tfrt_fallback_obj_root, "lib")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not`, `count` and `split-file` at the start of a RUN line come from PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.tfrt_fallback_tools_dir = os.path.join(config.tfrt_fallback_obj_root, "bin")
tool_dirs = [config.tfrt_fallback_tools_dir, config.llvm_tools_dir]
tools = ["fallback-opt"]
for optional in ["fallback-translate", "fallback-run", "fallback-run-lite",
                 "c-api-test", "c-api-plugin-test", "c-api-io-test"]:
    if os.path.exists(os.path.join(config.tfrt_fallback_tools_dir, optional)):
        tools.append(optional)
        config.available_features.add(optional)
llvm_config.add_tool_substitutions(tools, tool_dirs)
# The qemu plugin's test (test/Bench) assembles and runs an arm64 program:
# qemu-user and clang/lld (which link any target) are enough.
if shutil.which("qemu-aarch64") and shutil.which("clang-22") and shutil.which("ld.lld-22"):
    config.available_features.add("qemu-aarch64")
