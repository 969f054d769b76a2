#!/usr/bin/env bash
# Whole FEM runs with two SIMD widths of the internal force (fem/internal_force.h), taking
# turns (A, B, A, B, ...) on the same ranks, and the wall-time ratio A / B of each pair; prints
# one table (bench/fem_paired_runs.sh).
#   bash bench/fem_run_lanes.sh [CASE] [--ranks N] [--pairs K] [--lanes A,B]
# Default: cases/sphere-lai-psi2.json at its default resolution, 2 ranks, 1 pair, A = 1 lane and
# B = the widest this build and CPU have (bench_fem --list-lanes).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/fem_paired_runs.sh
paired_args fem_run_lanes.sh 1 "--lanes A,B" "$@"
available=$(build/bin/bench_fem --list-lanes | tr '\n' ' ')
if [ -z "$extra" ]; then
  lanes_a=1
  lanes_b=$(build/bin/bench_fem --list-lanes | tail -1)
else
  [[ $extra =~ ^[0-9]+,[0-9]+$ ]] ||
    { echo "fem_run_lanes.sh: --lanes $extra: expected two widths A,B (of: ${available% })" >&2; exit 2; }
  lanes_a=${extra%%,*}
  lanes_b=${extra#*,}
  for l in "$lanes_a" "$lanes_b"; do
    case " $available" in
      *" $l "*) ;;
      *) echo "fem_run_lanes.sh: --lanes $extra: $l is not a width of this build and CPU (expected two of: ${available% })" >&2; exit 2 ;;
    esac
  done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # lanes, output folder
  REBOUND_SIMD_LANES=$1 mpirun -np "$ranks" build/bin/rebound fem "$case_file" -o "$2" --frames 0 -q \
    > "$2.log" 2>&1 || { echo "fem_run_lanes.sh: the run with $1 lane(s) failed:" >&2; cat "$2.log" >&2; exit 1; }
}
run_a() { run "$lanes_a" "$1"; }
run_b() { run "$lanes_b" "$1"; }
paired_table run_a run_b "$work" "" "" "" ratio 2 ""
