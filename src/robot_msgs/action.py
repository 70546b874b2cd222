"""The state of ROS 2 actions' goals (family ``action``, ROS 2's ``action_msgs``).

Every action server publishes a :class:`GoalStatusArray` on ``<action>/_action/status``
(Nav2's ``navigate_to_pose``, MoveIt's ``execute_trajectory``): what a robot was asked
to do and how it ended. :class:`UUID` is ``unique_identifier_msgs/UUID``, the goal's id.
"""

from __future__ import annotations

import uuid as uuid_module
from dataclasses import field
from typing import Annotated, ClassVar

from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.primitives import Int8
from robot_msgs.std import Time, _zeros
from robot_msgs.typing import UInt8Array

__all__ = ["UUID", "GoalInfo", "GoalStatus", "GoalStatusArray"]


@message("action/UUID", ros2="unique_identifier_msgs/msg/UUID")
class UUID(Msg):
    """A universally unique id, as 16 octets (RFC 4122).

    Attributes
    ----------
    uuid : ndarray, shape (16,), uint8
        The id's bytes; :meth:`to_uuid` is Python's :class:`uuid.UUID` of them.
    """

    uuid: Annotated[UInt8Array, Shape(16)] = field(default_factory=_zeros("u1", 16))

    def to_uuid(self) -> uuid_module.UUID:
        """Return the id as a :class:`uuid.UUID`.

        Examples
        --------
        >>> import numpy as np
        >>> UUID(uuid=np.arange(16, dtype=np.uint8)).to_uuid()
        UUID('00010203-0405-0607-0809-0a0b0c0d0e0f')
        """
        return uuid_module.UUID(bytes=self.uuid.tobytes())


@message("action/GoalInfo", ros2="action_msgs/msg/GoalInfo")
class GoalInfo(Msg):
    """A goal's id and when the server accepted it.

    Attributes
    ----------
    goal_id : UUID
        The goal's unique id, chosen by the client that sent it.
    stamp : Time
        When the server accepted the goal.
    """

    goal_id: UUID = UUID()
    stamp: Time = Time()


@message("action/GoalStatus", ros2="action_msgs/msg/GoalStatus")
class GoalStatus(Msg):
    """Where one goal stands.

    Attributes
    ----------
    goal_info : GoalInfo
        Which goal, and when the server accepted it.
    status : int8
        :attr:`STATUS_UNKNOWN`, :attr:`STATUS_ACCEPTED`, :attr:`STATUS_EXECUTING`,
        :attr:`STATUS_CANCELING`, :attr:`STATUS_SUCCEEDED`, :attr:`STATUS_CANCELED` or
        :attr:`STATUS_ABORTED`.
    """

    STATUS_UNKNOWN: ClassVar[int] = 0
    STATUS_ACCEPTED: ClassVar[int] = 1
    STATUS_EXECUTING: ClassVar[int] = 2
    STATUS_CANCELING: ClassVar[int] = 3
    STATUS_SUCCEEDED: ClassVar[int] = 4
    STATUS_CANCELED: ClassVar[int] = 5
    STATUS_ABORTED: ClassVar[int] = 6

    goal_info: GoalInfo = GoalInfo()
    status: Int8 = 0


@message("action/GoalStatusArray", ros2="action_msgs/msg/GoalStatusArray")
class GoalStatusArray(Msg):
    """The status of every goal an action server knows, as ``_action/status`` carries it.

    Attributes
    ----------
    status_list : tuple of GoalStatus
        One per goal: its ID, when it was accepted, and its state.
    """

    status_list: tuple[GoalStatus, ...] = ()
