"""The DBW2 interface of the simulated Ranger as data, with no ROS import.

The node (:mod:`acres_dbw_sim.node`) builds its subscriptions and publications
from these tables, and the offline replay (:mod:`acres_dbw_sim.replay`), which
must run without ROS, reads and writes bags by them: one table, two users.
Topic names are relative to the DBW namespace (default ``/vehicle``); types
are ``ds_dbw_msgs/msg/<name>``; depths and CAN periods are those of
dbw-interface.md §1.3 and §1.4.
"""

from __future__ import annotations

from .model.enums import DRIVE_MODE_NAMES, GEAR_NAMES as _GEAR_NAMES
from .model.params import choice_problem, number_problem
from .vehicles import REGISTRY

__all__ = ["COMMAND_TOPICS", "REPORT_TOPICS", "IMU_PERIOD_S", "DBW_ENABLED_PERIOD_S",
           "ECU_INFO_PERIOD_S", "REPORT_DEPTH", "PARAMETERS", "PARAMETER_LIMITS",
           "RUNTIME_PARAMETERS", "GEAR_NAMES", "TRACTOR_PARAMETERS", "parameter_problem", "parameter_error",
           "DRIVE_MODE_VALUES"]

# (topic, ds_dbw_msgs type name, depth) of the command subscriptions, §1.3.
COMMAND_TOPICS = (
    ("steering/cmd", "SteeringCmd", 1), ("brake/cmd", "BrakeCmd", 1),
    ("throttle/cmd", "ThrottleCmd", 1), ("gear/cmd", "GearCmd", 1),
    ("misc/cmd", "MiscCmd", 1), ("ulc/cmd", "UlcCmd", 1),
    ("turn_signal/cmd", "TurnSignalCmd", 1), ("drive_mode/cmd", "DriveModeCmd", 1),
)
# (topic, DbwReports attribute, ds_dbw_msgs type, CAN period [s]) of the reports, §1.4.
REPORT_TOPICS = (
    ("steering/report", "steering_report", "SteeringReport", 0.010),
    ("brake/report", "brake_report", "BrakeReport", 0.020),
    ("throttle/report", "throttle_report", "ThrottleReport", 0.020),
    ("gear/report", "gear_report", "GearReport", 0.100),
    ("system/report", "system_report", "SystemReport", 0.100),
    ("ulc/report", "ulc_report", "UlcReport", 0.020),
    ("misc/report", "misc_report", "MiscReport", 0.050),
    ("turn_signal/report", "turn_signal_report", "TurnSignalReport", 0.100),
    ("drive_mode/report", "drive_mode_report", "DriveModeReport", 0.100),
    ("vehicle_velocity", "vehicle_velocity", "VehicleVelocity", 0.020),
    ("wheel_speeds", "wheel_speeds", "WheelSpeeds", 0.010),
    ("wheel_positions", "wheel_positions", "WheelPositions", 0.020),
    ("tire_pressures", "tire_pressures", "TirePressures", 0.500),
    ("throttle/info", "throttle_info", "ThrottleInfo", 0.010),
    ("brake/info", "brake_info", "BrakeInfo", 0.010),
    ("steering/offset", "steering_offset", "SteeringOffset", 0.500),
    ("steering/info", "steering_info", "SteeringInfo", 0.500),
    ("propulsion/info", "propulsion_info", "PropulsionInfo", 0.020),  # Polaris: engine torque, CVT ratio (§5.1)
    ("fuel_level", "fuel_level", "FuelLevel", 0.500),
    ("steering/diag", "steering_diag", "SteeringDiagnostics", 0.200),
    ("brake/diag", "brake_diag", "BrakeDiagnostics", 0.200),
    ("throttle/diag", "throttle_diag", "ThrottleDiagnostics", 0.200),
    ("gear/diag", "gear_diag", "GearDiagnostics", 0.200),
)

IMU_PERIOD_S = 0.010         # imu/data_raw: 0x2A0 + 0x2A1, 10 ms (§1.4)
DBW_ENABLED_PERIOD_S = 0.050  # dbw_enabled: 20 Hz timer plus on change (§1.4)
ECU_INFO_PERIOD_S = 1.0      # ecu_info and vin: one ECU-info cycle (§4.13)
REPORT_DEPTH = 2             # every ds_dbw_msgs report publisher (§1.4)

