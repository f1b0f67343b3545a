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

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Runtime support libraries of mlir-runner (printMemref*, ...).
runner_libs = ",".join(
    os.path.join(config.mlir_lib_dir, lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]
)
config.substitutions.append(
    (
        "%mlir_runner",
        "mlir-runner -e main -entry-point-result=void -shared-libs=" + runner_libs,
    )
)
config.substitutions.append(("%mlir_runner_libs", runner_libs))

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
