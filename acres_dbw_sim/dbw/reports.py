"""Report messages, mirrored as plain dataclasses (no ROS).

Each class mirrors one ``ds_dbw_msgs`` 2.3.11 report/info/diagnostics message
with exactly its field names and order (header omitted: the adapter stamps it
with the simulation time, dbw-interface.md §1.6). Types: ``float32`` -> float,
``bool`` -> bool, integers and nested one-byte field types -> int, ``string``
-> str. A float that the real system reports as unknown is NaN; a quantity that
is unlimited is +inf (§1.6).

The DBW emulation (``DbwSystem.reports``) owns one instance of each class and
overwrites it in place on every call; copy it (``dataclasses.replace``) to keep
a snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

__all__ = [
    "SteeringReport", "BrakeReport", "ThrottleReport", "GearReport", "SystemReport",
    "UlcReport", "MiscReport", "TurnSignalReport", "DriveModeReport", "VehicleVelocity",
    "WheelSpeeds", "WheelPositions", "TirePressures", "ThrottleInfo", "BrakeInfo",
    "SteeringOffset", "SteeringInfo", "PropulsionInfo", "FuelLevel", "EcuInfo",
    "SteeringDiagnostics", "BrakeDiagnostics", "ThrottleDiagnostics", "GearDiagnostics",
    "ImuData",
]


@dataclass(slots=True)
class SteeringReport:
    """Plain mirror of ``ds_dbw_msgs/msg/SteeringReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    steering_wheel_angle: float = 0.0
    steering_column_torque: float = 0.0
    cmd: float = 0.0
    cmd_type: int = 0
    limiting_value: bool = False
    limiting_rate: bool = False
    external_control: bool = False
    ready: bool = False
    enabled: bool = False
    override_active: bool = False
    override_other: bool = False
    override_latched: bool = False
    timeout: bool = False
    fault: bool = False
    bad_crc: bool = False
    bad_rc: bool = False
    degraded: bool = False
    hardware_disable: bool = False
    actuator_temp: float = 0.0
    limit_rate: float = 0.0
    limit_value: float = 0.0
    cmd_src: int = 0


@dataclass(slots=True)
class BrakeReport:
    """Plain mirror of ``ds_dbw_msgs/msg/BrakeReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    cmd_type: int = 0
    pressure_input: float = 0.0
    pressure_cmd: float = 0.0
    pressure_output: float = 0.0
    torque_input: float = 0.0
    torque_cmd: float = 0.0
    torque_output: float = 0.0
    accel_cmd: float = 0.0
    accel_output: float = 0.0
    percent_input: float = 0.0
    percent_cmd: float = 0.0
    percent_output: float = 0.0
    btsi_cmd: bool = False
    yield_request: bool = False
    limiting_value: bool = False
    limiting_rate: bool = False
    external_control: bool = False
    ready: bool = False
    enabled: bool = False
    override_active: bool = False
    override_other: bool = False
    override_latched: bool = False
    timeout: bool = False
    fault: bool = False
    bad_crc: bool = False
    bad_rc: bool = False
    degraded: bool = False
    hardware_disable: bool = False
    limit_value: float = 0.0
    brake_available_partial_inf: int = 0
    brake_available_duration: float = 0.0
    brake_available_full: bool = False
    req_shift_park: bool = False
    req_park_brake: bool = False
    external_button: bool = False
    comms_loss_armed: bool = False
    cmd_src: int = 0


@dataclass(slots=True)
class ThrottleReport:
    """Plain mirror of ``ds_dbw_msgs/msg/ThrottleReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    cmd_type: int = 0
    percent_input: float = 0.0
    percent_cmd: float = 0.0
    percent_output: float = 0.0
    yield_request: bool = False
    limiting_value: bool = False
    limiting_rate: bool = False
    external_control: bool = False
    ready: bool = False
    enabled: bool = False
    override_active: bool = False
    override_other: bool = False
    override_latched: bool = False
    timeout: bool = False
    fault: bool = False
    bad_crc: bool = False
    bad_rc: bool = False
    degraded: bool = False
    hardware_disable: bool = False
    limit_value: float = 0.0
    cmd_src: int = 0


