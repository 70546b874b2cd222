"""Single readings of the environment: pressure, temperature, light, humidity, distance."""

from __future__ import annotations

from typing import ClassVar

from robot_msgs.msg import Msg, message
from robot_msgs.msg.primitives import Float32, UInt8
from robot_msgs.std import Header

__all__ = ["FluidPressure", "Illuminance", "Range", "RelativeHumidity", "Temperature"]


@message("sensor/FluidPressure", ros2="sensor_msgs/msg/FluidPressure")
class FluidPressure(Msg):
    """A pressure reading, as barometers (altitude) and water-depth sensors give it.

    Attributes
    ----------
    header : Header
        When the reading was taken, and the sensor's frame (``frame_id``).
    fluid_pressure : float, pascals (absolute)
        The pressure measured, not relative to the atmosphere's (about 101325 Pa at sea
        level).
    variance : float, Pa²
        0: unknown.
    """

    header: Header = Header()
    fluid_pressure: float = 0.0
    variance: float = 0.0


@message("sensor/Temperature", ros2="sensor_msgs/msg/Temperature")
class Temperature(Msg):
    """A temperature reading.

    Attributes
    ----------
    header : Header
        When the reading was taken, and the sensor's frame (``frame_id``).
    temperature : float, °C
    variance : float, °C²
        0: unknown.
    """

    header: Header = Header()
    temperature: float = 0.0
    variance: float = 0.0


@message("sensor/Illuminance", ros2="sensor_msgs/msg/Illuminance")
class Illuminance(Msg):
    """A light reading.

    Attributes
    ----------
    header : Header
        When the reading was taken, and the sensor's frame (``frame_id``).
    illuminance : float, lux
        The light measured, photometric (weighted to the eye's sensitivity).
    variance : float, lux²
        0: unknown.
    """

    header: Header = Header()
    illuminance: float = 0.0
    variance: float = 0.0


@message("sensor/RelativeHumidity", ros2="sensor_msgs/msg/RelativeHumidity")
class RelativeHumidity(Msg):
    """A humidity reading.

    Attributes
    ----------
    header : Header
        When the reading was taken, and the sensor's frame (``frame_id``).
    relative_humidity : float in ``[0, 1]``
        A fraction, not a percentage: 0 is dry air, 1 air saturated with water vapour.
    variance : float
        Of ``relative_humidity`` (a fraction, squared); 0: unknown.
    """

    header: Header = Header()
    relative_humidity: float = 0.0
    variance: float = 0.0


@message("sensor/Range", ros2="sensor_msgs/msg/Range")
class Range(Msg):
    """One distance reading of a single-beam sensor (ultrasound, infrared, a 1-D lidar).

    Attributes
    ----------
    header : Header
        ``frame_id``'s x axis is the beam.
    radiation_type : uint8
        :attr:`ULTRASOUND` or :attr:`INFRARED`.
    field_of_view : float32, radians (the arc the distance applies to)
    min_range, max_range : float32, metres
    range : float32, metres
        As ROS defines it: ``-inf`` means too close to detect, ``+inf`` nothing in range.
    """

    ULTRASOUND: ClassVar[int] = 0
    INFRARED: ClassVar[int] = 1

    header: Header = Header()
    radiation_type: UInt8 = 0
    field_of_view: Float32 = 0.0
    min_range: Float32 = 0.0
    max_range: Float32 = 0.0
    range: Float32 = 0.0
