"""Read small ``.traj`` files with trajectopy and store the stamps and positions it reads.

Produces ``tests/data/trajectopy_header_reference.json``: for each case, the file's text
and what trajectopy 5.1.2's ``Trajectory.from_file`` reads from it (``timestamps``,
``positions.xyz``). ``tests/io/test_tum.py`` writes each text and compares robot_msgs'
reading with them. The cases are the header lines its ``io/header.py`` reads wherever
they are in the file (a ``#time_offset`` after the first rows: the last one wins) and
those that change how rows are split or stamps parsed (``#delimiter``, ``#time_format
datetime`` with ``#datetime_format`` and ``#datetime_timezone``).

Usage, from the repository root, in an environment with trajectopy 5.x::

    python3 -m venv VENV && VENV/bin/pip install trajectopy==5.1.2
    VENV/bin/python tests/data/make_trajectopy_header_reference.py

robot_msgs never imports trajectopy (GPL-3.0); this script only runs it.
"""

from __future__ import annotations

import json
import logging
import tempfile
from importlib.metadata import version
from pathlib import Path

OUT = Path(__file__).resolve().parent / "trajectopy_header_reference.json"
FIELDS = "#fields t,px,py,pz,qx,qy,qz,qw\n"
CASES = {
    "time_offset_after_rows": "#time_offset 100\n" + FIELDS + "1.0,0,0,0,0,0,0,1\n"
    "2.0,1,0,0,0,0,0,1\n#time_offset 0.25\n3.0,2,0,0,0,0,0,1\n",
    "semicolon": "#delimiter ';'\n" + FIELDS + "1.0;0;0;0;0;0;0;1\n2.5;1;2;3;0;0;0;1\n",
    "datetime_utc": "#time_format datetime\n" + FIELDS + "2011-05-10 12:38:22.16,0,0,0,0,0,0,1\n"
    "2011-05-10 12:38:23.4,1,0,0,0,0,0,1\n",
    "datetime_gps_format": "#time_format datetime\n#datetime_format %d.%m.%Y %H:%M:%S\n"
    "#datetime_timezone GPS\n" + FIELDS + "10.05.2011 12:38:22,0,0,0,0,0,0,1\n"
    "10.05.2011 12:38:24,1,0,0,0,0,0,1\n",
    "datetime_two_columns": "#time_format datetime\n#fields t,t,px,py,pz,qx,qy,qz,qw\n"
    "2011-05-10,12:38:22.5,0,0,0,0,0,0,1\n2011-05-10,12:38:23.0,1,0,0,0,0,0,1\n",
}


def main() -> int:
    """Read each case with trajectopy and write the JSON file."""
    from trajectopy import Trajectory

    logging.basicConfig(level=logging.ERROR)
    out: dict[str, object] = {
        "tool": f"trajectopy {version('trajectopy')}",
        "made_by": "VENV/bin/python tests/data/make_trajectopy_header_reference.py",
        "call": "Trajectory.from_file(path): timestamps, positions.xyz",
    }
    with tempfile.TemporaryDirectory() as folder:
        for name, text in CASES.items():
            path = Path(folder) / f"{name}.traj"
            path.write_text(text, encoding="utf-8")
            traj = Trajectory.from_file(str(path))
            out[name] = {
                "text": text,
                "stamps_s": [float(v) for v in traj.timestamps],
                "positions_xyz": traj.positions.xyz.tolist(),
            }
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(CASES)} cases)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
