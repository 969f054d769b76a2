"""scripts/socket_fem.py (docs/SOCKET.md, "FE static law"): its extrapolation and its cases.

* richardson(): on f(h) = f0 + c h^p sampled at three unequal cell sizes it returns p and f0 to
  round-off (the order equation is solved by bisection to the last bit), and it refuses values
  whose differences change sign (no monotone convergence) rather than invent an order;
* fem_case(): the impact speed puts Hertz's peak force (R_eff, the case's own derived values) at
  1.12 times Hertz's force at delta_30, the approach of Wang & Gao's 30-degree overlap, and the
  FEM takes the case (rebound check: its contact zone within the socket's 35-degree limit)."""

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


if __name__ == "__main__":
    unittest.main()
