# -*- Python -*-
# lit configuration of the embbag regression and integration tests.

import os
import re
import subprocess

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "EMBBAG"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".td"]
config.excludes = [
    "CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "FakeCuda"
]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.embbag_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%embbag_src_root", config.embbag_src_root))
# MLIR's .td files (mlir/Pass/PassBase.td), for embbag-tblgen's tests.
config.substitutions.append(
    ("%mlir_include_dir", os.path.normpath(os.path.join(config.mlir_lib_dir, "..", "include")))
)

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

# MPICH, for the sharded programs of --embbag-shard-to-llvm: each rank writes
# its output to its own file (%t.rank0, %t.rank1) so that the ranks' lines
# do not interleave.
import shutil

mpirun = shutil.which("mpirun.mpich")
libmpich = "/usr/lib/x86_64-linux-gnu/libmpich.so"
if mpirun and os.path.exists(libmpich):
    config.available_features.add("mpich")
    config.substitutions.append(
        (
            "%mpirun_2",
            mpirun
            + " -np 2 -outfile-pattern %t.rank%r -errfile-pattern %t.err%r"
            + " mlir-runner -e main"
            + " -entry-point-result=void -shared-libs="
            + runner_libs
            + ","
            + libmpich,
        )
    )

# PyTorch (Debian's python3-torch) as the oracle of the differential tests
# (utils/difftest/torch_oracle.py): the first python that imports torch and
# numpy, as %torch_python, and the feature `torch`.
for torch_python in (config.python_executable, "/usr/bin/python3"):
    if torch_python and subprocess.run(
        [torch_python, "-c", "import numpy, torch"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ).returncode == 0:
        config.available_features.add("torch")
        config.substitutions.append(("%torch_python", torch_python))
        # The PyTorch importer (docs/Importer.md) and its checker, which
        # compiles an imported model with embbag-aot and compares with torch.
        config.substitutions.append(
            ("%torch_import_check",
             torch_python + " " + os.path.join(
                 config.embbag_src_root, "utils", "torch_import", "check.py")))
        config.substitutions.append(
            ("%torch_import",
             torch_python + " " + os.path.join(
                 config.embbag_src_root, "utils", "torch-import")))
        break

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

# The assembly tests pin -mtriple=x86_64-unknown-linux-gnu and need llc's x86
# backend (Debian's llc has every target; another LLVM build may not).
llc_path = lit.util.which("llc", config.llvm_tools_dir)
if llc_path:
    llc_version = subprocess.run(
        [llc_path, "--version"], capture_output=True, text=True
    ).stdout
    if re.search(r"^\s*x86-64\s", llc_version, re.MULTILINE):
        config.available_features.add("x86-registered-target")

# The libFuzzer target exists only in the instrumented build (utils/fuzz.sh,
# SANITIZE=1 utils/setup.sh). Another build's suite can run its smoke test by
# naming it: lit --param embbag_fuzz=build-san/bin/embbag-fuzz.
embbag_fuzz = lit_config.params.get(
    "embbag_fuzz", os.path.join(config.embbag_tools_dir, "embbag-fuzz")
)
if os.path.exists(embbag_fuzz):
    config.available_features.add("embbag-fuzz")
    config.substitutions.append(("%embbag_fuzz", embbag_fuzz))

# The ways in as a library: the C API test (its source is the test), the
# mlir-opt plugin, the installed package and the AOT compiler; and
# embbag-tblgen, whose backend test/Tools tests.
config.suffixes.append(".c")
llvm_config.add_tool_substitutions(
    ["embbag-aot", "embbag-capi-test", "embbag-tblgen", "llvm-readelf", "llvm-nm"],
    tool_dirs,
)
config.substitutions.append(
    ("%stock_mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt"))
)
config.substitutions.append(("%embbag_build", config.embbag_obj_root))
config.substitutions.append(("%embbag_lib_dir", config.embbag_lib_dir))
config.substitutions.append(("%llvm_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%ninja", config.cmake_make_program))

# A sanitized build's libraries cannot be loaded into Debian's mlir-opt
# (no sanitizer runtime there) nor linked into an uninstrumented consumer.
sanitized = bool(config.embbag_sanitizers.strip())
plugin = os.path.join(config.embbag_lib_dir, "EmbBagPlugin.so")
if os.path.exists(plugin) and not sanitized:
    config.available_features.add("embbag-plugin")
    config.substitutions.append(("%embbag_plugin", plugin))
if not sanitized and os.path.exists(config.cmake_make_program):
    config.available_features.add("embbag-install")

# A C compiler with AddressSanitizer for the programs that call AOT
# libraries: clang-22 (apt: clang-22 libclang-rt-22-dev, which
# utils/setup.sh installs for the sanitizer build), whose runtime matches
# the LLVM 22 instrumentation embbag-aot --sanitize-address adds.
import shutil
import subprocess

cc = shutil.which("cc") or "cc"
config.substitutions.append(("%host_cc", cc))
asan_cc = None
for candidate in [os.path.join(config.llvm_tools_dir, "clang")]:
    if not os.path.exists(candidate):
        continue
    probe = subprocess.run(
        [candidate, "-fsanitize=address", "-x", "c", "-", "-o", os.devnull],
        input=b"int main(void) { return 0; }\n",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if probe.returncode == 0:
        asan_cc = candidate
        break
if asan_cc:
    config.available_features.add("asan")
    config.substitutions.append(
        ("%asan_cc", asan_cc + " -fsanitize=address -fno-omit-frame-pointer -g")
    )

# The CUDA runtime (lib/ExecutionEngine/CudaRuntime) and its tests. The
# fake driver (test/CudaRuntime/FakeCuda) runs everywhere, put first on the
# loader's path by %fake_cuda_env. `cuda-runtime`: the runtime loads into a
# plain C program (an instrumented build's needs the sanitizer runtime).
# `libcuda`: a real libcuda.so.1 loads; `cuda`: it also initialises and
# reports a device, so kernels can run.
if not sanitized:
    config.available_features.add("cuda-runtime")
config.substitutions.append(
    ("%fake_cuda_dir", os.path.join(config.embbag_obj_root, "test", "CudaRuntime", "fake-cuda"))
)
config.substitutions.append(
    (
        "%fake_cuda_env",
        "env LD_LIBRARY_PATH="
        + os.path.join(config.embbag_obj_root, "test", "CudaRuntime", "fake-cuda"),
    )
)
cuda_probe = """
import ctypes, sys
try:
    cuda = ctypes.CDLL("libcuda.so.1")
except OSError:
    sys.exit(2)
count = ctypes.c_int(0)
ok = cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0
sys.exit(0 if ok and count.value > 0 else 1)
"""
probe_env = dict(os.environ)
probe_env.pop("LD_LIBRARY_PATH", None)
cuda_rc = subprocess.run(
    ["/usr/bin/python3", "-c", cuda_probe],
    env=probe_env,
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
).returncode
if cuda_rc != 2:
    config.available_features.add("libcuda")
if cuda_rc == 0:
    config.available_features.add("cuda")
