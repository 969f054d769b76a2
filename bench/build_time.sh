#!/usr/bin/env bash
# Times a fresh build of rebound (docs/PERFORMANCE.md, "Build time"): clones COMMIT (default HEAD)
# of this repository into a temporary folder, configures it as scripts/build.sh does (Release)
# and builds it with `make -jJOBS`, every compile and link going through a launcher that logs its
# wall seconds, CPU seconds (user + system, children included) and peak memory. Prints the whole
# build's wall time, the CPU seconds summed per kind of unit and the most expensive units. No
# ccache (CCACHE_DISABLE=1): every unit is compiled. Run it on a quiet machine. --targets builds
# only those CMake targets and what they need (scripts/main.sh builds "rebound rebound-fem").
#   bash bench/build_time.sh [COMMIT] [--jobs N] [--targets "T1 T2"] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
commit=HEAD
jobs=$(nproc)
keep=""
targets=""
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --targets) targets="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    -*) echo "build_time.sh: unknown option $1" >&2; exit 2 ;;
    *) commit="$1"; shift ;;
  esac
done
sha=$(git rev-parse --verify "$commit^{commit}") || { echo "build_time.sh: no commit $commit" >&2; exit 2; }
work=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
git clone -q --no-local "$(pwd)" "$work/src"
git -C "$work/src" checkout -q "$sha"
log="$work/units.log"
: > "$log"
cat > "$work/launch.sh" <<'LAUNCH'
#!/usr/bin/env bash
# wall s, CPU s, peak RSS kB and the output file of one compile or link
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
t=$(mktemp)
start=$(date +%s.%N)
set +e
/usr/bin/time -f "%U %S %M" -o "$t" "$@"
rc=$?
end=$(date +%s.%N)
read -r user sys rss < "$t"
rm -f "$t"
echo "$start $end $user $sys $rss $out" >> "$REBOUND_BUILD_LOG"
exit $rc
LAUNCH
chmod +x "$work/launch.sh"
export CCACHE_DISABLE=1 REBOUND_BUILD_LOG="$log"
start=$(date +%s.%N)
cmake -S "$work/src" -B "$work/src/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$work/launch.sh" -DCMAKE_CXX_LINKER_LAUNCHER="$work/launch.sh" \
  > "$work/configure.log" 2>&1 || { tail -20 "$work/configure.log"; exit 1; }
configured=$(date +%s.%N)
# shellcheck disable=SC2086 # the targets are words
make -C "$work/src/build" -j"$jobs" $targets > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
end=$(date +%s.%N)
/usr/bin/python3 - "$log" "$sha" "$jobs" "$start" "$configured" "$end" "${targets:-all}" <<'REPORT'
import sys, collections
log, sha, jobs, start, configured, end = sys.argv[1], sys.argv[2], sys.argv[3], *map(float, sys.argv[4:7])
targets = sys.argv[7]
rows = []
for line in open(log):
    f = line.split()
    if len(f) < 6: continue
    t0, t1, user, system, rss, out = float(f[0]), float(f[1]), float(f[2]), float(f[3]), int(f[4]), f[5]
    rows.append((user + system, t1 - t0, rss, out))
def kind(out):
    import re
    if not out.endswith('.o'): return 'links'
    m = re.search(r'CMakeFiles/([^/]+)\.dir/', out)
    target = m.group(1) if m else ''
    source = out.rsplit('/', 1)[-1]
    if target in ('fem_lanes2', 'rebound_fem_avx2', 'rebound_fem_avx512') or \
       (target == 'fem' and source.startswith(('internal_force', 'elastic_operator'))):
        return 'matrix-free kernels (one per SIMD width)'
    if target.startswith('test_'): return 'tests'
    if target.startswith('bench_'): return 'benchmarks'
    if target in ('fem', 'meshes', 'studies_fem', 'validation_fem'): return target
    if target.startswith('rebound'): return 'executables (app)'
    if target.startswith('_rebound'): return 'python module'
    return 'light libraries (cases, observables, lumped, halfspace, studies, validation)'
by_kind = collections.defaultdict(lambda: [0.0, 0])
for cpu, wall, rss, out in rows:
    by_kind[kind(out)][0] += cpu; by_kind[kind(out)][1] += 1
total_cpu = sum(r[0] for r in rows)
print(f"commit {sha[:10]}, make -j{jobs} {targets}: configure {configured - start:.0f} s, build {end - configured:.0f} s "
      f"({(end - configured) / 60:.1f} min); {len(rows)} compiles and links, {total_cpu:.0f} CPU s "
      f"(CPU s / {jobs} = {total_cpu / int(jobs) / 60:.1f} min)")
print()
print("| units | count | CPU s | share |")
print("|---|---|---|---|")
for name, (cpu, n) in sorted(by_kind.items(), key=lambda x: -x[1][0]):
    print(f"| {name} | {n} | {cpu:.0f} | {100 * cpu / total_cpu:.0f} % |")
print()
print("| most expensive units | CPU s | wall s | peak MB |")
print("|---|---|---|---|")
for cpu, wall, rss, out in sorted(rows, reverse=True)[:12]:
    name = out.replace('CMakeFiles/', '').replace('.dir/', '/')
    print(f"| {name} | {cpu:.0f} | {wall:.0f} | {rss / 1024:.0f} |")
REPORT
