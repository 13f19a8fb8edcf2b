"""The DBW's copy of the vehicle state (state.MeasuredState): the direct read of a
finite vehicle equals the checked read, for every vehicle; a non-finite or
missing value reads as its default."""

from __future__ import annotations

import math
import types

import pytest

from acres_dbw_sim.dbw.commands import ENABLE, SteeringCmd, ThrottleCmd
from acres_dbw_sim.dbw.state import DIR_PRNDL, DIR_SENSOR, MeasuredState
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.simulation import Simulation

SLOTS = MeasuredState.FIELDS


def _snapshot(view: MeasuredState) -> dict:
    out = {}
    for name in SLOTS:
        v = getattr(view, name)
        out[name] = list(v) if isinstance(v, list) else ("nan" if v != v else v)   # NaN compares equal to NaN
    return out


def _both(vehicle: object, dir_src: int, monkeypatch, direct: bool) -> tuple[dict, dict]:
    """``read`` (with ``direct``: it must not fall back to the checked read) and the checked read."""
    fast, checked = MeasuredState(dir_src), MeasuredState(dir_src)
    checked._read_checked(vehicle)
    with monkeypatch.context() as m:
        if direct:
            m.setattr(MeasuredState, "_read_checked", lambda self, s: pytest.fail("the direct read fell back"))
        fast.read(vehicle)
    return _snapshot(fast), _snapshot(checked)


def _driven(vehicle: str, model: str, gear: Gear) -> Simulation:
    """A vehicle under way (wheel spin, engine, steering, tyre forces) in ``gear``."""
    sim = Simulation(vehicle=vehicle, model=model, gear=gear)
    sim.submit(ENABLE)
    for k in range(240):
        if k % 6 == 0:
            sim.submit(ThrottleCmd(cmd=30.0, cmd_type=ThrottleCmd.CMD_PEDAL_RAW, enable=True))
            sim.submit(SteeringCmd(cmd=90.0, cmd_type=SteeringCmd.CMD_ANGLE, enable=True))
        sim.step()
    return sim


# the kinematic level leaves the powertrain quantities NaN (not modelled): always the checked read
@pytest.mark.parametrize("vehicle,model,direct", [("polaris", "full", True), ("polaris", "kinematic", False),
                                                  ("maxxum150", "full", True)])
@pytest.mark.parametrize("gear", [Gear.DRIVE, Gear.REVERSE])
@pytest.mark.parametrize("dir_src", [DIR_PRNDL, DIR_SENSOR])
def test_direct_read_equals_checked_read(vehicle, model, direct, gear, dir_src, monkeypatch):
    sim = _driven(vehicle, model, gear)
    fast, checked = _both(sim.vehicle, dir_src, monkeypatch, direct)
    assert fast == checked
    assert fast["speed"] > 0.1 and any(w != 0.0 for w in fast["wheel_spin"])  # the state is not trivial
    assert (fast["v"] < 0.0) == (gear == Gear.REVERSE)  # under way in the gear's direction


def test_non_finite_or_missing_values_read_as_defaults():
    sim = _driven("polaris", "full", Gear.DRIVE)
    src = sim.vehicle
    fake = types.SimpleNamespace(**{name: getattr(src, name) for name in (
        "velocity_body_mps", "speed_mps", "angular_velocity_body_rad_s", "specific_force_body_mps2",
        "wheel_spin_rad_s", "brake_torque_nm", "wheel_fy_n", "engine_rpm", "engine_torque_nm", "cvt_ratio",
        "fuel_l", "gear", "gear_target", "shift_in_progress", "last_gear_reject", "drive_mode")})
    fake.engine_rpm = math.nan
    fake.wheel_spin_rad_s = (1.0, math.inf, 2.0, 3.0)
    view = MeasuredState(DIR_SENSOR)
    view.read(fake)
    assert view.engine_rpm == 0.0
    assert view.wheel_spin == [1.0, 0.0, 2.0, 3.0]
    assert view.v == pytest.approx(src.velocity_body_mps[0])
    del fake.fuel_l, fake.wheel_fy_n
    fake.engine_rpm = 1500.0
    view.read(fake)
    assert math.isnan(view.fuel_l) and view.fy_front == 0.0 and view.engine_rpm == 1500.0


