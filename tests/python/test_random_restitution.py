"""rebound.sweep(case, samples=N, seed=S): the Monte Carlo of a restitution that is a random
function of the energy-flux density (Michalczyk 2008, sec. 4, eq. 4.1). The drawn R follow the
normal distribution cut to [0, 1] as scipy.stats.truncnorm gives it (sample mean and standard
deviation within 4 standard errors, and a Kolmogorov-Smirnov test); the module's rows are the
command line's sweep.csv; the seed changes the draws and the threads do not."""

import math
import os
import unittest

import numpy as np

import rebound
from common import case_path, run_cli, temporary_folder

try:
    from scipy import stats
except ImportError:  # the closed form is tested in C++ (tests/lumped/test_random_restitution.cpp)
    stats = None

CASE = case_path("sphere-random-restitution.json")


class RandomRestitution(unittest.TestCase):
    @unittest.skipIf(stats is None, "scipy is not installed")
    def test_draws_follow_the_cut_normal(self):
        samples = 4000
        table = rebound.sweep(CASE, samples=samples, as_frame=False)
        drawn = table["restitution"]
        self.assertEqual(len(drawn), samples)
        self.assertTrue(np.all((drawn >= 0) & (drawn <= 1)))
        mean, sigma = table["restitution_mean"][0], table["restitution_std"][0]
        self.assertTrue(np.all(table["restitution_mean"] == mean))
        cut = stats.truncnorm((0 - mean) / sigma, (1 - mean) / sigma, loc=mean, scale=sigma)
        expected_mean, expected_std = cut.mean(), cut.std()
        # 4 standard errors (s/sqrt(N) for the mean, s sqrt((kurtosis - 1)/(4N)) for the
        # deviation, with truncnorm's kurtosis): a false alarm has probability ~6e-5 per comparison.
        kurtosis = 3 + float(cut.stats(moments="k"))
        self.assertLess(abs(drawn.mean() - expected_mean), 4 * expected_std / math.sqrt(samples))
        self.assertLess(abs(drawn.std(ddof=1) - expected_std),
                        4 * expected_std * math.sqrt((kurtosis - 1) / (4 * samples)))
        self.assertGreater(stats.kstest(drawn, cut.cdf).pvalue, 1e-3)
        # In Michalczyk's law (eq. 2.17) the impact restitutes R exactly: e_newton is the draw at
        # normal incidence only, so with friction and an oblique impact it stays close to it.
        self.assertTrue(np.all(np.isfinite(table["psi2"])))

    def test_rows_equal_the_command_line(self):
        folder = temporary_folder(self)
        run_cli("sweep", CASE, "--samples", "50", "--seed", "11", "--no-plots", "-q", "-o", folder)
        cli = rebound.read_csv(os.path.join(folder, "sweep.csv"))
        module = rebound.sweep(CASE, samples=50, seed=11, threads=2, as_frame=False)
        np.testing.assert_array_equal(cli["restitution"], module["restitution"])
        np.testing.assert_array_equal(cli["sweep_sample"], module["sweep_sample"])
        for column in ("psi2", "e_newton"):
            np.testing.assert_allclose(cli[column], module[column], rtol=1e-9)
        one = rebound.sweep(CASE, samples=50, seed=11, threads=1, as_frame=False)
        np.testing.assert_array_equal(one["restitution"], module["restitution"])
        other = rebound.sweep(CASE, samples=50, seed=12, as_frame=False)
        self.assertFalse(np.array_equal(other["restitution"], module["restitution"]))

    def test_refusals(self):
        with self.assertRaises(ValueError):
            rebound.sweep(case_path("sphere-lai-psi2.json"), psi1="0:1:2", seed=3)
        with self.assertRaises(rebound.CaseError):
            rebound.sweep(case_path("sphere-lai-psi2.json"), samples=5)
        with self.assertRaises(ValueError):
            rebound.sweep(CASE, samples=0)
        case = rebound.load_case(CASE)
        self.assertEqual(case.lumped.seed, 2008)
        self.assertEqual(case.lumped.restitution_table["mean"], [0.95, 0.9, 0.8, 0.6])
        self.assertIsNone(case.lumped.restitution)
        derived = case.derived()
        self.assertAlmostEqual(derived["energy_flux_density"], 16336.28, places=1)
        summary = rebound.lumped(CASE, history=False)
        self.assertEqual(summary["restitution_draw"]["seed"], 2008)
        self.assertEqual(summary["energy_flux_density"], derived["energy_flux_density"])


if __name__ == "__main__":
    unittest.main()