@dataclass(slots=True)
class GearReport:
    """Plain mirror of ``ds_dbw_msgs/msg/GearReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    gear: int = 0
    cmd: int = 0
    driver: int = 0
    reject: int = 0
    gear_manual: int = 0
    cmd_manual: int = 0
    power_latched: bool = False
    external_control: bool = False
    ready: bool = False
    override_active: bool = False
    override_other: bool = False
    fault: bool = False
    bad_crc: bool = False
    degraded: bool = False
    actuator_temp: float = 0.0
    support_cmd_manual: bool = False
    ready_to_calibrate: bool = False
    req_brake_cal: bool = False
    cmd_src: int = 0


@dataclass(slots=True)
class SystemReport:
    """Plain mirror of ``ds_dbw_msgs/msg/SystemReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    inhibit: bool = False
    validate_cmd_crc_rc: bool = False
    system_sync_mode: int = 0
    state: int = 0
    reason_disengage: int = 0
    reason_not_ready: int = 0
    reason_disengage_str: str = ""
    reason_not_ready_str: str = ""
    btn_enable: bool = False
    btn_disable: bool = False
    lockout: bool = False
    override: bool = False
    ready: bool = False
    enabled: bool = False
    fault: bool = False
    bad_crc: bool = False
    bad_rc: bool = False


@dataclass(slots=True)
class UlcReport:
    """Plain mirror of ``ds_dbw_msgs/msg/UlcReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    cmd_type: int = 0
    vel_ref: float = 0.0
    vel_meas: float = 0.0
    accel_ref: float = 0.0
    accel_meas: float = 0.0
    coast_decel: bool = False
    ready: bool = False
    enabled: bool = False
    override_active: bool = False
    override_latched: bool = False
    preempted: bool = False
    timeout: bool = False
    bad_crc: bool = False
    bad_rc: bool = False


@dataclass(slots=True)
class MiscReport:
    """Plain mirror of ``ds_dbw_msgs/msg/MiscReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    parking_brake: int = 0
    passenger_detect: bool = False
    passenger_airbag: bool = False
    buckle_driver: bool = False
    buckle_passenger: bool = False
    buckle_row2_driver: bool = False
    buckle_row2_middle: bool = False
    buckle_row2_passenger: bool = False
    buckle_row3_driver: bool = False
    buckle_row3_middle: bool = False
    buckle_row3_passenger: bool = False
    door_driver: bool = False
    door_passenger: bool = False
    door_rear_left: bool = False
    door_rear_right: bool = False
    door_hood: bool = False
    door_trunk: bool = False
    lock_driver: bool = False
    lock_passenger: bool = False
    lock_rear_left: bool = False
    lock_rear_right: bool = False
    btn_ld_ok: bool = False
    btn_ld_up: bool = False
    btn_ld_down: bool = False
    btn_ld_left: bool = False
    btn_ld_right: bool = False
    btn_rd_ok: bool = False
    btn_rd_up: bool = False
    btn_rd_down: bool = False
    btn_rd_left: bool = False
    btn_rd_right: bool = False
    btn_cc_mode: bool = False
    btn_cc_on: bool = False
    btn_cc_off: bool = False
    btn_cc_res: bool = False
    btn_cc_cncl: bool = False
    btn_cc_on_off: bool = False
    btn_cc_res_cncl: bool = False
    btn_cc_res_inc: bool = False
    btn_cc_res_dec: bool = False
    btn_cc_set_inc: bool = False
    btn_cc_set_dec: bool = False
    btn_acc_gap_inc: bool = False
    btn_acc_gap_dec: bool = False
    btn_limit_on_off: bool = False
    btn_la_on_off: bool = False
    btn_apa: bool = False
    btn_media: bool = False
    btn_vol_inc: bool = False
    btn_vol_dec: bool = False
    btn_mute: bool = False
    btn_speak: bool = False
    btn_prev: bool = False
    btn_next: bool = False
    btn_call_start: bool = False
    btn_call_end: bool = False
    wiper: int = 0
    headlight_low: bool = False
    headlight_high: bool = False
    headlight_low_control: int = 0
    headlight_high_control: int = 0
    ambient_light: int = 0
    outside_air_temp: float = 0.0
    engine_coolant_temp: float = 0.0
    engine_oil_temp: float = 0.0
    trans_oil_temp: float = 0.0
    trans_clutch_temp: float = 0.0
    traction_motor_coil_temp: float = 0.0
    traction_motor_elec_temp: float = 0.0
    engine_coolant_hot_warn: bool = False
    engine_oil_hot_warn: bool = False
    trans_oil_hot_warn: bool = False
    trans_clutch_hot_warn: bool = False
    traction_motor_coil_hot_warn: bool = False
    traction_motor_elec_hot_warn: bool = False


