"""Flags shared by the evaluation commands, by one import: inputs, outputs, settings.

Each part is in its own module, and this one gives their names together:

:mod:`robot_msgs.cli._input_args`
    ``REF``/``EST``, the input flags, and reading the inputs as they say.
:mod:`robot_msgs.cli._output_args`
    ``--json``, ``--save``, ``--plot`` and the other output flags, and their checks.
:mod:`robot_msgs.cli._settings_args`
    every settings field's flag, built from its declaration, and the settings the flags
    give; the run settings' flags of ``report`` and ``bench``.
:mod:`robot_msgs.cli._flag_text`
    settings and library messages said with flags (:func:`reword`, in one place for
    every command: :func:`robot_msgs.cli.main`).
"""

from __future__ import annotations

from robot_msgs.cli._flag_text import (
    changed_from,
    flag_of,
    flag_text,
    flags_in_text,
    flags_text,
    reword,
    setting_flag,
)
from robot_msgs.cli._input_args import (
    add_geo_args,
    add_input_args,
    inputs_from_args,
    read_files,
    read_inputs_from_args,
    reading_rules,
    side_error,
    unknown_covariances_of,
)
from robot_msgs.cli._output_args import (
    add_json_file_flag,
    add_output_args,
    add_plot_flags,
    add_save_layout_flag,
    check_plot_options,
    check_save_layout,
    given_outputs,
    trajectory_outputs_to,
)
from robot_msgs.cli._settings_args import (
    add_run_settings_args,
    add_settings_flags,
    load_runs_from_args,
    pair_list_from_args,
    settings_from_args,
)

__all__ = [
    "add_geo_args",
    "add_input_args",
    "add_json_file_flag",
    "add_output_args",
    "add_plot_flags",
    "add_run_settings_args",
    "add_save_layout_flag",
    "add_settings_flags",
    "changed_from",
    "check_plot_options",
    "check_save_layout",
    "flag_of",
    "flag_text",
    "flags_in_text",
    "flags_text",
    "given_outputs",
    "inputs_from_args",
    "load_runs_from_args",
    "pair_list_from_args",
    "read_files",
    "read_inputs_from_args",
    "reading_rules",
    "reword",
    "setting_flag",
    "settings_from_args",
    "side_error",
    "trajectory_outputs_to",
    "unknown_covariances_of",
]
