"""rebound.sweep against `rebound sweep`: every cell of sweep.csv is the module's value printed as
the command line prints it (%.10g, empty for NaN), for Psi1, incidence and friction sweeps and two
models; every module point equals rebound.lumped of the same case to 1e-12; the result does not
depend on the thread count (bit for bit), and the thread counts the command line rejects are
rejected."""

import json
import math
import os
import subprocess
import unittest

import numpy as np

import rebound
from common import REBOUND_BINARY, case_path, read_csv_text, run_cli, temporary_folder


def printed(value):
    """A sweep.csv cell as the command line prints it (lumped/sweep.cpp: %.10g, NaN empty)."""
    if isinstance(value, str):
        return value
    return "%.10g" % value if math.isfinite(value) else ""


class SweepEqualsCommandLine(unittest.TestCase):
    def cli_sweep(self, case, option, spec):
        folder = temporary_folder(self)
        path = os.path.join(folder, "case.json")
        with open(path, "w") as stream:
            json.dump(case.to_dict(), stream)
        run_cli("sweep", path, option, spec, "-o", folder, "--quiet", "--no-plots")
        return read_csv_text(os.path.join(folder, "sweep.csv"))

    def check_against_cli(self, case, option, keyword, spec, model):
        header, rows = self.cli_sweep(case.with_changes({"lumped": {"model": model}}), option, spec)
        table = rebound.sweep(case, models=[model], as_frame=False, **{keyword: spec})
        # sweep.csv names the model in its last column; the module's table first.
        self.assertEqual(header[-1], "model")
        self.assertEqual(["model"] + header[:-1], list(table))
        self.assertEqual(len(rows), len(table["model"]))
        self.assertTrue(all(m == model for m in table["model"]))
        for k, name in enumerate(header):
            self.assertEqual([printed(x) for x in table[name]], [row[k] for row in rows], name)
        return table

    def test_psi1_sweep_with_two_models(self):
        case = rebound.load_case(case_path("sphere-lai-psi2.json"))
        for model in ("lai", "mdr"):
            with self.subTest(model=model):
                table = self.check_against_cli(case, "--psi1", "psi1", "0:6:13", model)
                psi2 = table["psi2"]
                self.assertTrue(np.all(np.isfinite(psi2)))
                self.assertGreater(np.ptp(psi2), 1.0)  # not a constant column
                self.assertTrue(all(error == "" for error in table["error"]))

    def test_incidence_and_friction_sweeps(self):
        case = rebound.load_case(case_path("rod-lai-c.json"))
        # The command line takes the incidence in degrees (sweep.csv keeps radians).
        self.check_against_cli(case, "--incidence", "incidence_deg", "5:80:9", "lai")
        self.check_against_cli(case, "--friction", "friction", "0:0.8:9", "lai")

    def test_points_equal_the_lumped_solve_to_1e_12(self):
        case = rebound.load_case(case_path("sphere-lai-psi2.json"))
        values = np.array([0.25, 1.2, 2.0, 3.5, 7.0])
        table = rebound.sweep(case, psi1=values, models=["lai", "mdr"], as_frame=False)
        columns = [name for name in table if name not in ("model", "sweep_psi1", "phases",
                                                          "error")]
        self.assertEqual(len(columns), 17)
        # The table's columns are the summary's keys with their units (summary.json "units").
        units = rebound.lumped(case, history=False)["units"]
        keys = {rebound.csv_column(key): key for key in units}
        self.assertTrue(set(columns) <= set(keys), set(columns) - set(keys))
        for column in columns:
            unit = units[keys[column]]
            suffix = unit.replace(" ", "_").replace("/", "_per_")
            self.assertEqual(column, keys[column] if unit == "1" else keys[column] + "_" + suffix)
        for row in range(len(table["model"])):
            point = case.with_changes(
                {"lumped": {"model": str(table["model"][row])},
                 "impact": {"psi1": float(table["sweep_psi1"][row])}})
            summary = rebound.lumped(point, history=False)
            for column in columns:
                key = keys[column]
                expected = summary[key]
                actual = table[column][row]
                if expected is None:
                    self.assertTrue(math.isnan(actual), key)
                else:
                    self.assertLessEqual(abs(actual - expected), 1e-12 * abs(expected), key)
            phases = "-".join(p["mode"] for p in summary["stick_slip_phases"])
            self.assertEqual(table["phases"][row], phases)

    def test_thread_count_does_not_change_any_bit(self):
        case = rebound.load_case(case_path("sphere-lai-psi2.json"))
        serial = rebound.sweep(case, psi1="0.05:8:400", threads=1, as_frame=False)
        parallel = rebound.sweep(case, psi1="0.05:8:400", threads=4, as_frame=False)
        for name in serial:
            if serial[name].dtype.kind == "f":
                self.assertTrue(np.array_equal(serial[name], parallel[name], equal_nan=True), name)
            else:
                self.assertTrue(np.array_equal(serial[name], parallel[name]), name)

    def test_bad_thread_counts_are_rejected_as_on_the_command_line(self):
        """threads= takes what `rebound sweep --threads N` takes, an integer in [1, 256] (or
        None: every core): outside it a ValueError, a non-integer a TypeError, each naming the
        argument and the range as the command line's exit-2 message does."""
        case = rebound.load_case(case_path("sphere-lai-psi2.json"))
        for threads in (-1, 0, 257, 1000):
            with self.subTest(threads=threads):
                cli = subprocess.run([REBOUND_BINARY, "sweep", case_path("sphere-lai-psi2.json"),
                                      "--psi1", "0:8:3", "--threads", str(threads), "-o",
                                      temporary_folder(self), "--quiet", "--no-plots"],
                                     capture_output=True, text=True)
                self.assertEqual(cli.returncode, 2, cli.stdout + cli.stderr)
                self.assertIn("expected an integer in [1, 256]", cli.stderr)
                with self.assertRaises(ValueError) as raised:
                    rebound.sweep(case, psi1="0:8:3", threads=threads)
                self.assertIn("threads", str(raised.exception))
                self.assertIn("expected an integer in [1, 256]", str(raised.exception))
        for threads in (2.5, 4.0, "4", True, [2]):
            with self.subTest(threads=threads):
                with self.assertRaises(TypeError) as raised:
                    rebound.sweep(case, psi1="0:8:3", threads=threads)
                self.assertIn("threads", str(raised.exception))
                self.assertIn("expected an integer in [1, 256]", str(raised.exception))
        # The ends of the range, numpy integers and None (every core) are taken.
        expected = rebound.sweep(case, psi1="0:8:3", as_frame=False)["psi2"]
        for threads in (1, 256, np.int64(2), None):
            with self.subTest(threads=threads):
                table = rebound.sweep(case, psi1="0:8:3", threads=threads, as_frame=False)
                self.assertTrue(np.array_equal(table["psi2"], expected))

    def test_degrees_arrays_ranges_and_frames(self):
        case = rebound.load_case(case_path("rod-lai-a.json"))
        degrees = rebound.sweep(case, incidence_deg=[10, 30, 50], as_frame=False)
        radians = rebound.sweep(case, incidence=np.array([10, 30, 50]) * math.pi / 180,
                                as_frame=False)
        self.assertTrue(np.array_equal(degrees["sweep_incidence_angle_rad"],
                                       np.radians([10, 30, 50])))
        self.assertTrue(np.array_equal(degrees["psi2"], radians["psi2"]))
        # "START:STOP:COUNT" gives the command line's values exactly.
        values = rebound.sweep_values("0.1:8:7")
        self.assertEqual(list(values), [0.1 + (8 - 0.1) * i / 6 for i in range(7)])
        frame = rebound.sweep(case, psi1=values, models=["lai", "uncoupled"])
        import pandas
        self.assertIsInstance(frame, pandas.DataFrame)
        self.assertEqual(len(frame), 14)
        self.assertEqual(list(frame["model"].unique()), ["lai", "uncoupled"])
        self.assertEqual(list(frame.columns[:3]), ["model", "sweep_psi1", "psi1"])
        lai = frame[frame["model"] == "lai"]
        self.assertTrue(np.allclose(lai["psi1"], values, rtol=1e-12, atol=0))

    def test_a_free_target_spheres_columns(self):
        """A free target sphere's velocity and spin after each impact end sweep.csv and the
        module's table alike, every cell as the command line prints it."""
        case = rebound.load_case(case_path("sphere-sphere-steel.json"))
        header, rows = self.cli_sweep(case, "--incidence", "10:30:3")
        table = rebound.sweep(case, incidence_deg="10:30:3", as_frame=False)
        target = ["target_center_velocity_final_t_m_per_s", "target_center_velocity_final_n_m_per_s",
                  "target_spin_final_rad_per_s"]
        self.assertEqual(header[-3:], target)
        self.assertEqual(list(table)[-3:], target)
        for k, name in enumerate(header):
            if name != "model":
                self.assertEqual([printed(x) for x in table[name]], [row[k] for row in rows], name)
        self.assertTrue(np.all(table["target_center_velocity_final_n_m_per_s"] < 0))  # struck

    def test_halfspace_beta0_and_the_elastic_target(self):
        """--models' halfspace-beta0 is the half-space model without the Dundurs coupling, as
        on the command line (sweep.csv's model column names it); an unknown name is a
        ValueError listing the known ones; the elastic target of the Kharaz case is a Target
        (its density, which only the FEM's block reads, included)."""
        case = rebound.load_case(case_path("kharaz-2001-glass.json"))
        self.assertEqual(case.target.type, "elastic_halfspace")
        self.assertEqual(case.target.young_modulus, 70e9)
        self.assertEqual(case.target.density, 2500.0)  # the FEM's block reads it
        header, rows = self.cli_sweep_models(case, "--incidence", "10:50:2", "halfspace-beta0,lai")
        table = rebound.sweep(case, incidence_deg="10:50:2", models=["halfspace-beta0", "lai"],
                              as_frame=False)
        self.assertEqual(list(table["model"]), ["halfspace-beta0"] * 2 + ["lai"] * 2)
        for k, name in enumerate(header):
            self.assertEqual([printed(x) for x in table[name]], [row[k] for row in rows], name)
        beta0 = rebound.sweep(case.with_changes(
            {"lumped": {"model": "halfspace", "dundurs_coupling": False}}),
            incidence_deg="10:50:2", as_frame=False)
        self.assertTrue(np.array_equal(beta0["psi2"], table["psi2"][:2]))
        with self.assertRaises(ValueError) as raised:
            rebound.sweep(case, psi1=[1.0], models=["halfspace-beta"])
        self.assertIn("halfspace-beta0", str(raised.exception))

    def cli_sweep_models(self, case, option, spec, models):
        folder = temporary_folder(self)
        path = os.path.join(folder, "case.json")
        with open(path, "w") as stream:
            json.dump(case.to_dict(), stream)
        run_cli("sweep", path, option, spec, "--models", models, "-o", folder, "--quiet",
                "--no-plots")
        return read_csv_text(os.path.join(folder, "sweep.csv"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
