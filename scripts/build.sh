#!/usr/bin/env bash
# Configures (once) and builds rebound incrementally into build/ (Release).
#   bash scripts/build.sh            every target: libraries, executables, tests, benchmarks, Python
#   bash scripts/build.sh T1 T2 ...  only the named CMake targets and what they need
# scripts/main.sh builds only the two executables (rebound, rebound-fem): the tests, benchmarks
# and Python module are a quarter of a fresh build's CPU (docs/PERFORMANCE.md, "Build time").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
