"""Which configuration of an algorithm a run was, and what tables call it.

A run's *configuration* is its ``(algorithm, version, parameters)``: runs of ``orb`` 1.0
and ``orb`` 2.0, or of ``orb`` with 1000 and with 2000 features, are different things to
rank and to summarise. Rankings (:class:`~robot_msgs.runs.RankingTally`), the per-group
summaries of a report and of a sweep, repeatability and the report's figures key on
:class:`Configuration`; :func:`configuration_labels` names each one.

WHY the labels are chosen from every configuration at once, when a result is computed:
an algorithm with one configuration among the runs keeps its bare name (``orb``), one
with several is told apart by what differs (``orb 1.0``, ``orb (n_features=1000)``), and
only the set of all configurations says which. A tally of part of the runs cannot know
it, so tallies key on the configuration itself and merge exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from robot_msgs.msg import Scalar

__all__ = ["Configuration", "configuration_labels", "differing_parameters"]


@dataclass(frozen=True, slots=True)
class Configuration:
    """One algorithm as it was run: its name, version and parameters (sorted by name).

    Two configurations are equal when their algorithm, version and parameters are, each
    parameter value with its type: ``1``, ``1.0``, ``True`` and ``"1"`` are four values
    (Python's ``1 == 1.0 == True`` pooled a sweep of a flag and a count into one row;
    a review), and NaN is equal to NaN (two runs with ``x = nan`` are one setting).

    Examples
    --------
    >>> Configuration.of("orb", "2.0", {"scale": 1.2, "n_features": 1000})
    Configuration(algorithm='orb', version='2.0', parameters=(('n_features', 1000), ('scale', 1.2)))
    >>> Configuration.of("orb", "", {"k": 1}) == Configuration.of("orb", "", {"k": True})
    False
    """

    algorithm: str
    version: str = ""
    parameters: tuple[tuple[str, Scalar], ...] = field(default=(), compare=False)
    _key: tuple[tuple[str, str, str], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        key = tuple((name, type(v).__name__, _spelled(v)) for name, v in self.parameters)
        object.__setattr__(self, "_key", key)

    @classmethod
    def of(
        cls, algorithm: str, version: str = "", parameters: Mapping[str, Scalar] | None = None
    ) -> Configuration:
        """Return the configuration of a run that states these (its parameters in any order)."""
        return cls(algorithm, version, tuple(sorted((parameters or {}).items())))


def _spelled(value: Scalar) -> str:
    """Return a parameter value as its configuration compares it (``-0.0`` as ``0.0``)."""
    if isinstance(value, float) and value == 0.0:
        return "0.0"
    return repr(value)


def configuration_labels(configurations: Iterable[Configuration]) -> dict[Configuration, str]:
    """Name each configuration: its algorithm, and what differs from its algorithm's others.

    An algorithm with one configuration among ``configurations`` is named alone
    (``orb``); with several, each name adds its version when the versions differ
    (``orb 1.0``) and, in brackets, the parameters whose values differ among them
    (``orb (n_features=1000)``; a parameter a configuration lacks is left out of its
    name). Should two names of one algorithm still coincide (a parameter ``1`` and
    another ``"1"``, versions ``"1.0"`` and ``"1.0 "``), the values and versions are
    written as Python literals; should names of two algorithms coincide (an algorithm
    called ``orb 1.0`` beside ``orb`` version 1.0), each of them is numbered (``orb 1.0
    #1``, ``orb 1.0 #2``, in the order met), so no two configurations share a name.

    Examples
    --------
    >>> labels = configuration_labels(
    ...     [
    ...         Configuration.of("orb", "1.0", {"n_features": 1000, "scale": 1.2}),
    ...         Configuration.of("orb", "1.0", {"n_features": 2000, "scale": 1.2}),
    ...         Configuration.of("vins", "2.0"),
    ...     ]
    ... )
    >>> list(labels.values())
    ['orb (n_features=1000)', 'orb (n_features=2000)', 'vins']
    >>> versions = [Configuration("orb", "1.0"), Configuration("orb", "2.0")]
    >>> list(configuration_labels(versions).values())
    ['orb 1.0', 'orb 2.0']
    >>> list(configuration_labels([*versions, Configuration("orb 1.0")]).values())
    ['orb 1.0 #1', 'orb 2.0', 'orb 1.0 #2']
    """
    by_algorithm: dict[str, list[Configuration]] = {}
    for configuration in dict.fromkeys(configurations):
        by_algorithm.setdefault(configuration.algorithm, []).append(configuration)
    labels: dict[Configuration, str] = {}
    for algorithm, mine in by_algorithm.items():
        if len(mine) == 1:
            labels[mine[0]] = algorithm
            continue
        for spell in (str, repr):
            named = _told_apart(mine, spell)
            if len({_visible(label) for label in named.values()}) == len(named):
                break
        labels.update(named)
    seen: dict[str, list[Configuration]] = {}
    for configuration, label in labels.items():
        seen.setdefault(_visible(label), []).append(configuration)
    for label, alike in seen.items():
        if len(alike) > 1:
            for k, configuration in enumerate(alike, start=1):
                labels[configuration] = f"{label} #{k}"
    return labels


def _visible(label: str) -> str:
    """Return a label as a table shows it: runs of white space as one space, none at the ends."""
    return " ".join(label.split())


def differing_parameters(configurations: Iterable[Configuration]) -> list[str]:
    """Return the names of the parameters whose values differ among ``configurations``, sorted.

    A parameter some configurations lack differs; values compare with their types, as
    configurations do.

    Examples
    --------
    >>> seeds = [Configuration.of("orb", "", {"seed": s, "k": 1}) for s in (0, 1)]
    >>> differing_parameters(seeds)
    ['seed']
    """
    typed = [{name: (type(v), _spelled(v)) for name, v in c.parameters} for c in configurations]
    names = sorted({name for parameters in typed for name in parameters})
    return [name for name in names if any(t.get(name) != typed[0].get(name) for t in typed)]


def _told_apart(
    configurations: list[Configuration], spell: Callable[[object], str]
) -> dict[Configuration, str]:
    """Name configurations of one algorithm by their version and parameters that differ."""
    stated = [dict(c.parameters) for c in configurations]
    differ = differing_parameters(configurations)
    versions = len({c.version for c in configurations}) > 1
    out = {}
    for configuration, parameters in zip(configurations, stated, strict=True):
        label = configuration.algorithm
        if versions and configuration.version:
            label += f" {spell(configuration.version)}"
        shown = [f"{name}={spell(parameters[name])}" for name in differ if name in parameters]
        if shown:
            label += f" ({', '.join(shown)})"
        out[configuration] = label
    return out
