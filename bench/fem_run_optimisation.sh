#!/usr/bin/env bash
# Whole FEM runs compiled at two optimisation levels, taking turns on the same ranks: -O2 (what
# a Release build gave before cmake/DealIITarget.cmake restored -O3 after the flags of Debian's
# deal.II package) and -O3 (build/), with the wall-time ratio of each pair; prints one table.
# The -O2 programs are built into build-o2/ (configured with -DREBOUND_RESTORE_O3=OFF; only the
# FEM program, its SIMD modules and the CLI: about 10 minutes on 2 cores the first time).
# The table (bench/fem_paired_runs.sh) has each run's psi2 and e_newton, so that a pair shows
# whether the two give the same to the printed digits. Then the step alone: bench_fem of each
# build in turns (K pairs; its p = 2 rows, every SIMD width, median of 3 repeats each), the
# O2/O3 ratio of the 200-step wall time per width and pair.
#   bash bench/fem_run_optimisation.sh [CASE] [--ranks N] [--pairs K]
# Default: cases/sphere-lai-psi2.json at its default resolution, 2 ranks, 3 pairs.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/fem_paired_runs.sh
paired_args fem_run_optimisation.sh 3 "" "$@"
grep -q '^REBOUND_RESTORE_O3:BOOL=ON' build/CMakeCache.txt ||
  { echo "fem_run_optimisation.sh: build/ is not configured with REBOUND_RESTORE_O3=ON" >&2; exit 2; }
if [ ! -f build-o2/CMakeCache.txt ]; then
  cmake -S . -B build-o2 -DCMAKE_BUILD_TYPE=Release -DREBOUND_RESTORE_O3=OFF > /dev/null
fi
modules=$(cd build/bin && ls rebound_fem_*.so 2>/dev/null | sed 's/\.so$//' | tr '\n' ' ')
# shellcheck disable=SC2086
cmake --build build-o2 -j"$(nproc)" --target rebound rebound-fem bench_fem $modules > build-o2/build.log 2>&1 ||
  { echo "fem_run_optimisation.sh: building build-o2 failed (build-o2/build.log)" >&2; tail -20 build-o2/build.log >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # build tree, output folder
  mpirun -np "$ranks" "$1/bin/rebound" fem "$case_file" -o "$2" --frames 0 -q > "$2.log" 2>&1 ||
    { echo "fem_run_optimisation.sh: the run of $1 failed:" >&2; cat "$2.log" >&2; exit 1; }
}
run_o2() { run build-o2 "$1"; }
run_o3() { run build "$1"; }
paired_table run_o2 run_o3 "$work" level -O2 -O3 "O2/O3 wall" 3 O2/O3
echo
echo "step alone: $ranks ranks, p = 2, mpirun -np $ranks BUILD/bin/bench_fem $case_file, in turns; O2/O3 = 200-step wall time ratio"
for k in $(seq 1 "$pairs"); do
  for tree in build-o2 build; do
    mpirun -np "$ranks" "$tree/bin/bench_fem" "$case_file" > "$work/step-$tree-$k.txt" 2>&1 ||
      { echo "fem_run_optimisation.sh: bench_fem of $tree failed:" >&2; cat "$work/step-$tree-$k.txt" >&2; exit 1; }
  done
done
/usr/bin/python3 - "$work" "$pairs" <<'PY'
import statistics, sys
work, pairs = sys.argv[1], int(sys.argv[2])
def rows(path):  # lanes -> wall of the p = 2 rows
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 6 and f[0] == "2" and f[1].isdigit():
            out[int(f[1])] = float(f[5])
    return out
table = {}
for k in range(1, pairs + 1):
    a, b = rows(f"{work}/step-build-o2-{k}.txt"), rows(f"{work}/step-build-{k}.txt")
    for lanes in sorted(a):
        table.setdefault(lanes, []).append((a[lanes], b[lanes]))
print("%6s  %s  %s" % ("lanes", "  ".join("-O2 [s] -O3 [s] O2/O3" for _ in range(pairs)), "median O2/O3"))
for lanes, pairs_ in sorted(table.items()):
    cells = "  ".join("%7.3f %7.3f %5.2fx" % (a, b, a / b) for a, b in pairs_)
    print("%6d  %s  %11.2fx" % (lanes, cells, statistics.median(a / b for a, b in pairs_)))
PY
