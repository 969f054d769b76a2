"""The arithmetic of scripts/stick_slip_convergence.py (the converged FEM values docs/FEM.md
quotes): Richardson's extrapolation recovers an exact power law, a sign change is reported as
oscillating, and the FEM's error bar adds the global series' spread; and of
scripts/stick_slip_variants.py's extrapolation to v -> 0 (the rate effect docs/FEM.md quotes)."""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.environ.get("REBOUND_SOURCE_DIR", "."), "scripts"))
import stick_slip_convergence as convergence  # noqa: E402
import stick_slip_variants as variants  # noqa: E402


class Richardson(unittest.TestCase):
    def test_exact_power_law_is_recovered(self):
        # q(h) = q0 + C h^p with p = 1.5: three halvings give p and q0 to round-off.
        hs = [1e-3, 5e-4, 2.5e-4]
        qs = [-0.18 + 40.0 * h ** 1.5 for h in hs]
        r = convergence.richardson(hs, qs)
        self.assertEqual(r["status"], "ok")
        self.assertAlmostEqual(r["order"], 1.5, places=9)
        self.assertAlmostEqual(r["extrapolated"], -0.18, places=12)
        self.assertAlmostEqual(r["error_estimate"], abs(-0.18 - qs[-1]), places=12)

    def test_sign_change_has_no_order(self):
        r = convergence.richardson([1.0, 0.5, 0.25], [0.124, 0.127, 0.123])
        self.assertEqual(r["status"], "oscillating")
        self.assertIsNone(r["extrapolated"])

    def test_growing_differences_have_no_extrapolation(self):
        r = convergence.richardson([1.0, 0.5, 0.25], [1.0, 0.99, 0.96])
        self.assertEqual(r["status"], "differences grow")
        self.assertIsNone(r["extrapolated"])


class FemValue(unittest.TestCase):
    def test_bar_is_richardson_error_plus_global_spread(self):
        contact = {"values": "-0.2077 -0.1899 -0.1834", "status": "ok", "richardson": -0.1798,
                   "error_estimate": 0.0036}
        value, bar = convergence.fem_value(contact, {"spread": 0.0004})
        self.assertEqual(value, -0.1798)
        self.assertTrue(math.isclose(bar, 0.0040, rel_tol=1e-12))

    def test_without_order_the_finest_run_and_its_last_difference(self):
        contact = {"values": "0.124 0.127 0.123", "status": "oscillating", "richardson": None,
                   "error_estimate": None}
        value, bar = convergence.fem_value(contact, None)
        self.assertEqual(value, 0.123)
        self.assertTrue(math.isclose(bar, 0.004, rel_tol=1e-9))


class SpeedSeries(unittest.TestCase):
    def test_rate_law_is_recovered(self):
        # d(v) = d0 + C v^(2/5) (the first rate correction of a Hertzian impact) at speeds with a
        # common ratio sqrt(10): the order and d0 to round-off.
        speeds = [0.5, 0.5 / math.sqrt(10), 0.05]
        order, d0 = variants.richardson_in_speed(speeds, [0.006 - 0.1 * v ** 0.4 for v in speeds])
        self.assertEqual(order, "0.40")
        self.assertAlmostEqual(d0, 0.006, places=12)

    def test_sign_change_has_no_value(self):
        self.assertEqual(variants.richardson_in_speed([0.5, 0.158, 0.05], [0.1, 0.2, 0.15]),
                         ("oscillating", None))


if __name__ == "__main__":
    unittest.main()