@dataclass(slots=True)
class TurnSignalReport:
    """Plain mirror of ``ds_dbw_msgs/msg/TurnSignalReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    input: int = 0
    cmd: int = 0
    output: int = 0
    feedback: int = 0
    ready: bool = False
    override_active: bool = False
    override_other: bool = False
    timeout: bool = False
    bad_crc: bool = False
    bad_rc: bool = False
    degraded: bool = False
    degraded_cmd_type: bool = False
    degraded_comms_dbw_steer: bool = False
    degraded_comms_dbw_brake: bool = False
    degraded_comms_dbw_thrtl: bool = False
    degraded_comms_vehicle: bool = False
    degraded_control_performance: bool = False
    fault: bool = False
    fault_comms_vehicle: bool = False


@dataclass(slots=True)
class DriveModeReport:
    """Plain mirror of ``ds_dbw_msgs/msg/DriveModeReport`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    drive_mode: int = 0
    drive_mode_cmd: int = 0
    suspension_mode: int = 0
    suspension_mode_cmd: int = 0
    awd_mode: int = 0
    awd_mode_cmd: int = 0
    rear_diff: int = 0
    rear_diff_cmd: int = 0
    front_diff: int = 0
    front_diff_cmd: int = 0
    ready: bool = False
    override_active: bool = False
    override_other: bool = False
    bad_crc: bool = False
    degraded: bool = False
    degraded_cmd_type: bool = False
    degraded_comms_dbw_steer: bool = False
    degraded_comms_dbw_brake: bool = False
    degraded_comms_dbw_thrtl: bool = False
    degraded_comms_vehicle: bool = False
    degraded_control_performance: bool = False
    fault: bool = False
    fault_comms_vehicle: bool = False
    support_drive_mode_cmd: bool = False
    support_suspension_mode_cmd: bool = False
    support_awd_mode_cmd: bool = False
    support_rear_diff_cmd: bool = False
    support_front_diff_cmd: bool = False


@dataclass(slots=True)
class VehicleVelocity:
    """Plain mirror of ``ds_dbw_msgs/msg/VehicleVelocity`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    DIR_NONE: ClassVar[int] = 0
    DIR_PRNDL: ClassVar[int] = 1
    DIR_SENSOR: ClassVar[int] = 2

    vehicle_velocity_brake: float = 0.0
    vehicle_velocity_propulsion: float = 0.0
    dir_src: int = 0


@dataclass(slots=True)
class WheelSpeeds:
    """Plain mirror of ``ds_dbw_msgs/msg/WheelSpeeds`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    front_left: float = 0.0
    front_right: float = 0.0
    rear_left: float = 0.0
    rear_right: float = 0.0


@dataclass(slots=True)
class WheelPositions:
    """Plain mirror of ``ds_dbw_msgs/msg/WheelPositions`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    front_left: int = 0
    front_right: int = 0
    rear_left: int = 0
    rear_right: int = 0


@dataclass(slots=True)
class TirePressures:
    """Plain mirror of ``ds_dbw_msgs/msg/TirePressures`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    front_left: float = 0.0
    front_right: float = 0.0
    rear_left: float = 0.0
    rear_right: float = 0.0
    spare: float = 0.0


