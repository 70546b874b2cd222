"""Reference pages generated from the package: facts gathered by introspection, HTML out.

:mod:`robot_msgs.docs.introspect` gathers what a page says about a message type;
:mod:`robot_msgs.docs.html` renders it. ``robot-msgs docs --out DIR`` writes the pages.
"""

from robot_msgs.docs.html import render_index, render_site, render_type_page
from robot_msgs.docs.introspect import PackageFacts, TypeDoc, describe, describe_all, package_facts

__all__ = [
    "PackageFacts",
    "TypeDoc",
    "describe",
    "describe_all",
    "package_facts",
    "render_index",
    "render_site",
    "render_type_page",
]
