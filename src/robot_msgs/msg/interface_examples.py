"""Catalog examples of the ROS 2 common-interface types added for interop (one per type).

:mod:`robot_msgs.msg.catalog` merges these with its own; they live apart to keep each module
small. The values are plausible readings (a TurtleBot-sized robot, a VGA camera, a
16-beam scan), so each example also documents its units.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs import (
    action,
    diagnostic,
    geometry,
    nav,
    rcl,
    rosgraph,
    sensor,
    shape,
    std,
    tf2,
    trajectory,
    visualization,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.msg.base import Msg
    from robot_msgs.typing import Float32Array, UInt32Array

__all__ = ["INTERFACE_EXAMPLES"]


def _header(frame_id: str = "base_link") -> std.Header:
    return std.Header(stamp=std.Time(sec=1700000000, nanosec=250000000), frame_id=frame_id)


def _yaw_quarter() -> geometry.Quaternion:
    half = float(np.sqrt(0.5))
    return geometry.Quaternion(z=half, w=half)


def _image() -> sensor.Image:
    # 2 rows of 3 rgb8 pixels, rows padded to 10 bytes: red, green, blue / blue, green, red.
    rows = [[255, 0, 0, 0, 255, 0, 0, 0, 255, 0], [0, 0, 255, 0, 255, 0, 255, 0, 0, 0]]
    return sensor.Image(
        header=_header("camera_optical"),
        height=2,
        width=3,
        encoding="rgb8",
        step=10,
        data=np.array(rows, dtype=np.uint8).ravel(),
    )


def _cloud() -> sensor.PointCloud2:
    dtype = np.dtype({"names": ["x", "y", "z", "intensity"], "formats": ["<f4"] * 4})
    points = np.array(
        [(1.0, 0.0, 0.0, 10.0), (0.0, 2.0, 0.0, 20.0), (0.0, 0.0, 1.5, 30.0)], dtype=dtype
    )
    fields = tuple(
        sensor.PointField(name=n, offset=4 * i, datatype=sensor.PointField.FLOAT32, count=1)
        for i, n in enumerate(("x", "y", "z", "intensity"))
    )
    return sensor.PointCloud2(
        header=_header("lidar"),
        height=1,
        width=3,
        fields=fields,
        point_step=16,
        row_step=48,
        data=np.frombuffer(points.tobytes(), dtype=np.uint8),
        is_dense=True,
    )


def _camera_info() -> sensor.CameraInfo:
    k = np.array([[525.0, 0.0, 319.5], [0.0, 525.0, 239.5], [0.0, 0.0, 1.0]])
    return sensor.CameraInfo(
        header=_header("camera_optical"),
        height=480,
        width=640,
        distortion_model="plumb_bob",
        d=(0.2624, -0.9531, -0.0054, 0.0026, 1.1633),
        k=k,
        r=np.eye(3),
        p=np.concatenate([k, np.zeros((3, 1))], axis=1),
    )


def _marker() -> visualization.Marker:
    return visualization.Marker(
        header=_header("map"),
        ns="path",
        id=3,
        type=visualization.Marker.LINE_STRIP,
        action=visualization.Marker.ADD,
        scale=geometry.Vector3(x=0.05),
        color=std.ColorRGBA(r=0.0, g=0.5, b=1.0, a=1.0),
        points=(geometry.Point(), geometry.Point(x=1.0), geometry.Point(x=1.0, y=1.0)),
        lifetime=std.Duration(sec=2),
    )


def _multi_dof_point(x: float, sec: int) -> trajectory.MultiDOFJointTrajectoryPoint:
    return trajectory.MultiDOFJointTrajectoryPoint(
        transforms=(geometry.Transform(translation=geometry.Vector3(x=x, z=1.0)),),
        time_from_start=std.Duration(sec=sec),
    )


def _transform(parent: str, child: str, x: float) -> geometry.TransformStamped:
    return geometry.TransformStamped(
        header=_header(parent),
        child_frame_id=child,
        transform=geometry.Transform(translation=geometry.Vector3(x=x), rotation=_yaw_quarter()),
    )


def _layout() -> std.MultiArrayLayout:
    # a 2 x 3 matrix, row-major: what a 6-joint ros2_control command would say of itself
    return std.MultiArrayLayout(
        dim=(
            std.MultiArrayDimension(label="rows", size=2, stride=6),
            std.MultiArrayDimension(label="cols", size=3, stride=3),
        )
    )


def _multi(kind: type[Msg], values: list[int] | list[float]) -> Msg:
    return kind(layout=_layout(), data=values)  # type: ignore[call-arg]  # every *MultiArray


def _double(value: float) -> rcl.ParameterValue:
    return rcl.ParameterValue(type=rcl.ParameterType.PARAMETER_DOUBLE, double_value=value)


def _speed_descriptor() -> rcl.ParameterDescriptor:
    return rcl.ParameterDescriptor(
        name="max_vel_x",
        type=rcl.ParameterType.PARAMETER_DOUBLE,
        description="Largest forward speed the controller commands, m/s",
        floating_point_range=(rcl.FloatingPointRange(from_value=0.0, to_value=1.0),),
    )


def _goal() -> action.GoalInfo:
    goal_id = bytes.fromhex("6f1d3c2a9b8e4f70a1b2c3d4e5f60718")
    return action.GoalInfo(
        goal_id=action.UUID(uuid=np.frombuffer(goal_id, dtype=np.uint8)),
        stamp=std.Time(sec=1700000000, nanosec=5000000),
    )


def _f32(*values: float) -> Float32Array:
    return np.array(values, dtype=np.float32)


def _u32(*values: int) -> UInt32Array:
    return np.array(values, dtype=np.uint32)


def _echo(*ranges: float) -> sensor.LaserEcho:
    return sensor.LaserEcho(echoes=_f32(*ranges))


def _points() -> tuple[geometry.Point32, ...]:
    return (geometry.Point32(x=1.0), geometry.Point32(y=2.0), geometry.Point32(z=1.5))


_MORE_EXAMPLES: dict[str, Callable[[], Msg]] = {
    "std/MultiArrayDimension": lambda: std.MultiArrayDimension(label="joints", size=6, stride=6),
    "std/MultiArrayLayout": _layout,
    "std/Float64MultiArray": lambda: _multi(
        std.Float64MultiArray, [0.1, -0.4, 1.2, 0.0, 0.25, -1.5]
    ),
    "std/Float32MultiArray": lambda: _multi(std.Float32MultiArray, [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]),
    "std/ByteMultiArray": lambda: _multi(std.ByteMultiArray, [0, 1, 127, 128, 200, 255]),
    "std/Int8MultiArray": lambda: _multi(std.Int8MultiArray, [-128, -1, 0, 1, 64, 127]),
    "std/UInt8MultiArray": lambda: _multi(std.UInt8MultiArray, [0, 1, 2, 253, 254, 255]),
    "std/Int16MultiArray": lambda: _multi(std.Int16MultiArray, [-32768, -2, 0, 2, 300, 32767]),
    "std/UInt16MultiArray": lambda: _multi(std.UInt16MultiArray, [0, 1, 2, 3, 4096, 65535]),
    "std/Int32MultiArray": lambda: _multi(
        std.Int32MultiArray, [-(2**31), -5, 0, 5, 70000, 2**31 - 1]
    ),
    "std/UInt32MultiArray": lambda: _multi(std.UInt32MultiArray, [0, 1, 2, 3, 70000, 2**32 - 1]),
    "std/Int64MultiArray": lambda: _multi(
        std.Int64MultiArray, [-(2**63), -1, 0, 1, 2**40, 2**63 - 1]
    ),
    "std/UInt64MultiArray": lambda: _multi(std.UInt64MultiArray, [0, 1, 2, 3, 2**40, 2**64 - 1]),
    "sensor/LaserEcho": lambda: _echo(1.5, 2.25),
    "sensor/MultiEchoLaserScan": lambda: sensor.MultiEchoLaserScan(
        header=_header("laser"),
        angle_min=-0.25,
        angle_max=0.25,
        angle_increment=0.5,
        scan_time=0.1,
        range_min=0.1,
        range_max=30.0,
        ranges=(_echo(1.5, 2.25), _echo(4.0)),
        intensities=(_echo(80.0, 20.0), _echo(65.0)),
    ),
    "sensor/ChannelFloat32": lambda: sensor.ChannelFloat32(
        name="intensity", values=np.array([10.0, 20.0, 30.0], dtype=np.float32)
    ),
    "sensor/PointCloud": lambda: sensor.PointCloud(
        header=_header("lidar"),
        points=_points(),
        channels=(sensor.ChannelFloat32(name="intensity", values=_f32(10.0, 20.0, 30.0)),),
    ),
    "sensor/DisparityImage": lambda: sensor.DisparityImage(
        header=_header("camera_optical"),
        image=sensor.Image(
            header=_header("camera_optical"),
            height=1,
            width=2,
            encoding="32FC1",
            step=8,
            data=np.frombuffer(np.array([16.0, 32.0], dtype="<f4").tobytes(), dtype=np.uint8),
        ),
        f=525.0,
        t=0.12,
        valid_window=sensor.RegionOfInterest(width=2, height=1),
        min_disparity=1.0,
        max_disparity=64.0,
        delta_d=0.0625,
    ),
    "shape/MeshTriangle": lambda: shape.MeshTriangle(vertex_indices=_u32(0, 1, 2)),
    "shape/Mesh": lambda: shape.Mesh(
        triangles=(
            shape.MeshTriangle(vertex_indices=_u32(0, 1, 2)),
            shape.MeshTriangle(vertex_indices=_u32(0, 2, 3)),
        ),
        vertices=(
            geometry.Point(),
            geometry.Point(x=1.0),
            geometry.Point(x=1.0, y=1.0),
            geometry.Point(y=1.0),
        ),
    ),
    "shape/Plane": lambda: shape.Plane(coef=np.array([0.0, 0.0, 1.0, -0.5])),
    "shape/SolidPrimitive": lambda: shape.SolidPrimitive(
        type=shape.SolidPrimitive.BOX, dimensions=(0.5, 0.3, 0.2)
    ),
    "rcl/Log": lambda: rcl.Log(
        stamp=std.Time(sec=1700000000, nanosec=250000000),
        level=rcl.Log.INFO,
        name="controller_server",
        msg="Reached the goal!",
        file="controller_server.cpp",
        function="computeControl",
        line=381,
    ),
    "rcl/ParameterType": rcl.ParameterType,
    "rcl/ParameterValue": lambda: _double(0.26),
    "rcl/Parameter": lambda: rcl.Parameter(name="max_vel_x", value=_double(0.26)),
    "rcl/ParameterEvent": lambda: rcl.ParameterEvent(
        stamp=std.Time(sec=1700000000),
        node="/controller_server",
        changed_parameters=(rcl.Parameter(name="max_vel_x", value=_double(0.3)),),
    ),
    "rcl/FloatingPointRange": lambda: rcl.FloatingPointRange(from_value=0.0, to_value=1.0),
    "rcl/IntegerRange": lambda: rcl.IntegerRange(from_value=1, to_value=100, step=1),
    "rcl/ParameterDescriptor": _speed_descriptor,
    "rcl/ParameterEventDescriptors": lambda: rcl.ParameterEventDescriptors(
        new_parameters=(_speed_descriptor(),)
    ),
    "rosgraph/Clock": lambda: rosgraph.Clock(clock=std.Time(sec=120, nanosec=500000000)),
    "action/UUID": lambda: _goal().goal_id,
    "action/GoalInfo": _goal,
    "action/GoalStatus": lambda: action.GoalStatus(
        goal_info=_goal(), status=action.GoalStatus.STATUS_SUCCEEDED
    ),
    "action/GoalStatusArray": lambda: action.GoalStatusArray(
        status_list=(
            action.GoalStatus(goal_info=_goal(), status=action.GoalStatus.STATUS_EXECUTING),
        )
    ),
}


INTERFACE_EXAMPLES: dict[str, Callable[[], Msg]] = {
    "std/ColorRGBA": lambda: std.ColorRGBA(r=1.0, g=0.5, b=0.0, a=0.75),
    "std/Bool": lambda: std.Bool(data=True),
    "std/Byte": lambda: std.Byte(data=0x7F),
    "std/Char": lambda: std.Char(data=ord("A")),
    "std/Empty": std.Empty,
    "std/String": lambda: std.String(data="docking"),
    "std/Float32": lambda: std.Float32(data=0.75),
    "std/Float64": lambda: std.Float64(data=1.5707963267948966),
    "std/Int8": lambda: std.Int8(data=-100),
    "std/Int16": lambda: std.Int16(data=-30000),
    "std/Int32": lambda: std.Int32(data=-2000000000),
    "std/Int64": lambda: std.Int64(data=-(2**62)),
    "std/UInt8": lambda: std.UInt8(data=87),
    "std/UInt16": lambda: std.UInt16(data=65535),
    "std/UInt32": lambda: std.UInt32(data=4000000000),
    "std/UInt64": lambda: std.UInt64(data=2**63 + 1),
    "geometry/AccelWithCovariance": lambda: geometry.AccelWithCovariance(
        accel=geometry.Accel(linear=geometry.Vector3(x=0.2, z=9.81)),
        covariance=np.diag([0.01, 0.01, 0.01, 0.001, 0.001, 0.001]),
    ),
    "geometry/AccelWithCovarianceStamped": lambda: geometry.AccelWithCovarianceStamped(
        header=_header("imu_link"),
        accel=geometry.AccelWithCovariance(accel=geometry.Accel(linear=geometry.Vector3(z=9.81))),
    ),
    "geometry/Point32": lambda: geometry.Point32(x=0.25, y=-0.5, z=0.125),
    "geometry/Polygon": lambda: geometry.Polygon(
        points=(
            geometry.Point32(x=0.25, y=0.2),
            geometry.Point32(x=0.25, y=-0.2),
            geometry.Point32(x=-0.25, y=-0.2),
            geometry.Point32(x=-0.25, y=0.2),
        )
    ),
    "geometry/PolygonStamped": lambda: geometry.PolygonStamped(
        header=_header(),
        polygon=geometry.Polygon(
            points=(geometry.Point32(x=0.5), geometry.Point32(y=0.5), geometry.Point32(x=-0.5))
        ),
    ),
    "geometry/Pose2D": lambda: geometry.Pose2D(x=1.5, y=-0.5, theta=0.785),
    "geometry/PoseArray": lambda: geometry.PoseArray(
        header=_header("map"),
        poses=(
            geometry.Pose(position=geometry.Point(x=1.0, y=2.0)),
            geometry.Pose(position=geometry.Point(x=1.1, y=2.05), orientation=_yaw_quarter()),
        ),
    ),
    "geometry/Inertia": lambda: geometry.Inertia(
        m=1.2, com=geometry.Vector3(z=0.05), ixx=0.004, iyy=0.004, izz=0.007
    ),
    "geometry/InertiaStamped": lambda: geometry.InertiaStamped(
        header=_header(), inertia=geometry.Inertia(m=0.5, ixx=0.001, iyy=0.001, izz=0.002)
    ),
    "nav/MapMetaData": lambda: nav.MapMetaData(
        map_load_time=std.Time(sec=1700000000),
        resolution=0.05,
        width=4,
        height=3,
        origin=geometry.Pose(position=geometry.Point(x=-10.0, y=-10.0)),
    ),
    "nav/OccupancyGrid": lambda: nav.OccupancyGrid(
        header=_header("map"),
        info=nav.MapMetaData(resolution=0.05, width=4, height=3),
        data=np.array([0, 0, 100, -1, 0, 50, 100, -1, 0, 0, 0, -1], dtype=np.int8),
    ),
    "nav/GridCells": lambda: nav.GridCells(
        header=_header("map"),
        cell_width=0.05,
        cell_height=0.05,
        cells=(geometry.Point(x=0.025, y=0.025), geometry.Point(x=0.075, y=0.025)),
    ),
    "tf2/TFMessage": lambda: tf2.TFMessage(
        transforms=(_transform("odom", "base_link", 1.0), _transform("base_link", "laser", 0.1))
    ),
    "diagnostic/KeyValue": lambda: diagnostic.KeyValue(key="temperature_c", value="41.5"),
    "diagnostic/DiagnosticStatus": lambda: diagnostic.DiagnosticStatus(
        level=diagnostic.DiagnosticStatus.WARN,
        name="motor_driver: left",
        message="temperature high",
        hardware_id="can0:0x21",
        values=(diagnostic.KeyValue(key="temperature_c", value="71.0"),),
    ),
    "diagnostic/DiagnosticArray": lambda: diagnostic.DiagnosticArray(
        header=_header(""),
        status=(diagnostic.DiagnosticStatus(name="battery", message="ok"),),
    ),
    "visualization/UVCoordinate": lambda: visualization.UVCoordinate(u=0.5, v=0.25),
    "visualization/MeshFile": lambda: visualization.MeshFile(
        filename="box.stl", data=np.frombuffer(b"solid box\nendsolid box\n", dtype=np.uint8)
    ),
    "visualization/Marker": _marker,
    "visualization/MarkerArray": lambda: visualization.MarkerArray(
        markers=(_marker(), _marker().replace(id=4, action=visualization.Marker.DELETE))
    ),
    "trajectory/MultiDOFJointTrajectoryPoint": lambda: _multi_dof_point(0.5, 1),
    "trajectory/MultiDOFJointTrajectory": lambda: trajectory.MultiDOFJointTrajectory(
        header=_header("odom"),
        joint_names=("base",),
        points=(_multi_dof_point(0.0, 0), _multi_dof_point(1.0, 2)),
    ),
    "sensor/MultiDOFJointState": lambda: sensor.MultiDOFJointState(
        header=_header("odom"),
        joint_names=("base",),
        transforms=(geometry.Transform(translation=geometry.Vector3(x=2.0)),),
        twist=(geometry.Twist(linear=geometry.Vector3(x=0.3)),),
    ),
    "sensor/BatteryState": lambda: sensor.BatteryState(
        header=_header("battery"),
        voltage=12.5,
        current=-1.25,
        percentage=0.75,
        power_supply_status=sensor.BatteryState.STATUS_DISCHARGING,
        power_supply_technology=2,
        cell_voltage=(4.125, 4.25, 4.125),
        location="rear bay",
    ),
    "sensor/Joy": lambda: sensor.Joy(header=_header(""), axes=(0.0, -1.0, 0.5), buttons=(0, 1)),
    "sensor/Imu": lambda: sensor.Imu(
        header=_header("imu_link"),
        orientation=_yaw_quarter(),
        orientation_covariance=np.diag([1e-4, 1e-4, 4e-4]),
        angular_velocity=geometry.Vector3(z=0.1),
        angular_velocity_covariance=np.diag([1e-6, 1e-6, 1e-6]),
        linear_acceleration=geometry.Vector3(x=0.2, z=9.81),
        linear_acceleration_covariance=np.diag([1e-3, 1e-3, 1e-3]),
    ),
    "sensor/MagneticField": lambda: sensor.MagneticField(
        header=_header("imu_link"),
        magnetic_field=geometry.Vector3(x=2.1e-5, y=-4.0e-6, z=-4.3e-5),
    ),
    "sensor/NavSatStatus": lambda: sensor.NavSatStatus(
        status=sensor.NavSatStatus.STATUS_FIX,
        service=sensor.NavSatStatus.SERVICE_GPS | sensor.NavSatStatus.SERVICE_GALILEO,
    ),
    "sensor/NavSatFix": lambda: sensor.NavSatFix(
        header=_header("gps_antenna"),
        status=sensor.NavSatStatus(status=0, service=1),
        latitude=48.1372,
        longitude=11.5756,
        altitude=519.0,
        position_covariance=np.diag([2.25, 2.25, 9.0]),
        position_covariance_type=sensor.NavSatFix.COVARIANCE_TYPE_DIAGONAL_KNOWN,
    ),
    "sensor/TimeReference": lambda: sensor.TimeReference(
        header=_header(""), time_ref=std.Time(sec=1700000000, nanosec=250041000), source="gps"
    ),
    "sensor/FluidPressure": lambda: sensor.FluidPressure(
        header=_header("baro"), fluid_pressure=95461.0, variance=4.0
    ),
    "sensor/Temperature": lambda: sensor.Temperature(
        header=_header("imu_link"), temperature=36.5, variance=0.25
    ),
    "sensor/Illuminance": lambda: sensor.Illuminance(
        header=_header("light"), illuminance=320.0, variance=25.0
    ),
    "sensor/RelativeHumidity": lambda: sensor.RelativeHumidity(
        header=_header("env"), relative_humidity=0.41, variance=0.0004
    ),
    "sensor/Range": lambda: sensor.Range(
        header=_header("sonar_front"),
        radiation_type=sensor.Range.ULTRASOUND,
        field_of_view=0.5,
        min_range=0.02,
        max_range=4.0,
        range=1.25,
    ),
    "sensor/LaserScan": lambda: sensor.LaserScan(
        header=_header("laser"),
        angle_min=-0.5,
        angle_max=1.0,
        angle_increment=0.5,
        time_increment=0.0001,
        scan_time=0.1,
        range_min=0.12,
        range_max=3.5,
        ranges=np.array([1.0, 1.5, np.inf, 0.75], dtype=np.float32),
        intensities=np.array([100.0, 90.0, 0.0, 120.0], dtype=np.float32),
    ),
    "sensor/PointField": lambda: sensor.PointField(
        name="intensity", offset=12, datatype=sensor.PointField.FLOAT32, count=1
    ),
    "sensor/PointCloud2": _cloud,
    "sensor/RegionOfInterest": lambda: sensor.RegionOfInterest(
        x_offset=100, y_offset=50, height=200, width=320
    ),
    "sensor/Image": _image,
    "sensor/CompressedImage": lambda: sensor.CompressedImage(
        header=_header("camera_optical"),
        format="jpeg",
        data=np.array([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xD9], dtype=np.uint8),
    ),
    "sensor/CameraInfo": _camera_info,
    **_MORE_EXAMPLES,
}
