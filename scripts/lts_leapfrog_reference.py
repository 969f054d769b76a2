#!/usr/bin/env python3
"""The FEM's leapfrog local time stepping (fem/local_time_stepping.h; Diaz & Grote 2009/2015,
damped as Grote, Michel & Sauter 2021) on a 1-D bar: an independent reference for what
`build/bin/bench_fem_local` measures on the 3-D meshes (docs/FEM.md, "Local time stepping").

The bar: linear elements with lumped masses (unit density, modulus and section, wave speed 1).
An element of level k is stable on its own with the step 2^k delta; a node's level is the finest
of its elements'. The scheme is the leapfrog with the coarse step H = 2^L delta and the stiffness
K replaced by K_G, written here as the recursion of the C++ code (increment()):
  R_0(c, z) = -1/2 delta^2 (c + M^-1 K Pi_0 z)
  R_k(c, z) = 2 (R_{k-1}(c', z) + R_{k-1}(c', Y1)),  c' = c + M^-1 K (Pi_k - Pi_{k-1}) z,
              Y1 = z + (2 - 1/d_k^2) R_{k-1}(c', z),  d_k = 1 + nu 2^(1-k) / 4
  K_G u = -(2 / H^2) M R_L(0, u)
(dense here: every node is computed at every level; the C++ code restricts each level to its
reach, which changes nothing). A held node (the contact) keeps its value inside the recursion.

Sections (all by default):
  --bars       stability (the eigenvalues of H^2 M^-1 K_G within [0, 4]) on graded and random bars,
               by damping nu and cfl, with the levels checked as the FEM checks them
  --held       the same with one node held for good (no switching)
  --wall       the bar (fine at the wall) striking a rigid wall with the FEM's kinematic contact:
               the global leapfrog, local stepping without holding the contact node and with it;
               contact duration, restitution and the largest deviation of the energy balance
Usage: lts_leapfrog_reference.py [--bars] [--held] [--wall]
"""
import argparse
import math
import sys

try:
    import numpy as np
except ImportError:
    sys.exit("lts_leapfrog_reference.py: needs numpy (apt-get install python3-numpy)")


def chain(lengths):
    """Lumped mass and stiffness of a free bar of linear elements."""
    n = len(lengths) + 1
    mass, stiffness = np.zeros(n), np.zeros((n, n))
    for e, length in enumerate(lengths):
        mass[e] += 0.5 * length
        mass[e + 1] += 0.5 * length
        stiffness[e:e + 2, e:e + 2] += np.array([[1, -1], [-1, 1]]) / length
    return mass, stiffness


def lambda_max(mass, stiffness):
    scale = np.diag(mass ** -0.5)
    return max(np.linalg.eigvalsh(scale @ stiffness @ scale))


def levels_checked(lengths, delta, cfl):
    """Element levels as the FEM sets them: floor(log2(length / shortest)), then every level's
    elements alone must be stable with their step, 2^l delta <= cfl 2 / sqrt(1.02 lambda_l)
    (the full nodal masses), else the level falls to what its eigenvalue allows."""
    mass, _ = chain(lengths)
    shortest = min(lengths)
    levels = [int(math.floor(math.log2(length / shortest))) for length in lengths]
    changed = True
    while changed:
        changed = False
        for level in range(max(levels), 0, -1):
            members = [e for e in range(len(lengths)) if levels[e] == level]
            if not members:
                continue
            k_level = np.zeros((len(mass), len(mass)))
            for e in members:
                k_level[e:e + 2, e:e + 2] += np.array([[1, -1], [-1, 1]]) / lengths[e]
            allowed = cfl * 2 / math.sqrt(1.02 * lambda_max(mass, k_level))
            if delta * 2 ** level > allowed:
                fits = max(0, int(math.floor(math.log2(allowed / delta))))
                for e in members:
                    levels[e] = min(fits, level - 1)
                changed = True
                break
    return levels


