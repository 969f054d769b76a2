#!/bin/sh
# `rebound pair` on 2 ranks (tests/CMakeLists.txt: app.pair_mpi2). Rank 0 alone solves the lumped
# model while rank 1 waits for its outcome (studies/pair.cpp, share_outcome).
#  1. A coarse pair with Lai's model: exit 0, comparison.json written, the report printed once.
#  2. The same FEM with a half-space model of minutes (128 cells, 4000 steps); SIGINT to mpirun
#     once rank 0 is in its lumped stage: mpirun forwards SIGTERM to both ranks, rank 0 ends its
#     solve at the next step and says so, both manifests say "interrupted", fem/ is kept, no
#     comparison. (Before rank 1 waited inside MPI_Finalize, where Open MPI drops its SIGTERM
#     handler: it died of the signal and mpirun killed rank 0 before it wrote anything.)
# Usage: pair_mpi2.sh MPIEXEC REBOUND CASES_DIR WORK_DIR
set -u
mpiexec=$1 rebound=$2 cases=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; cat "$work"/*.log; exit 1; }
sed -e 's/"contact_resolution": 2/"contact_resolution": 1/' -e 's/"frames": 5/"frames": 1/' \
  -e 's/"name": "sphere-lai-psi2-quick"/"name": "pair-mpi2"/' \
  "$cases/sphere-lai-psi2-quick.json" > "$work/lai.json"
sed -e 's/"model": "lai"/"model": "halfspace", "cells": 128, "time_steps": 4000/' \
  "$work/lai.json" > "$work/slow.json"
grep -q '"cells": 128' "$work/slow.json" || fail "the slow case was not written"

"$mpiexec" -np 2 "$rebound" pair "$work/lai.json" --no-plots -o "$work/lai" > "$work/lai.log" 2>&1 ||
  fail "2-rank pair exited $?"
test -f "$work/lai/comparison.json" || fail "no comparison.json"
test "$(grep -c '^# rebound pair: pair-mpi2' "$work/lai.log")" -eq 1 || fail "report not printed once"

"$mpiexec" --mca odls_base_sigkill_timeout 10 -np 2 "$rebound" pair "$work/slow.json" --no-plots -o "$work/slow" > "$work/slow.log" 2>&1 &
pid=$!
n=0
until grep -q '^\[2/3\]' "$work/slow.log"; do
  sleep 0.1; n=$((n + 1))
  test $n -lt 1200 || { kill -KILL $pid; fail "no lumped stage after 120 s"; }
done
sleep 1
kill -INT $pid
wait $pid
echo "mpirun exited $? (Open MPI's own status after a forwarded signal: 1)"
grep -q "rebound pair: lumped model interrupted at" "$work/slow.log" || fail "no interruption message"
grep -q '"status": "interrupted"' "$work/slow/manifest.json" || fail "pair manifest"
grep -q '"status": "interrupted"' "$work/slow/lumped/manifest.json" || fail "lumped manifest"
test -f "$work/slow/fem/summary.json" || fail "fem/ not kept"
test ! -e "$work/slow/comparison.json" || fail "a comparison was written"
cat "$work/slow.log" | grep -v '^  step'
echo "PASS"
