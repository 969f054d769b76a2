# Sourced by bench/fem_run_lanes.sh and bench/fem_run_optimisation.sh: whole FEM runs of one
# case by two variants A and B taking turns on the same ranks (A, B, A, B, ...), one table of
# each run's summary.json fields (wall_time: the run without process start; loop_wall_time: the
# time loop alone) and the wall-time ratio A / B of each pair.

# paired_args SCRIPT DEFAULT_PAIRS EXTRA "$@": the options both scripts take, [CASE]
# [--ranks N] [--pairs K], and one of the script's own, EXTRA = its usage, e.g. "--lanes A,B"
# ("" for none). Sets case_file (default cases/sphere-lai-psi2.json), ranks (2), pairs and extra
# (the EXTRA_OPTION's value, empty if not given); a bad option or value exits 2.
paired_args() {
  script=$1
  pairs=$2
  local extra_usage=$3
  local extra_option=${extra_usage%% *}
  shift 3
  case_file=cases/sphere-lai-psi2.json
  ranks=2
  extra=""
  local expected="--ranks N, --pairs K${extra_usage:+, $extra_usage}"
  while [ $# -gt 0 ]; do
    if [ -n "$extra_option" ] && [ "$1" = "$extra_option" ]; then
      [ $# -ge 2 ] || { echo "$script: $1 needs a value ($extra_usage)" >&2; exit 2; }
      extra=$2
      shift 2
      continue
    fi
    case "$1" in
      --ranks|--pairs)
        [ $# -ge 2 ] || { echo "$script: $1 needs a positive integer" >&2; exit 2; }
        [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "$script: $1 $2: expected a positive integer" >&2; exit 2; }
        if [ "$1" = --ranks ]; then ranks=$2; else pairs=$2; fi
        shift 2 ;;
      -*) echo "$script: unknown option $1 (expected $expected)" >&2; exit 2 ;;
      *) case_file=$1; shift ;;
    esac
  done
  [ -f "$case_file" ] || { echo "$script: $case_file: no such case file" >&2; exit 2; }
  [ -x build/bin/rebound ] || { echo "$script: build/bin/rebound missing (bash scripts/build.sh)" >&2; exit 2; }
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
}

# paired_field FOLDER KEY: a value of FOLDER/fem/summary.json.
paired_field() {
  /usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s[sys.argv[2]])" "$1/fem/summary.json" "$2"
}

# paired_table RUN_A RUN_B WORK LABEL_COLUMN LABEL_A LABEL_B RATIO_HEADER RATIO_DIGITS MEDIAN_NAME
# RUN_A / RUN_B: commands called with an output folder (they run `rebound fem ... -o FOLDER`);
# WORK: a folder for the runs. LABEL_COLUMN (with the rows' LABEL_A / LABEL_B) names a column
# after "pair", or is "" for none. RATIO_DIGITS: decimals of the ratio. MEDIAN_NAME: when not
# "", a last line "MEDIAN_NAME wall time: median, min, max over the pairs".
paired_table() {
  local run_a=$1 run_b=$2 work=$3 label_column=$4 label_a=$5 label_b=$6
  local ratio_header=$7 digits=$8 median_name=$9
  echo "$case_file, $ranks ranks, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  local label_format=""
  [ -n "$label_column" ] && label_format=' %6s'
  # shellcheck disable=SC2059
  printf "%5s$label_format %6s %10s %8s %12s %12s %10s %10s %12s\n" pair ${label_column:+"$label_column"} \
    lanes dofs steps "wall [s]" "loop [s]" psi2 e_newton "$ratio_header"
  local ratios="" k v d r
  for k in $(seq 1 "$pairs"); do
    "$run_a" "$work/a$k"
    "$run_b" "$work/b$k"
    for v in a b; do
      d="$work/$v$k"
      local label=$label_a
      [ "$v" = b ] && label=$label_b
      # shellcheck disable=SC2059
      printf "%5s$label_format %6s %10s %8s %12.2f %12.2f %10.6f %10.6f" "$k" ${label_column:+"$label"} \
        "$(paired_field "$d" simd_lanes)" "$(paired_field "$d" dofs)" "$(paired_field "$d" steps)" \
        "$(paired_field "$d" wall_time)" "$(paired_field "$d" loop_wall_time)" \
        "$(paired_field "$d" psi2)" "$(paired_field "$d" e_newton)"
      if [ "$v" = b ]; then
        r=$(/usr/bin/python3 -c "import sys; print('%.*f' % (int(sys.argv[3]), float(sys.argv[1]) / float(sys.argv[2])))" \
          "$(paired_field "$work/a$k" wall_time)" "$(paired_field "$d" wall_time)" "$digits")
        ratios="$ratios $r"
        printf '%11sx\n' "$r"
      else
        echo
      fi
    done
  done
  if [ -n "$median_name" ]; then
    # shellcheck disable=SC2086
    /usr/bin/python3 -c "import statistics,sys; r=[float(x) for x in sys.argv[2:]]; print('%s wall time: median %.3f, min %.3f, max %.3f over %d pairs' % (sys.argv[1], statistics.median(r), min(r), max(r), len(r)))" "$median_name" $ratios
  fi
}