class LeapfrogLTS:
    """K_G of the leapfrog local time stepping on a bar with element levels."""

    def __init__(self, lengths, element_levels, delta, nu, held=()):
        self.lengths = list(lengths)
        self.mass, self.stiffness = chain(lengths)
        self.top = max(element_levels)
        n = len(self.mass)
        self.node_level = np.full(n, self.top)
        for e, level in enumerate(element_levels):
            self.node_level[e] = min(self.node_level[e], level)
            self.node_level[e + 1] = min(self.node_level[e + 1], level)
        self.step = [delta * 2 ** k for k in range(self.top + 1)]
        self.damping = [1.0] + [1 + nu * 2.0 ** (1 - k) / 4 for k in range(1, self.top + 1)]
        self.held = set(held)

    def level_force(self, k, z):
        """M^-1 K (Pi_k - Pi_{k-1}) z: the level-k nodes of z (Pi_{-1} = 0)."""
        return self.stiffness @ np.where(self.node_level == k, z, 0.0) / self.mass

    def increment(self, k, c, z):
        if k == 0:
            return -0.5 * self.step[0] ** 2 * (c + self.level_force(0, z))
        frozen = c + self.level_force(k, z)
        first = self.increment(k - 1, frozen, z)
        y1 = z + (2 - 1 / self.damping[k] ** 2) * first
        for i in self.held:
            y1[i] = z[i]
        return 2 * (first + self.increment(k - 1, frozen, y1))

    def force(self, u):
        """K_G u."""
        return -2 / self.step[-1] ** 2 * self.mass * self.increment(self.top, np.zeros_like(u), u)

    def matrix(self):
        return np.column_stack([self.force(e) for e in np.eye(len(self.mass))])


def stability(scheme, free=None):
    """The largest excursion of the eigenvalues of H^2 M^-1 K_G (over the free nodes) beyond
    [0, 4], relative to 4: <= 0 is stable, > 0 unstable (the leapfrog's condition)."""
    k_g = scheme.matrix()
    free = list(range(len(scheme.mass))) if free is None else free
    scale = np.diag(scheme.mass[free] ** -0.5)
    h = scheme.step[-1]
    values = np.linalg.eigvals(h * h * scale @ k_g[np.ix_(free, free)] @ scale)
    if np.max(np.abs(values.imag)) > 1e-9 * np.max(np.abs(values)):
        return float("inf")
    return max(np.max(values.real) - 4, -np.min(values.real)) / 4


def bars(seed=5, random_bars=60):
    """Graded bars (40 + 40 ..., 13 + 41 ...) and random ones: fine-to-coarse, a fine patch in the
    middle, and sizes 1-8 anywhere."""
    result = []
    for fine, coarse, levels in [(20, 20, 2), (40, 40, 2), (30, 17, 3), (13, 41, 3), (20, 20, 4),
                                 (30, 17, 4)]:
        result.append([1.0] * fine + sum(([2.0 ** l] * coarse for l in range(1, levels)), []))
    rng = np.random.default_rng(seed)
    for trial in range(random_bars):
        kind = trial % 3
        if kind == 0:
            lengths = (list(rng.uniform(1, 2, rng.integers(5, 20))) +
                       list(rng.uniform(2, 4, rng.integers(3, 12))) +
                       list(rng.uniform(4, 8, rng.integers(3, 10))) +
                       list(rng.uniform(8, 16, rng.integers(2, 8))))
        elif kind == 1:
            lengths = (list(rng.uniform(4, 8, rng.integers(3, 10))) +
                       list(rng.uniform(2, 4, rng.integers(2, 6))) +
                       list(rng.uniform(1, 2, rng.integers(4, 15))) +
                       list(rng.uniform(2, 4, rng.integers(2, 6))) +
                       list(rng.uniform(4, 8, rng.integers(3, 10))))
        else:
            lengths = list(2 ** rng.uniform(0, 3, rng.integers(20, 45)))
        result.append(lengths)
    return result


def scheme_on(lengths, cfl, nu, held=()):
    mass, stiffness = chain(lengths)
    delta = cfl * 2 / math.sqrt(lambda_max(mass, stiffness))
    return LeapfrogLTS(lengths, levels_checked(lengths, delta, cfl), delta, nu, held)


def graded_bar(levels, fine=16, coarse=8):
    lengths = [1.0] * fine + sum(([2.0 ** l] * coarse for l in range(1, levels)), [])
    element_levels = [0] * fine + sum(([l] * coarse for l in range(1, levels)), [])
    return lengths, element_levels


