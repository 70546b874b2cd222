r"""Strict JSON out: the one place non-finite floats become ``null``.

Every JSON file the package writes and everything ``--json`` prints goes through
:func:`dumps`, so any strict parser reads it (``NaN`` and ``Infinity`` are not JSON). A
message's ``from_dict`` reads ``null`` in a float field back as NaN, so saved messages
load back equal.

Examples
--------
>>> dumps({"rms": float("nan"), "n": 0})
'{\n  "rms": null,\n  "n": 0\n}\n'
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "json_safe"]


def json_safe(value: Any) -> Any:
    """Return ``value`` with NaN and infinities replaced by ``None``, recursively.

    Examples
    --------
    >>> json_safe({"a": [1.0, float("nan")], "b": {"c": float("inf")}})
    {'a': [1.0, None], 'b': {'c': None}}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def dumps(data: Any, *, indent: int | None = 2) -> str:
    r"""Return ``data`` as strict JSON text ending in a newline, keys in the order given.

    ``indent=None`` writes one compact line (the C encoder: several times faster for big
    outputs).

    Examples
    --------
    >>> dumps([1.5, float("inf")], indent=None)
    '[1.5,null]\n'
    """
    separators = (",", ":") if indent is None else None
    return json.dumps(json_safe(data), indent=indent, separators=separators, allow_nan=False) + "\n"
