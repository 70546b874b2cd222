"""The topic names a written bag may carry: ROS 2's rule, kept open to ROS 1 bags' names.

rosbags writes any text as a topic, so a bag could be written on ``''`` or ``/``, names
no ROS 2 tool can subscribe to or replay (``ros2 bag play`` refuses them). ROS 2's rule
for a fully qualified topic name is rmw's ``rmw_validate_full_topic_name``
(``ros2/rmw``, ``rmw/src/validate_full_topic_name.c``; the design article "Topic and
Service name mapping to DDS"): not empty, a leading ``/``, no ``/`` at the end (which
catches ``/``), no ``//``, only ``[A-Za-z0-9_/]``, no token starting with a digit, at
most 247 characters.

Two of those rules are not applied, because the bags this package converts break them
and a ROS 1 name has always been written through: a ROS 1 bag's topic may be relative
(evo's ``ROS_example.bag`` records ``groundtruth``) and hold other characters (its
``S-PTAM``). A relative name still starts as ROS 1 and ROS 2 both require, with a letter
(``~``, the private namespace, is substituted before anything is recorded). Space and
control characters, which no ``ros2`` command line names, are refused.
"""

from __future__ import annotations

from robot_msgs.errors import ValidationError

__all__ = ["check_topic_name"]

#: rmw's RMW_TOPIC_MAX_NAME_LENGTH: 255 less 8 characters kept for the DDS prefixes (``rt/``).
_MOST_CHARACTERS = 247


def _why_not(topic: str) -> str:
    """Say what makes ``topic`` no topic name a bag may carry, or ``""``."""
    if not topic:
        return "it is empty"
    if topic[0] != "/" and not (topic[0].isascii() and topic[0].isalpha()):
        return "it starts with neither '/' nor a letter"
    if topic.endswith("/"):
        return "it ends with '/'" if topic != "/" else "'/' alone is the root namespace"
    if "//" in topic:
        return "it holds '//'"
    if any(c.isspace() or not c.isprintable() for c in topic):
        return "it holds a space or control character"
    if any(token[:1].isdigit() for token in topic.split("/")):
        return "a part of it starts with a digit"
    if len(topic) > _MOST_CHARACTERS:
        return f"it is {len(topic)} characters long, more than {_MOST_CHARACTERS}"
    return ""


def check_topic_name(topic: str) -> str:
    """Return ``topic`` when a bag may be written on it; raise naming it otherwise.

    Parameters
    ----------
    topic : str
        A topic name: ``/odom``, or a ROS 1 bag's relative name (``groundtruth``).

    Returns
    -------
    str
        ``topic``, unchanged.

    Raises
    ------
    ValidationError
        ``topic`` is empty, ``/``, ends with ``/``, holds ``//``, a space or a control
        character, a part starting with a digit (``/cam/0``), more than 247 characters,
        or starts with something else than ``/`` or a letter.

    Examples
    --------
    >>> check_topic_name("/odom"), check_topic_name("S-PTAM")
    ('/odom', 'S-PTAM')
    >>> check_topic_name("/")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: topic '/' is no ROS 2 topic name ('/' alone is the \
root namespace); name it as /odom or /robot/pose
    """
    why = _why_not(topic)
    if why:
        reason = f"no ROS 2 topic name ({why}); name it as /odom or /robot/pose"
        msg = f"topic {topic!r} is {reason}"
        raise ValidationError(msg, reason=reason)
    return topic
