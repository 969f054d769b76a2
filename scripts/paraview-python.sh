#!/usr/bin/env bash
# Runs a ParaView Python script with pvbatch on Debian 12 without installing python3-paraview.
#
#   scripts/paraview-python.sh [--prefix DIR] SCRIPT.py [SCRIPT ARGUMENTS...]
#   scripts/paraview-python.sh [--prefix DIR] --gui SCRIPT.py     (the ParaView GUI, needs DISPLAY)
#   e.g. scripts/paraview-python.sh results/sphere-lai-psi2-quick/view.py --screenshot view.png
#
# Why: Debian 12's python3-paraview (paraview.simple, pvpython) declares Conflicts: python3-vtk9,
# and libvtk9-dev (which rebound builds against) depends on python3-vtk9, so installing it
# removes the VTK headers. The `paraview` package itself (pvbatch, the ParaView libraries) does
# not conflict. This script unpacks python3-paraview's files with `dpkg -x` into a private
# prefix (default build/paraview-python, or $REBOUND_PARAVIEW_PREFIX; done once, only when
# missing) and runs pvbatch with PYTHONPATH pointing there. Nothing is installed system-wide.
#
# Rendering: Debian's ParaView is built for X only (no EGL/OSMesa offscreen), so without a
# DISPLAY the script starts a private Xvfb (package xvfb) for the run. pvpython is not used: it
# puts /usr/lib/python3/dist-packages (python3-vtk9's vtkmodules, VTK 9.1) ahead of PYTHONPATH,
# loads libvtkCommonCore-9.1 beside ParaView's libvtkCommonCore-pv5.11 and dies with SIGSEGV;
# pvbatch keeps PYTHONPATH first and runs the same paraview.simple scripts.
#
# Needs the Debian packages paraview and xvfb (apt-get install paraview xvfb). The
# python3-paraview .deb is taken from /var/cache/apt/archives or fetched with
# `apt-get download` (no installation). Exit status: the script's, or 3 when ParaView cannot
# be set up (the message says why).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dir="$(dirname "$here")"
prefix="${REBOUND_PARAVIEW_PREFIX:-$source_dir/build/paraview-python}"
if [ "${1:-}" = "--prefix" ]; then
  [ $# -ge 2 ] || { echo "paraview-python.sh: --prefix needs a directory" >&2; exit 3; }
  prefix="$2"
  shift 2
fi
gui=0
if [ "${1:-}" = "--gui" ]; then
  gui=1
  shift
fi
if [ $# -lt 1 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
  sed -n '2,6p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0 || exit 3
fi

fail() {
  echo "paraview-python.sh: $*" >&2
  exit 3
}

command -v pvbatch > /dev/null || fail "pvbatch not found (apt-get install paraview)"
version="$(dpkg-query -W -f='${Version}' paraview 2> /dev/null)" ||
  fail "the Debian package paraview is not installed (apt-get install paraview)"

# paraview.simple: the system's if python3-paraview is installed, else the private prefix.
python_path=""
if ! dpkg-query -W -f='${Status}' python3-paraview 2> /dev/null | grep -q "install ok installed"; then
  site="$prefix/usr/lib/python3/dist-packages"
  stamp="$prefix/python3-paraview.version"
  mkdir -p "$(dirname "$prefix")"
  # One unpacking at a time (parallel ctest runs share the prefix).
  exec {lock_fd}> "$prefix.lock"
  flock "$lock_fd"
  if [ ! -f "$site/paraview/simple.py" ] || [ "$(cat "$stamp" 2> /dev/null)" != "$version" ]; then
    work="$(mktemp -d "$(dirname "$prefix")/.paraview-python.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
    file_version="${version//:/%3a}"
    deb="/var/cache/apt/archives/python3-paraview_${file_version}_$(dpkg --print-architecture).deb"
    if [ ! -f "$deb" ]; then
      echo "paraview-python.sh: fetching python3-paraview $version (apt-get download, not installed)" >&2
      (cd "$work" && apt-get download -q "python3-paraview=$version" > /dev/null) ||
        fail "apt-get download python3-paraview=$version failed (run apt-get update first?)"
      deb="$(ls "$work"/python3-paraview_*.deb)"
    fi
    dpkg -x "$deb" "$work/prefix" || fail "dpkg -x $deb failed"
    echo "$version" > "$work/prefix/python3-paraview.version"
    rm -rf "$prefix"
    mv "$work/prefix" "$prefix"
    rm -rf "$work"
    trap - EXIT
    echo "paraview-python.sh: python3-paraview $version unpacked into $prefix" >&2
  fi
  flock -u "$lock_fd"
  python_path="$site"
fi
export PYTHONPATH="$python_path${PYTHONPATH:+:$PYTHONPATH}"
# ParaView's OpenGL probe opens and closes an extra X connection before the real window; on
# Xvfb 21.1 a connection opened right after another closed is sometimes dropped by the server
# (measured here: 5-9 % of `xdpyinfo` runs in a row fail with "unable to open display"), and
# pvbatch then aborts with "bad X server connection". Skipping the probe (Mesa's llvmpipe has
# OpenGL 4.5) removes most of those reconnections; the rest is retried below.
export PV_DEBUG_SKIP_OPENGL_VERSION_CHECK="${PV_DEBUG_SKIP_OPENGL_VERSION_CHECK:-1}"

if [ "$gui" = 1 ]; then
  # The GUI's Python needs the same paraview package; its first start shows a welcome dialog,
  # the script runs once it is closed.
  [ -n "${DISPLAY:-}" ] || fail "--gui needs a DISPLAY"
  [ $# -eq 1 ] || fail "--gui takes the script only (view.py: REBOUND_VIEW_SCREENSHOT=FILE)"
  exec paraview --script="$1"
fi
if [ -n "${DISPLAY:-}" ]; then
  exec pvbatch "$@"
fi

# No display: a private Xvfb on a free display number (-displayfd picks it atomically, unlike
# xvfb-run -a), stopped when pvbatch ends.
command -v Xvfb > /dev/null ||
  fail "no DISPLAY and no Xvfb; Debian's ParaView renders through X only (apt-get install xvfb)"
log="$(mktemp "${TMPDIR:-/tmp}/rebound-xvfb.XXXXXX")"
display_file="$(mktemp "${TMPDIR:-/tmp}/rebound-xvfb-display.XXXXXX")"
errors="$(mktemp "${TMPDIR:-/tmp}/rebound-pvbatch.XXXXXX")"
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3> "$display_file" > "$log" 2>&1 &
xvfb_pid=$!
trap 'kill "$xvfb_pid" 2> /dev/null || true; wait "$xvfb_pid" 2> /dev/null || true; rm -f "$log" "$display_file" "$errors"' EXIT
for _ in $(seq 1 100); do
  [ -s "$display_file" ] && break
  kill -0 "$xvfb_pid" 2> /dev/null || break
  sleep 0.1
done
number="$(tr -dc '0-9' < "$display_file")"
if [ -z "$number" ]; then
  cat "$log" >&2
  fail "Xvfb did not start"
fi
attempts=3
for attempt in $(seq 1 "$attempts"); do
  status=0
  DISPLAY=":$number" pvbatch "$@" 2> "$errors" || status=$?
  if [ "$status" -ne 0 ] && [ "$attempt" -lt "$attempts" ] &&
    grep -q "bad X server connection" "$errors" && kill -0 "$xvfb_pid" 2> /dev/null; then
    grep -m 1 "bad X server connection" "$errors" >&2
    echo "paraview-python.sh: pvbatch could not connect to Xvfb :$number (attempt $attempt of" \
      "$attempts), running it again" >&2
    continue
  fi
  cat "$errors" >&2
  break
done
if [ "$status" -ne 0 ] && ! kill -0 "$xvfb_pid" 2> /dev/null; then
  echo "paraview-python.sh: Xvfb :$number ended during the run:" >&2
  cat "$log" >&2
fi
exit "$status"
