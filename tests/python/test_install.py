"""`cmake --install BUILD --component python --prefix P` puts a working package into
P/<REBOUND_PYTHON_INSTALL_DIR>/rebound: imported from there alone (not from build/python), it
solves a case as the build tree's module does."""

import os
import subprocess
import sys
import unittest

from common import BUILD_DIR, case_path, temporary_folder

SCRIPT = """
import sys, rebound
assert rebound.__file__.startswith(sys.argv[1]), rebound.__file__
print(repr(rebound.lumped(sys.argv[2], history=False)["psi2"]))
"""


class Install(unittest.TestCase):
    def test_installed_package_imports_and_solves(self):
        prefix = temporary_folder(self)
        cmake = os.environ.get("REBOUND_CMAKE", "cmake")
        subprocess.run([cmake, "--install", BUILD_DIR, "--component", "python", "--prefix", prefix],
                       check=True, capture_output=True, text=True)
        site = os.path.join(prefix, os.environ["REBOUND_PYTHON_INSTALL_DIR"])
        files = sorted(os.listdir(os.path.join(site, "rebound")))
        self.assertIn("__init__.py", files)
        self.assertIn("results.py", files)
        self.assertTrue(any(f.startswith("_rebound.") and f.endswith(".so") for f in files), files)

        case = case_path("sphere-lai-psi2.json")
        outputs = []
        for path in (site, os.path.join(BUILD_DIR, "python")):
            environment = dict(os.environ, PYTHONPATH=path)
            run = subprocess.run([sys.executable, "-c", SCRIPT, path, case], cwd=prefix,
                                 env=environment, capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            outputs.append(float(run.stdout))
        self.assertEqual(outputs[0], outputs[1])
        self.assertAlmostEqual(outputs[0], -0.5179, places=4)


if __name__ == "__main__":
    unittest.main(verbosity=2)
