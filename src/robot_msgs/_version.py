"""The package version, read by ``pyproject.toml`` and by the code without ``importlib.metadata``.

WHY a constant: ``importlib.metadata.version`` scans the installed distributions on every
start (about 40 ms, measured on ``robot-msgs --help``), and the version is needed by
``--version``, reports and result hashes.
"""

__version__ = "0.2.0"
