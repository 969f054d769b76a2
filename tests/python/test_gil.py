"""rebound.lumped and rebound.sweep release the GIL while they solve: a Python thread keeps
counting during the call (with the GIL held it would not run at all until the call returns)."""

import random
import sys
import threading
import time
import unittest

import rebound
from common import case_path


def counts_during(call):
    """The rate at which a Python thread advances a counter while `call()` runs, relative to its
    rate while the main thread sleeps (GIL free), and how long the call ran. With the GIL held
    the thread only runs in the switch interval (set to 0.1 ms here) after the call: ~0."""
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    thread = threading.Thread(target=spin)
    thread.start()
    try:
        time.sleep(0.02)
        before = counter[0]
        time.sleep(0.1)
        free_rate = (counter[0] - before) / 0.1
        before = counter[0]
        start = time.perf_counter()
        call()
        elapsed = time.perf_counter() - start
        after = counter[0]
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    return (after - before) / elapsed / free_rate, elapsed


class GilReleased(unittest.TestCase):
    def test_lumped(self):
        case = rebound.load_case(case_path("sphere-lai-psi2.json")).with_changes(
            {"lumped": {"model": "halfspace", "cells": 16}})
        rate, elapsed = counts_during(lambda: rebound.lumped(case, history=False))
        self.assertGreater(elapsed, 0.2)
        self.assertGreater(rate, 0.1, f"counter at {rate:.3f} of its free rate for {elapsed:.3f} s")

    def test_sweep(self):
        case = rebound.load_case(case_path("sphere-lai-psi2.json"))
        rate, elapsed = counts_during(
            lambda: rebound.sweep(case, psi1="0.1:8:400", models=["mdr"], threads=1,
                                  as_frame=False))
        self.assertGreater(elapsed, 0.2)
        self.assertGreater(rate, 0.1, f"counter at {rate:.3f} of its free rate for {elapsed:.3f} s")

    def test_the_measure_sees_a_held_gil(self):
        """The same measure around a C call that keeps the GIL (list.sort) reads ~0."""
        data = [random.random() for _ in range(1_000_000)]
        rate, elapsed = counts_during(data.sort)
        self.assertGreater(elapsed, 0.1)
        self.assertLess(rate, 0.05)


if __name__ == "__main__":
    unittest.main(verbosity=2)
