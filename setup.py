"""Builds the Python package with the project's CMake build.

`pip install --no-build-isolation .` (pyproject.toml) runs this: it builds
the extension _tfrt_fallback in $TFRT_FALLBACK_BUILD_DIR (default build/,
through scripts/build.sh, which installs what is missing first) for the
Python that runs pip, then puts the package's files and the extension in
the wheel."""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
# setup.cfg keeps setuptools' folders here, which must exist first.
os.makedirs(os.path.join(ROOT, "build", "setuptools"), exist_ok=True)


class BuildWithCMake(build_py):
    def run(self):
        build = os.environ.get("TFRT_FALLBACK_BUILD_DIR", os.path.join(ROOT, "build"))
        env = dict(os.environ, TARGETS="_tfrt_fallback tfrt-fallback-python-sources")
        subprocess.run([os.path.join(ROOT, "scripts", "build.sh"), build,
                        "-DPython_EXECUTABLE=" + sys.executable,
                        "-DTFRT_FALLBACK_ENABLE_PYTHON=ON"], check=True, env=env)
        super().run()
        target = os.path.join(self.build_lib, "tfrt_fallback")
        os.makedirs(target, exist_ok=True)
        for extension in glob.glob(os.path.join(build, "python_packages", "tfrt_fallback",
                                                "_tfrt_fallback*.so")):
            shutil.copy2(extension, target)


class BinaryDistribution(Distribution):
    """A wheel for this platform and Python: it holds a compiled module."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithCMake}, distclass=BinaryDistribution)
