"""Cameras: raw and compressed images, calibration, regions of interest (``sensor_msgs``)."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any

import numpy as np

from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.primitives import Float32, UInt8, UInt32
from robot_msgs.std import Header, _zeros
from robot_msgs.typing import Float64Array, UInt8Array

__all__ = [
    "ENCODINGS",
    "CameraInfo",
    "CompressedImage",
    "DisparityImage",
    "Image",
    "RegionOfInterest",
]

#: Pixel layout of the common ``Image.encoding`` values: element type and channels.
ENCODINGS: dict[str, tuple[str, int]] = {
    "mono8": ("u1", 1),
    "8UC1": ("u1", 1),
    "rgb8": ("u1", 3),
    "bgr8": ("u1", 3),
    "8UC3": ("u1", 3),
    "rgba8": ("u1", 4),
    "bgra8": ("u1", 4),
    "8UC4": ("u1", 4),
    "mono16": ("u2", 1),
    "16UC1": ("u2", 1),
    "16SC1": ("i2", 1),
    "32SC1": ("i4", 1),
    "32FC1": ("f4", 1),
    "64FC1": ("f8", 1),
}


@message("sensor/Image", ros2="sensor_msgs/msg/Image")
class Image(Msg):
    """An uncompressed image, as camera drivers publish it.

    Attributes
    ----------
    header : Header
        ``stamp`` is when the image was acquired; ``frame_id`` the optical frame.
    height, width : uint32, pixels
    encoding : str
        Pixel layout (``"rgb8"``, ``"mono16"``, ``"32FC1"`` depth in metres, ...).
    is_bigendian : uint8
        1 if multi-byte pixels are big-endian.
    step : uint32, bytes per row
    data : ndarray, shape (B,), uint8
        ``B = step * height`` bytes, as ROS defines it; :meth:`pixels` is the typed view.
    """

    header: Header = Header()
    height: UInt32 = 0
    width: UInt32 = 0
    encoding: str = ""
    is_bigendian: UInt8 = 0
    step: UInt32 = 0
    data: Annotated[UInt8Array, Shape("B")] = field(default_factory=_zeros("u1"))

    def _validate(self) -> None:
        if self.data.size != self.step * self.height:
            expected = f"step * height = {self.step * self.height} bytes"
            raise self._fail(field="data", expected=expected, got=self.data)

    def pixels(self) -> np.ndarray[Any, Any]:
        """Return the pixels as ``(height, width)`` or ``(height, width, channels)``, read-only.

        A view of ``data`` where the rows have no padding (``step`` is the row's bytes),
        else a copy.

        Raises
        ------
        ValidationError
            An encoding not in :data:`ENCODINGS` (such as Bayer patterns), or rows
            shorter than ``width`` pixels (a ``ValueError`` too).

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> image = example("sensor/Image")
        >>> image.encoding, image.pixels().shape, image.pixels()[1, 0].tolist()
        ('rgb8', (2, 3, 3), [0, 0, 255])
        """
        if self.encoding not in ENCODINGS:
            expected = f"an encoding of {', '.join(ENCODINGS)}"
            raise self._fail(field="encoding", expected=expected, got=self.encoding)
        kind, channels = ENCODINGS[self.encoding]
        dtype = np.dtype(kind).newbyteorder(">" if self.is_bigendian else "<")
        row_bytes = self.width * channels * dtype.itemsize
        if row_bytes > self.step:
            expected = f"step >= {row_bytes} bytes for {self.width} pixels"
            raise self._fail(field="step", expected=expected, got=self.step)
        rows = self.data.reshape(self.height, self.step)[:, :row_bytes]
        out: np.ndarray[Any, Any] = np.ascontiguousarray(rows).view(dtype)
        out = out.reshape(self.height, self.width, channels)
        out.setflags(write=False)
        return out[:, :, 0] if channels == 1 else out


@message("sensor/CompressedImage", ros2="sensor_msgs/msg/CompressedImage")
class CompressedImage(Msg):
    """A compressed image (JPEG, PNG), as ``image_transport`` publishes ``.../compressed``.

    Attributes
    ----------
    header : Header
        ``stamp`` is when the image was acquired; ``frame_id`` the optical frame.
    format : str
        ``"jpeg"``, ``"png"``, or ``"rgb8; jpeg compressed bgr8"`` as ROS writes it.
    data : ndarray, shape (B,), uint8
        The encoded file's bytes.
    """

    header: Header = Header()
    format: str = ""
    data: Annotated[UInt8Array, Shape("B")] = field(default_factory=_zeros("u1"))


@message("sensor/RegionOfInterest", ros2="sensor_msgs/msg/RegionOfInterest")
class RegionOfInterest(Msg):
    """A rectangle of an image: where it starts and its size, in pixels.

    Attributes
    ----------
    x_offset, y_offset, height, width : uint32, pixels
        All four 0: the full image.
    do_rectify : bool
        Whether the region is taken from the rectified image.
    """

    x_offset: UInt32 = 0
    y_offset: UInt32 = 0
    height: UInt32 = 0
    width: UInt32 = 0
    do_rectify: bool = False


@message("sensor/CameraInfo", ros2="sensor_msgs/msg/CameraInfo")
class CameraInfo(Msg):
    """A camera's calibration: intrinsics, distortion, rectification and projection.

    ROS's flat ``float64[9]`` and ``float64[12]`` are row-major 3x3 and 3x4 matrices; they
    are held so and flattened back on the way to ROS (flat input accepted).

    Attributes
    ----------
    header : Header
        ``stamp`` is the image's it describes; ``frame_id`` the optical frame.
    height, width : uint32, pixels
    distortion_model : str
        ``"plumb_bob"`` (5 coefficients), ``"rational_polynomial"`` (8), ``"equidistant"``.
    d : tuple of float
        Distortion coefficients, unitless, as the model defines them.
    k : ndarray, shape (3, 3), float64
        Intrinsics ``[[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``, pixels.
    r : ndarray, shape (3, 3), float64
        Rectification rotation (stereo), unitless.
    p : ndarray, shape (3, 4), float64
        Projection of the rectified image, pixels (``p[0, 3] = -fx * baseline`` for the
        right camera of a stereo pair, metres × pixels).
    binning_x, binning_y : uint32
        Pixels combined per output pixel (0 or 1: none).
    roi : RegionOfInterest
        The part of the image the camera sent (all 0: the whole image).
    """

    header: Header = Header()
    height: UInt32 = 0
    width: UInt32 = 0
    distortion_model: str = ""
    d: tuple[float, ...] = ()
    k: Annotated[Float64Array, Shape(3, 3)] = field(default_factory=_zeros("f8", (3, 3)))
    r: Annotated[Float64Array, Shape(3, 3)] = field(default_factory=_zeros("f8", (3, 3)))
    p: Annotated[Float64Array, Shape(3, 4)] = field(default_factory=_zeros("f8", (3, 4)))
    binning_x: UInt32 = 0
    binning_y: UInt32 = 0
    roi: RegionOfInterest = RegionOfInterest()


@message("sensor/DisparityImage", ros2="stereo_msgs/msg/DisparityImage")
class DisparityImage(Msg):
    """A stereo pair's disparity map, as ``stereo_image_proc`` publishes it.

    Depth is ``f * t / disparity``. ROS keeps this type in ``stereo_msgs``.

    WHY in ``sensor``: it is a camera image with its stereo geometry, and the family
    is what the data is, as for the other camera types.

    Attributes
    ----------
    header : Header
        As ``image.header``: when the pair was taken, in the left camera's optical frame.
    image : Image
        ``32FC1`` disparities, pixels.
    f : float32, pixels
        Focal length.
    t : float32, metres
        Baseline.
    valid_window : RegionOfInterest
        Where disparities were computed.
    min_disparity, max_disparity : float32, pixels
        The disparity search range.
    delta_d : float32, pixels
        The smallest change in disparity the matcher resolves.
    """

    header: Header = Header()
    image: Image = Image()
    f: Float32 = 0.0
    t: Float32 = 0.0
    valid_window: RegionOfInterest = RegionOfInterest()
    min_disparity: Float32 = 0.0
    max_disparity: Float32 = 0.0
    delta_d: Float32 = 0.0
