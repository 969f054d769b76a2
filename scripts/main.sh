#!/usr/bin/env bash
# The main job: validate every shipped case and solve the Table 6.1 Psi1 = 2 sphere with the
# lumped model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build/bin/rebound check cases/*.json > results-check.txt 2>&1 || { cat results-check.txt; exit 2; }
echo "rebound check: all $(ls cases/*.json | wc -l) shipped cases valid (details in results-check.txt)"
build/bin/rebound lumped cases/sphere-lai-psi2.json
