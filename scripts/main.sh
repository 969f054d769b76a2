#!/usr/bin/env bash
# The main job: validate every shipped case, then a paired simulation (FEM and lumped model of
# the same impact, compared) of the quick-start sphere, ending with the report table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh rebound rebound-fem
build/bin/rebound check cases/*.json > results-check.txt 2>&1 || { cat results-check.txt; exit 2; }
echo "rebound check: all $(ls cases/*.json | grep -vc "\.schema\.json$") shipped cases valid (details in results-check.txt)"
build/bin/rebound pair cases/sphere-lai-psi2-quick.json
