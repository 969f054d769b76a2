"""scripts/plastic_restitution.py and scripts/plastic_flux_density.py (docs/FEM.md,
"Elastic-plastic restitution", "Michalczyk's R(Phi) on the FE body"): their cases.

* study_case(): the yield stress it sets puts the case's 1 m/s at the requested multiple of
  Thornton's yield speed with his rounded constant 1.56, i.e. at ratio 1.56 sqrt(40)/pi^2 of the
  exact one the case module derives (cases::ThorntonScales), to 1e-12, for an elastic-plastic,
  frictionless, head-on FE body;
* rod_case() at ratio k times its own V_y: every axis angle has Phi = k^2 Phi_y with Phi_y =
  (pi^5/60) p_y^5/E*^4 (docs/THEORY.md sec. 7), at different reduced masses m_w;
* contact_at_peak(): force over area and sqrt(area/pi) at the largest force of a history;
* scripts/plastic_oblique.py: oblique_case() keeps the normal speed (and so V/V_y) and sets the
  tangential speed tan(theta) v_n; gross_sliding_e_t() is the centre's tangential coefficient of
  a ball that slides throughout, which Lai's model with Thornton's law (Coulomb on the law's own
  force) restitutes at 60 degrees, mu = 0.1, to 1e-9 with its own e_n."""

import json
import math
import os
import sys
import unittest

import rebound
from common import SOURCE_DIR, temporary_folder

sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
import plastic_flux_density  # noqa: E402
import plastic_oblique  # noqa: E402
import plastic_restitution  # noqa: E402


def base(name):
    with open(os.path.join(SOURCE_DIR, "cases", name)) as stream:
        return json.load(stream)


class StudyCase(unittest.TestCase):
    def test_yield_stress_sets_the_speed_ratio(self):
        sphere = base("hertz-steel-sphere.json")
        rounding = 1.56 / (math.pi ** 2 / math.sqrt(40))  # 0.9997: Thornton rounded to 1.56
        for ratio in (0.5, 2, 10, 100):
            case = plastic_restitution.study_case(sphere, ratio, 2)
            derived = rebound.load_case(case).derived()
            self.assertAlmostEqual(
                case["impact"]["normal_speed"] / derived["thornton"]["yield_speed"],
                ratio * rounding, delta=1e-12 * ratio)
            self.assertEqual(case["material"]["model"], "elastic-plastic")
            self.assertEqual(case["contact"]["friction"], 0.0)


class RodCase(unittest.TestCase):
    def test_every_axis_angle_has_the_same_flux_density_ratio(self):
        rod = base("rod-lai-a.json")
        masses = []
        for theta in (0.0, 0.27018, 0.6):
            case = plastic_flux_density.rod_case(rod, theta, 1.8e9, 2)
            v_y = rebound.load_case(case).derived()["thornton"]["yield_speed"]
            case["impact"]["normal_speed"] = 20 * v_y
            derived = rebound.load_case(case).derived()
            t = derived["thornton"]
            flux_y = math.pi ** 5 / 60 * t["limiting_pressure"] ** 5 / \
                derived["hertz"]["contact_modulus"] ** 4
            self.assertAlmostEqual(derived["energy_flux_density"] / flux_y, 400, delta=1e-9)
            masses.append(derived["reduced_mass"])
        self.assertGreater(masses[0] / masses[2], 1.5)


class ContactAtPeak(unittest.TestCase):
    def test_reads_the_row_of_the_largest_force(self):
        folder = temporary_folder(self)
        with open(os.path.join(folder, "history.csv"), "w") as stream:
            stream.write("time_s,normal_force_N,contact_area_m2\n0,1,1e-6\n1,5,2e-6\n"
                         "2,3,3e-6\n")
        pressure, radius = plastic_restitution.contact_at_peak(folder)
        self.assertAlmostEqual(pressure, 2.5e6, delta=1e-6)
        self.assertAlmostEqual(radius, math.sqrt(2e-6 / math.pi), delta=1e-15)


class ObliqueCase(unittest.TestCase):
    def test_incidence_keeps_the_normal_problem(self):
        sphere = base("hertz-steel-sphere.json")
        head_on = plastic_oblique.oblique_case(sphere, 10, 2, 0.0, 0.1)
        self.assertEqual(head_on["contact"]["friction"], 0.0)
        for theta in (10.0, 45.0, 60.0):
            case = plastic_oblique.oblique_case(sphere, 10, 2, theta, 0.1)
            self.assertEqual(case["impact"]["normal_speed"], head_on["impact"]["normal_speed"])
            self.assertAlmostEqual(case["impact"]["tangential_speed"],
                                   math.tan(math.radians(theta)), delta=1e-15)
            self.assertEqual(case["material"]["yield_stress"], head_on["material"]["yield_stress"])
            self.assertEqual(case["contact"]["friction"], 0.1)

    def test_gross_sliding_is_lais_model_sliding_throughout(self):
        case = plastic_oblique.oblique_case(base("hertz-steel-sphere.json"), 10, 2, 60.0, 0.1)
        case["lumped"] = {"model": "lai", "normal_law": "thornton"}
        lumped = rebound.lumped(rebound.load_case(case), history=False)
        self.assertAlmostEqual(
            lumped["tangential_cor"],
            plastic_oblique.gross_sliding_e_t(lumped["e_newton"], 60.0, 0.1), delta=1e-9)


if __name__ == "__main__":
    unittest.main()
