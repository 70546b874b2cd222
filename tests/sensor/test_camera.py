"""Cameras' messages: what their methods refuse, in robot_msgs' errors."""

from __future__ import annotations

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.sensor import Image


def test_an_images_pixels_it_cannot_lay_out_are_our_error() -> None:
    """Image.pixels() raised a bare ValueError (not robot_msgs'): an encoding it does not
    know, rows shorter than the width's pixels (3 rgb8 pixels are 9 bytes, step 8)."""
    bayer = Image(height=1, width=2, encoding="bayer_rggb8", step=2, data=np.zeros(2, np.uint8))
    with pytest.raises(ValidationError, match=r"Expected an encoding of mono8, .*, got str "):
        bayer.pixels()
    short = Image(height=1, width=3, encoding="rgb8", step=8, data=np.zeros(8, np.uint8))
    with pytest.raises(
        ValidationError,
        match=r"^Expected step >= 9 bytes for 3 pixels, got int 8 - at `Image.step`$",
    ):
        short.pixels()
