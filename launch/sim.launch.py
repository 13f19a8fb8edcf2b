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
time_mode : str
    ``realtime`` | ``sim`` | ``lockstep`` (default ``realtime``).
rate_factor : float
    Simulated seconds per wall second in ``sim`` mode (default 1.0).

Example: ``ros2 launch acres_dbw_sim sim.launch.py time_mode:=sim rate_factor:=10``.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def generate_launch_description() -> LaunchDescription:
    default_config = os.path.join(get_package_share_directory("acres_dbw_sim"), "config", "sim.yaml")
    args = [
        DeclareLaunchArgument("namespace", default_value="vehicle",
                              description="namespace of the node and its topics"),
        DeclareLaunchArgument("config", default_value=default_config,
                              description="ROS parameter file of the node"),
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="use /clock for time"),
        DeclareLaunchArgument("time_mode", default_value="realtime",
                              description="realtime | sim | lockstep"),
        DeclareLaunchArgument("rate_factor", default_value="1.0",
                              description="sim mode: simulated seconds per wall second"),
    ]
    node = Node(
        package="acres_dbw_sim",
        executable="sim_node",
        name="dbw_node",
        namespace=LaunchConfiguration("namespace"),
        output="screen",
        parameters=[
            LaunchConfiguration("config"),
            {
                "use_sim_time": ParameterValue(LaunchConfiguration("use_sim_time"), value_type=bool),
                "time_mode": ParameterValue(LaunchConfiguration("time_mode"), value_type=str),
                "rate_factor": ParameterValue(LaunchConfiguration("rate_factor"), value_type=float),
            },
        ],
    )
    return LaunchDescription([*args, node])
