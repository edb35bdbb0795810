#!/usr/bin/env bash
# Installs the build into a fresh prefix, then, from outside the source and build trees and with no
# ERGON_DATA_DIR: builds tests/install/consumer against the package (find_package(Ergon)) and runs it, and
# runs the installed ergon on its default config. Both simulate the same workload; their cycles must agree.
# Arguments: cmake, build dir, source dir, then the build's generator, C++ compiler, build type, C++ flags and
# executable linker flags, which the consumer reuses (a sanitizer build's libraries need the same flags).
set -euo pipefail
cmake_command="$1"
build_dir="$2"
source_dir="$3"
generator="$4"
compiler="$5"
build_type="$6"
cxx_flags="$7"
linker_flags="$8"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
unset ERGON_DATA_DIR
cd "$work"

fail() {
  echo "$*" >&2
  exit 1
}

"$cmake_command" --install "$build_dir" --prefix "$prefix" > "$work/install.log"

for path in bin/ergon include/ergon/sim/simulation.hpp include/ergon/arch/accelerator_config.hpp \
  share/ergon/configs/eyeriss.yaml share/ergon/power/tables/cnnergy_65nm.yaml \
  share/ergon/workloads/resnet8.yaml share/ergon/reference/jetson; do
  [ -e "$prefix/$path" ] || fail "not installed: $path"
done
package_dir=$(find "$prefix" -path '*/cmake/Ergon' -type d)
for file in ErgonConfig.cmake ErgonConfigVersion.cmake ErgonTargets.cmake; do
  [ -f "$package_dir/$file" ] || fail "not installed: $package_dir/$file"
done
for library in common network arch_config dataflows arch power sim studies cli; do
  [ -f "$package_dir/../../libergon_$library.a" ] || fail "not installed: libergon_$library.a"
done
sources_in_data=$(find "$prefix/share" -name '*.cpp' -o -name '*.hpp' -o -name CMakeLists.txt)
[ -z "$sources_in_data" ] || fail "sources installed as data: $sources_in_data"

workload="$prefix/share/ergon/workloads/resnet8.yaml"

"$cmake_command" -S "$source_dir/tests/install/consumer" -B "$work/consumer" -G "$generator" \
  -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_CXX_FLAGS="$cxx_flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$linker_flags" -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer_configure.log"
grep -qxF "Ergon_DIR:PATH=$package_dir" "$work/consumer/CMakeCache.txt" ||
  fail "the consumer did not find the installed package: $(grep Ergon_DIR "$work/consumer/CMakeCache.txt")"
"$cmake_command" --build "$work/consumer" -j2 > "$work/consumer_build.log" ||
  { cat "$work/consumer_build.log" >&2; fail "the consumer does not build against the installed package"; }
consumer_output=$("$work/consumer/ergon_consumer" "$workload")
echo "consumer: $consumer_output"
consumer_cycles=$(sed -n 's/^total cycles: \([0-9]\+\)$/\1/p' <<< "$consumer_output")
[ -n "$consumer_cycles" ] && [ "$consumer_cycles" -gt 0 ] || fail "the consumer printed no cycle count"

# The default config is the installed one, found beside the executable: help names it as a user types it,
# and the shipped names list the installed data.
"$prefix/bin/ergon" run --help > "$work/run_help.txt"
grep -qF "CONFIG=eyeriss" "$work/run_help.txt" || fail "the installed ergon's help does not show the default config"
"$prefix/bin/ergon" configs --format csv | grep -qxF '"eyeriss","Eyeriss-like row-stationary accelerator, 65 nm","configs/eyeriss.yaml"' ||
  fail "the installed ergon does not list its installed configs"
"$prefix/bin/ergon" run --workload "$workload" --activity none --out "$work/run" > "$work/run.txt"
run_cycles=$(sed -n 's/^latency: .* (\([0-9]\+\) cycles).*/\1/p' "$work/run.txt")
echo "installed ergon run: $run_cycles cycles"
[ "$run_cycles" = "$consumer_cycles" ] || fail "the installed ergon ran $run_cycles cycles, the consumer $consumer_cycles"
[ -f "$work/run/report.json" ] || fail "the installed ergon wrote no report.json"

# The Python package, when this build has one (not the sanitizer build's): installed under
# ERGON_PYTHON_INSTALL_DIR, it imports from there alone (no user site-packages, no build tree), finds the
# installed data, and simulates the same cycles.
python_install_dir=$(sed -n 's/^ERGON_PYTHON_INSTALL_DIR:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
# CMake caches the interpreter as Python3_EXECUTABLE when the user set it, else as _Python3_EXECUTABLE.
python_executable=$(sed -n 's/^_\{0,1\}Python3_EXECUTABLE:[A-Z]*=//p' "$build_dir/CMakeCache.txt" | head -1)
if [ -n "$python_install_dir" ] && ls "$build_dir"/python/ergon/_ergon*.so > /dev/null 2>&1; then
  case "$python_install_dir" in
    /*) ;;
    *) python_install_dir="$prefix/$python_install_dir" ;;
  esac
  python_cycles=$(PYTHONPATH="$python_install_dir" "$python_executable" -s - "$prefix" "$workload" << 'EOF'
import os, sys
import ergon
prefix, workload = sys.argv[1], sys.argv[2]
assert ergon.__file__.startswith(prefix), f"imported {ergon.__file__}, not the installed package"
assert ergon.data_dir() == os.path.join(prefix, "share", "ergon"), ergon.data_dir()
print(ergon.simulate(ergon.load_config("eyeriss"), ergon.load_workload(workload)).total["cycles"])
EOF
  ) || fail "the installed Python package does not import or simulate"
  echo "installed Python package: $python_cycles cycles"
  [ "$python_cycles" = "$consumer_cycles" ] || fail "the installed Python package ran $python_cycles cycles"
fi
echo "install checks passed"
