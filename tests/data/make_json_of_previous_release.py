"""Produce tests/data/json_of_previous_release.json: JSON as robot_msgs 0.2.0 wrote it.

Strict JSON from the release before infinities were kept ("Infinity"/"-Infinity"): NaN
and both infinities were ``null`` then. The test checks that every such document still
loads (its ``null`` floats as NaN). Run from the repository root with the release's
sources unpacked (commit 9745f2d, before this change):

    mkdir -p /tmp/old && git archive 9745f2d src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src .venv/bin/python tests/data/make_json_of_previous_release.py
"""

from __future__ import annotations

import json
from pathlib import Path

import robot_msgs

OUT = Path(__file__).with_name("json_of_previous_release.json")


def main() -> None:
    # The 0.2.0 sources keep the catalog at the top level (robot_msgs.msg.catalog since);
    # imported here, so that collecting this file under today's package imports nothing old.
    from robot_msgs.catalog import examples  # type: ignore[import-not-found]

    assert "/old/" in robot_msgs.__file__ or "old_" in robot_msgs.__file__, robot_msgs.__file__
    documents = {name: robot_msgs.to_json(msg).decode() for name, msg in sorted(examples().items())}
    OUT.write_text(json.dumps(documents, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(documents)} documents)")


if __name__ == "__main__":
    main()
