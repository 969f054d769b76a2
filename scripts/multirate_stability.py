#!/usr/bin/env python3
"""Linear stability of the FEM's multirate leapfrog on a graded 1-D bar (docs/FEM.md, "Local
time stepping: measured, not adopted"), an independent reference for the instability that
`build/bin/bench_fem_local` measures on the 3-D meshes.

The bar: linear elements with lumped masses (unit density, modulus and section), a fine part of
n_fine elements of length h and a coarse part of n_coarse elements of length 2 h, free ends.
Global leapfrog with step dt = cfl * 2 / sqrt(lambda_max(M^-1 K)) is stable for cfl < 1. The
multirate leapfrog (the same kicks, drifts and order as SolverImpl::step_local with two levels:
the coarse elements act every 2 fine steps with the impulse 2 dt K_c u, the nodes of coarse
elements only move every 2 fine steps, the others every fine step) is written as the matrix of
one coarse step acting on (u, v), and its spectral radius is printed against cfl. The impulse
method is known to be resonant when the coarse step is a multiple of half a period of the fast
part (Biesiadecki & Skeel 1993; Garcia-Archilla, Sanz-Serna & Skeel 1998): 2 dt omega = pi,
i.e. cfl = pi / 4 = 0.785 for the fastest fine mode.

With --energy N it also runs N coarse steps from two initial states (a smooth bump in the fine
part and a random displacement, both at rest) and prints, per cfl, the largest deviation of the
energy measure the FEM reports, 1/2 v- M v+ + 1/2 u.Ku at the synchronisation times (v- and v+
the velocities before and after the kick there), from its initial value, relative: the largest
over the first tenth of the steps and over their second half (equal for a bounded deviation,
growing for a drift). With one level this is the global leapfrog, for which the measure is
exactly conserved.

With --buffer B the first B elements of every coarser level step one level finer (a buffer of
coarse elements evaluated at the finer rate between the levels): the interface nodes then sit
between elements too large for the finest modes, which reach them only evanescently.

Usage: multirate_stability.py [--fine N] [--coarse N] [--levels L] [--buffer B] [--cfl a,b,...]
                              [--energy N]
"""
import argparse
import math
import sys

try:
    import numpy as np
except ImportError:
    sys.exit("multirate_stability.py: needs numpy (apt-get install python3-numpy)")


def bar(n_fine, n_coarse, h=1.0, levels=2, buffer=0):
    """Lumped mass, element stiffness list and element level of the graded bar: n_fine elements
    of length h (level 0), then n_coarse of each coarser level l = 1 .. levels - 1 (length 2^l h),
    the first `buffer` of them stepping at level l - 1."""
    lengths, element_levels = [h] * n_fine, [0] * n_fine
    for level in range(1, levels):
        lengths += [h * 2 ** level] * n_coarse
        element_levels += [level - 1] * buffer + [level] * (n_coarse - buffer)
    n = len(lengths) + 1
    mass = np.zeros(n)
    elements = []
    for e, length in enumerate(lengths):
        mass[e] += 0.5 * length
        mass[e + 1] += 0.5 * length
        k = np.zeros((n, n))
        k[e, e] = k[e + 1, e + 1] = 1 / length
        k[e, e + 1] = k[e + 1, e] = -1 / length
        elements.append(k)
    return mass, elements, element_levels


def level_matrices(mass, elements, levels, top):
    """K_l per level and each node's level (the finest of its elements)."""
    n = len(mass)
    k_level = [sum((k for k, l in zip(elements, levels) if l == level), np.zeros((n, n)))
               for level in range(top + 1)]
    node_level = np.full(n, top)
    for k, l in zip(elements, levels):
        touched = np.nonzero(np.diag(k))[0]
        node_level[touched] = np.minimum(node_level[touched], l)
    return k_level, node_level


def bump(elements, centre, width):
    """A smooth displacement exp(-((x - centre) / width)^2) at the nodes (x from the element
    lengths, 1 / stiffness)."""
    x = np.zeros(len(elements) + 1)
    for e, k_e in enumerate(elements):
        x[e + 1] = x[e] + 1 / k_e[e, e]
    return np.exp(-(((x - centre) / width) ** 2))


def energy_history(mass, elements, levels, dt, u0, steps):
    """The energy measure 1/2 v- M v+ + 1/2 u.Ku at each of `steps` synchronisation times of the
    multirate leapfrog from (u0, v = 0), in SolverImpl::step_local's order (all nodes are kicked
    at m = 0; v- is the velocity before that kick, v+ after it)."""
    top = max(levels)
    k_level, node_level = level_matrices(mass, elements, levels, top)
    k = sum(k_level)
    u, v = u0.copy(), np.zeros_like(u0)
    energies = []
    for _ in range(steps):
        for m in range(2 ** top):
            due = top if m == 0 else (m & -m).bit_length() - 1
            force = sum(2 ** l * (k_level[l] @ u) for l in range(due + 1))
            moving = node_level <= due
            v_new = np.where(moving, v - dt * force / mass, v)
            if m == 0:
                energies.append(0.5 * np.dot(v * mass, v_new) + 0.5 * u @ (k @ u))
            v = v_new
            u = np.where(moving, u + (2.0 ** node_level) * dt * v, u)
    return np.array(energies)


