"""Builds and installs the longcraft package: `pip install ./python` (or
`pip install -e ./python`) from a Longcraft checkout compiles the Go
shared library (go build -buildmode=c-shared ./cmd/liblongcraft, which
needs Go and gcc and nothing from the network) into the package. Only
setuptools is needed to build it, with no build isolation (there is no
pyproject.toml on purpose: pip then builds with the setuptools it finds
instead of fetching one), so the install works offline with Debian's
python3-setuptools and python3-numpy. docs/python.md says which
interpreter to use and how.
"""

import os
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py
from setuptools.command.develop import develop

HERE = os.path.dirname(os.path.abspath(__file__))
#: The checkout the library is built from: python/'s parent, or
#: LONGCRAFT_ROOT.
ROOT = os.environ.get("LONGCRAFT_ROOT") or os.path.dirname(HERE)
LIB = "liblongcraft.so"


def build_library(out_dir):
    """go build -buildmode=c-shared ./cmd/liblongcraft into out_dir."""
    if not os.path.exists(os.path.join(ROOT, "go.mod")) or not os.path.isdir(os.path.join(ROOT, "cmd", "liblongcraft")):
        raise SystemExit("longcraft: %s is not a Longcraft checkout (no go.mod and cmd/liblongcraft): install from the checkout's "
                         "python/ directory, or set LONGCRAFT_ROOT to the checkout" % ROOT)
    go = os.environ.get("GO", "go")
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(os.path.abspath(out_dir), LIB)
    cmd = [go, "build", "-buildmode=c-shared", "-o", out, "./cmd/liblongcraft"]
    print("longcraft: building the shared library: (cd %s && CGO_ENABLED=1 %s)" % (ROOT, " ".join(cmd)))
    try:
        subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, CGO_ENABLED="1"), check=True)
    except FileNotFoundError:
        raise SystemExit("longcraft: no Go toolchain (%r) on PATH: install Go 1.26 or set GO to its go binary" % go)
    except subprocess.CalledProcessError as e:
        raise SystemExit("longcraft: building %s failed (exit %d): the library needs Go and gcc (cgo)" % (LIB, e.returncode))
    # The C header cgo writes beside the library is not part of the package.
    header = os.path.splitext(out)[0] + ".h"
    if os.path.exists(header):
        os.remove(header)


class BuildPy(build_py):
    """Copies the package, then builds the library into it."""

    def run(self):
        super().run()
        build_library(os.path.join(self.build_lib, "longcraft"))


class Develop(develop):
    """pip install -e: the library goes into the source package."""

    def run(self):
        build_library(os.path.join(HERE, "longcraft"))
        super().run()


class BinaryDistribution(Distribution):
    """The package holds a compiled library: its wheel is for this
    platform, not pure Python."""

    def has_ext_modules(self):
        return True


setup(
    name="longcraft",
    version="0.1.0",
    description="Longcraft's batched, zero-copy vector environment (Gymnasium's vector API) over the Go core",
    packages=["longcraft"],
    python_requires=">=3.9",
    install_requires=["numpy"],
    cmdclass={"build_py": BuildPy, "develop": Develop},
    distclass=BinaryDistribution,
    zip_safe=False,
)
