"""The optional C fast path of :mod:`robot_msgs.io.table`; all else is in pyproject.toml.

``robot_msgs.io._fasttable`` is plain C over CPython's API. ``optional=True``: without a
C compiler the install still succeeds, and tables are read by NumPy's ``loadtxt`` with
the same values, several times slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("robot_msgs.io._fasttable", ["src/robot_msgs/io/_fasttable.c"], optional=True)
    ]
)
