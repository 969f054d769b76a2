#!/usr/bin/env bash
# Whole FEM runs with two SIMD widths of the internal force (fem/elastic_operator.h), taking
# turns (A, B, A, B, ...) on the same ranks, and the wall-time ratio A / B of each pair; prints
# one table. Numbers come from each run's summary.json (wall_time: the run without process
# start; loop_wall_time: the time loop alone).
#   bash bench/fem_run_lanes.sh [CASE] [--ranks N] [--pairs K] [--lanes A,B]
# Default: cases/sphere-lai-psi2.json at its default resolution, 2 ranks, 1 pair, A = 1 lane and
# B = the widest this build and CPU have (bench_fem --list-lanes).
set -euo pipefail
cd "$(dirname "$0")/.."
case_file=cases/sphere-lai-psi2.json
ranks=2
pairs=1
lanes_pair=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --lanes) lanes_pair=$2; shift 2 ;;
    -*) echo "fem_run_lanes.sh: unknown option $1 (expected --ranks N, --pairs K, --lanes A,B)" >&2; exit 2 ;;
    *) case_file=$1; shift ;;
  esac
done
[ -x build/bin/rebound ] || { echo "fem_run_lanes.sh: build/bin/rebound missing (bash scripts/build.sh)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
available=$(build/bin/bench_fem --list-lanes | tr '\n' ' ')
if [ -z "$lanes_pair" ]; then
  lanes_a=1
  lanes_b=$(build/bin/bench_fem --list-lanes | tail -1)
else
  [[ $lanes_pair =~ ^[0-9]+,[0-9]+$ ]] ||
    { echo "fem_run_lanes.sh: --lanes $lanes_pair: expected two widths A,B (of: ${available% })" >&2; exit 2; }
  lanes_a=${lanes_pair%%,*}
  lanes_b=${lanes_pair#*,}
  for l in "$lanes_a" "$lanes_b"; do
    case " $available" in
      *" $l "*) ;;
      *) echo "fem_run_lanes.sh: --lanes $lanes_pair: $l is not a width of this build and CPU (expected two of: ${available% })" >&2; exit 2 ;;
    esac
  done
fi
run() {  # lanes, output folder
  REBOUND_SIMD_LANES=$1 mpirun -np "$ranks" build/bin/rebound fem "$case_file" -o "$2" --frames 0 -q \
    > "$2.log" 2>&1 || { echo "fem_run_lanes.sh: the run with $1 lane(s) failed:" >&2; cat "$2.log" >&2; exit 1; }
}
field() { /usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s[sys.argv[2]])" "$1/fem/summary.json" "$2"; }
echo "$case_file, $ranks ranks, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%5s %6s %10s %8s %12s %12s %10s %10s %12s\n' pair lanes dofs steps "wall [s]" "loop [s]" psi2 e_newton ratio
for k in $(seq 1 "$pairs"); do
  run "$lanes_a" "$work/a$k"
  run "$lanes_b" "$work/b$k"
  for v in a b; do
    d="$work/$v$k"
    lanes=$(field "$d" simd_lanes)
    printf '%5s %6s %10s %8s %12.2f %12.2f %10.6f %10.6f' "$k" "$lanes" "$(field "$d" dofs)" \
      "$(field "$d" steps)" "$(field "$d" wall_time)" "$(field "$d" loop_wall_time)" \
      "$(field "$d" psi2)" "$(field "$d" e_newton)"
    if [ "$v" = b ]; then
      /usr/bin/python3 -c "import sys; print('%11.2fx' % (float(sys.argv[1]) / float(sys.argv[2])))" \
        "$(field "$work/a$k" wall_time)" "$(field "$d" wall_time)"
    else
      echo
    fi
  done
done
