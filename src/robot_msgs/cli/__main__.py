"""``python -m robot_msgs.cli``."""

import sys

from robot_msgs.cli import main

sys.exit(main())
