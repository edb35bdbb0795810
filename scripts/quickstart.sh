#!/usr/bin/env bash
# Set up (Debian packages), build, and run the default job: AlexNet (batch 4, as the Eyeriss chip ran it)
# simulated on configs/eyeriss.yaml at transaction level.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2 --target ergon _ergon
bash scripts/python_path.sh build   # `import ergon` (docs/python.md)
build/cli/ergon run --config configs/eyeriss.yaml --workload workloads/alexnet.yaml --batch 4 --out results/alexnet
