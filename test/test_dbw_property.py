"""Property test: random command streams never break the DBW (issue 5).

Any command type with any content (NaN, inf, huge, negative, wrong types,
unknown enums), bursts, gaps, enable/disable events, driver input and faults:
no exception, model inputs finite and within the physical limits, reports
finite except the fields the real system reports as unknown (NaN) or
unlimited (+inf).
"""

import math
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.dbw import FakeVehicle, make, play_events
from helpers.strategies import EVENT, MAY_BE_NONFINITE

def _check_outputs(dbw, o):
    assert math.isfinite(o.pedal) and 0.0 <= o.pedal <= 1.0
    assert math.isfinite(o.brake_line_bar) and 0.0 <= o.brake_line_bar <= dbw.p.brake_max_bar
    assert math.isfinite(o.steering_wheel_deg) and abs(o.steering_wheel_deg) <= dbw.p.steering_lock_deg
    assert o.gear_request in (0, 1, 2, 3, 4, 5)
    assert o.drive_mode in (0, 1, 2)


def _check_reports(rep):
    for name in ("steering_report", "brake_report", "throttle_report", "gear_report", "system_report",
                 "ulc_report", "misc_report", "turn_signal_report", "drive_mode_report", "vehicle_velocity",
                 "wheel_speeds", "wheel_positions", "tire_pressures", "throttle_info", "brake_info",
                 "steering_offset", "steering_info", "propulsion_info", "fuel_level", "imu"):
        msg = getattr(rep, name)
        allowed = MAY_BE_NONFINITE.get(name, set())
        for f in fields(msg):
            v = getattr(msg, f.name)
            if isinstance(v, float) and not math.isfinite(v):
                assert f.name in allowed, f"{name}.{f.name} = {v}"
            if name == "wheel_positions":
                assert isinstance(v, int) and -32768 <= v <= 32767
    # NaN groups: only the group of the brake command type is filled
    b = rep.brake_report
    groups = {1: ("pressure_input",), 2: ("torque_cmd",), 8: ("accel_cmd",), 13: ("percent_cmd",)}
    for typ, names in groups.items():
        for n in names:
            filled = not math.isnan(getattr(b, n))
            same = b.cmd_type == typ or (typ == 8 and b.cmd_type in (8, 9, 10)) or (typ == 13 and b.cmd_type in (13, 14))
            assert filled == same


@pytest.mark.parametrize("sync_mode", [0, 2])  # driver-managed (§4.1), firmware-managed (§4.2)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EVENT, min_size=1, max_size=40))
def test_random_command_streams_never_break_the_dbw(sync_mode, events):
    dbw, veh = make(**{"dbw.system_sync_mode": sync_mode}), FakeVehicle()
    play_events(dbw, veh, events, lambda o, _t: _check_outputs(dbw, o), lambda t: _check_reports(dbw.reports(t)))
