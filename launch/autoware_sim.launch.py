"""Start the simulator node in place of Autoware's planning simulator (docs/autoware.md).

Takes the launch arguments Autoware passes to ``simple_planning_simulator.launch.py``:

vehicle_info_param_file : str
    Autoware's vehicle_info.param.yaml; compared with the simulated vehicle's, each field that
    differs by more than 1 % is logged (the simulation keeps its own figures). Empty: no check.
initial_engage_state : bool
    Start in AUTONOMOUS (node parameter ``autoware_initial_engage``). Empty: the config's (false).
motion_publish_mode : str
    ``full_motion`` (default): the odometry on ``/localization/kinematic_state``; ``pose_only``: on
    ``/simulation/debug/localization/kinematic_state``.
vehicle_characteristics_param_file, simulator_model_param_file, acceleration_param_file,
raw_vehicle_cmd_converter_param_path, csv_accel_brake_map_path
    Taken and not used (the full model stands in for the simulator's model).

And its own: ``config`` (default: this package's ``config/autoware_sim.yaml``), ``namespace``
(``vehicle``), ``vehicle`` (``polaris``), ``use_sim_time`` (false). The mapping itself is
``acres_dbw_sim.autoware_sim``.

Example: ``ros2 launch acres_dbw_sim autoware_sim.launch.py initial_engage_state:=true``.
"""

from pathlib import Path

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, LogInfo, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

from acres_dbw_sim import autoware_sim

SHARE = get_package_share_directory("acres_dbw_sim")


def _node(context):
    arg = lambda name: LaunchConfiguration(name).perform(context)  # noqa: E731
    vehicle = arg("vehicle")
    actions = []
    info = arg("vehicle_info_param_file")
    if info:
        from acres_dbw_sim.vehicles import vehicle_spec
        params = vehicle_spec(vehicle).load_parameters(None, None, None, None)
        lines = autoware_sim.check_vehicle_info(info, params)
        actions += [LogInfo(msg=f"[autoware_sim] WARNING: vehicle_info differs: {line}") for line in lines]
        if not lines:
            actions.append(LogInfo(msg=f"[autoware_sim] {info} agrees with the simulated {vehicle} within 1 %"))
    unused = [name for name in autoware_sim.UNUSED_ARGUMENTS if arg(name)]
    if unused:
        actions.append(LogInfo(msg=f"[autoware_sim] not used (the full model stands in): {', '.join(unused)}"))
    actions.append(Node(
        package="acres_dbw_sim", executable="sim_node", name="dbw_node", namespace=arg("namespace"),
        output="screen",
        parameters=[arg("config"),
                    {"vehicle": vehicle,
                     "use_sim_time": ParameterValue(LaunchConfiguration("use_sim_time"), value_type=bool),
                     **autoware_sim.node_parameters(arg("initial_engage_state"))}],
        remappings=autoware_sim.remaps(arg("motion_publish_mode") or "full_motion")))
    return actions


def generate_launch_description() -> LaunchDescription:
    args = [
        DeclareLaunchArgument("config", default_value=str(autoware_sim.config_path(Path(SHARE))),
                              description="ROS parameter file of the node"),
        DeclareLaunchArgument("namespace", default_value="vehicle", description="namespace of the node"),
        DeclareLaunchArgument("vehicle", default_value="polaris", description="the simulated vehicle"),
        DeclareLaunchArgument("use_sim_time", default_value="false", description="use /clock for time"),
        DeclareLaunchArgument("vehicle_info_param_file", default_value="",
                              description="Autoware's vehicle_info.param.yaml, checked against the vehicle's"),
        DeclareLaunchArgument("initial_engage_state", default_value="", description="start in AUTONOMOUS"),
        DeclareLaunchArgument("motion_publish_mode", default_value="full_motion",
                              description="full_motion | pose_only"),
    ] + [DeclareLaunchArgument(name, default_value="", description="taken and not used")
         for name in autoware_sim.UNUSED_ARGUMENTS]
    return LaunchDescription([*args, OpaqueFunction(function=_node)])
