"""`pip install ./python` as docs/python.md gives it: into a fresh venv of
this interpreter's base that sees the system's NumPy, offline (--no-index),
the package's build compiling the Go library; then the installed package
imports and runs from elsewhere (make python-test runs this)."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)


class InstallTest(unittest.TestCase):
    def test_pip_install(self):
        with tempfile.TemporaryDirectory() as tmp:
            venv = os.path.join(tmp, "venv")
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True, timeout=120)
            python = os.path.join(venv, "bin", "python")
            out = subprocess.run([python, "-m", "pip", "install", "--no-index", PACKAGE], capture_output=True, text=True, timeout=600)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            self.assertIn("Successfully installed longcraft", out.stdout)
            code = "\n".join([
                "import os, longcraft, numpy as np",
                "d = os.path.dirname(longcraft.__file__)",
                "assert d.startswith(%r), d" % venv,
                "assert sorted(f for f in os.listdir(d) if not f.startswith('__')) == ['liblongcraft.so', 'spaces.py'], os.listdir(d)",
                "env = longcraft.VecEnv(2, size=16, threads=1)",
                "obs, _ = env.reset(seed=0)",
                "obs, r, term, trunc, infos = env.step(env.action_space.sample())",
                "print(env.action_names[0], obs['symbolic'].shape)",
            ])
            out = subprocess.run([python, "-c", code], cwd=tmp, capture_output=True, text=True, timeout=120,
                                 env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LONGCRAFT_LIB")})
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stdout.strip(), "noop (2, 9, 9)")


if __name__ == "__main__":
    unittest.main()
