"""``meta.json`` and manifest entries: the keys a run may declare, checked by one rule.

Every key is optional. Unknown keys are errors in ``meta.json`` and in a manifest entry
alike, so a typo cannot pass unseen; each value must have the type below; the message
names the file and the key (``runs[2].trial``).

============================  ======================================================
``algorithm``, ``sequence``   the run's keys (strings; ``trial`` may be an integer)
``trial``
``version``, ``dataset``,     what the run was (strings)
``hardware``, ``clock``
``failure`` / ``exit_code``   the run reported failing (text / a non-zero integer)
``input_rate_hz``             the sensor's nominal rate (number)
``parameters``, ``software``  ``{name: scalar}`` and ``{package: version}``
``estimate``, ``reference``   trajectory paths (relative to the folder or manifest)
``*_format``, ``*_topic``     passed to :func:`robot_msgs.io.read_trajectory`
``*_times``                   a KITTI times file (a path)
``bag``, ``latency_topic``    a bag whose header stamps give a latency proxy
============================  ======================================================

A manifest entry may also give ``path`` (its run folder) and ``name``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from robot_msgs.documents import json_kind, parse_json, read_document
from robot_msgs.errors import FormatError
from robot_msgs.msg.fields import encodable
from robot_msgs.runs.spec import RunMeta

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["ENTRY_KEYS", "META_KEYS", "PATH_KEYS", "check_keys", "meta_from", "read_meta"]

#: Keys of ``meta.json`` and the JSON type each must have.
META_KEYS: dict[str, str] = {
    "algorithm": "label",
    "sequence": "label",
    "trial": "key",
    "version": "str",
    "dataset": "str",
    "hardware": "str",
    "clock": "str",
    "failure": "str",
    "exit_code": "int",
    "input_rate_hz": "rate",
    "parameters": "object",
    "software": "object",
    "estimate": "str",
    "estimate_format": "str",
    "estimate_topic": "str",
    "estimate_times": "str",
    "reference": "str",
    "reference_format": "str",
    "reference_topic": "str",
    "reference_times": "str",
    "bag": "str",
    "latency_topic": "str",
}

#: Keys a manifest entry (or ``[defaults]``) may add to :data:`META_KEYS`.
ENTRY_KEYS: dict[str, str] = {**META_KEYS, "path": "str", "name": "name"}

#: Keys holding paths, relative to the file that names them.
PATH_KEYS = ("path", "estimate", "reference", "estimate_times", "reference_times", "bag")

_MESSAGES = {
    "str": "a string",
    "key": "a non-empty string or an integer",
    "name": "a name with more than spaces",
    "label": 'a string with more than spaces ("" for not stated)',
    "int": "an integer",
    "rate": "a finite number of hertz > 0",
    "object": "a table of names to values",
}


def _fits(kind: str, value: object) -> bool:
    if kind == "str":
        return isinstance(value, str)
    if kind == "key":
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return True  # some JSON writers print trial 3 as 3.0
        return (isinstance(value, str) and value != "") or (
            isinstance(value, int) and not isinstance(value, bool)
        )
    if kind == "label":  # " " was a blank ranking line or column, "" says "not stated"
        return isinstance(value, str) and (value == "" or value.strip() != "")
    if kind == "name":  # `name = ""` named its run with nothing, a blank row (a review)
        return isinstance(value, str) and value.strip() != ""
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "rate":  # a rate of -5 or 1e400 Hz was taken as the sensor's
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        try:
            return math.isfinite(float(value)) and value > 0
        except OverflowError:  # an integer past float64
            return False
    return isinstance(value, Mapping)


def check_keys(data: Mapping[str, Any], where: str, keys: Mapping[str, str]) -> None:
    """Raise naming ``where`` and the key when ``data`` has an unknown key or a wrong type.

    Raises
    ------
    FormatError
        The first unknown key (with the keys allowed), or the first value of the wrong
        type (with the type expected and the value got).

    Examples
    --------
    >>> check_keys({"trial": 1, "algorithm": "orb"}, "meta.json", META_KEYS)
    >>> check_keys({"algorithmn": "orb"}, "meta.json", META_KEYS)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: meta.json: unknown key `algorithmn`; expected one of \
algorithm, bag, clock, dataset, estimate, estimate_format, estimate_times, estimate_topic, \
exit_code, failure, hardware, input_rate_hz, latency_topic, parameters, reference, \
reference_format, reference_times, reference_topic, sequence, software, trial, version
    """
    for key, value in data.items():
        kind = keys.get(key)
        if kind is None:
            msg = f"{where}: unknown key `{key}`; expected one of {', '.join(sorted(keys))}"
            raise FormatError(msg)
        if not _fits(kind, value):
            got = f"{type(value).__name__} {value!r:.40}"
            msg = f"{where}: `{key}`: expected {_MESSAGES[kind]}, got {got}"
            raise FormatError(msg)
        if key not in PATH_KEYS:  # a file name's bytes: the folder code names those
            _check_encodable(value, f"{where}: `{key}`")
    for key in ("parameters", "software"):
        for name, value in dict(data.get(key, {})).items():
            _check_encodable(value, f"{where}: `{key}.{name}`")
            if key == "software" and not isinstance(value, str):
                msg = f"{where}: `software.{name}`: expected a version string, got {value!r:.40}"
                raise FormatError(msg)
            if value is not None and not isinstance(value, str | int | float | bool):
                got = type(value).__name__
                msg = f"{where}: `parameters.{name}`: expected a scalar, got {got}"
                raise FormatError(msg)


def _check_encodable(value: object, at: str) -> None:
    r"""Refuse a string UTF-8 cannot encode (JSON's ``\ud800``): it failed mid-sweep, unnamed."""
    if isinstance(value, str) and not encodable(value):
        msg = f"{at}: expected text UTF-8 can encode, got {value!r:.40} (a lone surrogate)"
        raise FormatError(msg)


def read_meta(path: Path) -> dict[str, Any]:
    """Read and check a run's ``meta.json`` (a UTF-8 BOM is accepted); return its keys.

    Raises
    ------
    FormatError
        Not UTF-8, not JSON (line and column named), nested too deep or larger than the
        bounds of :mod:`robot_msgs.limits`, a device, not an object, an unknown key or a
        wrong type.
    """
    data = parse_json(read_document(path, what="JSON file"), source=str(path))
    if not isinstance(data, dict):
        msg = f"{path}: expected a JSON object, got a JSON {json_kind(data)}"
        raise FormatError(msg)
    check_keys(data, str(path), META_KEYS)
    return data


def meta_from(keys: Mapping[str, Any]) -> RunMeta:
    """Build the :class:`RunMeta` of a run's checked keys (the others are ignored)."""
    values = {k: keys[k] for k in RunMeta.__dataclass_fields__ if k in keys}
    if "input_rate_hz" in values:
        values["input_rate_hz"] = float(values["input_rate_hz"])
    if "bag" in values:
        values["bag"] = str(values["bag"])
    return RunMeta(**values)
