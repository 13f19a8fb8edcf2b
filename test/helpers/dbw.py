"""Test doubles for the DBW unit tests.

``FakeVehicle`` exposes the attributes of the model's ``Vehicle`` that the DBW
reads, with a trivial gear lever (shift below 0.3 m/s, 1 s in neutral) so the
pure DBW logic can be tested without the physics.
"""

import math

from acres_dbw_sim.dbw import commands as C

from acres_dbw_sim.vehicles import vehicle_spec
from acres_dbw_sim.dbw.params import DbwParameters
from acres_dbw_sim.dbw.system import DbwSystem
from acres_dbw_sim.vehicles.polaris.params import load_parameters

DT = 1.0 / 120.0


class FakeVehicle:
    """Static vehicle state; ``apply`` runs the trivial lever."""

    def __init__(self, speed=0.0, gear=4):
        self.velocity_body_mps = [speed, 0.0, 0.0]
        self.speed_mps = abs(speed)
        self.angular_velocity_body_rad_s = [0.0, 0.0, 0.0]
        self.specific_force_body_mps2 = [0.0, 0.0, 9.80665]
        self.wheel_spin_rad_s = [speed / 0.3429] * 4
        self.gear = gear
        self.gear_target = gear
        self.shift_in_progress = False
        self.last_gear_reject = 0
        self.drive_mode = 2
        self.engine_rpm = 1200.0
        self.engine_torque_nm = 5.0
        self.cvt_ratio = 3.2
        self.brake_torque_nm = [0.0] * 4
        self.fuel_l = 40.0
        self._shift_t = 0.0

    def set_speed(self, v):
        self.velocity_body_mps[0] = v
        self.speed_mps = abs(v)
        for i in range(4):
            self.wheel_spin_rad_s[i] = v / 0.3429

    def apply(self, out, dt=DT):
        if self.shift_in_progress:
            self._shift_t += dt
            if self._shift_t >= 1.0:
                self.shift_in_progress = False
                self.gear = self.gear_target
        elif out.gear_request and out.gear_request != self.gear:
            if self.speed_mps < 0.3:
                self.gear_target = out.gear_request
                self.gear = 3
                self.shift_in_progress = True
                self._shift_t = 0.0
                self.last_gear_reject = 0
            else:
                self.last_gear_reject = 6


_SHIPPED = load_parameters()


def params(**overrides):
    """DBW parameters of the shipped file, with ``{dotted key: value}`` overrides."""
    return DbwParameters.from_vehicle_parameters(_SHIPPED, overrides)


def make(dt=DT, **overrides):
    """A DbwSystem with the shipped parameters (plus overrides of DBW keys) and the Ranger's ULC plant model."""
    return DbwSystem(params(**overrides), dt, ulc_plant=vehicle_spec("polaris").ulc_plant)


def run(dbw, veh, t0, duration, every=None, dt=DT, record=None):
    """Step from t0 for ``duration`` seconds; ``every(k, t)`` submits commands.

    Returns the end time; ``record`` (list) collects (t, outputs copy).
    """
    n = int(round(duration / dt))
    t = t0
    for k in range(n):
        if every is not None:
            every(k, t)
        out = dbw.step(t, veh)
        veh.apply(out, dt)
        if record is not None:
            record.append((t, out.pedal, out.brake_line_bar, out.steering_wheel_deg, out.gear_request))
        t = t0 + (k + 1) * dt
    return t


def finite(x):
    return isinstance(x, float) and math.isfinite(x)


def play_events(dbw, veh, events, after_step, after_event=None):
    """Play the property test's events (``test/helpers/strategies.py``'s ``EVENT``: ``(kind, a, b)``) into
    ``dbw`` against ``veh``, from an ENABLE at t = 0; one step after each event besides the steps of a
    ``stream`` or ``gap``. ``after_step(outputs, t)`` runs after every step with the time after it,
    ``after_event(t)`` after every event."""
    def step(t):
        o = dbw.step(t, veh)
        veh.apply(o)
        after_step(o, t + DT)
        return t + DT

    dbw.submit(C.ENABLE, 0.0)
    t = 0.0
    for kind, a, b in events:
        if kind == "cmd":
            for _ in range(b + 1):
                dbw.submit(a, t)
        elif kind == "stream":
            for k in range(b):
                if k % 2 == 0:
                    dbw.submit(a, t)
                t = step(t)
        elif kind == "gap":
            for _ in range(int(a / DT)):
                t = step(t)
        elif kind == "driver":
            dbw.set_driver(a)
        elif kind == "fault":
            dbw.set_fault(a, b)
        elif kind == "speed":
            veh.set_speed(a)
        t = step(t)
        if after_event is not None:
            after_event(t)
    return t
