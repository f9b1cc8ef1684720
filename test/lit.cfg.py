# -*- Python -*-
# lit configuration of the posenc test suite.

import os
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "POSENC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.posenc_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs", "Models", "lib"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%posenc_src_root", config.posenc_src_root))
config.substitutions.append(("%posenc_obj_root", config.posenc_obj_root))

llvm_config.use_default_substitutions()
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])

# Upstream MLIR's FileCheck discipline: captures do not leak across labels.
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.posenc_tools_dir, config.llvm_tools_dir]
tools = ["posenc-opt", "posenc-run", "posenc-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Python packages of the numerics and execution tests (installed by
# scripts/setup.sh); without them those tests report UNSUPPORTED, never PASS.
import importlib.util
import subprocess


def python_has(*modules):
    code = "import importlib.util, sys; sys.exit(0 if all(importlib.util.find_spec(m) " \
        "for m in sys.argv[1:]) else 1)"
    return subprocess.run([config.python_executable, "-c", code, *modules]).returncode == 0


if python_has("numpy"):
    config.available_features.add("numpy")
if python_has("numpy", "torch", "transformers"):
    config.available_features.add("hf")
if python_has("numpy", "iree.compiler", "iree.runtime"):
    config.available_features.add("iree")
if python_has("numpy", "onnx", "onnxscript", "iree.compiler", "iree.runtime"):
    config.available_features.add("iree-onnx")
if python_has("numpy", "onnx", "onnxruntime"):
    config.available_features.add("onnxruntime")

# The ASan build (scripts/test-sanitizers.sh) reserves terabytes of shadow
# address space at startup, which `ulimit -v` forbids: tests that bound
# memory that way run on the release build only.
if "-fsanitize=address" in getattr(config, "posenc_cxx_flags", ""):
    config.available_features.add("asan")

# AVX-512 BF16 (vdpbf16ps): code built with posenc-cpu-pipeline's
# attention-bf16-dot-products runs only on such CPUs.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if any(line.startswith("flags") and "avx512_bf16" in line.split()
               for line in cpuinfo):
            config.available_features.add("avx512bf16")
except OSError:
    pass

# The OpenMP runtime the JIT loads for code lowered through the omp dialect.
if os.path.exists(os.path.join(config.llvm_lib_dir, "libomp.so")):
    config.available_features.add("libomp")

# CUDA's ptxas assembles the PTX of posenc-gpu-pipeline (REQUIRES: ptxas):
# $POSENC_PTXAS (empty: none), else from PATH or the toolkit (CUDA_HOME,
# CUDA_PATH, /usr/local/cuda); without it those tests are UNSUPPORTED.
import shutil


def find_ptxas():
    if "POSENC_PTXAS" in os.environ:
        return os.environ["POSENC_PTXAS"] or None
    found = shutil.which("ptxas")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            return os.path.join(root, "bin", "ptxas")
    return None


ptxas = find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found (PATH, CUDA_HOME, CUDA_PATH, /usr/local/cuda/bin): "
                    "the PTX validation tests (REQUIRES: ptxas) are UNSUPPORTED")

# posenc-run --gpu. `cuda-gpu`: a CUDA driver and device answer posenc-run's
# probe (--gpu-info, exit status 0; 77 means no driver or device), so the
# tests that run kernels on the GPU (REQUIRES: cuda-gpu) run; elsewhere they
# are UNSUPPORTED. The fake driver (test/lib/fake_libcuda.cpp, built with
# the tests) takes posenc-run through its device path everywhere; the
# toolkit's stub libcuda, where installed, checks the "stub" answer.
config.substitutions.append(
    ("%fake_libcuda", os.path.join(config.posenc_lib_dir, "libPosEncFakeCuda.so")))
config.substitutions.append(
    ("%gpu_runtime_lib", os.path.join(config.posenc_lib_dir, "libPosEncGPURuntime.so")))


def probe_cuda_gpu():
    tool = os.path.join(config.posenc_tools_dir, "posenc-run")
    env = dict(os.environ)
    env.pop("POSENC_LIBCUDA", None)
    try:
        probe = subprocess.run([tool, "--gpu-info"], capture_output=True, text=True,
                               timeout=120, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None, "posenc-run --gpu-info did not run"
    if probe.returncode == 0:
        return probe.stdout.strip(), None
    return None, (probe.stderr.strip().splitlines() or ["no answer"])[-1]


gpu_found, gpu_reason = probe_cuda_gpu()
if gpu_found:
    config.available_features.add("cuda-gpu")
    lit_config.note(f"CUDA device found: {gpu_found}")
else:
    lit_config.note(f"no CUDA device ({gpu_reason}): the GPU execution tests "
                    "(REQUIRES: cuda-gpu) are UNSUPPORTED")

for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
    stub = root and os.path.join(root, "lib64", "stubs", "libcuda.so")
    if stub and os.path.exists(stub):
        config.available_features.add("cuda-stub-libcuda")
        config.substitutions.append(("%cuda_stub_libcuda", stub))
        break
