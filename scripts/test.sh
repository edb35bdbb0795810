#!/usr/bin/env bash
# Set up (Debian packages), build with warnings as errors, and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DERGON_WERROR=ON
cmake --build build -j2
bash scripts/python_path.sh build   # `import ergon` (docs/python.md)
ctest --test-dir build --output-on-failure -j2
