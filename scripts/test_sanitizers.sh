#!/usr/bin/env bash
# The unit, catalogue and fuzz tiers built with AddressSanitizer and UndefinedBehaviorSanitizer, leak checking
# on (the integration and slow tiers run in scripts/test.sh; docs/architecture.md, "Tests and CI").
# Any report fails the run. tests/sanitizers/lsan.supp lists the leaks that are deliberate.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# -O1: the sanitizers' recommended level, about twice as fast as -O0 (and at -O0 GCC 12 with a precompiled header
# rejects Eigen's SSE prefetch). At -O1 GCC warns of "maybe uninitialized" values inside
# libstdc++'s <regex> that the sanitizers' instrumentation makes it unable to prove set: that warning is off
# here, and on in every other build. -g1 keeps reports' file:line frames.
flags="-O1 -g1 -Wno-maybe-uninitialized -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
# The Python package is left out: an instrumented extension cannot load into an uninstrumented python3.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="" -DERGON_WERROR=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DERGON_PYTHON=OFF \
  -DERGON_BENCHMARKS=OFF > /dev/null
cmake --build build-asan -j2
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
# use_stacks=0: SystemC runs its processes on coroutine stacks with guard pages, which crash LeakSanitizer's
# scan of thread stacks; heap, globals and TLS are still scanned.
export LSAN_OPTIONS="use_stacks=0:suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir build-asan -j2 --output-on-failure -L 'unit|catalogue|fuzz' -LE slow
