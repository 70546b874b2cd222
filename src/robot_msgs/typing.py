"""Array aliases used in annotations: the name says the dtype, the docstring the shape and unit."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["BoolArray", "Float64Array", "Int64Array", "IntpArray"]

Float64Array = npt.NDArray[np.float64]
"""A float64 array; shape and unit are given where it is used."""

Int64Array = npt.NDArray[np.int64]
"""An int64 array, such as stamps in nanoseconds."""

IntpArray = npt.NDArray[np.intp]
"""Index arrays."""

BoolArray = npt.NDArray[np.bool_]
"""Masks."""

AnyArray = npt.NDArray[Any]
