"""Bad input raises rebound.CaseError (a ValueError) carrying the file and the key, from a file,
a dict, JSON text, Case.with_changes and sweeps (incidence_deg= named in degrees); an unknown
quantity a KeyError pointing to rebound.UNITS; good input round-trips through to_dict()."""

import json
import os
import unittest

import numpy as np

import rebound
from common import RUN_DEPENDENT, case_path, json_differences, temporary_folder


class CaseErrors(unittest.TestCase):
    def assert_case_error(self, call, key, file, words=()):
        with self.assertRaises(rebound.CaseError) as raised:
            call()
        error = raised.exception
        self.assertIsInstance(error, ValueError)
        self.assertEqual(error.key, key, str(error))
        self.assertEqual(error.file, file, str(error))
        self.assertIn(key, str(error))
        for word in words:
            self.assertIn(word, str(error))
        return error

    def test_bad_file(self):
        folder = temporary_folder(self)
        path = os.path.join(folder, "bad.json")
        document = rebound.load_case(case_path("sphere-lai-psi2.json")).to_dict()
        document["material"]["poisson_ratio"] = 0.75
        with open(path, "w") as stream:
            json.dump(document, stream)
        self.assert_case_error(lambda: rebound.load_case(path), "material.poisson_ratio", path,
                               ["0.75"])
        missing = os.path.join(folder, "missing.json")
        self.assert_case_error(lambda: rebound.load_case(missing), "<file>", missing)

    def test_bad_dict_text_and_unknown_key(self):
        document = rebound.load_case(case_path("sphere-lai-psi2.json")).to_dict()
        del document["contact"]
        self.assert_case_error(lambda: rebound.load_case(document), "contact", "<dict>",
                               ["missing"])
        text = json.dumps(document).replace('"body"', '"bodyy"')
        self.assert_case_error(lambda: rebound.load_case(text), "bodyy", "<string>")
        self.assert_case_error(lambda: rebound.load_case('{"name": "x", "name": "y"}'), "name",
                               "<string>", ["twice"])

    def test_with_changes_validates_and_names_the_case_file(self):
        path = case_path("sphere-lai-psi2.json")
        case = rebound.load_case(path)
        self.assert_case_error(lambda: case.with_changes({"contact": {"friction": -0.1}}),
                               "contact.friction", path)
        self.assert_case_error(lambda: case.with_changes({"lumped": {"model": "newton"}}),
                               "lumped.restitution", path)
        self.assert_case_error(lambda: case.with_changes({"impact": {"speed": float("nan")}}),
                               "impact", path, ["mixes velocity forms"])
        # NaN reaches the parser as a number and is rejected with its key.
        self.assert_case_error(
            lambda: case.with_changes({"material": {"density": float("nan")}}),
            "material.density", path)
        changed = case.with_changes({"contact": {"friction": 0.2},
                                     "impact": {"psi1": None, "tangential_speed": 0.3}})
        self.assertEqual(changed.contact.friction, 0.2)
        self.assertEqual(changed.impact.velocity_form, "components")
        self.assertEqual(changed.impact.tangential_speed, 0.3)
        self.assertEqual(case.contact.friction, 0.1)  # the original is unchanged

    def test_sweep_errors(self):
        path = case_path("sphere-lai-psi2.json")
        case = rebound.load_case(path)
        self.assert_case_error(lambda: rebound.sweep(case, psi1=[1.0, -2.0]), "sweep psi1", path,
                               ["< 0"])
        self.assert_case_error(lambda: rebound.sweep(case, psi1=[1.0, np.nan]), "sweep psi1", path,
                               ["not finite"])
        self.assert_case_error(lambda: rebound.sweep(case, incidence_deg=[10, 95]),
                               "sweep incidence_deg", path, ["95", "[0, 90) degrees"])
        self.assert_case_error(lambda: rebound.sweep(case, incidence=[0.1, 1.6]),
                               "sweep incidence_angle", path, ["1.6", "pi/2"])
        frictionless = case.with_changes({"contact": {"friction": 0.0},
                                          "impact": {"psi1": None, "tangential_speed": 0.1}})
        self.assert_case_error(lambda: rebound.sweep(frictionless, psi1=[1.0]),
                               "contact.friction", path)
        self.assert_case_error(lambda: rebound.sweep(case, psi1=[1.0], models=["lai", "brach"]),
                               "lumped.restitution", path)
        with self.assertRaises(TypeError):
            rebound.sweep(case, psi1=[1.0], friction=[0.1])
        with self.assertRaises(ValueError):
            rebound.sweep(case, psi1="0:8")

    def test_degree_sweeps_are_rejected_in_degrees(self):
        """incidence_deg= values outside [0, 90) are named in degrees, under the argument's name
        (key "sweep incidence_deg"), as `rebound sweep --incidence` names them; never in
        radians."""
        path = case_path("sphere-lai-psi2.json")
        case = rebound.load_case(path)
        for given, shown in (([95], "95"), ([10, 90], "90"), ([-5, 10], "-5"),
                             (np.array([12.5, 90.25]), "90.25"), ("0:95:2", "95")):
            with self.subTest(incidence_deg=given):
                error = self.assert_case_error(lambda: rebound.sweep(case, incidence_deg=given),
                                               "sweep incidence_deg", path)
                self.assertIn(f"incidence_deg value {shown} outside [0, 90) degrees", str(error))
                self.assertNotIn("pi/2", str(error))
                self.assertNotIn("rad", str(error))
        self.assert_case_error(lambda: rebound.sweep(case, incidence_deg=[10, np.nan]),
                               "sweep incidence_deg", path, ["not finite"])
        # Every model is checked the same way, before anything runs.
        self.assert_case_error(
            lambda: rebound.sweep(case, incidence_deg=[95], models=["lai", "mdr"]),
            "sweep incidence_deg", path, ["95"])

    def test_csv_column_key_error_points_to_units(self):
        """An unknown quantity is a KeyError that points to rebound.UNITS, which exists and
        lists the known ones."""
        with self.assertRaises(KeyError) as raised:
            rebound.csv_column("normal_forse")
        message = str(raised.exception)
        self.assertIn("normal_forse", message)
        self.assertIn("rebound.UNITS", message)
        self.assertNotIn("rebound.units()", message)
        self.assertIn("normal_force", rebound.UNITS)
        self.assertEqual(rebound.csv_column("normal_force"), "normal_force_N")

    def test_a_failed_solve_raises_solve_error(self):
        """Lai's model on the Table 5.2 rod with lambda forced to almost 1: the integrator gives
        up. rebound.lumped raises rebound.SolveError (a RuntimeError, not a CaseError: the case is
        valid), with the message `rebound lumped` prints before exiting 1."""
        path = case_path("rod-lai-a.json")
        stiff = rebound.load_case(path).with_changes({"lumped": {"lambda": 0.9999999999}})
        with self.assertRaises(rebound.SolveError) as raised:
            rebound.lumped(stiff)
        error = raised.exception
        self.assertIsInstance(error, RuntimeError)
        self.assertNotIsInstance(error, ValueError)
        self.assertFalse(isinstance(error, rebound.CaseError))
        self.assertIn("lambda close to 1", str(error))
        self.assertIn(path, str(error))
        with self.assertRaises(rebound.SolveError):
            rebound.lumped(stiff, history=False)
        # The command line fails the same case with exit status 1 and the same hint.
        folder = temporary_folder(self)
        stiff_path = os.path.join(folder, "stiff.json")
        with open(stiff_path, "w") as stream:
            json.dump(stiff.to_dict(), stream)
        import subprocess
        from common import REBOUND_BINARY
        cli = subprocess.run([REBOUND_BINARY, "lumped", stiff_path, "-o", folder, "--no-plots"],
                             capture_output=True, text=True)
        self.assertEqual(cli.returncode, 1, cli.stdout + cli.stderr)
        self.assertIn("lambda close to 1", cli.stderr)
        # A sweep records the failure in the point's error column instead of raising.
        table = rebound.sweep(stiff, incidence_deg=[20.0], as_frame=False)
        self.assertIn("lambda close to 1", table["error"][0])
        # The classes as documented.
        self.assertTrue(issubclass(rebound.SolveError, RuntimeError))
        self.assertTrue(issubclass(rebound.CaseError, ValueError))
        self.assertFalse(issubclass(rebound.SolveError, rebound.CaseError))

    def test_a_bad_key_raises_case_error(self):
        case = rebound.load_case(case_path("rod-lai-a.json"))
        error = self.assert_case_error(lambda: case.with_changes({"lumped": {"lamda": 0.5}}),
                                       "lumped.lamda", case_path("rod-lai-a.json"))
        self.assertNotIsInstance(error, rebound.SolveError)
        with self.assertRaises(rebound.CaseError):
            rebound.lumped({"name": "x"})

    def test_round_trip_and_fields(self):
        case = rebound.load_case(case_path("rod-lai-a.json"))
        again = rebound.load_case(case.to_dict())
        self.assertEqual(again.to_dict(), case.to_dict())
        # The same case from a dict: only the file name and the run's time and command differ.
        self.assertEqual(json_differences(rebound.lumped(case, history=False),
                                          rebound.lumped(again, history=False), 0,
                                          ignore=RUN_DEPENDENT | {".provenance.case_file"}), [])
        self.assertEqual(case.body.shape, "capsule")
        self.assertEqual(case.body.length, 0.05)
        self.assertEqual(case.material.poisson_ratio, 0.28)
        self.assertEqual(case.impact.velocity_form, "components")
        self.assertEqual(case.lumped.lambda_override, 0.63922)
        derived = case.derived()
        self.assertEqual(derived["lambda"], 0.63922)
        self.assertNotEqual(derived["lambda_geometry"], 0.63922)
        with self.assertRaises(AttributeError):
            case.name = "other"
        with self.assertRaises(TypeError):
            rebound.load_case(42)


if __name__ == "__main__":
    unittest.main(verbosity=2)
