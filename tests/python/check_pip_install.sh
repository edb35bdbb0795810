#!/usr/bin/env bash
# `pip install .` as a user runs it (docs/python.md, "Installing with pip"): a fresh venv over Debian's
# packages (python3-venv, python3-pip, python3-setuptools, python3-wheel), the repository installed offline
# with --no-build-isolation, its CMake build reused from BUILD_DIR (ERGON_CMAKE_BUILD_DIR) so nothing is
# compiled again. Then, from a folder outside both trees and with no ERGON_DATA_DIR or PYTHONPATH: `import
# ergon` is the venv's copy with its own data, its version is the CMake project's, and simulate() gives the
# latency that the installed `ergon run` writes into report.json for the same inputs.
#   check_pip_install.sh PYTHON SOURCE_DIR BUILD_DIR
set -euo pipefail
python="$1"
source_dir="$2"
build_dir="$3"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "$*" >&2
  exit 1
}

"$python" -m venv --system-site-packages "$work/venv"
ERGON_CMAKE_BUILD_DIR="$build_dir" "$work/venv/bin/pip" install --no-build-isolation --no-index --quiet \
  "$source_dir" > "$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; fail "pip install failed"; }

mkdir "$work/elsewhere"
cd "$work/elsewhere"
unset ERGON_DATA_DIR PYTHONPATH
venv_python="$work/venv/bin/python"

"$venv_python" - "$work/venv" "$source_dir" << 'EOF' || fail "the installed package is not the venv's own"
import importlib.metadata, os, re, sys
import ergon
venv, source = sys.argv[1], sys.argv[2]
assert ergon.__file__.startswith(venv), ergon.__file__
assert ergon.data_dir().startswith(os.path.dirname(ergon.__file__)), ergon.data_dir()
version = re.search(r"project\(ergon VERSION ([0-9.]+)", open(os.path.join(source, "CMakeLists.txt")).read())[1]
assert ergon.__version__ == version == importlib.metadata.version("ergon"), (ergon.__version__, version)
for folder in ("configs", "power/tables", "workloads", "reference"):
    assert os.path.isdir(os.path.join(ergon.data_dir(), folder)), folder
print(f"installed ergon {ergon.__version__} at {os.path.dirname(ergon.__file__)}")
EOF

python_latency=$("$venv_python" -c "import ergon; r = ergon.simulate(ergon.load_config('eyeriss'), \
ergon.load_workload('alexnet'), batch=1); print(r.total['latency_ns'])")
config=$("$venv_python" -c "import ergon; print(ergon.configs()['eyeriss'])")
workload=$("$venv_python" -c "import ergon; print(ergon.workloads()['alexnet'])")
"$work/venv/bin/ergon" run --config "$config" --workload "$workload" --batch 1 --activity none --quiet \
  --out "$work/run" > /dev/null
cli_latency=$("$venv_python" -c "import json, sys; print(json.load(open(sys.argv[1]))['total']['latency_ns'])" \
  "$work/run/report.json")
echo "latency: Python $python_latency ns, the installed ergon run $cli_latency ns"
[ "$python_latency" = "$cli_latency" ] || fail "Python and the command line differ"
[ -n "$python_latency" ] || fail "no latency"
echo "pip install checks passed"
