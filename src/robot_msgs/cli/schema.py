"""``robot-msgs schema TYPE``: print the JSON Schema of a message type's JSON form.

Examples
--------
>>> from robot_msgs.cli import main
>>> main(["schema", "std/Time"])  # doctest: +ELLIPSIS
{
  "$ref": "#/$defs/Time",
...
0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.cli.commands import COMMANDS

if TYPE_CHECKING:
    import argparse

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``schema`` with the ``robot-msgs`` parser."""
    parser = subparsers.add_parser(
        "schema",
        help=COMMANDS["schema"],
        description=(
            "Print the JSON Schema (draft 2020-12) of TYPE's JSON form, as --json, --save "
            "and to_dict() write it. TYPE is a robot_msgs type (geometry/Pose), its ROS 2 "
            "name (geometry_msgs/msg/Pose), or a name only one type has (Imu)."
        ),
    )
    parser.add_argument("type", metavar="TYPE", help="message type, such as compare/ErrorStats")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema of ``args.type``; an unknown type is an error naming the known ones."""
    from robot_msgs.errors import UnknownTypeError, UsageError  # noqa: PLC0415
    from robot_msgs.msg.json_schema import json_schema  # noqa: PLC0415 - msgspec on use
    from robot_msgs.msg.registry import registered_types, type_for  # noqa: PLC0415
    from robot_msgs.strict_json import dumps  # noqa: PLC0415

    name = args.type
    if "/" not in name:  # `schema Imu` (or `imu`), as a user types it: the one type so named
        last = {t: t.rsplit("/", 1)[-1] for t in registered_types()}
        for same in (str.__eq__, lambda a, b: a.casefold() == b.casefold()):
            named = {t for t, base in last.items() if same(base, name)}
            if len(named) == 1:
                name = named.pop()
                break
    try:
        found = type_for(name)
    except UnknownTypeError as err:  # TYPE is the command line's word: a usage error, 2
        raise UsageError(str(err)) from err
    print(dumps(json_schema(found)), end="")
    return 0
