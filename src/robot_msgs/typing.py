"""Array aliases used in annotations: the name says the dtype, the docstring the shape and unit."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "BoolArray",
    "Float32Array",
    "Float64Array",
    "Int8Array",
    "Int16Array",
    "Int32Array",
    "Int64Array",
    "IntpArray",
    "UInt8Array",
    "UInt16Array",
    "UInt32Array",
    "UInt64Array",
]

Float64Array = npt.NDArray[np.float64]
"""A float64 array; shape and unit are given where it is used."""

Int64Array = npt.NDArray[np.int64]
"""An int64 array, such as stamps in nanoseconds."""

Float32Array = npt.NDArray[np.float32]
"""A float32 array, as ROS's ``float32[]`` fields (laser ranges) carry them."""

Int8Array = npt.NDArray[np.int8]
"""An int8 array, such as occupancy grid cells."""

UInt8Array = npt.NDArray[np.uint8]
"""A uint8 array: raw bytes of images, point clouds and meshes."""

Int16Array = npt.NDArray[np.int16]
"""An int16 array (ROS's ``int16[]``)."""

Int32Array = npt.NDArray[np.int32]
"""An int32 array (ROS's ``int32[]``)."""

UInt16Array = npt.NDArray[np.uint16]
"""A uint16 array (ROS's ``uint16[]``)."""

UInt32Array = npt.NDArray[np.uint32]
"""A uint32 array (ROS's ``uint32[]``)."""

UInt64Array = npt.NDArray[np.uint64]
"""A uint64 array (ROS's ``uint64[]``)."""

IntpArray = npt.NDArray[np.intp]
"""Index arrays."""

BoolArray = npt.NDArray[np.bool_]
"""Masks."""

AnyArray = npt.NDArray[Any]
