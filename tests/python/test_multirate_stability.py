"""scripts/multirate_stability.py, the 1-D reference docs/FEM.md quotes for the instability of
the multirate leapfrog: with one level its coarse step is two global leapfrog steps; with two
levels it is stable below the resonance cfl = pi/4 (2 dt omega_max = pi) and unstable above, and a
third level keeps that threshold; the FEM's energy measure is exact for one level and deviates by
O(dt^2), without drift, for two."""

import math
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.environ.get("REBOUND_SOURCE_DIR", "."), "scripts"))
import multirate_stability as stability  # noqa: E402


def radius(levels_fine, levels_coarse, cfl, all_fine=False, levels_count=2, buffer=0):
    mass, elements, levels = stability.bar(levels_fine, levels_coarse, levels=levels_count,
                                           buffer=buffer)
    if all_fine:
        levels = [0] * len(levels)
    lam = max(np.linalg.eigvals(np.diag(1 / mass) @ sum(elements)).real)
    dt = cfl * 2 / math.sqrt(lam)
    return max(abs(np.linalg.eigvals(stability.propagator(mass, elements, levels, dt)))), (
        mass, elements, levels, dt)


class MultirateLeapfrog(unittest.TestCase):
    def test_one_level_is_two_leapfrog_steps(self):
        # Every element on level 0: the matrix is the square of the global leapfrog step.
        _, (mass, elements, levels, dt) = radius(10, 10, 0.9, all_fine=True)
        n = len(mass)
        k = sum(elements)
        step = np.block([[np.eye(n) - dt * dt * np.diag(1 / mass) @ k, dt * np.eye(n)],
                         [-dt * np.diag(1 / mass) @ k, np.eye(n)]])
        np.testing.assert_allclose(stability.propagator(mass, elements, levels, dt, top=1),
                                   step @ step, atol=1e-12)

    def test_stable_below_the_resonance_unstable_above(self):
        # Below pi/4 the eigenvalues stay on the unit circle (the rigid mode's double eigenvalue
        # is returned as 1 +- 1e-8, hence 1e-6); at 0.9 (the FEM's default cfl) they leave it.
        for cfl in (0.5, 0.7, 0.75):
            self.assertLess(radius(40, 40, cfl)[0], 1 + 1e-6, f"cfl {cfl}")
        for cfl in (0.8, 0.9):
            self.assertGreater(radius(40, 40, cfl)[0], 1 + 1e-3, f"cfl {cfl}")

    def test_a_third_level_keeps_the_threshold(self):
        # Level 2's kicks reach level 1's modes, half as fast as level 0's: the same pi/4.
        self.assertLess(radius(40, 40, 0.7, levels_count=3)[0], 1 + 1e-6)
        self.assertGreater(radius(40, 40, 0.9, levels_count=3)[0], 1 + 1e-3)

    def test_a_buffer_weakens_but_does_not_remove_the_resonance(self):
        # Coarse elements next to the finer level stepping at the finer rate: at cfl 0.9 one such
        # element per level brings the growth from 7.5e-3 per coarse step to round-off (two
        # levels), but other step sizes still grow (0.94: 6.0e-4), and with three levels and two
        # buffer elements too (0.88: 2.3e-5).
        self.assertGreater(radius(40, 40, 0.9)[0], 1 + 1e-3)
        self.assertLess(radius(40, 40, 0.9, buffer=1)[0], 1 + 1e-6)
        self.assertGreater(radius(40, 40, 0.94, buffer=1)[0], 1 + 1e-4)
        self.assertGreater(radius(30, 17, 0.88, levels_count=3, buffer=2)[0], 1 + 1e-5)

    def energy(self, cfl, levels_count, steps):
        # From rest with a smooth bump (5 elements wide) in the fine part of a 20 + 20 bar.
        mass, elements, levels = stability.bar(20, 20, levels=levels_count)
        k = sum(elements)
        lam = max(np.linalg.eigvals(np.diag(1 / mass) @ k).real)
        dt = cfl * 2 / math.sqrt(lam)
        u0 = stability.bump(elements, 10.0, 5.0)
        return stability.energy_history(mass, elements, levels, dt, u0, steps) / (
            0.5 * u0 @ (k @ u0))

    def test_energy_measure_is_exact_with_one_level(self):
        # The global leapfrog conserves 1/2 v- M v+ + 1/2 u.Ku exactly (round-off: 1e-15 x steps).
        e = self.energy(0.9, 1, 500)
        self.assertLess(np.max(np.abs(e - 1)), 1e-12)

    def test_energy_measure_deviates_at_second_order_without_drift(self):
        # Two levels: the measure's deviation is second order in dt (halving cfl divides it by
        # 4.0-4.04 here; 10 % allowed) and bounded: its largest value over the second half of
        # 4000 coarse steps is within 25 % of that over the first tenth (a drift would grow it
        # tenfold): what a scheme conserving a nearby (modified) energy would show.
        first = {}
        for cfl in (0.25, 0.5):
            deviation = np.abs(self.energy(cfl, 2, 4000) - 1)
            first[cfl] = np.max(deviation[:400])
            self.assertLess(np.max(deviation[2000:]), 1.25 * first[cfl], f"cfl {cfl}")
        self.assertGreater(first[0.25], 1e-3)  # the measure is not the scheme's invariant
        self.assertAlmostEqual(first[0.5] / first[0.25], 4.0, delta=0.4)

if __name__ == "__main__":
    unittest.main()