# name: (default, description); the type is the default's.
PARAMETERS = {
    "vehicle": ("polaris", "the vehicle behind the DBW: polaris (Ranger) | maxxum150 (Case IH Maxxum 150 "
                           "tractor, docs/maxxum150.md; its own parameter file, no occupants or cargo)"),
    "hand_throttle": (0.0, "Maxxum 150 only: the hand throttle 0..1 (the engine command is the larger of "
                           "it and the pedal); no DBW field carries it"),
    "pto_rpm": (0, "Maxxum 150 only: the PTO at 540 or 1000 rev/min, 0 = off; engaging it raises the hand "
                   "throttle to the rated PTO speed's (0.81, 0.76)"),
    "vehicle_config": ("", "vehicle parameter file (JSON); empty = the shipped config/polaris.json "
                           "(config/maxxum150.json with vehicle maxxum150)"),
    "overrides": ("", "parameter overrides, 'key=value;key=value'"),
    "occupants": (1, "number of occupants, 0..6"),
    "cargo_kg": (0.0, "cargo in the bed [kg]"),
    "step_hz": (120.0, "physics rate [Hz], 60..1000"),
    "time_mode": ("realtime", "realtime | sim | lockstep"),
    "rate_factor": (1.0, "sim mode: simulated seconds per wall second, > 0"),
    "lockstep_steps": (12, "lockstep mode: physics steps per ~/step call, >= 1"),
    "report_rates": ("mission", "mission: every topic at the physics rate; vehicle: real CAN periods"),
    "initial_x_m": (0.0, "initial x of base_footprint in odom [m]"),
    "initial_y_m": (0.0, "initial y [m]"),
    "initial_yaw_rad": (0.0, "initial heading [rad]"),
    "initial_speed_mps": (0.0, "initial forward speed [m/s]"),
    "initial_gear": ("P", "initial lever position: P R N H L (or PARK REVERSE NEUTRAL DRIVE LOW, "
                          "any case; an unquoted N, which ROS's YAML reads as false, is taken as N)"),
    "drive_mode": ("AWD", "initial AWD switch: Turf | 2WD | AWD"),
    "surface": ("asphalt", "surface of the ground plane (config surfaces table)"),
    "grade_pct": (0.0, "ground plane rise along +x [%]"),
    "bank_pct": (0.0, "ground plane rise along +y [%]"),
    "odom_frame": ("odom", "world frame of odometry and TF"),
    "base_frame": ("base_footprint", "vehicle frame (child of odom)"),
    "base_link_frame": ("base_link", "frame published as a static child of base_frame"),
    "frame_id": ("base_footprint", "frame_id of imu/data_raw, as the real driver's parameter"),
    "frame_prefix": ("", "prefix of every frame the node names (odom_frame, base_frame, "
                         "base_link_frame, frame_id, the URDF's links on /tf), e.g. 'car1/' for "
                         "vehicles side by side; the robot_description itself stays unprefixed "
                         "(robot_state_publisher has its own frame_prefix)"),
    "world_frame": ("", "if set, publish the identity world_frame -> odom_frame on /tf_static, so that "
                        "vehicles started as separate nodes share one TF tree (vehicles.launch.py sets "
                        "'odom'); empty = none. The 'vehicles' mode links its vehicles itself"),
    "publish_tf": (True, "publish odom -> base_frame on /tf"),
    "clock_owner": (True, "sim and lockstep modes: publish /clock. With several vehicles in one "
                          "DDS domain exactly one owns it; sim mode: a node with false steps "
                          "its simulation to the /clock of the owner"),
    "publish_description": (True, "publish robot_description (std_msgs/String, TRANSIENT_LOCAL): "
                                  "the URDF generated from the vehicle parameters"),
    "publish_wheel_tf": (False, "publish the URDF's transforms on /tf (steer knuckles and wheels "
                                "every step, base_link and chassis on /tf_static), for users "
                                "without robot_state_publisher"),
    "status_period_s": (0.0, "print a one-line live status every N s (0 = off)"),
    "record_bag": ("", "record every published topic and received command to this new rosbag2 "
                       "directory (MCAP); empty = no recording"),
    "interfaces": (["ds_dbw"], "command interfaces served: ds_dbw, polaris_legacy, autoware, ackermann, cmd_vel "
                               "(precedence in that order when several command at once)"),
    "cmd_vel_timeout_s": (0.5, "cmd_vel: stop the vehicle when no Twist came for this long [s], > 0"),
    "cmd_vel_shift_park": (False, "cmd_vel: let the ULC leave PARK and park after a stop"),
    "ackermann_timeout_s": (0.5, "ackermann: stop the vehicle when no AckermannDriveStamped came for this long "
                                 "[s], > 0"),
    "ackermann_shift_park": (False, "ackermann: let the ULC leave PARK and park after a stop"),
    "autoware_timeout_s": (0.5, "autoware: stop the vehicle when no Control came for this long [s], > 0"),
    "autoware_initial_engage": (False, "autoware: start in AUTONOMOUS, as the planning simulator's "
                                       "initial_engage_state"),
    "model": ("full", "model level behind the DBW: full | kinematic (docs/kinematic.md)"),
    "vehicles": ([], "serve several vehicles in this process, one per name: 'car1' gives the "
                     "node /car1/vehicle/dbw_node with frame_prefix 'car1/' (a name starting "
                     "with '/' is the namespace itself); empty = one vehicle (docs/node.md, "
                     "'Many vehicles in one process')"),
}