def wall_impact(lengths, element_levels, hold, cfl=0.9, nu=0.1, speed=1.0, duration=None):
    """The bar (node 0 at the wall x = 0) moving at -speed: the FEM's step with the kinematic
    contact of fem/contact.h on node 0 (predictor-corrector; no friction in 1-D), the contact
    node held in the next step's recursion when hold is true. Returns the contact duration, the
    restitution (rebound over impact velocity of the centre of mass) and the largest deviation
    of the energy balance 1/2 v- M v+ + 1/2 u.K_G u - (contact work) from its initial value,
    relative."""
    mass, stiffness = chain(lengths)
    delta = cfl * 2 / math.sqrt(lambda_max(mass, stiffness))
    scheme = LeapfrogLTS(lengths, element_levels, delta, nu)
    h = scheme.step[-1]
    u, v = np.zeros(len(mass)), -speed * np.ones(len(mass))  # v: v_{n-1/2}
    energy0 = 0.5 * mass @ v ** 2
    steps = int((duration or 6 * sum(lengths)) / h)
    work, deviation, first, last, held = 0.0, 0.0, None, None, set()
    for n in range(steps):
        scheme.held = held if hold else set()
        force = scheme.force(u)
        before = v
        v = before - h * force / mass
        held = set()
        if u[0] + h * v[0] < 0:
            new = -u[0] / h
            impulse = mass[0] * (new - v[0])
            work += 0.5 * impulse * (before[0] + new)
            v[0] = new
            held = {0}
            first = n if first is None else first
            last = n
        balance = 0.5 * (mass * before) @ v + 0.5 * u @ force - work
        deviation = max(deviation, abs(balance / energy0 - 1))
        u = u + h * v
    restitution = (mass @ v) / (mass.sum() * speed)
    contact = (last - first + 1) * h if first is not None else 0.0
    return contact, restitution, deviation


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bars", action="store_true", help="stability on graded and random bars")
    parser.add_argument("--held", action="store_true", help="stability with a node held for good")
    parser.add_argument("--wall", action="store_true", help="the wall impact with and without hold")
    args = parser.parse_args()
    everything = not (args.bars or args.held or args.wall)
    if args.bars or everything:
        lengths_list = bars()
        print(f"stability on {len(lengths_list)} bars (6 graded, 60 random), levels checked as "
              f"the FEM checks them: unstable bars by damping nu and cfl")
        print(f"{'nu':>6} {'cfl 0.70':>9} {'0.90':>6} {'0.95':>6}")
        for nu in (0.0, 0.02, 0.05, 0.1):
            counts = [sum(stability(scheme_on(l, cfl, nu)) > 1e-9 for l in lengths_list)
                      for cfl in (0.7, 0.9, 0.95)]
            print(f"{nu:6.2f} {counts[0]:9d} {counts[1]:6d} {counts[2]:6d}")
    if args.held or everything:
        print("one node held for good (the contact node, node 0), graded bars, nu 0.1: the "
              "largest eigenvalue excursion beyond [0, 4] / 4 over the free nodes")
        for levels in (2, 3, 4):
            lengths, element_levels = graded_bar(levels)
            row = []
            for cfl in (0.5, 0.7, 0.9):
                mass, stiffness = chain(lengths)
                delta = cfl * 2 / math.sqrt(lambda_max(mass, stiffness))
                scheme = LeapfrogLTS(lengths, element_levels, delta, 0.1, held={0})
                row.append(stability(scheme, free=list(range(1, len(mass)))))
            print(f"  {levels} levels: " + ", ".join(f"cfl {c}: {x:+.1e}" for c, x in
                                                      zip((0.5, 0.7, 0.9), row)))
    if args.wall or everything:
        print("wall impact, cfl 0.9, nu 0.1 (16 elements of 1 at the wall, 8 of each coarser "
              "size 2, 4, ...): contact duration, restitution, largest energy-balance deviation")
        print(f"{'levels':>6} {'scheme':>16} {'contact':>9} {'d contact':>10} {'e':>9} "
              f"{'energy dev':>11}")
        for levels in (2, 3, 4):
            lengths, element_levels = graded_bar(levels)
            reference = wall_impact(lengths, [0] * len(lengths), hold=False)
            for name, levels_used, hold in (("global", [0] * len(lengths), False),
                                            ("local, no hold", element_levels, False),
                                            ("local, hold", element_levels, True)):
                contact, e, deviation = wall_impact(lengths, levels_used, hold)
                print(f"{levels:6d} {name:>16} {contact:9.3f} {contact / reference[0] - 1:+10.2e} "
                      f"{e:9.6f} {deviation:11.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
