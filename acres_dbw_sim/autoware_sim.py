"""The node in place of Autoware's planning simulator: what ``launch/autoware_sim.launch.py`` passes to it.

Autoware's ``autoware_simple_planning_simulator`` (SPS) is a 2-D vehicle model behind Autoware's
vehicle interface; it also stands in for localization (the vehicle's pose, velocity and
acceleration, the IMU, the transform of ``base_link``) and takes ``/initialpose3d``. The node with
``interfaces: [autoware]`` serves the vehicle interface itself; this module holds the rest of the
swap as data, so that the launch file is wiring only and the tests check it without launch_ros:

* :data:`REMAPS`: the node's topics onto Autoware's names (``odom`` -> ``/localization/kinematic_state``
  in ``full_motion``, the IMU, ``/initialpose`` -> ``/initialpose3d``);
* :func:`node_parameters`: the launch arguments Autoware passes to SPS's launch, as node parameters
  over ``config/autoware_sim.yaml`` (``initial_engage_state`` -> ``autoware_initial_engage``);
* :func:`check_vehicle_info`: Autoware's ``vehicle_info_param_file`` against the vehicle's own
  (:mod:`acres_dbw_sim.autoware_vehicle_info`): the simulated vehicle's size comes from its
  parameter file, so a field that differs is named.

Frames: with ``config/autoware_sim.yaml`` the odometry's frame is ``map`` and its child
``base_link``, the rear axle's centre on the ground (where the model's pose and Autoware's
``base_link`` both are; the node's ``base_footprint`` by default); Dataspeed's ``base_link`` at
mid-wheelbase is published under ``dbw_base_link`` (docs/autoware.md).
"""
from __future__ import annotations

from pathlib import Path

import yaml

__all__ = ["MOTION_PUBLISH_MODES", "UNUSED_ARGUMENTS", "REMAPS", "remaps", "node_parameters",
           "check_vehicle_info", "config_path"]

#: SPS's ``motion_publish_mode`` values: where the odometry goes.
MOTION_PUBLISH_MODES = {"full_motion": "/localization/kinematic_state",
                        "pose_only": "/simulation/debug/localization/kinematic_state"}
#: SPS's launch arguments that configure its own vehicle model or the converter it starts: taken and
#: not used (the full model stands in for the simulator model; start the converter yourself).
UNUSED_ARGUMENTS = ("vehicle_characteristics_param_file", "simulator_model_param_file", "acceleration_param_file",
                    "raw_vehicle_cmd_converter_param_path", "csv_accel_brake_map_path")
#: The node's topics (relative to its namespace, or absolute) onto Autoware's, besides the odometry.
REMAPS = (("imu/data_raw", "/sensing/imu/imu_data"), ("/initialpose", "/initialpose3d"))
#: Relative tolerance of :func:`check_vehicle_info`.
TOLERANCE = 0.01


def config_path(share: Path | None = None) -> Path:
    """``config/autoware_sim.yaml`` of the package's share directory (``share``) or of this source tree."""
    root = share if share is not None else Path(__file__).resolve().parents[1]
    return root / "config" / "autoware_sim.yaml"


def remaps(motion_publish_mode: str = "full_motion") -> list:
    """``[(node topic, Autoware topic)]`` for a ``motion_publish_mode`` of :data:`MOTION_PUBLISH_MODES`.

    Raises
    ------
    ValueError
        For another mode, naming the ones taken.
    """
    if motion_publish_mode not in MOTION_PUBLISH_MODES:
        raise ValueError(f"motion_publish_mode={motion_publish_mode!r}: one of {', '.join(MOTION_PUBLISH_MODES)}")
    return [("odom", MOTION_PUBLISH_MODES[motion_publish_mode]), *REMAPS]


def node_parameters(initial_engage_state: str = "") -> dict:
    """Node parameters from SPS's launch arguments, to put over ``config/autoware_sim.yaml``.

    Parameters
    ----------
    initial_engage_state : str
        ``true``/``false`` as a launch argument (YAML); "" leaves the file's value.

    Raises
    ------
    ValueError
        For a value that is not a boolean.
    """
    out = {}
    if initial_engage_state != "":
        value = yaml.safe_load(initial_engage_state)
        if not isinstance(value, bool):
            raise ValueError(f"initial_engage_state={initial_engage_state!r}: true or false")
        out["autoware_initial_engage"] = value
    return out


def check_vehicle_info(path: str | Path, params) -> list:
    """Autoware's ``vehicle_info.param.yaml`` at ``path`` against the vehicle's own (``params``, a vehicle's
    loaded parameters): one line per field that differs by more than 1 % (or is missing), empty when
    they agree. The simulation keeps its own figures either way.

    Raises
    ------
    OSError
        When the file cannot be read.
    ValueError
        When it is not a ROS parameter file with ``ros__parameters``.
    """
    from .autoware_vehicle_info import vehicle_info
    text = Path(path).read_text()
    try:
        doc = yaml.safe_load(text)
        theirs = next(iter(doc.values()))["ros__parameters"]
    except (yaml.YAMLError, AttributeError, StopIteration, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not a ROS parameter file with ros__parameters ({err})") from None
    out = []
    for key, ours in vehicle_info(params).items():
        value = theirs.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            out.append(f"{key}: missing in {path} (the simulated {params.vehicle}: {ours:.4g})")
        elif abs(value - ours) > TOLERANCE * max(abs(ours), 1e-3):
            out.append(f"{key}: {value:g} in {path}, {ours:.4g} for the simulated {params.vehicle}")
    return out
