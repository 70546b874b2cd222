"""``python -m robot_msgs``."""

import sys

from robot_msgs.cli import main

sys.exit(main())
