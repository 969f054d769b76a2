"""scripts/socket_fem.py (docs/SOCKET.md, "FE static law"): its extrapolation and its cases.

* richardson(): on f(h) = f0 + c h^p sampled at three unequal cell sizes it returns p and f0 to
  round-off (the order equation is solved by bisection to the last bit), and it refuses values
  whose differences change sign (no monotone convergence) rather than invent an order;
* fem_case(): the impact speed puts Hertz's peak force (R_eff, the case's own derived values) at
  1.12 times Hertz's force at delta_30, the approach of Wang & Gao's 30-degree overlap, and the
  FEM takes the case (rebound check: its contact zone within the socket's 35-degree limit); with
  --up-to X the peak is at 1.12 times Hertz's force at delta = X dR;
* max_approach(): the parabola through the largest sample of a history and its neighbours
  returns the vertex of a sampled parabola exactly (to round-off), between the samples."""

import json
import math
import os
import subprocess
import sys
import unittest

import rebound
from common import REBOUND_BINARY, SOURCE_DIR, temporary_folder

sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
import socket_fem  # noqa: E402
import socket_study  # noqa: E402


class Richardson(unittest.TestCase):
    def test_recovers_order_and_limit_of_a_power_law(self):
        sizes = [0.013, 0.0078, 0.0039]  # unequal ratios, as the meshes give
        for order in (1.0, 1.5, 2.0, 3.0):
            values = [1.25 - 0.4 * h ** order / sizes[0] ** order for h in sizes]
            p, limit, error = socket_fem.richardson(values, sizes)
            self.assertAlmostEqual(p, order, delta=1e-9)
            self.assertAlmostEqual(limit, 1.25, delta=1e-12)
            self.assertAlmostEqual(error, abs(1.25 - values[2]), delta=1e-12)

    def test_refuses_oscillating_values(self):
        self.assertEqual(socket_fem.richardson([1.0, 1.1, 1.05], [3.0, 2.0, 1.0]),
                         (None, None, None))


class Cases(unittest.TestCase):
    def test_peak_force_at_delta_30_and_accepted_by_the_fem(self):
        for clearance_mm in (0.1, 0.5, 1.0):
            case, delta_30 = socket_fem.fem_case(clearance_mm, 1, 6)
            theta = socket_study.semi_angle(clearance_mm * 1e-3, delta_30)
            self.assertAlmostEqual(math.degrees(theta), 30.0, delta=1e-9)
            loaded = rebound.load_case(json.dumps(case))
            hertz = loaded.derived()["hertz"]
            modulus = socket_study.YOUNG / (1 - socket_study.POISSON ** 2)
            expected = socket_fem.PEAK_OVER_30 * socket_fem.hertz_force(
                clearance_mm * 1e-3, delta_30, modulus)
            self.assertAlmostEqual(hertz["peak_force"] / expected, 1.0, delta=1e-9)
            path = os.path.join(temporary_folder(self), "case.json")
            with open(path, "w") as stream:
                json.dump(case, stream)
            result = subprocess.run([REBOUND_BINARY, "check", path], capture_output=True,
                                    text=True)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertIn("rigid spherical socket", result.stdout)
            self.assertNotIn("not the FEM", result.stdout)


class LightLoad(unittest.TestCase):
    def test_peak_force_at_the_largest_approach_compared(self):
        modulus = socket_study.YOUNG / (1 - socket_study.POISSON ** 2)
        for up_to in (0.01, 0.001):
            case, _ = socket_fem.fem_case(0.5, 1, 6, up_to)
            self.assertIn(f"upto{up_to:g}", case["name"])
            hertz = rebound.load_case(json.dumps(case)).derived()["hertz"]
            expected = socket_fem.PEAK_OVER_30 * socket_fem.hertz_force(5e-4, up_to * 5e-4,
                                                                        modulus)
            self.assertAlmostEqual(hertz["peak_force"] / expected, 1.0, delta=1e-9)
            self.assertEqual(socket_fem.compared_approaches(up_to, None, 5e-4)[-1], up_to)


class MaxApproach(unittest.TestCase):
    def test_vertex_of_a_sampled_parabola(self):
        folder = temporary_folder(self)
        path = os.path.join(folder, "history.csv")
        vertex, top = 3.37e-5, 7.5e-6  # between the samples (dt = 1e-6)
        with open(path, "w") as stream:
            stream.write("time_s,normal_displacement_m\n")
            for k in range(80):
                t = k * 1e-6
                stream.write(f"{t!r},{-(top - 2e3 * (t - vertex) ** 2)!r}\n")
        self.assertAlmostEqual(socket_fem.max_approach(path) / top, 1.0, delta=1e-12)


if __name__ == "__main__":
    unittest.main()
