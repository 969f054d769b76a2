#!/usr/bin/env bash
# Runs the benchmarks and regenerates docs/PERFORMANCE.md from their output (the numbers in that
# file are produced by this script, not typed). Run on a quiet machine: other processes on the 2
# cores inflate the times.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${REBOUND_CALCULIX_DEGREES:-1}" in  # checked before anything runs
  keep|1|2|1,2|2,1) ;;
  *) echo "benchmarks.sh: REBOUND_CALCULIX_DEGREES=$REBOUND_CALCULIX_DEGREES: expected 1, 2, 1,2 or keep" >&2; exit 2 ;;
esac
bash scripts/build.sh > /dev/null
out=docs/PERFORMANCE.md
lumped=$(build/bin/bench_lumped --benchmark_filter='LaiSolve|MdrSolve|HalfspaceImpact|Sweep|CalibratedDamping' 2>/dev/null |
         grep -E '^BM_|^-|^Benchmark' | grep -vE '_(mean|stddev|cv) ')
accuracy=$(build/bin/bench_lumped_accuracy)
fem=""
fem2=""
fem_run=""
fem_run_o3=""
fem_run_top=""
top_lanes=""
lts=""
grading=""
multirate=""
multirate07=""
multirate_hertz=""
multirate_scan=""
multirate_bar=""
multirate_bar3=""
multirate_energy=""
multirate_energy3d=""
lts_leapfrog=""
lts_leapfrog_hertz=""
lts_leapfrog_quick=""
lts_leapfrog_quick2=""
lts_leapfrog_bar=""
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ -x build/bin/bench_fem ]; then
  fem=$(build/bin/bench_fem 2>&1 || true)
  fem2=$(mpirun -np 2 build/bin/bench_fem 2>&1 || true)
  fem_run=$(bash bench/fem_run_lanes.sh 2>&1 || true)
  top_lanes=$(build/bin/bench_fem --list-lanes | tail -2 | paste -sd, -)
  fem_run_top=$(bash bench/fem_run_lanes.sh --lanes "$top_lanes" --pairs 3 2>&1 || true)
  fem_run_o3=$(bash bench/fem_run_optimisation.sh 2>&1 || true)
  # The local time stepping bound of each shipped FEM case's default mesh (rebound mesh).
  mesh_dir=$(mktemp -d)
  lts=$(for c in sphere-lai-psi2 hertz-steel-sphere rod-lai-a; do
    printf '| %s | ' "$c"
    build/bin/rebound mesh "cases/$c.json" -o "$mesh_dir" |
      awk '/^  cells  /{cells=$2} /cells by stable step level/{sub(/^ *cells by stable step level */,""); sub(/ \(level.*/,""); levels=$0}
           /local time stepping bound/{bound=$5} END{printf "%s | %s | %s |\n", cells, levels, bound}'
  done)
  rm -rf "$mesh_dir"
  grading=$(build/bin/bench_mesh_grading 2>&1 || true)
  # The multirate leapfrog (docs/FEM.md, "Local time stepping"): against global stepping on the
  # default run at the default cfl and at cfl 0.7, and on the quick case over 2 ms per cfl.
  multirate=$(mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json --max-levels 1,2,30 2>/dev/null || true)
  multirate07=$(mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json --max-levels 1,2 --cfl 0.7 2>/dev/null || true)
  # The most favourable mesh of bench_mesh_grading (fem.refinement 3): local stepping below its
  # resonance (cfl 0.7) against global stepping at the default cfl, in one run.
  multirate_refined=$(mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json --refinement 3 --max-levels 1,2 --cfl 0.7 --global-cfl 0.9 2>/dev/null || true)
  multirate_hertz=$(mpirun -np 2 build/bin/bench_fem_local cases/hertz-steel-sphere.json --max-levels 1,2 --cfl 0.7 2>/dev/null || true)
  multirate_scan=$(for c in 0.7 0.75 0.82 0.9; do
    build/bin/bench_fem_local cases/sphere-lai-psi2-quick.json --max-levels 1 --end-time 2e-3 --cfl "$c" 2>/dev/null || true
    echo
  done)
  multirate_bar=$(/usr/bin/python3 scripts/multirate_stability.py 2>&1 || true)
  multirate_bar3=$(/usr/bin/python3 scripts/multirate_stability.py --levels 3 --cfl 0.7,0.75,0.78,0.8,0.82,0.85,0.9 2>&1 || true)
  # The energy measure under the multirate step: O(dt^2) and bounded in 1-D, O(dt^2) in 3-D.
  multirate_energy=$(/usr/bin/python3 scripts/multirate_stability.py --cfl 0.125,0.25,0.35,0.5,0.7 --energy 20000 2>&1 || true)
  multirate_energy3d=$(for c in 0.35 0.7; do
    build/bin/bench_fem_local cases/sphere-lai-psi2-quick.json --max-levels 1 --end-time 5e-4 --cfl "$c" 2>/dev/null || true
    echo
  done)
  # The leapfrog local time stepping of Diaz & Grote (fem/local_time_stepping.h) with each way of
  # holding the contact inside its substeps: the default run, the frictionless Hertz impact, the
  # quick case, and its 1-D reference.
  lts_leapfrog=$(mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json --scheme lts-leapfrog --max-levels 1,2 --hold none,normal,stick 2>/dev/null || true)
  lts_leapfrog_hertz=$(mpirun -np 2 build/bin/bench_fem_local cases/hertz-steel-sphere.json --scheme lts-leapfrog --max-levels 1,2 --hold none,normal 2>/dev/null || true)
  lts_leapfrog_quick=$(build/bin/bench_fem_local cases/sphere-lai-psi2-quick.json --scheme lts-leapfrog --max-levels 1,2 --hold none,normal,stick 2>/dev/null || true)
  lts_leapfrog_quick2=$(mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2-quick.json --scheme lts-leapfrog --max-levels 1,2 --hold none,normal,stick 2>/dev/null || true)
  lts_leapfrog_bar=$(/usr/bin/python3 scripts/lts_leapfrog_reference.py 2>&1 || true)
