"""Start the simulator node (``/vehicle/dbw_node``) with its parameter file.

Arguments
---------
namespace : str
    Namespace of the node and its topics (default ``vehicle``, like Dataspeed's
    ``dbw.launch.xml`` ``vehicle_ns``).
config : str
    ROS parameter file (default: this package's ``config/sim.yaml``).
use_sim_time : bool
    Stamp and time by ``/clock`` (default false).
time_mode, rate_factor, step_hz, report_rates, initial_x_m, initial_y_m, initial_yaw_rad,
initial_speed_mps, initial_gear, frame_prefix, clock_owner, publish_wheel_tf, record_bag
    The node parameters of the same names (README "Parameters"). Each is passed
    only when given, so the parameter file's value stands otherwise. Values are
    read as YAML, like ``-p name:=value``: ``rate_factor:=10`` is accepted for a
    floating-point parameter and ``initial_gear:=N`` for neutral.

Example: ``ros2 launch acres_dbw_sim sim.launch.py time_mode:=sim rate_factor:=10``.
Several vehicles side by side: ``vehicles.launch.py``.
"""

import os

import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

NODE_ARGUMENTS = ("time_mode", "rate_factor", "step_hz", "report_rates", "initial_x_m",
                  "initial_y_m", "initial_yaw_rad", "initial_speed_mps", "initial_gear",
                  "frame_prefix", "clock_owner", "publish_wheel_tf", "record_bag")


def _node(context):
    given = {}
    for name in NODE_ARGUMENTS:
        text = LaunchConfiguration(name).perform(context)
        if text != "":
            value = yaml.safe_load(text)
            given[name] = text if name in ("frame_prefix", "record_bag", "time_mode") else value
    return [Node(
        package="acres_dbw_sim",
        executable="sim_node",
        name="dbw_node",
        namespace=LaunchConfiguration("namespace"),
        output="screen",
        parameters=[
            LaunchConfiguration("config"),
            {"use_sim_time": ParameterValue(LaunchConfiguration("use_sim_time"), value_type=bool),
             **given},
        ],
    )]


def generate_launch_description() -> LaunchDescription:
    default_config = os.path.join(get_package_share_directory("acres_dbw_sim"), "config", "sim.yaml")
    args = [
        DeclareLaunchArgument("namespace", default_value="vehicle",
                              description="namespace of the node and its topics"),
        DeclareLaunchArgument("config", default_value=default_config,
                              description="ROS parameter file of the node"),
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="use /clock for time"),
    ] + [DeclareLaunchArgument(name, default_value="",
                               description=f"node parameter {name} (empty: the parameter file's)")
         for name in NODE_ARGUMENTS]
    return LaunchDescription([*args, OpaqueFunction(function=_node)])
