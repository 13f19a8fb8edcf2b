"""Filling only some reports (``reports(only=...)``, what the node does for the topics due; with
``on_change=False`` what replay does for its compared signals) gives the same content as filling them all.

Two simulations take the same commands, events, driver input and faults; one fills every report
at every step, the other a random subset. Every report the second fills, and the ones it always
fills (the on-change gear and system reports, with their change counters), must equal the first's.
"""

import math
import random
from dataclasses import asdict, fields

import pytest

from acres_dbw_sim.dbw.commands import BrakeCmd, GearCmd, SteeringCmd, ThrottleCmd, TurnSignalCmd, UlcCmd
from acres_dbw_sim.dbw.report_content import ALWAYS_FILLED
from acres_dbw_sim.dbw.state import DbwReports, DriverInput
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.simulation import ENABLE, Simulation

REPORTS = tuple(f.name for f in fields(DbwReports)
                if f.name not in ("ecu_info", "vin", "dbw_enabled", "gear_report_changes", "system_report_changes"))


def _same(a, b) -> bool:
    """Equal field by field, NaN equal to NaN."""
    da, db = asdict(a), asdict(b)
    return da.keys() == db.keys() and all(
        x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))
        for x, y in ((da[k], db[k]) for k in da))


def _drive(sim: Simulation, k: int) -> None:
    """A busy minute: engage, ULC speed steps, steering, a brake and a throttle stream, a shift,
    a turn signal, a driver's brake override and a steering fault, each at its own step."""
    if k == 2:
        sim.submit(ENABLE)
    if k % 2 == 0:   # 60 Hz streams
        sim.submit(UlcCmd(cmd=4.0 if k < 1200 else 1.5, cmd_type=UlcCmd.CMD_VELOCITY, enable=True,
                          limit_accel=1.5, limit_decel=2.0))
        sim.submit(SteeringCmd(cmd=90.0 * math.sin(k / 200.0), cmd_type=SteeringCmd.CMD_ANGLE, enable=True))
    if 2000 <= k < 2400:
        sim.submit(BrakeCmd(cmd=20.0, cmd_type=BrakeCmd.CMD_PRESSURE, enable=True))
        sim.submit(ThrottleCmd(cmd=10.0, cmd_type=ThrottleCmd.CMD_PEDAL_RAW, enable=True))
    if k == 10:
        sim.submit(GearCmd(cmd=int(Gear.DRIVE)))
    if k % 30 == 0 and k < 900:
        sim.submit(TurnSignalCmd(cmd=1))
    if k == 2600:
        sim.set_driver(DriverInput(brake_pedal_pct=60.0))
    if k == 2800:
        sim.set_driver(DriverInput())
        sim.set_fault("steering")
    if k == 3000:
        sim.set_fault("steering", False)
        sim.submit(ENABLE)


@pytest.mark.parametrize("model", ["full", "kinematic"])
def test_a_partial_fill_equals_the_full_fill(model):
    full, part = Simulation(model=model), Simulation(model=model)
    rng = random.Random(11)
    filled_some = set()
    engaged_steps = 0
    for k in range(3600):   # 30 s at 120 Hz
        for sim in (full, part):
            _drive(sim, k)
            sim.step()
        a = full.reports()
        only = rng.sample(REPORTS, rng.randint(0, 6))
        b = part.reports(only)
        assert a.dbw_enabled == b.dbw_enabled
        engaged_steps += a.dbw_enabled
        assert (a.gear_report_changes, a.system_report_changes) == (b.gear_report_changes, b.system_report_changes)
        for name in set(only) | ALWAYS_FILLED:
            assert _same(getattr(a, name), getattr(b, name)), f"step {k}: {name} differs"
            filled_some.add(name)
        assert [e.datetime for e in a.ecu_info] == [e.datetime for e in b.ecu_info] and a.vin == b.vin
    assert filled_some == set(REPORTS)   # the draw reached every report
    assert engaged_steps > 1000   # the run drove engaged, not only sat disengaged


def test_without_the_on_change_reports_the_named_ones_are_the_same():
    """``on_change=False`` (replay's compared signals): the reports named are those of a full fill, the gear and
    system reports and their change counters are left as they were unless named."""
    full, part = Simulation(), Simulation()
    rng = random.Random(5)
    for k in range(2400):
        for sim in (full, part):
            _drive(sim, k)
            sim.step()
        a = full.reports()
        only = rng.sample(REPORTS, rng.randint(1, 5))
        counters = (part.dbw._rep.gear_report_changes, part.dbw._rep.system_report_changes)
        b = part.reports(only, on_change=False)
        for name in only:
            assert _same(getattr(a, name), getattr(b, name)), f"step {k}: {name} differs"
        if not set(only) & ALWAYS_FILLED:
            assert (b.gear_report_changes, b.system_report_changes) == counters
    assert full.reports().system_report_changes > 0 and part.reports().system_report_changes > 0


def test_an_unknown_report_name_is_refused():
    sim = Simulation()
    sim.step()
    with pytest.raises(KeyError):
        sim.reports(["steering_reprot"])
    assert sim.reports(()).gear_report is sim.reports().gear_report   # the same object, still served
