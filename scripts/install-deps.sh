#!/usr/bin/env bash
# Installs what rebound needs from Debian 12 packages, only if something is missing
# (idempotent; needs root or sudo when it has to install).
set -euo pipefail
packages=(
  cmake make g++ pkg-config
  # FFTW: the half-space model's convolutions (halfspace/influence.h)
  libfftw3-dev
  libdeal.ii-dev openmpi-bin
  # An optimised BLAS for CHOLMOD's supernodal solves (the FEM's quasi-static law,
  # fem/quasi_static.h; docs/PERFORMANCE.md, "The quasi-static contact law").
  libopenblas0-pthread
  libeigen3-dev libvtk9-dev nlohmann-json3-dev
  libgtest-dev googletest libbenchmark-dev
  python3 python3-numpy python3-matplotlib
  # The Python module (python/, docs/PYTHON.md): pybind11 and Python.h; pandas for its sweeps'
  # DataFrames (without pandas they are dicts of numpy arrays).
  pybind11-dev python3-dev python3-pandas
  # tests/cases/check_schema.py validates the case files against cases/case.schema.json
  python3-jsonschema
  # ParaView for the view.py test; its python3-paraview conflicts with libvtk9-dev and is only
  # unpacked into the build tree by scripts/paraview-python.sh (docs/PARAVIEW.md). Xvfb gives
  # Debian's X-only ParaView a display.
  paraview xvfb
  # qemu-user: the FEM tests on an emulated older CPU without AVX (tests/CMakeLists.txt)
  qemu-user
  # CalculiX 2.20, the peer FEM code of bench/calculix_hertz.py (docs/FEM.md)
  calculix-ccx
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
