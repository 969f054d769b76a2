"""rebound.lumped(case) against `rebound lumped CASE` for every shipped case: every key of
summary.json equal (numbers to 1e-12 relative), and history.csv's columns, in order and named as
its header (with their units: time_s, normal_force_N, ...), equal to the module's arrays printed
as the command line prints them (%.10e). A plate, which no lumped model takes, is refused by both
(exit 2 naming target.type; CaseError)."""

import glob
import os
import subprocess
import unittest

import numpy as np

import rebound
from common import (CASES_DIR, REBOUND_BINARY, RUN_DEPENDENT, count_numbers, json_differences, load_json, read_csv_text,
                    run_cli, temporary_folder)


class LumpedEqualsCommandLine(unittest.TestCase):
    def test_every_shipped_case(self):
        paths = sorted(p for p in glob.glob(os.path.join(CASES_DIR, "*.json"))
                       if not p.endswith(".schema.json"))  # the JSON Schema is not a case
        self.assertGreaterEqual(len(paths), 15, "the shipped cases are missing")
        out = temporary_folder(self)
        models = set()
        for path in paths:
            with self.subTest(case=os.path.basename(path)):
                case = rebound.load_case(path)
                folder = os.path.join(out, case.name)
                if case.target.type == "elastic_plate":  # no lumped model: refused, both ways
                    run = subprocess.run([REBOUND_BINARY, "lumped", path, "-o", folder],
                                         capture_output=True, text=True)
                    self.assertEqual(run.returncode, 2)
                    self.assertIn("target.type", run.stderr)
                    with self.assertRaises(rebound.CaseError):
                        rebound.lumped(case)
                    continue
                models.add(case.lumped.model)
                run_cli("lumped", path, "-o", folder, "--quiet", "--no-plots")
                expected = load_json(os.path.join(folder, "lumped", "summary.json"))
                result = rebound.lumped(case)
                history = result.pop("history")
                self.assertEqual(json_differences(expected, result, 1e-12), [])
                # Not a vacuous comparison: the summary carries the rebound quantities.
                self.assertGreaterEqual(count_numbers(expected), 25)
                self.assertGreater(expected["e_newton"], 0)

                header, rows = read_csv_text(os.path.join(folder, "lumped", "history.csv"))
                self.assertEqual(header, list(history))
                self.assertEqual(len(rows), len(history["time_s"]))
                self.assertGreater(len(rows), 10)
                for k, name in enumerate(header):
                    column = history[name]
                    if name == "mode":
                        printed = [str(x) for x in column]
                    else:
                        self.assertEqual(column.dtype, np.float64, name)
                        printed = ["%.10e" % x for x in column]
                    self.assertEqual(printed, [row[k] for row in rows], name)
        self.assertIn("lai", models)

    def test_every_model_on_the_table_6_1_sphere(self):
        """The shipped cases all use Lai's model: the others (partial slip, half-space, rigid-body
        laws with null durations, a dissipative normal law) through a case file written from
        Case.with_changes(...).to_dict()."""
        import json
        base = rebound.load_case(os.path.join(CASES_DIR, "sphere-lai-psi2.json"))
        variants = {
            "mdr": {"model": "mdr"},
            "halfspace": {"model": "halfspace"},
            "uncoupled": {"model": "uncoupled"},
            "uncoupled-euler": {"model": "uncoupled-euler"},
            "newton": {"model": "newton", "restitution": 0.8},
            "brach": {"model": "brach", "restitution": 0.8, "impulse_ratio": 0.05},
            "hunt-crossley": {"normal_law": "hunt-crossley", "restitution": 0.8},
        }
        out = temporary_folder(self)
        solvers = set()
        for label, lumped in variants.items():
            with self.subTest(variant=label):
                case = base.with_changes({"name": "variant-" + label, "lumped": lumped})
                path = os.path.join(out, label + ".json")
                with open(path, "w") as stream:
                    json.dump(case.to_dict(), stream)
                run_cli("lumped", path, "-o", os.path.join(out, label), "--quiet", "--no-plots")
                expected = load_json(os.path.join(out, label, "lumped", "summary.json"))
                result = rebound.lumped(case)
                del result["history"]
                # The command line read the variant from its own file; the module's case keeps
                # the file it was loaded from.
                self.assertEqual(json_differences(expected, result, 1e-12,
                                                  ignore=RUN_DEPENDENT | {".provenance.case_file"}),
                                 [])
                solvers.add(result["solver"])
        self.assertEqual(len(solvers), 7, solvers)  # hunt-crossley's is lumped:lai

    def test_history_false_gives_the_same_summary_without_history(self):
        case = rebound.load_case(os.path.join(CASES_DIR, "rod-lai-b.json"))
        with_history = rebound.lumped(case)
        without = rebound.lumped(case, history=False)
        self.assertNotIn("history", without)
        del with_history["history"]
        self.assertEqual(json_differences(with_history, without, 0.0), [])

    def test_history_false_samples_the_peak_force_at_the_steps_only(self):
        """Without the dense history the peak normal force is the largest of the integrator's
        steps and events (as in a sweep), sampled more coarsely than with the history: for a
        dissipative law, whose peak comes before the end of compression, visibly lower; every
        other key is the same."""
        case = rebound.load_case(os.path.join(CASES_DIR, "sphere-lai-psi2.json")).with_changes(
            {"lumped": {"normal_law": "hunt-crossley", "restitution": 0.8}})
        full = rebound.lumped(case)
        del full["history"]
        fast = rebound.lumped(case, history=False)
        differences = json_differences(full, fast, 0.0)
        self.assertEqual(len(differences), 1, differences)
        self.assertTrue(differences[0].startswith(".peak_normal_force"), differences)
        self.assertLessEqual(fast["peak_normal_force"], full["peak_normal_force"])
        self.assertLess(abs(fast["peak_normal_force"] / full["peak_normal_force"] - 1), 1e-3)


if __name__ == "__main__":
    unittest.main(verbosity=2)