def propagator(mass, elements, levels, dt, top=None):
    """The matrix of one coarse step (2^top fine steps; top: the largest level) of the multirate
    leapfrog, in SolverImpl::step_local's order: at fine step m the levels l <= due(m) (the
    largest l with 2^l | m) kick their nodes with sum_l 2^l dt K_l u, then those nodes move."""
    n = len(mass)
    top = max(levels) if top is None else top
    k_level, node_level = level_matrices(mass, elements, levels, top)
    inverse_mass = 1 / mass

    def coarse_step(state):
        u, v = state[:n].copy(), state[n:].copy()
        for m in range(2 ** top):
            due = top if m == 0 else (m & -m).bit_length() - 1
            force = sum(2 ** l * (k_level[l] @ u) for l in range(due + 1))
            moving = node_level <= due
            v = np.where(moving, v - dt * inverse_mass * force, v)
            u = np.where(moving, u + (2.0 ** node_level) * dt * v, u)
        return np.concatenate([u, v])

    return np.column_stack([coarse_step(e) for e in np.eye(2 * n)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fine", type=int, default=40, help="fine elements (default 40)")
    parser.add_argument("--coarse", type=int, default=40,
                        help="elements of each coarser level (default 40)")
    parser.add_argument("--levels", type=int, default=2, help="levels (default 2)")
    parser.add_argument("--buffer", type=int, default=0,
                        help="elements of each coarser level stepping one level finer (default 0)")
    parser.add_argument("--cfl", default="0.5,0.6,0.7,0.75,0.78,0.79,0.8,0.82,0.85,0.9",
                        help="comma-separated cfl values")
    parser.add_argument("--energy", type=int, default=0, metavar="N",
                        help="also run N coarse steps and print the energy measure's deviation")
    args = parser.parse_args()
    try:
        cfls = [float(x) for x in args.cfl.split(",")]
    except ValueError:
        sys.exit(f"multirate_stability.py: --cfl {args.cfl}: expected numbers, comma-separated")
    if args.fine < 2 or args.coarse < 2:
        sys.exit("multirate_stability.py: --fine and --coarse need at least 2 elements")
    if not 1 <= args.levels <= 4:
        sys.exit("multirate_stability.py: --levels: expected 1 to 4")
    if args.energy < 0 or (args.energy and args.energy < 20):
        sys.exit("multirate_stability.py: --energy: expected at least 20 coarse steps")
    if not 0 <= args.buffer < args.coarse:
        sys.exit("multirate_stability.py: --buffer: expected 0 to --coarse - 1 elements")
    mass, elements, levels = bar(args.fine, args.coarse, levels=args.levels, buffer=args.buffer)
    k = sum(elements)
    lam = max(np.linalg.eigvals(np.diag(1 / mass) @ k).real)
    sizes = ", ".join(f"{args.coarse} of {2 ** l}h" for l in range(1, args.levels))
    if args.buffer:
        sizes += f" (the first {args.buffer} of each stepping one level finer)"
    print(f"graded bar, {args.levels} levels: {args.fine} elements of h, {sizes}; "
          f"lambda_max(M^-1 K) = {lam:.6g}; the resonance of the two finest levels is predicted "
          f"at cfl = pi/4 = {math.pi / 4:.4f}")
    # The free bar's rigid mode is a double eigenvalue 1 (a Jordan block): the eigenvalue solver
    # returns it as 1 +- ~1e-8, so |rho - 1| < 1e-6 is read as stable.
    print(f"{'cfl':>6} {'spectral radius':>16} {'growth per 1000 coarse steps':>29}  verdict")
    for cfl in cfls:
        dt = cfl * 2 / math.sqrt(lam)
        rho = max(abs(np.linalg.eigvals(propagator(mass, elements, levels, dt))))
        verdict = "stable" if rho < 1 + 1e-6 else "UNSTABLE"
        print(f"{cfl:6.3f} {rho:16.10f} {rho ** 1000:29.4g}  {verdict}")
    if args.energy:
        smooth = bump(elements, 0.5 * args.fine, 5.0)  # 5 fine elements wide, in the fine part
        rough = np.random.default_rng(1).standard_normal(len(mass))
        tenth, half = max(1, args.energy // 10), args.energy // 2
        print(f"energy measure over {args.energy} coarse steps from rest: max |E/E0 - 1| over "
              f"the first tenth and over the second half")
        print(f"{'cfl':>6} {'bump: 1st tenth':>16} {'2nd half':>10} {'random: 1st tenth':>18} "
              f"{'2nd half':>10}")
        for cfl in cfls:
            dt = cfl * 2 / math.sqrt(lam)
            row = []
            for u0 in (smooth, rough):
                e = energy_history(mass, elements, levels, dt, u0, args.energy) / (
                    0.5 * u0 @ (k @ u0))
                deviation = np.abs(e - 1)
                row += [np.max(deviation[:tenth]), np.max(deviation[half:])]
            print(f"{cfl:6.3f} {row[0]:16.3e} {row[1]:10.3e} {row[2]:18.3e} {row[3]:10.3e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
