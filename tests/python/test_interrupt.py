"""Ctrl-C stops rebound.lumped and rebound.sweep: a half-space solve that would take over ten
minutes (128 cells, 4000 steps per Hertz duration) raises KeyboardInterrupt once Python's SIGINT
handler runs (here simulated by _thread.interrupt_main from a timer thread, as a terminal's Ctrl-C
or Jupyter's "interrupt" would). Without the check inside the solve the call runs to its end and
the test exceeds its CTest timeout. Afterwards the module still solves."""

import _thread
import threading
import unittest

import rebound
from common import case_path


def slow_case():
    return rebound.load_case(case_path("sphere-lai-psi2.json")).with_changes(
        {"lumped": {"model": "halfspace", "cells": 128, "time_steps": 4000}})


def interrupted(call):
    """Raises KeyboardInterrupt in the main thread 0.5 s into call(); True if call() raised it."""
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        call()
    except KeyboardInterrupt:
        return True
    finally:
        timer.cancel()
    return False


class CtrlC(unittest.TestCase):
    def test_lumped(self):
        case = slow_case()  # built before the timer starts: the interrupt lands in the solve
        self.assertTrue(interrupted(lambda: rebound.lumped(case, history=False)))
        summary = rebound.lumped(case_path("sphere-lai-psi2.json"), history=False)
        self.assertEqual(summary["status"], "completed")

    def test_sweep(self):
        case = slow_case()
        self.assertTrue(interrupted(
            lambda: rebound.sweep(case, psi1=[1.0, 2.0], threads=2, as_frame=False)))
        rows = rebound.sweep(case_path("sphere-lai-psi2.json"), psi1=[1.0, 2.0], as_frame=False)
        self.assertEqual(len(rows["psi2"]), 2)


if __name__ == "__main__":
    unittest.main()
