"""Start several simulated vehicles side by side in one DDS domain.

Each vehicle is a ``dbw_node`` in its own namespace (``/<name>/dbw_node``, topics
``/<name>/...``) with its own frames (``frame_prefix`` ``<name>/``: ``<name>/odom
-> <name>/base_footprint``), its own ``/initialpose`` (remapped to
``/<name>/initialpose``) and its own ``robot_description``; ``odom -> <name>/odom``
(``world_frame``) joins the vehicles in one TF tree. In ``sim`` mode the
first vehicle owns ``/clock`` (``clock_owner``) and the others step their
simulations to it, so the domain has one monotonic clock.

Arguments
---------
vehicles : str
    Comma-separated names, one per vehicle (default ``car1,car2``).
count : int
    If given (> 0), start this many vehicles named ``vehicle1`` ... instead.
spacing_m : float
    Lateral distance between two vehicles' initial poses (default 4.0 m, +y).
config : str
    ROS parameter file of every node (default: this package's ``config/sim.yaml``).
time_mode, rate_factor : str
    As in ``sim.launch.py`` (default ``sim`` and ``1.0``).
use_sim_time : bool
    Default true in sim mode (``/clock`` of the owner), false otherwise.
world_frame : str
    Frame every vehicle links to its ``<name>/odom`` (identity, ``/tf_static``), so
    RViz shows all in one fixed frame (default ``odom``; empty = separate trees).

Example: ``ros2 launch acres_dbw_sim vehicles.launch.py vehicles:=car1,car2,car3``.
"""

import os

import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def _vehicles(context):
    count = int(LaunchConfiguration("count").perform(context) or 0)
    names = ([f"vehicle{i + 1}" for i in range(count)] if count > 0 else
             [n.strip() for n in LaunchConfiguration("vehicles").perform(context).split(",") if n.strip()])
    spacing = float(LaunchConfiguration("spacing_m").perform(context))
    time_mode = LaunchConfiguration("time_mode").perform(context)
    rate_factor = yaml.safe_load(LaunchConfiguration("rate_factor").perform(context))
    use_sim_time = LaunchConfiguration("use_sim_time").perform(context)
    use_sim_time = (time_mode == "sim") if use_sim_time == "" else bool(yaml.safe_load(use_sim_time))
    config = LaunchConfiguration("config").perform(context)
    return [Node(
        package="acres_dbw_sim",
        executable="sim_node",
        name="dbw_node",
        namespace=name,
        output="screen",
        parameters=[config, {"time_mode": time_mode, "rate_factor": rate_factor,
                             "use_sim_time": use_sim_time, "frame_prefix": f"{name}/",
                             "world_frame": LaunchConfiguration("world_frame").perform(context),
                             "clock_owner": i == 0, "initial_y_m": i * spacing}],
        remappings=[("/initialpose", f"/{name}/initialpose")],
    ) for i, name in enumerate(names)]


def generate_launch_description() -> LaunchDescription:
    default_config = os.path.join(get_package_share_directory("acres_dbw_sim"), "config", "sim.yaml")
    return LaunchDescription([
        DeclareLaunchArgument("vehicles", default_value="car1,car2",
                              description="comma-separated vehicle names (namespaces)"),
        DeclareLaunchArgument("count", default_value="0",
                              description="start this many vehicles vehicle1..N instead (> 0)"),
        DeclareLaunchArgument("spacing_m", default_value="4.0",
                              description="lateral distance between the vehicles [m]"),
        DeclareLaunchArgument("config", default_value=default_config,
                              description="ROS parameter file of every node"),
        DeclareLaunchArgument("time_mode", default_value="sim", description="realtime | sim | lockstep"),
        DeclareLaunchArgument("rate_factor", default_value="1.0",
                              description="sim mode: simulated seconds per wall second"),
        DeclareLaunchArgument("world_frame", default_value="odom",
                              description="frame linked to every vehicle's <name>/odom on /tf_static "
                                          "(one TF tree); empty = separate trees"),
        DeclareLaunchArgument("use_sim_time", default_value="",
                              description="use /clock (default: true in sim mode)"),
        OpaqueFunction(function=_vehicles),
    ])
