"""Produce tests/data/pickles_of_previous_release.pkl: messages as robot_msgs 0.2.0 pickled them.

The release before the message base became the package ``robot_msgs.msg`` (commit
af12b29): its pickles name ``robot_msgs.msg._rebuild`` and, for messages with map
fields, ``robot_msgs.msg_fields.FrozenMap``. The test checks that every one still loads
and equals what it held. Run from the repository root with those sources unpacked:

    mkdir -p /tmp/old_af12b29 && git archive af12b29 src | tar -x -C /tmp/old_af12b29
    PYTHONPATH=/tmp/old_af12b29/src .venv/bin/python tests/data/make_pickles_of_previous_release.py

Each catalog example is kept twice: pickled, and as ``to_json`` text (which loads by the
tested JSON road), so the test compares what the pickle gives with what it held.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import robot_msgs

OUT = Path(__file__).with_name("pickles_of_previous_release.pkl")


def main() -> None:
    # The 0.2.0 sources keep the catalog at the top level (robot_msgs.msg.catalog since).
    from robot_msgs.catalog import examples  # type: ignore[import-not-found]

    assert "/old" in robot_msgs.__file__, robot_msgs.__file__
    stored = {
        name: (pickle.dumps(msg, protocol=4), robot_msgs.to_json(msg).decode())
        for name, msg in sorted(examples().items())
    }
    OUT.write_bytes(pickle.dumps(stored, protocol=4))
    print(f"wrote {OUT} ({len(stored)} messages)")


if __name__ == "__main__":
    main()
