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

# The default config is the installed one, found beside the executable.
"$prefix/bin/ergon" run --help > "$work/run_help.txt"
grep -qF "$prefix/share/ergon/configs/eyeriss.yaml" "$work/run_help.txt" ||
  fail "the installed ergon's default config is not its installed data"
"$prefix/bin/ergon" run --workload "$workload" --activity none --out "$work/run" > "$work/run.txt"
run_cycles=$(sed -n 's/^latency: .* (\([0-9]\+\) cycles).*/\1/p' "$work/run.txt")
echo "installed ergon run: $run_cycles cycles"
[ "$run_cycles" = "$consumer_cycles" ] || fail "the installed ergon ran $run_cycles cycles, the consumer $consumer_cycles"
[ -f "$work/run/report.json" ] || fail "the installed ergon wrote no report.json"
echo "install checks passed"
