"""The optional C fast paths of the table reader and sorted search, and the commit built.

``robot_msgs.io._fasttable`` (:mod:`robot_msgs.io.table`), ``robot_msgs._sorted``
(:mod:`robot_msgs.sorted_search`), ``robot_msgs.msg._json_arrays``
(:mod:`robot_msgs.msg.arrays`), ``robot_msgs.msg._json_keys`` (:mod:`robot_msgs.msg.json`),
``robot_msgs.msg._checks`` (message checks, with
NumPy's C API: its headers come from the build requirements) and
``robot_msgs.evaluation._relations`` (RPE) are C over CPython's API. ``optional=True``:
without a C compiler the install still succeeds, and tables are read by NumPy's
``loadtxt``, sorted needles searched by ``numpy.searchsorted`` and JSON arrays read
from their lists with the same values, several times slower. A build from a git
checkout records the short commit hash in ``robot_msgs/_commit.txt``, so the reference
pages of an installed wheel name the code they describe
(``robot_msgs.docs.introspect.built_commit``); all else is in pyproject.toml.
"""

import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


def _numpy_include() -> str | None:
    """NumPy's C headers (a build requirement in pyproject.toml), or None without NumPy."""
    try:
        import numpy as np  # noqa: PLC0415 - only for building
    except ImportError:
        return None
    return str(np.get_include())


_NUMPY_INCLUDE = _numpy_include()


def _commit() -> str | None:
    """Short hash of this checkout's HEAD (with -dirty), or None outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=7", "HEAD"],  # noqa: S607 - git from PATH
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"],  # noqa: S607
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("-dirty" if dirty else "")


class BuildWithCommit(build_py):
    """``build_py`` that also writes ``robot_msgs/_commit.txt`` into the build."""

    def run(self) -> None:
        """Build as usual, then record the commit."""
        super().run()
        commit = _commit()
        if commit:
            target = Path(self.build_lib) / "robot_msgs" / "_commit.txt"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(commit + "\n", encoding="utf-8")


setup(
    ext_modules=[
        Extension("robot_msgs.io._fasttable", ["src/robot_msgs/io/_fasttable.c"], optional=True),
        Extension("robot_msgs._sorted", ["src/robot_msgs/_sorted.c"], optional=True),
        Extension(
            "robot_msgs.evaluation._relations",
            ["src/robot_msgs/evaluation/_relations.c"],
            # NumPy rounds a product and a sum apart: no fused multiply-add (the loop gives
            # the NumPy kernel's bits). MSVC does not contract by default.
            extra_compile_args=[] if sys.platform == "win32" else ["-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "robot_msgs.msg._json_arrays", ["src/robot_msgs/msg/_json_arrays.c"], optional=True
        ),
        Extension("robot_msgs.msg._json_keys", ["src/robot_msgs/msg/_json_keys.c"], optional=True),
        *(
            []
            if _NUMPY_INCLUDE is None  # a build without NumPy's headers: no _checks
            else [
                Extension(
                    "robot_msgs.msg._checks",
                    ["src/robot_msgs/msg/_checks.c"],
                    include_dirs=[_NUMPY_INCLUDE],
                    # is_rotation_matrix's test on Python floats, bit for bit: no fused
                    # multiply-add
                    extra_compile_args=[] if sys.platform == "win32" else ["-ffp-contract=off"],
                    optional=True,
                )
            ]
        ),
    ],
    cmdclass={"build_py": BuildWithCommit},
)
