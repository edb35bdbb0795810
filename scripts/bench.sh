#!/usr/bin/env bash
# Builds in Release mode and runs every benchmark: the simulator in-process (Google Benchmark) and whole
# `ergon` commands (single runs, a 1e12-MAC layer, sweeps up to 10,000 points, the ARADA grid, Blackthorn
# profiling, the STM32N6 phases). Prints one table: wall time, simulated cycles/s, PE-cycles/s, peak memory.
# Not part of the test suite (about 2 minutes on 2 cores).
#   bash scripts/bench.sh [--quick] [--markdown FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build-release -j2 --target ergon_bench ergon
python3 scripts/bench_summary.py build-release "$@"
