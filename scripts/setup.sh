#!/usr/bin/env bash
# Installs the Debian packages Ergon builds with. A no-op when everything is present.
# --fuzz adds clang and its libFuzzer runtime (scripts/fuzz.sh).
set -euo pipefail

packages=(
  build-essential cmake pkg-config ccache time
  libsystemc-dev libboost-graph-dev libyaml-cpp-dev libfmt-dev
  libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev libbenchmark-dev gnuplot-nox parallel libeigen3-dev libonnx-dev libprotobuf-dev
  python3-dev pybind11-dev python3-numpy python3-pandas python3-matplotlib python3-yaml python3-onnx
  python3-venv python3-pip python3-setuptools python3-wheel python3-distributed mypy
)
if [ "${1:-}" = "--fuzz" ]; then packages+=(clang libclang-rt-14-dev); fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
