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

Usage: multirate_stability.py [--fine N] [--coarse N] [--levels L] [--cfl a,b,...]
"""
import argparse
import math
import sys

try:
    import numpy as np
except ImportError:
    sys.exit("multirate_stability.py: needs numpy (apt-get install python3-numpy)")


def bar(n_fine, n_coarse, h=1.0, levels=2):
    """Lumped mass, element stiffness list and element level of the graded bar: n_fine elements
    of length h (level 0), then n_coarse of each coarser level l = 1 .. levels - 1 (length 2^l h)."""
    lengths, element_levels = [h] * n_fine, [0] * n_fine
    for level in range(1, levels):
        lengths += [h * 2 ** level] * n_coarse
        element_levels += [level] * n_coarse
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


def propagator(mass, elements, levels, dt, top=None):
    """The matrix of one coarse step (2^top fine steps; top: the largest level) of the multirate
    leapfrog, in SolverImpl::step_local's order: at fine step m the levels l <= due(m) (the
    largest l with 2^l | m) kick their nodes with sum_l 2^l dt K_l u, then those nodes move."""
    n = len(mass)
    top = max(levels) if top is None else top
    k_level = [sum((k for k, l in zip(elements, levels) if l == level), np.zeros((n, n)))
               for level in range(top + 1)]
    node_level = np.full(n, top)
    for k, l in zip(elements, levels):
        touched = np.nonzero(np.diag(k))[0]
        node_level[touched] = np.minimum(node_level[touched], l)
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
    parser.add_argument("--cfl", default="0.5,0.6,0.7,0.75,0.78,0.79,0.8,0.82,0.85,0.9",
                        help="comma-separated cfl values")
    args = parser.parse_args()
    try:
        cfls = [float(x) for x in args.cfl.split(",")]
    except ValueError:
        sys.exit(f"multirate_stability.py: --cfl {args.cfl}: expected numbers, comma-separated")
    if args.fine < 2 or args.coarse < 2:
        sys.exit("multirate_stability.py: --fine and --coarse need at least 2 elements")
    if not 1 <= args.levels <= 4:
        sys.exit("multirate_stability.py: --levels: expected 1 to 4")
    mass, elements, levels = bar(args.fine, args.coarse, levels=args.levels)
    k = sum(elements)
    lam = max(np.linalg.eigvals(np.diag(1 / mass) @ k).real)
    sizes = ", ".join(f"{args.coarse} of {2 ** l}h" for l in range(1, args.levels))
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
