# lit configuration for Orion.  Features:
#   cuda-gpu   a CUDA GPU answers nvidia-smi (GPU tests need it; CI has none)
#   ptxas      the CUDA toolkit's ptxas is present
#   cuobjdump  cuobjdump is on PATH or in the nvidia-cuda-cuobjdump wheel
#   nvdisasm   likewise for nvdisasm
#   orionrt    the runtime library (liborionrt.a and .so) is built
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "Orion"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".test", ".cu", ".ptx", ".c"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)


def find_wheel_tool(name):
    """nvdisasm/cuobjdump from PATH, the toolkit, or the PyPI wheels."""
    found = shutil.which(name)
    if found:
        return found
    cand = os.path.join(config.cuda_path, "bin", name)
    if os.path.exists(cand):
        return cand
    # scripts/setup.sh installs the PyPI wheels into build/pytools.
    cand = os.path.join(config.orion_obj_root, "pytools", "nvidia", "cu13", "bin", name)
    if os.path.exists(cand):
        return cand
    try:
        import site
        for sp in site.getsitepackages() + [site.getusersitepackages()]:
            for sub in ("cu13", "cuda_nvdisasm", "cuda_cuobjdump"):
                cand = os.path.join(sp, "nvidia", sub, "bin", name)
                if os.path.exists(cand):
                    return cand
    except Exception:
        pass
    return None


path = [config.orion_bin_dir, config.llvm_tools_dir, os.path.join(config.cuda_path, "bin")]
for tool in ("cuobjdump", "nvdisasm"):
    t = find_wheel_tool(tool)
    if t:
        config.available_features.add(tool)
        path.append(os.path.dirname(t))
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Tests must not inherit the user's Orion settings.
for var in list(config.environment):
    if var.startswith("ORION_"):
        del config.environment[var]

if os.path.exists(os.path.join(config.cuda_path, "bin", "ptxas")):
    config.available_features.add("ptxas")
if all(os.path.exists(os.path.join(config.orion_lib_dir, "liborionrt" + ext)) for ext in (".a", ".so")):
    config.available_features.add("orionrt")


def have_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
        return out.returncode == 0 and "GPU" in out.stdout
    except Exception:
        return False


if have_gpu():
    config.available_features.add("cuda-gpu")
else:
    lit_config.note("no CUDA GPU found: tests that REQUIRE cuda-gpu are reported UNSUPPORTED (skipped)")

plugin = os.path.join(config.orion_lib_dir, "OrionPass.so")
config.substitutions.append(("%orion_plugin", plugin))
config.substitutions.append(("%orion_ptxas", os.path.join(config.orion_bin_dir, "orion-ptxas")))
# ORION_LIT_OPT_WRAP (optional): a command that runs opt, e.g.
# "valgrind -q --error-exitcode=99" to check OrionPass's memory use.
wrap = os.environ.get("ORION_LIT_OPT_WRAP", "")
config.substitutions.append(("%opt", (wrap + " " if wrap else "") + os.path.join(config.llvm_tools_dir, "opt") +
                             " -load-pass-plugin=" + plugin))
config.substitutions.append(("%llc", os.path.join(config.llvm_tools_dir, "llc")))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%cc", os.path.join(config.llvm_tools_dir, "clang")))  # the C driver
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%python", sys.executable))