fi
# rebound beside CalculiX on the Hertz impact (bench/calculix_hertz.py): p = 1 by default, the
# degrees in REBOUND_CALCULIX_DEGREES (e.g. 1,2: C3D20 takes CalculiX about 50 min), or "keep":
# the section of the previous docs/PERFORMANCE.md as it stands (its own line says when it ran).
calculix=""
calculix_kept=""
calculix_degrees=${REBOUND_CALCULIX_DEGREES:-1}
if [ "$calculix_degrees" = keep ]; then
  calculix_kept=$(awk '/^## FEM beside CalculiX/{on=1; print; next} on && /^## /{exit} on' "$out")
  [ -n "$calculix_kept" ] || { echo "benchmarks.sh: REBOUND_CALCULIX_DEGREES=keep but $out has no CalculiX section" >&2; exit 2; }
elif command -v ccx > /dev/null && [ -x build/bin/rebound ]; then
  calculix=$(/usr/bin/python3 bench/calculix_hertz.py --degrees "$calculix_degrees" --nice 0 2>&1 |
             sed -n '/UTC, /,$p' || true)
fi
# The half-space model's FFTW against the kissfft it replaced (bench/halfspace_fft.py builds the
# last kissfft commit, so it is run by hand): the section of the previous docs/PERFORMANCE.md as
# it stands (its own line says when it ran).
halfspace_fft_kept=$(awk '/^## Half-space model: FFTW/{on=1; print; next} on && /^## /{exit} on' "$out")
# The Python module against the command line (bench/python_sweep.py), by the module's python.
python=$(sed -n 's/^Python3_EXECUTABLE:FILEPATH=//p' build/CMakeCache.txt)
python_sweep=""
if [ -d build/python/rebound ] && [ -n "$python" ]; then
  python_sweep=$("$python" bench/python_sweep.py --build build || true)
