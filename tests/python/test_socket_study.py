"""scripts/socket_study.py (docs/SOCKET.md): its geometry, one quick run and its FE input.

* Wang & Gao's semi-angle: the approach the script solves for gives theta = 30 deg to round-off,
  and the cancellation-free form agrees with their cos theta formula where that is accurate;
* `--quick` (the 0.5 mm clearance): exit 0, the files it names, Hertz's row of the impact equal to
  Hertz's closed form (case.derived(), `rebound check`) to the solver's tolerance, and the
  static CSV's Hertz column equal to (4/3) E* sqrt(R_eff) delta^{3/2};
* `--fem DIR`: scripts/socket_fem.py's convergence tables are read and each law judged against
  them: an FE law equal to Hertz's (F/F_Hertz = 1 at every converged point) makes Hertz "within
  5 %" over exactly the FE's span and Wang & Gao's n = 2 (>= 1.2 Hertz there) nowhere; a point
  whose error estimate exceeds 2 % is left out; an FE impact equal to Hertz's closed form gives
  Hertz's elastic row the ratios 1 (to the lumped solver's 1e-6); a folder without the tables
  exits 2;
* within(): the intervals of a grid where a condition holds."""

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


STATIC_HEADER = ("clearance_mm,approach_over_clearance,theta_deg,r3,r6,r12,h1_m,h2_m,h3_m,order,"
                 "richardson,error")
DYNAMIC_HEADER = ("clearance_mm,quantity,r2,r4,r8,h1_m,h2_m,h3_m,dofs1,dofs2,dofs3,order,"
                  "richardson,error,status")


class QuickRun(unittest.TestCase):
    def test_quick_run_judged_against_an_fe_law_equal_to_hertz(self):
        out, fem = temporary_folder(self), temporary_folder(self)
        case = rebound.load_case(socket_study.case_document(0.5, {"model": "lai"}))
        hertz = case.derived()["hertz"]
        with open(os.path.join(fem, "fem_static_convergence.csv"), "w") as stream:
            stream.write(STATIC_HEADER + "\n")
            for x in (0.01, 0.03, 0.1):  # made-up FE law: Hertz's, converged
                stream.write(f"0.5,{x},0,1,1,1,3,2,1,2.0,1.0,0.001\n")
            stream.write("0.5,0.003,0,1,1,1,3,2,1,0.7,1.0,0.15\n")  # not converged: left out
        with open(os.path.join(fem, "fem_dynamic_convergence.csv"), "w") as stream:
            stream.write(DYNAMIC_HEADER + "\n")
            for quantity, value in (("contact_duration", hertz["duration"]),
                                    ("peak_normal_force", hertz["peak_force"]),
                                    ("max_approach", hertz["max_compression"]),
                                    ("e_newton", 1.0)):
                stream.write(f"0.5,{quantity},{value},{value},{value},3,2,1,1,2,3,2.0,{value},0,"
                             "converged\n")
        result = run("--quick", "--out", out, "--fem", fem)
        self.assertEqual(result.returncode, 0, result.stderr)
        for name in ("socket-study.md", "dynamic.csv", "static-0.5mm.csv",
                     "static_convergence.csv", "cases/socket-wang-gao-0.5mm.json"):
            self.assertTrue(os.path.exists(os.path.join(out, name)), name)
        lines = result.stdout.splitlines()
        self.assertIn("| hertz | 0.01–0.1 |", lines)
        self.assertIn("| wang_gao_n2 | nowhere |", lines)
        self.assertFalse(any(line.startswith("| 0.5 | 0.003 |") for line in lines))
        self.assertTrue(any(line.startswith("| hertz (elastic) | 1.0000* | 1.0000* | 1.0000* | "
                                            "1.0000* |") for line in lines), result.stdout)

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

    def test_fem_folder_without_the_tables_fails(self):
        out, fem = temporary_folder(self), temporary_folder(self)
        result = run("--quick", "--out", out, "--fem", fem)
        self.assertEqual(result.returncode, 2)
        self.assertIn("no fem_static_convergence.csv", result.stderr)


class Within(unittest.TestCase):
    def test_intervals(self):
        grid = [1, 2, 3, 4, 5, 6]
        self.assertEqual(socket_study.within([False, True, True, False, True, True], grid),
                         "2–3, 5–6")
        self.assertEqual(socket_study.within([False] * 6, grid), "nowhere")
        self.assertEqual(socket_study.within([True] * 6, grid), "1–6")


if __name__ == "__main__":
    unittest.main()
