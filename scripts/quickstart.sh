#!/usr/bin/env bash
# Set up (Debian packages), build, and run the default job: the CNNergy estimate of AlexNet.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2 --target ergon
build/sim/ergon estimate cnnergy --workload workloads/cnnergy/alexnet.yaml
