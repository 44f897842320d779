"""setup.py: the tak package, with libtak.so built from this repository.

`pip install ./python` (from the repository root) runs `make shared` in the
repository and puts the library inside the package, so the installed package
needs nothing else; outside the repository (or with TAK_SYSTEM_LIBRARY=1) it
is left out and the package loads the system's libtak.so (make install).
"""
import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def version() -> str:
    for line in (REPO / "include/tak/version.h").read_text().splitlines():
        if line.startswith("#define TAK_VERSION "):
            return line.split('"')[1]
    raise RuntimeError("no TAK_VERSION in include/tak/version.h")


def in_repository() -> bool:
    return (REPO / "Makefile").exists() and (REPO / "include/tak/version.h").exists() and \
        not os.environ.get("TAK_SYSTEM_LIBRARY")


class BuildWithLibrary(build_py):
    """build_py, then libtak.so (the repository's `make shared`) into the package."""

    def run(self) -> None:
        super().run()
        if not in_repository():
            return
        make = os.environ.get("MAKE", "make")
        subprocess.run([make, "-C", str(REPO), "--no-print-directory", "shared"], check=True)
        so = (REPO / "build/libtak.so").resolve()
        target = Path(self.build_lib) / "tak" / f"libtak.so.{version().split('.')[0]}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(so, target)


class BinaryDistribution(Distribution):
    """A wheel for this platform: it carries a shared library."""

    def has_ext_modules(self) -> bool:
        return in_repository()


setup(
    name="tak",
    version=version() if (REPO / "include/tak/version.h").exists() else "1.0.0",
    description="Tak: positions, moves, PTN and TPS, perft, and the engine (libtak's binding)",
    long_description=(HERE / "README.md").read_text(),
    long_description_content_type="text/markdown",
    packages=["tak"],
    package_data={"tak": ["py.typed"]},
    python_requires=">=3.8",
    cmdclass={"build_py": BuildWithLibrary},
    distclass=BinaryDistribution,
)
