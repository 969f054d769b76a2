"""scripts/viscoelastic_fit.py and scripts/viscoelastic_restitution.py (docs/FEM.md,
"Viscoelastic material", "Viscoelastic restitution"): their physics outside the FE runs.

* Sphere.contact_time() (the tau of the studies is a multiple of it) is Hertz's duration that the
  case module derives, to 1e-6 (the constant 2.943275 has 7 digits);
* Sphere.e_of(), through Muller & Poschel's Pade approximant, is the lumped `viscoelastic` law's
  e (rebound.lumped, Brilliantov et al. 1996) within 1e-6 at 0.1-10 m/s (v* <= 0.3, where the
  approximant is within 1e-6 of the law; measured 1.3e-7), and a_of() inverts e_of() to 1e-9;
* the lumped laws the study sets beside the FE body separate by their speed exponent: 1 - e of
  Brilliantov's law grows like v^(1/5) (slope within 0.03 of 1/5 at v* <= 0.3), Hunt & Crossley's
  with a material damping factor (D = chi v) like v (slope within 0.15 of 1 for D <= 0.3, the
  linear regime of 1 - e = (2/3) D);
* slope() returns the exponent of a synthetic power law to 1e-12."""

import json
import math
import os
import sys
import unittest

import rebound
from common import SOURCE_DIR

sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
import viscoelastic_fit  # noqa: E402
import viscoelastic_restitution as study  # noqa: E402


def sphere_case():
    with open(os.path.join(SOURCE_DIR, "cases", "hertz-steel-sphere.json")) as stream:
        return json.load(stream)


class Sphere(unittest.TestCase):
    def test_contact_time_is_hertz_duration(self):
        base = sphere_case()
        sphere = viscoelastic_fit.Sphere(base)
        for speed in (0.1, 1.0, 10.0):
            case = study.at_speed(base, speed, 2, "t")
            duration = rebound.load_case(case).derived()["hertz"]["duration"]
            self.assertAlmostEqual(sphere.contact_time(speed) / duration, 1.0, delta=1e-6)

    def test_pade_restitution_is_the_lumped_law(self):
        base = sphere_case()
        sphere = viscoelastic_fit.Sphere(base)
        a = 0.01 * sphere.contact_time(1.0)
        for speed in (0.1, 1.0, 10.0):
            case = study.at_speed(base, speed, 2, "t")
            lumped = study.lumped_e(rebound, case, {"normal_law": "viscoelastic",
                                                    "dissipative_constant": a})["e_newton"]
            self.assertLess(lumped, 0.99)
            self.assertAlmostEqual(sphere.e_of(a, speed), lumped, delta=1e-6)
            self.assertAlmostEqual(sphere.a_of(sphere.e_of(a, speed), speed) / a, 1.0, delta=1e-9)


class SpeedExponent(unittest.TestCase):
    def test_slope_of_a_power_law(self):
        speeds = [0.1, 0.3, 1.0, 3.0, 10.0]
        es = [1 - 0.04 * v ** 0.37 for v in speeds]
        self.assertAlmostEqual(study.slope(speeds, es), 0.37, delta=1e-12)

    def test_brilliantov_and_hunt_crossley_exponents(self):
        base = sphere_case()
        sphere = viscoelastic_fit.Sphere(base)
        speeds = [0.1, 1.0, 10.0]
        a = 0.003 * sphere.contact_time(1.0)  # v* <= 0.17
        brilliantov = [study.lumped_e(rebound, study.at_speed(base, v, 2, "t"),
                                      {"normal_law": "viscoelastic", "dissipative_constant": a})
                       ["e_newton"] for v in speeds]
        self.assertAlmostEqual(study.slope(speeds, brilliantov), 0.2, delta=0.03)
        chi = 0.03  # s/m: D = chi v <= 0.3
        hunt = [study.lumped_e(rebound, study.at_speed(base, v, 2, "t"),
                               {"normal_law": "hunt-crossley", "restitution": 1 - 2 * chi * v / 3,
                                "restitution_calibration": "published"})["e_newton"]
                for v in speeds]
        self.assertAlmostEqual(study.slope(speeds, hunt), 1.0, delta=0.15)


if __name__ == "__main__":
    unittest.main()