@dataclass(slots=True)
class ThrottleInfo:
    """Plain mirror of ``ds_dbw_msgs/msg/ThrottleInfo`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    accel_pedal_pc: float = 0.0
    accel_pedal_qf: int = 0
    one_pedal: int = 0
    engine_rpm: float = 0.0
    engine_throttle_valve_pc: float = 0.0
    drive_mode: int = 0


@dataclass(slots=True)
class BrakeInfo:
    """Plain mirror of ``ds_dbw_msgs/msg/BrakeInfo`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    brake_torque_pedal: float = 0.0
    brake_torque_request: float = 0.0
    brake_torque_actual: float = 0.0
    brake_pedal_qf: int = 0
    brake_vacuum: float = 0.0
    abs_active: bool = False
    abs_enabled: bool = False
    esc_active: bool = False
    esc_enabled: bool = False
    trac_active: bool = False
    trac_enabled: bool = False


@dataclass(slots=True)
class SteeringOffset:
    """Plain mirror of ``ds_dbw_msgs/msg/SteeringOffset`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    OFFSET_UNKNOWN: ClassVar[int] = 0
    OFFSET_RELATAIVE: ClassVar[int] = 1
    OFFSET_ABSOLUTE: ClassVar[int] = 2
    OFFSET_INTERNAL: ClassVar[int] = 3

    steering_wheel_angle: float = 0.0
    steering_wheel_angle_raw: float = 0.0
    steering_wheel_angle_offset: float = 0.0
    offset_type: int = 0


@dataclass(slots=True)
class SteeringInfo:
    """Plain mirror of ``ds_dbw_msgs/msg/SteeringInfo`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    override_torque_filtered: float = 0.0
    override_torque_threshold: float = 0.0
    angle_rate: float = 0.0
    angle_cmd_rate: float = 0.0
    actuator_current: float = 0.0


@dataclass(slots=True)
class PropulsionInfo:
    """Plain mirror of ``ds_dbw_msgs/msg/PropulsionInfo`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    propulsion_torque_request: float = 0.0
    propulsion_torque_actual: float = 0.0
    gear_num_target: int = 0
    gear_num_actual: int = 0
    engine_torque_request: float = 0.0
    engine_torque_actual: float = 0.0
    transmission_ratio: float = 0.0
    torque_limiting: int = 0
    limp_home: int = 0


@dataclass(slots=True)
class FuelLevel:
    """Plain mirror of ``ds_dbw_msgs/msg/FuelLevel`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    fuel_level: float = 0.0
    fuel_range: float = 0.0
    odometer: float = 0.0


@dataclass(slots=True)
class EcuInfo:
    """Plain mirror of ``ds_dbw_msgs/msg/EcuInfo`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    ``datetime`` is the module clock in whole UTC seconds (the adapter
    builds ``builtin_interfaces/Time(sec=datetime)``).
    """

    name: str = ""
    app_version: str = ""
    boot_version: str = ""
    hw_rev: str = ""
    app_signature: str = ""
    mac_addr: str = ""
    config_hash: str = ""
    config_count_modified: int = 0
    config_count_configured: int = 0
    config_nvm_blank: bool = False
    config_nvm_write_pending: bool = False
    build_date: str = ""
    license_date: str = ""
    control_licensed: bool = False
    log_filename: str = ""
    log_filesystem_present: bool = False
    log_fault: bool = False
    datetime: int = 0