fi
{
  echo "# Performance"
  echo
  echo "Generated by \`bash scripts/benchmarks.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'),"
  echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), load average"
  echo "before the run: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "## Lumped models (\`build/bin/bench_lumped\`, Google Benchmark)"
  echo
  echo "Targets: one Lai solve at rtol 1e-8 ≤ 20 µs (median); a 10,000-point Ψ₁"
  echo "sweep ≤ 0.2 s wall with 2 threads. \`BM_LaiSolve/12\` is Ψ₁ = 1.2 (slip-stick-slip, the"
  echo "most events), \`/30\` is Ψ₁ = 3; no dense history is recorded (as in a sweep)."
  echo "\`BM_Sweep10000/T\` is the whole \`rebound sweep\` path (case → derived quantities → solve →"
  echo "summary scalars) on T threads, wall time."
  echo "\`BM_SweepNormalLaw10000/published:0|1\` is the same sweep on one thread with a Hunt–Crossley"
  echo "normal law at e = 0.8, its damping calibrated (\`0\`: \`restitution_calibration\` \"exact\", one"
  echo "root solve then the cache) or the published closed form (\`1\`); \`BM_CalibratedDamping/cached:0\`"
  echo "is one calibration (Brent's method on the 1-DOF normal impact, docs/THEORY.md §7), \`cached:1\`"
  echo "a look-up of one already solved."
  echo "The partial-slip models on the Table 6.1 sphere at Ψ₁ = 2 (ν = 0.3, μ = 0.1): \`BM_MdrSolve/N\`"
  echo "is the MDR bed with N springs (target: ≤ 1 ms per impact at the default 200 springs,"
  echo "where Ψ₂ is within ~1e-5 of converged, docs/LUMPED.md); \`BM_HalfspaceImpact/coupling:0|1\`"
  echo "is the quasi-static half-space model at its defaults (24 cells, 100 steps per Hertz"
  echo "duration), without and with the Dundurs coupling (target: seconds, not the FEM's minutes)."
  echo
  echo '```'
  echo "$lumped"
  echo '```'
  echo
  echo "## Accuracy and cost (\`build/bin/bench_lumped_accuracy\`)"
  echo
  echo "$accuracy"
  echo
  echo "Reading the table: Lai's and the uncoupled model's Dormand–Prince 5(4) solver with located"
  echo "events reaches 1e-6 in Ψ₂ at rtol ≈ 1e-6…1e-8; the uncoupled-spring thesis's fixed-step Euler"
  echo "(\`uncoupled-euler\`) is first order (error ∝ h) and needs h of a few 1e-6, so its cost is"
  echo "extrapolated in the last row of each block. The ratio of the two costs is the \"≥ 100× cheaper\""
  echo "criterion for reaching 1e-6 in Ψ₂ (the Dormand–Prince solver against the fixed-step Euler)."
  if [ -n "$halfspace_fft_kept" ]; then
    echo
    echo "$halfspace_fft_kept"
  fi
  if [ -n "$fem" ]; then
    echo
    echo "## FEM"
    echo
    echo "### Time step by SIMD width (\`build/bin/bench_fem\`)"
    echo
    echo "The full time step (matrix-free internal force, contact, rigid-body averaging with its MPI"
    echo "reduction) of sphere-lai-psi2 at its default resolution, started from its initial state"
    echo "(contact active), for every SIMD width of the internal force this build and CPU have"
    echo "(docs/FEM.md, Internal force): one solver per width, the widths taking turns, median of 3;"
    echo "\"vs 1 lane\" is the speed-up over one lane (deal.II's own, scalar, instantiations); \"K u share\""
    echo "is the time of as many internal-force evaluations alone (\`Solver::time_internal_force\`, in the"
    echo "same repeats) over the step's: the rest is the per-node work (kick, contact, drift, the"
    echo "rigid-body sums and their reduction); \"sums share\" is the part of it spent forming the"
    echo "state (\`Solver::time_state_averages\`: the rigid-body sums, the lowest boundary node and their"
    echo "reduction), which global stepping does at every step and the multirate step once per coarse step."
    echo "Commands: \`build/bin/bench_fem\` and \`mpirun -np 2 build/bin/bench_fem\`."
    echo
    echo '```'
    echo "$fem"
    echo
    echo "$fem2"
    echo '```'
    echo
    echo "### Whole runs (\`bash bench/fem_run_lanes.sh\`)"
    echo
    echo "\`rebound fem cases/sphere-lai-psi2.json --frames 0\` under \`mpirun -np 2\` with one lane"
    echo "(\`REBOUND_SIMD_LANES=1\`) and with the widest, one after the other; wall time and loop time from"
    echo "each summary.json, ratio = one lane / widest."
    echo
    echo '```'
    echo "$fem_run"
    echo '```'
    echo
    echo "The two widest against each other (\`bash bench/fem_run_lanes.sh --lanes $top_lanes --pairs 3\`):"
    echo "the default is the widest; ratio = the narrower's wall time / the widest's."
    echo
    echo '```'
    echo "$fem_run_top"
    echo '```'
    echo
    echo "### Optimisation level (\`bash bench/fem_run_optimisation.sh\`)"
    echo
    echo "Debian's deal.II exports its package's build flags (\`-g -O2\`) and \`-O2\` for release builds;"
    echo "they come after CMake's \`-O3\` on the command line, so until cmake/DealIITarget.cmake restored"
    echo "\`-O3\` after them every deal.II target of a Release build compiled at \`-O2\`. The same run"
    echo "as above (widest lanes) built both ways (build-o2/: \`-DREBOUND_RESTORE_O3=OFF\`), taking"
    echo "turns; ratio = -O2 wall time / -O3 wall time of each pair; then the p = 2 step alone"
    echo "(\`bench_fem\` of each build in turns) with the same ratio per SIMD width."
    echo
    echo '```'
    echo "$fem_run_o3"
    echo '```'
    echo
    echo "### What local time stepping could gain (\`rebound mesh CASE\`)"
    echo
    echo "Cells by stable-step level (level k: shortest edge in [2^k, 2^(k+1)) times the mesh's"
    echo "shortest, so a step 2^k times the global one) and the bound cells / Σ n_k 2^-k: the most"
    echo "any power-of-two subcycling can cut the internal force's work on the mesh. The contact"
    echo "zone's cells (within a factor 2 of the smallest) are most of the cells of the default"
    echo "meshes. The wall-time ratio global / local is at most this bound over the internal force's"
    echo "share of the global step (\"K u share\" above), since the per-node work can be subcycled too."
    echo
    echo "| case | cells | cells per level 0, 1, 2, ... | bound |"
    echo "|---|---|---|---|"
    echo "$lts"
    echo
    echo "The bound of the default sphere's mesh along three axes, one at a time: a steeper grading of"
    echo "the cell size away from the contact zone (\`meshes::MeshOptions::grading\`, 1 by default, not a"
    echo "case key), a finer contact zone (fem.contact_resolution, the contact series of \`rebound refine\`)"
    echo "and more uniform refinements of the coarse mesh (fem.refinement, the h_max series)."
    echo "Command: \`build/bin/bench_mesh_grading\`."
    echo
    echo '```'
    echo "$grading"
    echo '```'
    echo
    echo "### Local time stepping measured: the multirate leapfrog (\`build/bin/bench_fem_local\`)"
    echo
    echo "The experimental multirate leapfrog of docs/FEM.md (\"Local time stepping\"; not a case key)"
    echo "against global stepping on the same ranks in one run: L is the most levels allowed (30: no"
    echo "cap), speed-up = global loop time / local loop time, d = local - global, energy err = the"
    echo "summary's energy balance error. A run the energy check stopped has no speed-up (-) and a"
    echo "second line with the check's message."
    echo "The lines above the table give each run's cells and nodes per level with their bounds"
    echo "(count / sum n_k 2^-k: the most subcycling can cut the internal force's and the per-node"
    echo "work), and for a run with 2 levels the bound of Diaz and Grote's LTS leapfrog estimated from"
    echo "the cell counts. The default run, 2 ranks, default cfl (0.9):"
    echo "\`mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json --max-levels 1,2,30\`"
    echo
    echo '```'
    echo "$multirate"
    echo '```'
    echo
    echo "The same at cfl 0.7 (below the resonance; the global run too):"
    echo "\`mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json --max-levels 1,2 --cfl 0.7\`"
    echo
    echo '```'
    echo "$multirate07"
    echo '```'
    echo
    echo "On the mesh with the largest bound above (fem.refinement 3, 483,357 dofs), local stepping at"
    echo "cfl 0.7 against global stepping at the default cfl 0.9, in one run (at most 2 or 3 levels,"
    echo "--max-levels 1,2; \"by rank\": each rank's cells per level):"
    echo "\`mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json --refinement 3 --max-levels 1,2 --cfl 0.7 --global-cfl 0.9\`"
    echo
    echo '```'
    echo "$multirate_refined"
    echo '```'
    echo
    echo "The frictionless Hertz impact (targets for local stepping: duration and peak force within 0.2 %"
    echo "of the global run, energy balance below 1e-4), cfl 0.7 for both schemes:"
    echo "\`mpirun -np 2 build/bin/bench_fem_local cases/hertz-steel-sphere.json --max-levels 1,2 --cfl 0.7\`"
    echo
    echo '```'
    echo "$multirate_hertz"
    echo '```'
    echo
    echo "Stability over 2 ms (about 6 contact durations) on the quick case, two levels, per cfl:"
    echo "\`build/bin/bench_fem_local cases/sphere-lai-psi2-quick.json --max-levels 1 --end-time 2e-3 --cfl C\`"
    echo
    echo '```'
    echo "$multirate_scan"
    echo '```'
    echo
    echo "The independent reference, a graded 1-D bar (40 elements h, 40 of 2h), the spectral radius"
    echo "of one coarse step of the same two-level scheme: \`/usr/bin/python3 scripts/multirate_stability.py\`"
    echo
    echo '```'
    echo "$multirate_bar"
    echo '```'
    echo
    echo "With a third level (40 elements of 4h), whose kicks reach the modes of level 1 only:"
    echo "\`/usr/bin/python3 scripts/multirate_stability.py --levels 3 --cfl 0.7,0.75,0.78,0.8,0.82,0.85,0.9\`"
    echo
    echo '```'
    echo "$multirate_bar3"
    echo '```'
    echo
    echo "The energy balance of a multirate run: the measure the FEM reports, ½ v₋ M v₊ + ½ uᵀKu at the"
    echo "synchronisation times, is exactly conserved by the global leapfrog. On the 1-D bar (two"
    echo "levels, from rest, a smooth bump in the fine part or a random displacement) its deviation"
    echo "under the multirate step, over 20,000 coarse steps:"
    echo "\`/usr/bin/python3 scripts/multirate_stability.py --cfl 0.125,0.25,0.35,0.5,0.7 --energy 20000\`"
    echo
    echo '```'
    echo "$multirate_energy"
    echo '```'
    echo
    echo "The same scaling in 3-D: the quick case to 0.5 ms (through the contact and past its end),"
    echo "two levels, cfl 0.35 and 0.7:"
    echo "\`build/bin/bench_fem_local cases/sphere-lai-psi2-quick.json --max-levels 1 --end-time 5e-4 --cfl C\`"
    echo
    echo '```'
    echo "$multirate_energy3d"
    echo '```'
    echo
    echo "### Local time stepping measured: the leapfrog LTS of Diaz & Grote (\`build/bin/bench_fem_local --scheme lts-leapfrog\`)"
    echo
    echo "The scheme of fem/local_time_stepping.h (docs/FEM.md, \"Local time stepping\"; not a case"
    echo "key), the leapfrog with the coarse step and a modified stiffness K_G, against global"
    echo "stepping on the same ranks in one run, at the default cfl 0.9, once per way of holding the"
    echo "contact inside the substeps (none; normal: the normal dof of the nodes on the plane; stick:"
    echo "also the tangential dofs of the nodes that stuck). The line above the table gives the cell"
    echo "evaluations per coarse step over the global leapfrog's (its inverse bounds the internal"
    echo "force's speed-up) and the scheme's own stability check (H² λ_max(M⁻¹K_G) 1.02 / 4 ≤ 1); the"
    echo "line under each run splits the change of the energy balance (kinetic + internal + friction +"
    echo "normal contact loss, relative to E₀) between the steps at which the number of contact nodes"
    echo "changed and the others; the last lines time one coarse step's K_G u against the global"
    echo "evaluations it replaces. The default run, 2 ranks:"
    echo "\`mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2.json --scheme lts-leapfrog --max-levels 1,2 --hold none,normal,stick\`"
    echo
    echo '```'
    echo "$lts_leapfrog"
    echo '```'
    echo
    echo "The frictionless Hertz impact, 2 ranks:"
    echo "\`mpirun -np 2 build/bin/bench_fem_local cases/hertz-steel-sphere.json --scheme lts-leapfrog --max-levels 1,2 --hold none,normal\`"
    echo
    echo '```'
    echo "$lts_leapfrog_hertz"
    echo '```'
    echo
    echo "The quick case (p = 1), 1 rank:"
    echo "\`build/bin/bench_fem_local cases/sphere-lai-psi2-quick.json --scheme lts-leapfrog --max-levels 1,2 --hold none,normal,stick\`"
    echo
    echo '```'
    echo "$lts_leapfrog_quick"
    echo '```'
    echo
    echo "The same on 2 ranks (MPI against the run above):"
    echo "\`mpirun -np 2 build/bin/bench_fem_local cases/sphere-lai-psi2-quick.json --scheme lts-leapfrog --max-levels 1,2 --hold none,normal,stick\`"
    echo
    echo '```'
    echo "$lts_leapfrog_quick2"
    echo '```'
    echo
    echo "The independent reference on 1-D bars (the same recursion, dense): stability on 66 bars by"
    echo "damping and cfl, with a node held for good, and a bar striking a wall with and without"
    echo "holding its contact node: \`/usr/bin/python3 scripts/lts_leapfrog_reference.py\`"
    echo
    echo '```'
    echo "$lts_leapfrog_bar"
    echo '```'
  fi
  if [ -n "$calculix_kept" ]; then
    echo
    echo "$calculix_kept"
  elif [ -n "$calculix" ]; then
    echo
    echo "## FEM beside CalculiX (\`bench/calculix_hertz.py\`)"
    echo
    echo "The Hertz impact of \`cases/hertz-steel-sphere.json\` on the same mesh and the same 2 cores:"
    echo "rebound's explicit FEM (\`mpirun -np 2 rebound fem\`, kinematic contact) and CalculiX 2.20"
    echo "(Debian \`calculix-ccx\`, OpenMP threads) on rebound's mesh exported by \`rebound mesh --inp\`"
    echo "(C3D8 for p = 1, C3D20 for p = 2), the plane a fixed block, \`*DYNAMIC, EXPLICIT\` with"
    echo "node-to-surface penalty contact (slope K = 10 E*/a_max; CalculiX's explicit dynamics accepts"
    echo "only the linear pressure-overclosure, and its massless hard contact refuses a fixed plane:"
    echo "docs/FEM.md, \"The mesh in CalculiX\"). Durations and peaks are measured the same way for"
    echo "both codes from the contact force history. Degrees run: $calculix_degrees."
    echo "Command: \`/usr/bin/python3 bench/calculix_hertz.py --degrees $calculix_degrees\`."
    echo
    echo "$calculix"
  fi
  if [ -n "$python_sweep" ]; then
    echo
    echo "## Python module"
    echo
    echo "\`bench/python_sweep.py\` times a 10,000-point Ψ₁ sweep with Lai's model (the Table 6.1"
    echo "sphere, Ψ₁ = 0.1…8) through \`rebound.sweep\` and through \`rebound sweep CASE --psi1"
    echo "0.1:8:10000\` in one run, interleaved, median of 7 (acceptance: the"
    echo "module takes at most 2× the command line's time). Both run \`lumped::run_sweep\` on every core"
    echo "(the command line's default \`--threads\` is the core count; the module's \`threads\` too)."
    echo "The command line's time includes its process start and writing sweep.csv, the module's the"
    echo "DataFrame; the last row starts a new interpreter for the module (numpy and pandas imported)."
    echo "Command: \`/usr/bin/python3 bench/python_sweep.py --build build\`."
    echo
    echo "$python_sweep"
  fi
} > "$out"
echo "wrote $out"