#: Lever-position names ``initial_gear`` accepts (any case) and the lever position each stands for: the one
#: table of :mod:`acres_dbw_sim.model.enums` (``Gear.from_name``).
GEAR_NAMES = _GEAR_NAMES

#: Accepted values of the node's parameters: ``(lower, upper)`` (inclusive) for a
#: number, a tuple of names for a string (``initial_gear``: see ``GEAR_NAMES``),
#: absent = any finite value. The node declares the ranges in its parameter
#: descriptors, so ``ros2 param describe`` shows them and rclpy refuses a value
#: outside with the reason.
PARAMETER_LIMITS = {
    "occupants": (0, 6),
    "cargo_kg": (0.0, 454.0),            # bed capacity (polaris.json mass.cargo_kg range)
    "step_hz": (60.0, 1000.0),
    "time_mode": ("realtime", "sim", "lockstep"),
    "rate_factor": (0.01, 1000.0),
    "lockstep_steps": (1, 1000000),
    "report_rates": ("mission", "vehicle"),
    "initial_speed_mps": (-10.0, 30.0),
    # 1000 km from the odom origin: the pose keeps a step's motion to 1e-10 m in float64 (at 1e12 m, 1e-4 m)
    "initial_x_m": (-1e6, 1e6),
    "initial_y_m": (-1e6, 1e6),
    "drive_mode": ("Turf", "2WD", "AWD"),
    "grade_pct": (-100.0, 100.0),
    "bank_pct": (-100.0, 100.0),
    "status_period_s": (0.0, 3600.0),
    "cmd_vel_timeout_s": (0.01, 60.0),
    "ackermann_timeout_s": (0.01, 60.0),
    "autoware_timeout_s": (0.01, 60.0),
    "model": ("full", "kinematic"),
    "vehicle": tuple(REGISTRY),          # the vehicle registry's names
    "hand_throttle": (0.0, 1.0),
    "pto_rpm": (0, 1000),
}

#: Parameters of the tractor's controls that no DBW field carries (only with ``vehicle`` maxxum150).
TRACTOR_PARAMETERS = ("hand_throttle", "pto_rpm")

#: Parameters a running node takes (``ros2 param set``): applied at once, or for
#: ``initial_*`` and ``drive_mode`` at the next ``~/reset``. Every other parameter
#: is read-only: only start-up (command line, params file, launch file) sets it.
RUNTIME_PARAMETERS = ("rate_factor", "lockstep_steps", "report_rates", "status_period_s",
                      "initial_x_m", "initial_y_m", "initial_yaw_rad", "initial_speed_mps",
                      "initial_gear", "drive_mode", "hand_throttle", "pto_rpm")


def parameter_problem(name: str, value: object) -> str:
    """Why ``value`` is not acceptable for node parameter ``name`` ("" when it is).

    The same check at start-up, at run time (``ros2 param set``), for a launch file's values and
    for a replay's parameters, in the wording of every other check
    (:func:`~acres_dbw_sim.model.params.number_problem`,
    :func:`~acres_dbw_sim.model.params.choice_problem`): the type of the default (an empty list for
    a list), finite numbers within ``PARAMETER_LIMITS``, the names of a text parameter (any case for
    ``initial_gear``), 0/540/1000 rpm for ``pto_rpm``. Raises ``KeyError`` for a name not in
    ``PARAMETERS``.
    """
    default = PARAMETERS[name][0]
    if type(value) is not type(default) and not (isinstance(default, list) and value == []):
        return f"wrong type: expected {type(default).__name__}, got {type(value).__name__}"
    limits = PARAMETER_LIMITS.get(name, ())
    if name == "initial_gear":
        return "" if value.strip().upper() in GEAR_NAMES else choice_problem(value, GEAR_NAMES, "gear", any_case=True)
    if name == "pto_rpm":
        return choice_problem(value, (0, 540, 1000), "PTO speed [rev/min]")
    if limits and isinstance(limits[0], str):
        return choice_problem(value, limits, name)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number_problem(value, *limits) if limits else number_problem(value)
    return ""


def parameter_error(name: str, value: object) -> str:
    """``parameter 'name' = value: why`` when :func:`parameter_problem` refuses ``value``, else "": the text
    the node (its start-up error, a refused ``ros2 param set``) and the replay give."""
    why = parameter_problem(name, value)
    return f"parameter {name!r} = {value!r}: {why}" if why else ""


#: The node's ``drive_mode`` values (``PARAMETER_LIMITS``) -> the AWD switch position each stands for.
DRIVE_MODE_VALUES = {name: DRIVE_MODE_NAMES[name.upper()] for name in PARAMETER_LIMITS["drive_mode"]}
