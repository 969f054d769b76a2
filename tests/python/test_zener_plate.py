"""rebound.zener_plate(case) (lumped/zener_plate.h through the module): Zener's inelasticity of
the shipped plate case in his closed form, the plate's energy equal to the ball's loss 1 - e^2, the
dimensional duration and peak force on Hertz's scales of the case, and a ValueError for a target
that is not a plate."""

import math
import os
import unittest

import rebound
from common import CASES_DIR


class ZenerPlate(unittest.TestCase):
    def test_shipped_plate(self):
        case = rebound.load_case(os.path.join(CASES_DIR, "sphere-plate-steel.json"))
        z = rebound.zener_plate(case)
        m, t = case.material, case.target
        self.assertEqual(t.type, "elastic_plate")
        # Lambda = C (R/h)^2 (v/c0)^(1/5) (1 - nu^2)^(1/10) for one material (lumped/zener_plate.h)
        c = (2 / 3) ** 0.4 * (5 * math.pi / 3) ** 0.6 * math.sqrt(12) / 8
        c0 = math.sqrt(m.young_modulus / m.density)
        v = case.derived()["hertz"]["normal_speed"]
        expected = c * (case.body.radius / t.thickness) ** 2 * (v / c0) ** 0.2 * \
            (1 - m.poisson_ratio ** 2) ** 0.1
        self.assertAlmostEqual(z["inelasticity"] / expected, 1.0, delta=1e-9)
        # The ball's loss is what the plate carried away (the integration's 1e-8).
        self.assertAlmostEqual(1 - z["restitution"] ** 2, z["plate_energy"], delta=1e-8)
        self.assertTrue(0 < z["restitution"] < 1)
        # Longer and softer than Hertz's impact of the same pair (the plate adds compliance).
        hertz = case.derived()["hertz"]
        self.assertGreater(z["contact_duration"], hertz["duration"])
        self.assertLess(z["peak_force"], hertz["peak_force"])

    def test_refuses_another_target(self):
        case = rebound.load_case(os.path.join(CASES_DIR, "sphere-halfspace-steel.json"))
        with self.assertRaises(ValueError):
            rebound.zener_plate(case)

    def test_the_half_space_model_refuses_the_plate(self):
        case = rebound.load_case(os.path.join(CASES_DIR, "sphere-plate-steel.json"))
        with self.assertRaises(rebound.CaseError):
            rebound.halfspace_static(case, [1e-6])


if __name__ == "__main__":
    unittest.main()