@dataclass(slots=True)
class SteeringDiagnostics:
    """Plain mirror of ``ds_dbw_msgs/msg/SteeringDiagnostics`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    degraded: bool = False
    degraded_cmd_type: bool = False
    degraded_comms: bool = False
    degraded_comms_dbw: bool = False
    degraded_comms_dbw_gateway: bool = False
    degraded_comms_dbw_brake: bool = False
    degraded_comms_dbw_thrtl: bool = False
    degraded_comms_dbw_gear: bool = False
    degraded_comms_vehicle: bool = False
    degraded_comms_actuator: bool = False
    degraded_internal: bool = False
    degraded_stall: bool = False
    degraded_control_performance: bool = False
    degraded_param_mismatch: bool = False
    degraded_vehicle: bool = False
    degraded_actuator: bool = False
    degraded_actuator_warm: bool = False
    degraded_vehicle_speed: bool = False
    degraded_calibration: bool = False
    fault: bool = False
    fault_power: bool = False
    fault_comms: bool = False
    fault_comms_dbw: bool = False
    fault_comms_dbw_gateway: bool = False
    fault_comms_dbw_brake: bool = False
    fault_comms_dbw_thrtl: bool = False
    fault_comms_dbw_gear: bool = False
    fault_comms_vehicle: bool = False
    fault_comms_actuator: bool = False
    fault_internal: bool = False
    fault_vehicle: bool = False
    fault_vehicle_speed: bool = False
    fault_angle_sensor: bool = False
    fault_torque_sensor_1: bool = False
    fault_torque_sensor_2: bool = False
    fault_torque_sensor_mismatch: bool = False
    fault_actuator: bool = False
    fault_actuator_torque_sensor: bool = False
    fault_actuator_config: bool = False
    fault_actuator_assist: bool = False
    fault_actuator_hot: bool = False
    fault_control_performance: bool = False
    fault_param_mismatch: bool = False
    fault_param_limits: bool = False
    fault_calibration: bool = False


@dataclass(slots=True)
class BrakeDiagnostics:
    """Plain mirror of ``ds_dbw_msgs/msg/BrakeDiagnostics`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    degraded: bool = False
    degraded_cmd_type: bool = False
    degraded_comms: bool = False
    degraded_comms_dbw: bool = False
    degraded_comms_dbw_gateway: bool = False
    degraded_comms_dbw_steer: bool = False
    degraded_comms_dbw_thrtl: bool = False
    degraded_comms_dbw_gear: bool = False
    degraded_comms_vehicle: bool = False
    degraded_comms_actuator: bool = False
    degraded_comms_actuator_1: bool = False
    degraded_comms_actuator_2: bool = False
    degraded_internal: bool = False
    degraded_control_performance: bool = False
    degraded_param_mismatch: bool = False
    degraded_btsi_stuck_low: bool = False
    degraded_btsi_stuck_high: bool = False
    degraded_vehicle: bool = False
    degraded_vehicle_speed: bool = False
    degraded_bped_feedback: bool = False
    degraded_actuator: bool = False
    degraded_actuator_1: bool = False
    degraded_actuator_2: bool = False
    degraded_external_input_mismatch: bool = False
    degraded_hold_duration: bool = False
    degraded_actuator_aeb_deny: bool = False
    degraded_actuator_warm: bool = False
    degraded_calibration: bool = False
    fault: bool = False
    fault_power: bool = False
    fault_comms: bool = False
    fault_internal: bool = False
    fault_vehicle: bool = False
    fault_actuator: bool = False
    fault_comms_dbw: bool = False
    fault_comms_dbw_gateway: bool = False
    fault_comms_dbw_steer: bool = False
    fault_comms_dbw_thrtl: bool = False
    fault_comms_dbw_gear: bool = False
    fault_comms_vehicle: bool = False
    fault_comms_actuator: bool = False
    fault_comms_actuator_1: bool = False
    fault_comms_actuator_2: bool = False
    fault_vehicle_speed: bool = False
    fault_actuator_acc_deny: bool = False
    fault_actuator_pedal_sensor: bool = False
    fault_bped_sensor_1: bool = False
    fault_bped_sensor_2: bool = False
    fault_bped_sensor_mismatch: bool = False
    fault_actuator_1: bool = False
    fault_actuator_2: bool = False
    fault_actuator_hold_duration: bool = False
    fault_actuator_hot: bool = False
    fault_control_performance: bool = False
    fault_param_mismatch: bool = False
    fault_param_limits: bool = False
    fault_calibration: bool = False


@dataclass(slots=True)
class ThrottleDiagnostics:
    """Plain mirror of ``ds_dbw_msgs/msg/ThrottleDiagnostics`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    degraded: bool = False
    degraded_cmd_type: bool = False
    degraded_comms: bool = False
    degraded_comms_dbw: bool = False
    degraded_comms_dbw_gateway: bool = False
    degraded_comms_dbw_steer: bool = False
    degraded_comms_dbw_brake: bool = False
    degraded_comms_dbw_gear: bool = False
    degraded_internal: bool = False
    degraded_control_performance: bool = False
    degraded_param_mismatch: bool = False
    degraded_vehicle: bool = False
    degraded_vehicle_speed: bool = False
    degraded_aped_feedback: bool = False
    degraded_actuator_pedal_sensor: bool = False
    degraded_sensor: bool = False
    degraded_calibration: bool = False
    fault: bool = False
    fault_power: bool = False
    fault_comms: bool = False
    fault_comms_dbw: bool = False
    fault_comms_dbw_gateway: bool = False
    fault_comms_dbw_steer: bool = False
    fault_comms_dbw_brake: bool = False
    fault_comms_dbw_gear: bool = False
    fault_internal: bool = False
    fault_vehicle: bool = False
    fault_vehicle_speed: bool = False
    fault_sensor: bool = False
    fault_aped_sensor_1: bool = False
    fault_aped_sensor_2: bool = False
    fault_aped_sensor_mismatch: bool = False
    fault_actuator_pedal_sensor: bool = False
    fault_control_performance: bool = False
    fault_param_mismatch: bool = False
    fault_param_limits: bool = False
    fault_calibration: bool = False