@pytest.mark.parametrize("gear", [Gear.DRIVE, Gear.REVERSE])
@pytest.mark.parametrize("dir_src", [DIR_PRNDL, DIR_SENSOR])
@pytest.mark.parametrize("spoil", [None, "O_VB", "O_OMEGA", "O_TB", "O_FY", "O_TE"])
def test_the_compiled_read_of_the_arrays_equals_the_read_of_the_attributes(gear, dir_src, spoil, monkeypatch):
    """The Ranger's step through the DBW reads the vehicle from its arrays (dbw_step.ranger_measured); the
    Python DBW reads the same vehicle's attributes (MeasuredState.read): the same record, with a finite vehicle
    and with a non-finite output (read as its default by both)."""
    from acres_dbw_sim.dbw.record import record_array
    from acres_dbw_sim.model import stages
    from acres_dbw_sim.vehicles.polaris.dbw_step import ranger_measured

    sim = _driven("polaris", "full", gear)
    v = sim.vehicle
    if spoil is not None:
        v._out[getattr(stages, spoil)] = math.nan
        v._outputs_changed()
    by_attributes, by_arrays = MeasuredState(dir_src), MeasuredState(dir_src)
    by_attributes.read(v)
    ranger_measured(record_array(by_arrays._s), v._out, v._s, v.lever.lv)
    assert _snapshot(by_arrays) == _snapshot(by_attributes)
    assert by_arrays.speed > 0.1 or spoil == "O_VB"


@pytest.mark.parametrize("gear", [Gear.DRIVE, Gear.REVERSE])
@pytest.mark.parametrize("dir_src", [DIR_PRNDL, DIR_SENSOR])
@pytest.mark.parametrize("spoil", [None, "O_VB", "O_TE"])
def test_the_tractors_reading_equals_the_read_of_its_attributes(gear, dir_src, spoil):
    """The Maxxum's own reading (DbwTractor.dbw_reading: its output array compiled, its lever and powershift
    from the face) writes the record MeasuredState.read gives from the attributes, also with a non-finite output;
    and it is what the DBW's step reads (Simulation.step)."""
    from acres_dbw_sim.model import stages

    sim = _driven("maxxum150", "full", gear)
    v = sim.vehicle
    if spoil is not None:
        v.tractor._out[getattr(stages, spoil)] = math.nan
        v.tractor._outputs_changed()
    by_attributes = MeasuredState(dir_src)
    by_attributes.read(v)
    by_reading = MeasuredState(dir_src, s=sim.dbw.state)   # a view of the record the reading writes
    sim._reading()
    assert _snapshot(by_reading) == _snapshot(by_attributes)
    assert by_reading.speed > 0.1 or spoil == "O_VB"
    assert sim._reading is not None and sim._joined is not None   # its compiled step through the DBW reads the same


@pytest.mark.parametrize("vehicle", ["polaris", "maxxum150"])
def test_the_reports_from_the_compiled_reading_equal_those_from_the_attributes(vehicle):
    """Simulation.reports reads the vehicle from its arrays (its dbw_reading); the DBW's reports from the
    vehicle's attributes are the same, field for field."""
    import dataclasses

    sim = _driven(vehicle, "full", Gear.DRIVE)
    assert sim._reading is not None
    for _ in range(3):
        by_arrays = {f.name: repr(getattr(sim.reports(), f.name)) for f in dataclasses.fields(sim.dbw._rep)}
        by_attributes = {f.name: repr(getattr(sim.dbw.reports(sim.time_s, sim.vehicle), f.name))
                         for f in dataclasses.fields(sim.dbw._rep)}
        assert by_arrays == by_attributes
        assert "nan" not in by_arrays["vehicle_velocity"] and by_arrays["vehicle_velocity"] != ""
        sim.step()
