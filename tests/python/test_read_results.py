"""rebound.read_results / read_run / read_csv on the folders the command line writes: a real
`rebound lumped` and `rebound sweep` output of the light binary, and a synthetic `rebound pair`
folder whose fem/ has the FEM's summary keys (fem/run.cpp, studies/fem_run.cpp) and history
columns (fem::history_table), since the light build has no FEM."""

import json
import os
import unittest

import numpy as np

import rebound
from common import case_path, load_json, read_csv_text, run_cli, temporary_folder

# The FEM's summary.json: observables::to_json's keys, fem::summary's details and what
# studies::run_fem_into and fem::run add.
FEM_SUMMARY = {
    "case": "sphere-lai-psi2", "solver": "fem", "psi1": 2.0, "psi2": -0.41, "incidence_angle": 0.24,
    "rebound_angle": -0.05, "e_newton": 0.97, "e_poisson": 0.96, "e_stronge": 0.97,
    "tangential_cor": 0.83, "spin_final": -1.2, "normal_impulse": 0.28, "tangential_impulse": -0.02,
    "contact_duration": 3.1e-4, "peak_normal_force": 1650.0, "kinetic_energy_loss": 0.003,
    "kinetic_energy_loss_fraction": 0.015, "lambda": 0.555, "theta": 0.0,
    "center_velocity_initial": [0.12, -0.5], "center_velocity_final": [0.1, 0.48],
    "spin_initial": 0.0, "contact_point_velocity_initial": [0.12, -0.5],
    "contact_point_velocity_final": [0.16, 0.48], "kinetic_energy_initial": 0.187,
    "effective_mass": 0.127, "status": "completed", "peak_normal_force_raw": 1700.0,
    "binormal_impulse": 0.0, "vibration_kinetic_energy_final": 1e-4,
    "internal_energy_final": 2e-4, "frictional_dissipation": 1e-3, "normal_contact_loss": 0.0,
    "hertz": {"duration": 3.0e-4, "peak_force": 1600.0, "contact_radius": 1e-3}, "dofs": 101445,
    "cells": 3420, "degree": 2, "time_step": 1.46e-8, "lambda_max": 1e16, "cfl": 0.9,
    "steps": 30000, "end_time": 4.4e-4, "mpi_ranks": 1, "wall_time": 61.5,
    "energy_balance_error": 1e-4, "lambda_mesh": 0.5551, "theta_mesh": 0.0,
    "total_mass_lumped": 1.4137, "mesh_mass_properties": {"mass": 1.4137, "volume": 5.2e-4},
    "total_mass_exact": 1.4137, "constrained_dofs": 0, "mesh": {"cells": 3420},
    "loop_wall_time": 60.9, "dof_steps_per_second": 5.0e7, "file": "cases/sphere-lai-psi2.json",
    "extra_levels": 0,
}
# fem::history_table's columns as history.csv's header names them (with their units).
FEM_COLUMNS = [
    "time_s", "normal_force_N", "tangential_force_N", "normal_impulse_N_s",
    "tangential_impulse_N_s", "normal_velocity_m_per_s", "tangential_velocity_m_per_s",
    "normal_displacement_m", "tangential_displacement_m", "kinetic_energy_J", "internal_energy_J",
    "rigid_kinetic_energy_J", "vibration_kinetic_energy_J", "frictional_dissipation_J",
    "total_energy_J", "contact_nodes", "contact_area_m2", "contact_node_velocity_t_m_per_s",
    "contact_node_velocity_n_m_per_s", "center_velocity_t_m_per_s", "center_velocity_n_m_per_s",
    "spin_rad_per_s", "normal_force_smoothed_N", "binormal_impulse_N_s",
    "lowest_boundary_height_m", "normal_contact_loss_J", "plastic_dissipation_J",
    "viscous_dissipation_J",
]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as stream:
        stream.write(text)


