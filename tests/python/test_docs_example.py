"""docs/PYTHON.md's example: its ```python blocks, in order, run as one script from a folder laid
out as the repository root (cases/, build/bin/rebound), with matplotlib's Agg backend; the PNGs it
writes exist and are real plots, and its result folder was read."""

import os
import re
import subprocess
import sys
import unittest

import numpy as np

from common import REBOUND_BINARY, SOURCE_DIR, temporary_folder


def example_code():
    with open(os.path.join(SOURCE_DIR, "docs", "PYTHON.md")) as stream:
        text = stream.read()
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


class DocsExample(unittest.TestCase):
    def test_the_example_runs_and_draws(self):
        blocks = example_code()
        self.assertGreaterEqual(len(blocks), 4)
        root = temporary_folder(self)
        os.symlink(os.path.join(SOURCE_DIR, "cases"), os.path.join(root, "cases"))
        os.makedirs(os.path.join(root, "build", "bin"))
        os.symlink(REBOUND_BINARY, os.path.join(root, "build", "bin", "rebound"))
        script = os.path.join(root, "example.py")
        with open(script, "w") as stream:
            stream.write("\n".join(blocks))
        environment = dict(os.environ, MPLBACKEND="Agg")
        run = subprocess.run([sys.executable, script], cwd=root, env=environment,
                             capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertRegex(run.stdout, r"Psi2 = -0\.51\d\d, e = 0\.99\d\d")
        self.assertIn("rigid_body.pvd", run.stdout)
        # The rows at Psi1 = 0, 2, 4, 6, 8 of both models: 6 included (sweep_psi1 holds the swept
        # values exactly; the psi1 column holds 5.999999999999999 there).
        self.assertIn("\n10 rows\n", run.stdout)
        self.assertIn("rejected: contact.frictoin", run.stdout)
        self.assertIn("not solved: True", run.stdout)
        self.assertIn("plots: ['forces.png', 'impulses.png', 'velocity_of_P.png']", run.stdout)
        self.assertTrue(os.path.isfile(os.path.join(root, "results", "sphere-lai-psi2", "lumped",
                                                    "summary.json")))

        import matplotlib.image
        for name, least_bytes in (("psi2_vs_psi1.png", 20000), ("forces.png", 10000)):
            with self.subTest(png=name):
                path = os.path.join(root, name)
                self.assertTrue(os.path.isfile(path))
                self.assertGreater(os.path.getsize(path), least_bytes)
                image = matplotlib.image.imread(path)
                self.assertGreaterEqual(image.shape[0], 300)
                self.assertGreaterEqual(image.shape[1], 400)
                # Not blank: many colours (curves, legend, text), a white background.
                colours = np.unique(image.reshape(-1, image.shape[2]).round(3), axis=0)
                self.assertGreater(len(colours), 50)
                self.assertGreater((image[..., :3] > 0.99).all(axis=-1).mean(), 0.5)


if __name__ == "__main__":
    unittest.main(verbosity=2)
