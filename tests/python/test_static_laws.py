"""rebound.normal_law and rebound.halfspace_static: the static F(delta) of the lumped laws and of
the half-space model (lumped/normal_laws.h, lumped/halfspace.h). Hertz's law at the case's own
Hertz delta_max gives its F_max (case.derived(), what `rebound check` prints); the half-space
model is Hertz's on a plane to the grid's error; bad approaches and a grid too small raise."""

import math
import unittest

import numpy as np

import rebound
from common import case_path

PLANE = case_path("hertz-steel-sphere.json")
SOCKET = case_path("socket-wang-gao-0.5mm.json")


class StaticLaws(unittest.TestCase):
    def test_hertz_at_its_max_compression_is_its_peak_force(self):
        for path, law in ((PLANE, None), (SOCKET, "hertz")):
            case = rebound.load_case(path)
            if law is not None:
                case = case.with_changes({"lumped": {"normal_law": law, "polynomial_index": None,
                                                     "restitution": None,
                                                     "restitution_calibration": None}})
            hertz = case.derived()["hertz"]
            force = rebound.normal_law(case, hertz["max_compression"])
            self.assertEqual(force.shape, (1,))
            self.assertAlmostEqual(force[0] / hertz["peak_force"], 1.0, delta=1e-12)

    def test_wang_gao_light_load_ratio(self):
        case = rebound.load_case(SOCKET)  # wang-gao, n = 2
        hertz = case.with_changes({"lumped": {"normal_law": "hertz", "polynomial_index": None,
                                              "restitution": None,
                                              "restitution_calibration": None}})
        delta = np.array([1e-11, 1e-10])  # << dR = 0.5 mm: the ratio is 3 n sqrt(2)/(2n + 1)
        ratio = rebound.normal_law(case, delta) / rebound.normal_law(hertz, delta)
        np.testing.assert_allclose(ratio, 6 * math.sqrt(2) / 5, rtol=1e-6)

    def test_halfspace_on_a_plane_is_hertz(self):
        case = rebound.load_case(PLANE)
        delta = np.array([1e-7, 1e-6])
        result = rebound.halfspace_static(case, delta)
        hertz = rebound.normal_law(case, delta)
        np.testing.assert_allclose(result["normal_force_N"], hertz, rtol=1e-3)  # the grid's error
        np.testing.assert_array_equal(result["edge_pressure_Pa"], 0.0)
        np.testing.assert_array_equal(result["approach_m"], delta)

    def test_errors(self):
        case = rebound.load_case(SOCKET)
        for bad in (-1e-6, float("nan"), 0.1):
            with self.assertRaises(ValueError):
                rebound.normal_law(case, [1e-6, bad])
            with self.assertRaises(ValueError):
                rebound.halfspace_static(case, [bad])
        with self.assertRaises(RuntimeError):  # narrower than the contact
            rebound.halfspace_static(case, [1e-6], domain=0.9)
        with self.assertRaises(ValueError):  # beyond the sphere's diameter 2R = 20 mm
            rebound.normal_law(PLANE, [0.05])


if __name__ == "__main__":
    unittest.main()
