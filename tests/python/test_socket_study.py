"""scripts/socket_study.py (docs/SOCKET.md): its geometry, one quick run and its FE input.

* Wang & Gao's semi-angle: the approach the script solves for gives theta = 30 deg to round-off,
  and the cancellation-free form agrees with their cos theta formula where that is accurate;
* `--quick` (the 0.5 mm clearance): exit 0, the files it names, Hertz's row of the impact equal to
  Hertz's closed form (case.derived(), `rebound check`) to the solver's tolerance, and the
  static CSV's Hertz column equal to (4/3) E* sqrt(R_eff) delta^{3/2};
* `--fem DIR`: a static_law.csv with the header of `rebound fem --quasi-static`
  (studies/fem_quasi_static.cpp) is read into the report; one without those columns exits 1."""

import csv
import math
import os
import subprocess
import sys
import unittest

import rebound
from common import BUILD_DIR, SOURCE_DIR, temporary_folder

sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
import socket_study  # noqa: E402

SCRIPT = os.path.join(SOURCE_DIR, "scripts", "socket_study.py")
FEM_HEADER = ("force_N,approach_m,hertz_approach_m,force_over_hertz_at_approach,contact_nodes,"
              "contact_radius_m,load_offset_m,max_penetration_m,balance_error,"
              "active_set_iterations")


def run(*arguments):
    return subprocess.run([sys.executable, SCRIPT, "--build", BUILD_DIR, *arguments],
                          capture_output=True, text=True)


def read(path):
    with open(path, newline="") as stream:
        return list(csv.DictReader(stream))


class Geometry(unittest.TestCase):
    def test_thirty_degrees(self):
        for clearance_mm in socket_study.CLEARANCES_MM:
            dR = clearance_mm * 1e-3
            top = socket_study.approach_at_angle(dR, math.radians(30))
            self.assertAlmostEqual(math.degrees(socket_study.semi_angle(dR, top)), 30.0,
                                   delta=1e-9)
            delta = 0.05 * dR  # cos theta ~ 0.99: their formula loses ~1e-14 / 1e-2 at most
            r1, d = socket_study.R2 + dR, dR + delta
            theirs = math.acos((d * d + r1 * r1 - socket_study.R2 ** 2) / (2 * d * r1))
            self.assertAlmostEqual(socket_study.semi_angle(dR, delta), theirs, delta=1e-10)


class QuickRun(unittest.TestCase):
    def test_quick_run_with_fem_folder(self):
        out, fem = temporary_folder(self), temporary_folder(self)
        folder = os.path.join(fem, "socket-wang-gao-0.5mm", "fem-quasi-static")
        os.makedirs(folder)
        with open(os.path.join(folder, "static_law.csv"), "w") as stream:  # made-up FE law
            stream.write(FEM_HEADER + "\n")
            stream.write("100,1e-7,1e-7,1.0,12,1e-3,0,0,0,1\n1000,5e-7,5e-7,0.99,40,2e-3,0,0,0,1\n")
        result = run("--quick", "--out", out, "--fem", fem)
        self.assertEqual(result.returncode, 0, result.stderr)
        for name in ("socket-study.md", "dynamic.csv", "static-0.5mm.csv",
                     "static_convergence.csv", "cases/socket-wang-gao-0.5mm.json"):
            self.assertTrue(os.path.exists(os.path.join(out, name)), name)
        self.assertIn("FE static law, 2 points", result.stdout)

        case = rebound.load_case(os.path.join(out, "cases", "socket-wang-gao-0.5mm.json"))
        hertz = case.derived()["hertz"]
        row = next(r for r in read(os.path.join(out, "dynamic.csv"))
                   if r["law"] == "hertz (elastic)" and r["modulus"] == "rigid socket")
        self.assertAlmostEqual(float(row["peak_normal_force_N"]) / hertz["peak_force"], 1, delta=1e-6)
        self.assertAlmostEqual(float(row["contact_duration_s"]) / hertz["duration"], 1, delta=1e-6)
        self.assertAlmostEqual(float(row["max_approach_m"]) / hertz["max_compression"], 1,
                               delta=1e-5)  # from the history's samples, refined by a parabola
        factor = 4 / 3 * hertz["contact_modulus"] * math.sqrt(hertz["radius"])
        for r in read(os.path.join(out, "static-0.5mm.csv")):
            delta = float(r["approach_m"])
            self.assertAlmostEqual(float(r["hertz_N"]) / (factor * delta ** 1.5), 1, delta=1e-9)

    def test_fem_file_without_its_columns_fails(self):
        out, fem = temporary_folder(self), temporary_folder(self)
        folder = os.path.join(fem, "socket-wang-gao-0.5mm", "fem-quasi-static")
        os.makedirs(folder)
        with open(os.path.join(folder, "static_law.csv"), "w") as stream:
            stream.write("force,approach\n1,2\n")
        result = run("--quick", "--out", out, "--fem", fem)
        self.assertEqual(result.returncode, 1)
        self.assertIn("expected the columns", result.stderr)


if __name__ == "__main__":
    unittest.main()