def write_fem_run(folder):
    """fem/ as rebound fem writes it: summary.json, history.csv (reals %.10e, contact_nodes an
    integer), solution.pvd."""
    write(os.path.join(folder, "summary.json"), json.dumps(FEM_SUMMARY, indent=2) + "\n")
    lines = [",".join(FEM_COLUMNS)]
    for row in range(6):
        cells = []
        for k, name in enumerate(FEM_COLUMNS):
            cells.append("%d" % (row * 3) if name == "contact_nodes"
                         else "%.10e" % (row * 1e-5 + k * 0.25))
        lines.append(",".join(cells))
    write(os.path.join(folder, "history.csv"), "\n".join(lines) + "\n")
    write(os.path.join(folder, "solution.pvd"),
          '<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n<Collection>\n'
          '<DataSet timestep="0" file="solution_0000.pvtu"/>\n</Collection>\n</VTKFile>\n')


class ReadResults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import tempfile
        cls._folder = tempfile.TemporaryDirectory(prefix="rebound-python-results-")
        cls.directory = os.path.join(cls._folder.name, "sphere")
        run_cli("lumped", case_path("sphere-lai-psi2.json"), "-o", cls.directory, "--quiet",
                "--no-plots")

    @classmethod
    def tearDownClass(cls):
        cls._folder.cleanup()

    def test_a_lumped_run_folder(self):
        run = rebound.read_results(os.path.join(self.directory, "lumped"))
        self.assertEqual(run["kind"], "lumped")
        summary_path = os.path.join(self.directory, "lumped", "summary.json")
        self.assertEqual(run["summary"], load_json(summary_path))
        self.assertEqual(run["summary"]["solver"], "lumped:lai")
        header, rows = read_csv_text(os.path.join(self.directory, "lumped", "history.csv"))
        self.assertEqual(list(run["history"]), header)
        self.assertEqual(run["history"]["mode"].dtype.kind, "U")
        self.assertEqual(set(run["history"]["mode"]), {"slip", "stick", "separated"})
        for k, name in enumerate(header):
            if name != "mode":
                self.assertEqual(["%.10e" % x for x in run["history"][name]],
                                 [row[k] for row in rows], name)
        self.assertTrue(np.all(np.isnan(run["history"]["stick_fraction"])))
        self.assertTrue(run["pvd"].endswith(os.path.join("lumped", "rigid_body.pvd")))
        self.assertTrue(os.path.isfile(run["pvd"]))
        # The history read back agrees with the module's to the 11 digits of the file.
        solved = rebound.lumped(rebound.load_case(case_path("sphere-lai-psi2.json")))
        self.assertTrue(np.allclose(run["history"]["normal_force_N"],
                                    solved["history"]["normal_force_N"], rtol=1e-10, atol=1e-12))

    def test_a_lumped_case_folder(self):
        result = rebound.read_results(self.directory)
        self.assertEqual(result["path"], self.directory)
        self.assertEqual(result["lumped"]["kind"], "lumped")
        self.assertNotIn("fem", result)
        self.assertIsNone(result["comparison"])
        self.assertIsNone(result["report"])
        self.assertIsNone(result["view"])
        self.assertEqual(result["plots"], [])
        self.assertEqual(result["lumped"]["plots"], [])  # --no-plots

    def test_a_pair_folder_with_fem_comparison_and_sweep(self):
        folder = temporary_folder(self)
        pair = os.path.join(folder, "pair")
        run_cli("lumped", case_path("sphere-lai-psi2.json"), "-o", pair, "--quiet", "--no-plots")
        run_cli("sweep", case_path("sphere-lai-psi2.json"), "--psi1", "0:4:5", "-o", pair,
                "--quiet", "--no-plots")
        write_fem_run(os.path.join(pair, "fem"))
        comparison = {"case": "sphere-lai-psi2",
                      "summary": {"psi2": {"lumped": -0.5178, "fem": -0.41,
                                           "difference": 0.1078}}}
        write(os.path.join(pair, "comparison.json"), json.dumps(comparison))
        write(os.path.join(pair, "report.md"), "# rebound pair: sphere-lai-psi2\n")
        write(os.path.join(pair, "view.py"), "RESULT_DIRECTORY = None\n")
        write(os.path.join(pair, "plots", "forces.png"), "png")

        result = rebound.read_results(pair)
        fem = result["fem"]
        self.assertEqual(fem["kind"], "fem")
        self.assertEqual(fem["summary"], FEM_SUMMARY)
        self.assertIsInstance(fem["summary"]["dofs"], int)
        self.assertEqual(list(fem["history"]), FEM_COLUMNS)
        self.assertEqual(fem["history"]["contact_nodes"].tolist(), [0, 3, 6, 9, 12, 15])
        self.assertEqual(fem["history"]["spin_rad_per_s"][2],
                         2e-5 + FEM_COLUMNS.index("spin_rad_per_s") * 0.25)
        self.assertTrue(fem["pvd"].endswith(os.path.join("fem", "solution.pvd")))
        self.assertEqual(result["lumped"]["summary"]["solver"], "lumped:lai")
        self.assertEqual(result["comparison"], comparison)
        self.assertTrue(result["report"].startswith("# rebound pair"))
        self.assertEqual(result["plots"], [os.path.join(pair, "plots", "forces.png")])
        self.assertEqual(result["view"], os.path.join(pair, "view.py"))
        sweep = result["sweep"]
        self.assertEqual(sweep["sweep_psi1"].tolist(), [0, 1, 2, 3, 4])
        self.assertTrue(np.isnan(sweep["psi2"]).sum() == 0)
        self.assertEqual(sweep["phases"].dtype.kind, "U")
        module = rebound.sweep(case_path("sphere-lai-psi2.json"), psi1="0:4:5", as_frame=False)
        self.assertEqual(["%.10g" % x for x in module["psi2"]],
                         ["%.10g" % x for x in sweep["psi2"]])

    def test_the_plots_of_a_lumped_run(self):
        """read_results lists the PNGs `rebound lumped` drew into lumped/plots/ (in the run's
        entry), and none after --no-plots; the case folder's own plots/ (pair, sweep) stay under
        its "plots"."""
        folder = temporary_folder(self)
        drawn = os.path.join(folder, "drawn")
        run_cli("lumped", case_path("sphere-lai-psi2.json"), "-o", drawn, "--quiet")
        plots = os.path.join(drawn, "lumped", "plots")
        expected = [os.path.join(plots, name)
                    for name in ("forces.png", "impulses.png", "velocity_of_P.png")]
        if not os.path.isfile(expected[0]):
            self.skipTest("no python3 with matplotlib drew the plots")
        result = rebound.read_results(drawn)
        self.assertEqual(result["lumped"]["plots"], expected)
        self.assertEqual(rebound.read_results(os.path.join(drawn, "lumped"))["plots"], expected)
        self.assertEqual(result["plots"], [])
        for path in expected:
            with open(path, "rb") as stream:
                self.assertEqual(stream.read(8), b"\x89PNG\r\n\x1a\n", path)
        # A sweep into the same folder: its plots are the folder's.
        run_cli("sweep", case_path("sphere-lai-psi2.json"), "--psi1", "0:4:5", "-o", drawn,
                "--quiet")
        result = rebound.read_results(drawn)
        self.assertEqual([os.path.basename(p) for p in result["plots"]],
                         ["e_vs_psi1.png", "psi2_vs_psi1.png"])
        self.assertEqual(result["lumped"]["plots"], expected)
        self.assertEqual(result["sweep"]["sweep_psi1"].tolist(), [0, 1, 2, 3, 4])
        # --no-plots removes the earlier ones (stale results): none listed.
        run_cli("lumped", case_path("sphere-lai-psi2.json"), "-o", drawn, "--quiet", "--no-plots")
        self.assertEqual(rebound.read_results(drawn)["lumped"]["plots"], [])

    def test_folders_without_results(self):
        folder = temporary_folder(self)
        with self.assertRaises(FileNotFoundError):
            rebound.read_results(folder)
        with self.assertRaises(FileNotFoundError):
            rebound.read_results(os.path.join(folder, "missing"))
        with self.assertRaises(FileNotFoundError):
            rebound.read_run(folder)

    def test_read_csv_empty_cells_and_text(self):
        folder = temporary_folder(self)
        path = os.path.join(folder, "t.csv")
        write(path, "a,b,c\n1,,x\nnan,2.5,\n")
        table = rebound.read_csv(path)
        self.assertEqual(list(table), ["a", "b", "c"])
        self.assertTrue(np.isnan(table["a"][1]) and table["a"][0] == 1)
        self.assertTrue(np.isnan(table["b"][0]) and table["b"][1] == 2.5)
        self.assertEqual(table["c"].tolist(), ["x", ""])


if __name__ == "__main__":
    unittest.main(verbosity=2)
