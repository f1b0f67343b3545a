# -*- Python -*-
# lit configuration of the embbag regression and integration tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "EMBBAG"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.embbag_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%embbag_src_root", config.embbag_src_root))

llvm_config.with_system_environment(
    ["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "ASAN_OPTIONS", "UBSAN_OPTIONS"]
)
llvm_config.use_default_substitutions()

# Runtime support libraries of mlir-runner (printMemref*, ...).
runner_libs = ",".join(
    os.path.join(config.mlir_lib_dir, lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]
)
config.substitutions.append(("%mlir_runner_libs", runner_libs))
# The OpenMP runtime, for kernels lowered with --embbag-to-llvm="parallel=1".
config.substitutions.append(("%libomp", os.path.join(config.mlir_lib_dir, "libomp.so")))
# After %mlir_runner_libs, which it is a prefix of.
config.substitutions.append(
    (
        "%mlir_runner",
        "mlir-runner -e main -entry-point-result=void -shared-libs=" + runner_libs,
    )
)


tool_dirs = [config.embbag_tools_dir, config.llvm_tools_dir]
tools = [
    "embbag-opt",
    "mlir-opt",
    "mlir-runner",
    "mlir-translate",
    "llc",
    "not",
    "count",
    ToolSubst("%python", config.python_executable, unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The libFuzzer target exists only in the instrumented build (utils/fuzz.sh,
# SANITIZE=1 utils/setup.sh). Another build's suite can run its smoke test by
# naming it: lit --param embbag_fuzz=build-san/bin/embbag-fuzz.
embbag_fuzz = lit_config.params.get(
    "embbag_fuzz", os.path.join(config.embbag_tools_dir, "embbag-fuzz")
)
if os.path.exists(embbag_fuzz):
    config.available_features.add("embbag-fuzz")
    config.substitutions.append(("%embbag_fuzz", embbag_fuzz))

# The code generators llc was built with ("x86-registered-target", ...), for
# tests that read the assembly of one target.
import subprocess

try:
    llc_version = subprocess.run(
        [os.path.join(config.llvm_tools_dir, "llc"), "--version"],
        capture_output=True, text=True, check=True,
    ).stdout
    if " x86-64 " in llc_version:
        config.available_features.add("x86-registered-target")
except (OSError, subprocess.CalledProcessError):
    pass
