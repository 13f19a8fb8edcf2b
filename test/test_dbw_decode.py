"""Field decoding of received commands (dbw/decode.py): every Python type a field can hold,
including the plain ``float`` and ``int`` of the fast path, decodes as documented."""

import math

import numpy as np
import pytest

from acres_dbw_sim.dbw.decode import as_enum, as_float


@pytest.mark.parametrize("x, expected", [
    (2.5, 2.5), (-0.0, -0.0), (7, 7.0), (np.float32(1.5), 1.5), (np.float64(-3.25), -3.25), (np.int16(-4), -4.0),
    (math.inf, math.inf), (-math.inf, -math.inf), (10 ** 400, math.inf), (-(10 ** 400), -math.inf),
])
def test_a_real_number_reads_as_its_float(x, expected):
    y = as_float(x)
    assert type(y) is float and y == expected and math.copysign(1.0, y) == math.copysign(1.0, expected)


@pytest.mark.parametrize("x", [math.nan, np.float32("nan"), True, False, "1.0", None, b"1", [1.0], 1j])
def test_anything_else_reads_as_nan(x):
    assert math.isnan(as_float(x))


@pytest.mark.parametrize("x, expected", [
    (2, 2), (3, 0), (0, 0), (-1, 0), (np.uint8(2), 2), (np.int64(1), 1), (10 ** 30, 0),
    (True, 0), (False, 0), (2.0, 0), ("2", 0), (None, 0),
])
def test_an_enum_reads_as_itself_when_known_and_none_otherwise(x, expected):
    y = as_enum(x, frozenset({1, 2}))
    assert type(y) is int and y == expected


def test_an_unchanged_resend_reuses_the_decoding_and_anything_else_is_decoded():
    """LastCommand: the same values of the same types reuse the last decoding; a changed value, a value of
    another type (1 is not True to as_flag's caller, 2.0 is not 2 to as_enum), a changed field of the same
    object, another class, or nothing kept, decode anew."""
    from acres_dbw_sim.dbw.commands import BrakeCmd, UlcCmd
    from acres_dbw_sim.dbw.decode import LastCommand

    last = LastCommand(UlcCmd)
    msg = UlcCmd(cmd=5.0, cmd_type=1, enable=True)
    assert last.find(msg) is None
    last.keep(msg, "decoded")
    assert last.find(msg) == "decoded"
    assert last.find(UlcCmd(cmd=5.0, cmd_type=1, enable=True)) == "decoded"   # another object, same content
    assert last.find(UlcCmd(cmd=5.0, cmd_type=1, enable=1)) is None           # same value, another type
    assert last.find(UlcCmd(cmd=5.0, cmd_type=1.0, enable=True)) is None
    assert last.find(UlcCmd(cmd=5.5, cmd_type=1, enable=True)) is None
    msg.cmd = 6.0                                                              # the kept object changed
    assert last.find(msg) is None
    assert last.find(BrakeCmd(cmd=5.0, cmd_type=1, enable=True)) is None
    last.forget()
    assert last.find(UlcCmd(cmd=5.0, cmd_type=1, enable=True)) is None


def test_every_resent_invalid_command_is_counted():
    """A NaN set-point with a type is counted on every arrival, re-sent or not (the decoding is not kept)."""
    from acres_dbw_sim.dbw.commands import BrakeCmd, ThrottleCmd, UlcCmd
    from acres_dbw_sim.simulation import ENABLE, Simulation

    sim = Simulation()
    sim.submit(ENABLE)
    for cmd in (UlcCmd(cmd=math.nan, cmd_type=1, enable=True), BrakeCmd(cmd=math.nan, cmd_type=1, enable=True),
                ThrottleCmd(cmd=math.nan, cmd_type=14, enable=True)):
        for _ in range(3):
            sim.submit(cmd)
            sim.step()
    assert sim.dbw.invalid_commands == 9


def test_a_resent_angle_after_a_calibration_decodes_against_the_new_offset():
    """An angle set-point decodes against the calibration offset: a re-send after the offset changed (a
    CMD_SET_OFFSET, a calibration) is decoded anew, not taken from the last decoding."""
    from acres_dbw_sim.dbw.commands import SteeringCmd
    from acres_dbw_sim.simulation import ENABLE, Simulation

    sim = Simulation()
    sim.submit(ENABLE)
    angle = SteeringCmd(cmd=30.0, cmd_type=SteeringCmd.CMD_ANGLE, enable=True)
    steering = sim.dbw.steering
    sim.submit(angle)
    sim.step()
    before = steering.target_raw
    assert before == pytest.approx(30.0 - steering.offset_deg)
    sim.submit(SteeringCmd(cmd=5.0, cmd_type=SteeringCmd.CMD_SET_OFFSET, enable=True))
    assert steering.offset_deg == pytest.approx(5.0)
    sim.submit(angle)
    assert steering.target_raw == pytest.approx(25.0)
    sim.dbw.steering_calibrate(sim.time_s)   # the present position becomes 0: another offset
    sim.submit(angle)
    assert steering.target_raw == pytest.approx(30.0 - steering.offset_deg)