@dataclass(slots=True)
class GearDiagnostics:
    """Plain mirror of ``ds_dbw_msgs/msg/GearDiagnostics`` (2.3.11), header omitted.

    Field names and order equal the message (reference layout JSON,
    dbw-interface.md §2). Nested one-byte field types are plain ``int``.
    """

    degraded: bool = False
    degraded_cmd_type: bool = False
    degraded_comms: bool = False
    degraded_comms_dbw: bool = False
    degraded_comms_dbw_gateway: bool = False
    degraded_comms_dbw_steer: bool = False
    degraded_comms_dbw_brake: bool = False
    degraded_comms_dbw_thrtl: bool = False
    degraded_comms_vehicle: bool = False
    degraded_comms_vehicle_1: bool = False
    degraded_comms_vehicle_2: bool = False
    degraded_comms_actuator: bool = False
    degraded_comms_actuator_1: bool = False
    degraded_comms_actuator_2: bool = False
    degraded_internal: bool = False
    degraded_control_performance: bool = False
    degraded_param_mismatch: bool = False
    degraded_vehicle: bool = False
    degraded_vehicle_speed: bool = False
    degraded_actuator: bool = False
    degraded_actuator_warm: bool = False
    degraded_gear_mismatch: bool = False
    degraded_stuck_in_neutral: bool = False
    degraded_power: bool = False
    degraded_calibration: bool = False
    fault: bool = False
    fault_power: bool = False
    fault_comms: bool = False
    fault_comms_dbw: bool = False
    fault_comms_dbw_gateway: bool = False
    fault_comms_dbw_steer: bool = False
    fault_comms_dbw_brake: bool = False
    fault_comms_dbw_thrtl: bool = False
    fault_comms_vehicle: bool = False
    fault_comms_vehicle_1: bool = False
    fault_comms_vehicle_2: bool = False
    fault_comms_actuator: bool = False
    fault_comms_actuator_1: bool = False
    fault_comms_actuator_2: bool = False
    fault_internal: bool = False
    fault_vehicle: bool = False
    fault_vehicle_speed: bool = False
    fault_actuator: bool = False
    fault_actuator_config: bool = False
    fault_actuator_hot: bool = False
    fault_param_mismatch: bool = False
    fault_calibration: bool = False


@dataclass(slots=True)
class ImuData:
    """Content of ``imu/data_raw`` (``sensor_msgs/Imu``) that the DBW reports.

    Body frame of ``base_footprint`` (x forward, y left, z up; REP-103). The
    adapter sets the orientation to zero with ``orientation_covariance[0] = -1``
    and the other covariances to 0 (dbw-interface.md §4.13).

    Attributes
    ----------
    linear_acceleration_x, linear_acceleration_y, linear_acceleration_z : float
        Specific force [m/s^2], 0.01 m/s^2 steps: what an accelerometer
        measures, i.e. acceleration minus gravity (+9.81 on z at rest on level
        ground).
    angular_velocity_x, angular_velocity_y, angular_velocity_z : float
        Angular rate [rad/s], 0.0002 rad/s steps, right-handed about x, y, z.
    """

    linear_acceleration_x: float = 0.0
    linear_acceleration_y: float = 0.0
    linear_acceleration_z: float = 0.0
    angular_velocity_x: float = 0.0
    angular_velocity_y: float = 0.0
    angular_velocity_z: float = 0.0
