"""Where robot_msgs 0.2.0 kept ``FrozenMap``: named by the pickles it wrote, so they still load.

The message base has since become the package :mod:`robot_msgs.msg` (``FrozenMap`` is in
:mod:`robot_msgs.msg.fields`, exported as ``robot_msgs.msg.FrozenMap``). A message with a
map field (a ``Comparison``'s counts, an ``EvaluationResult``...) pickled by 0.2.0 names
``robot_msgs.msg_fields.FrozenMap``; nothing else imports this module.
"""

from __future__ import annotations

from robot_msgs.msg.fields import FrozenMap

__all__ = ["FrozenMap"]
