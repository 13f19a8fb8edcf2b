"""Longitudinal ULC of DBW2: speed/acceleration commands onto throttle and brake.

Interface facts (dbw-interface.md §2.7, §4.5, §4.12): ``cmd_type`` VELOCITY
(m/s, signed, clamped to -7..45) or ACCEL (m/s^2, clamped to -6..3);
``limit_accel``/``limit_decel`` shape the speed reference (m/s^2, 0 = default,
+inf/negative = maximum, clamped 0.3..3.0 / 0.3..6.0); ``limit_jerk_throttle``
/ ``limit_jerk_brake`` shape the acceleration reference (m/s^3, clamped
1..25); ``enable_shift``, ``enable_shift_park``, ``coast_decel``; 100 ms
timeout; user brake/throttle commands pre-empt it. The controller itself is
not public; this one is (gaps.md "Drive-by-Wire and ULC"):

Reference shaping (speed magnitude; moving away from 0 uses ``limit_accel``,
towards 0 ``limit_decel``): the acceleration reference ``a_ref`` heads for
``sgn(e) min(a_lim, sqrt(2 j |e|), |e| / dt)`` with ``e = v_cmd - v_ref``,
changing by at most ``limit_jerk_throttle dt`` upwards and
``limit_jerk_brake dt`` downwards; ``v_ref += a_ref dt`` without crossing the
command. While speeding up, the reference waits for a vehicle that falls
behind by more than ``dbw.ulc.ref_lead_mps`` (a reference governor: the
clutch engagement and CVT lag would otherwise wind up the integrator and
overshoot the command).

Control: ``a_des = a_ref + k_p (v_ref - v) + I - k_d (a - a_ref)``,
``dI/dt = k_i (v_ref - v)`` (the ``k_d`` acceleration feedback damps what
the feed-forward misses; ``a`` is the measured acceleration) (conditional
integration: frozen while the output saturates in the error's direction or
the reference governor holds the reference, clamped to
``dbw.ulc.integral_limit_mps2``). Feed-forward force along the gear's
direction ``d`` (+1 forward gears, -1 reverse)::

    F = m_r d a_des + d m g_x + sgn(d v) F_res,   F_res = m g f_r + 0.5 rho C_dA v^2

where ``m_r = m + (4 J_w + J_s i_r^2) / R_t^2`` adds the wheels and the
secondary clutch, and ``g_x = g sin(pitch)`` is the grade estimate from the
IMU (specific force along x minus the measured acceleration, low-pass
filtered). The ULC's powertrain model (vehicles/polaris/ulc_plant.py) turns ``F`` into the
engine torque request ``u`` from the measured engine speed and belt ratio,
including the engine's own inertia and the power the belt's up- or
down-shift moves between engine and vehicle, and gives the force ``F_0`` of
the powertrain with the pedal released (engine braking). Throttle: percent
``100 clamp(u, 0, 1)^(1/gamma)`` (inverse of the engine's pedal map
``u = p^gamma``). Brake: pressure ``(F_0 - F) R_t / G`` with
``G = 2 G_f + 2 G_r``. Hysteresis: the brake takes over when
``F < F_0 - m h`` and hands back when ``F > F_0 + m h`` (``h`` =
``dbw.ulc.hysteresis_mps2``); in between the pedal is released.
``coast_decel`` removes every brake application. A zero speed command holds
the vehicle with ``dbw.ulc.hold_bar`` once ``v_ref`` and the speed are near 0.

Measured on the model with the shipped gains (test_simulation_vehicle.py):
0 -> 5 m/s at ``limit_accel`` 1 on asphalt overshoots 0.06 m/s and settles
within 0.001 m/s; 5 m/s up and down a 10 % grade holds within 0.06 m/s and
0.07 m/s from a moving start. Without the belt's and the engine's terms of the
feed-forward the same step overshot 0.36 m/s (kp 2.5, ki 1.0): at the end of
the ramp the engine is near 4700 rev/min with the belt at a low ratio, and
the upshift hands the engine's kinetic energy to the vehicle.

Shifting: with ``enable_shift`` the ULC requests DRIVE (or keeps LOW) for a
positive and REVERSE for a negative speed command when the vehicle is slower
than the shift speed; leaving or entering PARK also needs
``enable_shift_park``; with it a zero command held for
``dbw.ulc.park_delay_s`` at stand-still requests PARK. While the gear does not
match the wanted direction, the throttle is 0 and the brake holds.
"""

from __future__ import annotations

import math

from .actuators import quantize, clamp
from .commands import UlcCmd
from .decode import as_enum, as_flag, as_float, decode_ulc_limit
from .msg_fields import G_DRIVE, G_LOW, G_NONE, G_PARK, G_REVERSE
from .params import DbwParameters
from .status import ULC, ActuatorStatus

#: Acceleration [m/s^2] along the wanted direction above which the vehicle counts as
#: catching up with the reference (the governor may then hold the reference).
_CATCHING_UP_MPS2 = 0.05

__all__ = ["Ulc"]

_TYPES = frozenset({0, 1, 2})
G = 9.80665


class Ulc:
    """The DBW2 longitudinal ULC.

    Parameters
    ----------
    p : DbwParameters
        Parameters (``dbw.ulc.*`` and the vehicle quantities).
    dt_s : float
        Physics step [s].
    plant : object
        The vehicle's ULC plant model (its registry row's ``ulc_plant`` built with ``p``: ``solve``,
        ``rear_ratio``, ``rotating_mass_kg``, ``u``, ``force0_n``, ``slipping``; the Ranger's
        ``vehicles.polaris.ulc_plant.PowertrainModel``).

    Attributes
    ----------
    status : ActuatorStatus
        ULC flags (ready, enabled, override_*, timeout).
    preempted : bool
        Direct user brake/throttle commands are in force.
    v_ref, a_ref : float
        Shaped speed [m/s] and acceleration [m/s^2] references.
    throttle_pct, brake_bar : float
        Requests to the throttle [%] and brake [bar] actuators.
    gear_request : int
        Gear the ULC asks for (``Gear``), NONE if none.
    """

    def __init__(self, p: DbwParameters, dt_s: float, plant, s) -> None:
        self.p = p
        self.dt_s = dt_s
        self.status = ActuatorStatus(p.command_timeout_s, s, ULC)
        self._G = 2.0 * (p.brakes_front_nm_per_bar + p.brakes_rear_nm_per_bar)
        self._inv_gamma = 1.0 / p.engine_pedal_exponent
        self.powertrain = plant
        self.invalid_count = 0
        self.reset()

    def reset(self) -> None:
        """Power-on state."""
        p = self.p
        self.status.reset()
        self.cmd_type = 0
        self.cmd = 0.0
        self.limit_accel = p.ulc_limit_accel_default_mps2
        self.limit_decel = p.ulc_limit_decel_default_mps2
        self.jerk_throttle = p.ulc_limit_jerk_throttle_default_mps3
        self.jerk_brake = p.ulc_limit_jerk_brake_default_mps3
        self.enable_shift = False
        self.enable_shift_park = False
        self.coast_decel = False
        self.preempted = False
        self.engaged = False
        self.v_ref = 0.0
        self.a_ref = 0.0
        self.integ = 0.0
        self.braking = False
        self.throttle_pct = 0.0
        self.brake_bar = 0.0
        self.gear_request = G_NONE
        self.stopped_s = 0.0

    def command(self, t_s: float, msg: UlcCmd, dbw_enabled: bool, auto_clear: bool) -> None:
        """Decode one ``UlcCmd`` with the decoder's clamps (§4.5, §4.12).

        A NaN ``cmd`` with a non-NONE type is treated as CMD_NONE (see
        decode.py); +/-inf saturate at the clamp limits.
        """
        p = self.p
        typ = as_enum(getattr(msg, "cmd_type", 0), _TYPES)
        val = as_float(getattr(msg, "cmd", math.nan))
        if typ != 0 and val != val:
            self.invalid_count += 1
            typ = 0
        if typ == 1:
            self.cmd = quantize(clamp(val, -7.0, 45.0), 0.0025)   # clamp first: 1e305 / step is inf
        elif typ == 2:
            self.cmd = quantize(clamp(val, -6.0, 3.0), 0.0005)
        else:
            self.cmd = 0.0
        self.limit_accel = decode_ulc_limit(getattr(msg, "limit_accel", 0.0), 0.025, 0.3, 3.0,
                                            p.ulc_limit_accel_default_mps2)
        self.limit_decel = decode_ulc_limit(getattr(msg, "limit_decel", 0.0), 0.025, 0.3, 6.0,
                                            p.ulc_limit_decel_default_mps2)
        self.jerk_throttle = decode_ulc_limit(getattr(msg, "limit_jerk_throttle", 0.0), 0.1, 1.0, 25.0,
                                              p.ulc_limit_jerk_throttle_default_mps3)
        self.jerk_brake = decode_ulc_limit(getattr(msg, "limit_jerk_brake", 0.0), 0.1, 1.0, 25.0,
                                           p.ulc_limit_jerk_brake_default_mps3)
        self.enable_shift = as_flag(getattr(msg, "enable_shift", False))
        self.enable_shift_park = as_flag(getattr(msg, "enable_shift_park", False))
        self.coast_decel = as_flag(getattr(msg, "coast_decel", False))
        self.cmd_type = typ
        self.status.command(t_s, typ != 0, as_flag(getattr(msg, "enable", False)) and dbw_enabled,
                            as_flag(getattr(msg, "clear", False)) or auto_clear, False)

    # ------------------------------------------------------------------ helpers
    def _wanted_gear(self, gear: int, direction: int) -> int:
        """Gear the ULC would like for a travel direction (+1, -1, 0)."""
        if direction > 0:
            return gear if gear in (G_DRIVE, G_LOW) else G_DRIVE
        if direction < 0:
            return G_REVERSE
        return gear

    def step(self, v_mps: float, gear: int, shifting: bool, grade_mps2: float = 0.0,
             accel_mps2: float = 0.0, engine_rpm: float = 0.0, cvt_ratio: float = 0.0) -> None:
        """Advance the ULC one step (call only while it drives the pedals).

        Parameters
        ----------
        v_mps : float
            Signed longitudinal speed [m/s].
        gear : int
            Present gear (``Gear`` value).
        shifting : bool
            The lever is moving.
        grade_mps2 : float
            Gravity component along body x, ``g sin(pitch)`` [m/s^2], positive
            nose up (estimated from the IMU).
        accel_mps2 : float
            Measured longitudinal acceleration [m/s^2] (filtered).
        engine_rpm : float
            Measured engine speed [rev/min] (ThrottleInfo.engine_rpm).
        cvt_ratio : float
            Measured belt ratio [-] (PropulsionInfo.transmission_ratio).

        Updates ``throttle_pct`` [%], ``brake_bar`` [bar], ``gear_request``,
        ``v_ref`` and ``a_ref``.
        """
        p = self.p
        dt = self.dt_s
        if not self.engaged:  # bumpless start from the measured state
            self.engaged = True
            self.v_ref = v_mps
            self.a_ref = 0.0
            self.integ = 0.0
            self.braking = False
            self.stopped_s = 0.0
        # ---- reference shaping
        if self.cmd_type == 1:
            target = self.cmd
            e = target - self.v_ref
            away = (e > 0.0 and self.v_ref >= 0.0) or (e < 0.0 and self.v_ref <= 0.0)
            a_lim = self.limit_accel if away else self.limit_decel
            j = self.jerk_throttle if e > 0.0 else self.jerk_brake
            a_d = math.copysign(min(a_lim, math.sqrt(2.0 * j * abs(e)), abs(e) / dt), e) if e != 0.0 else 0.0
        else:
            target = math.nan
            a_d = self.cmd
        da = a_d - self.a_ref
        self.a_ref += clamp(da, -self.jerk_brake * dt, self.jerk_throttle * dt)
        if self.cmd_type == 1:
            v_new = self.v_ref + self.a_ref * dt
            if (target - v_new) * (target - self.v_ref) < 0.0:
                v_new = target
                self.a_ref = (v_new - self.v_ref) / dt
            # reference governor: while speeding up, lead the vehicle by at most ref_lead,
            # but only while the vehicle is catching up (accelerating that way): a vehicle
            # that does not follow (scrubbing at full lock, a steep grade) needs the
            # reference to go on and the integrator to act, or it stalls short of it.
            lead = p.ulc_ref_lead_mps
            governed = False
            if (v_new > 0.0 and target > v_new and v_new > v_mps + lead
                    and accel_mps2 > _CATCHING_UP_MPS2):
                v_new = max(self.v_ref, v_mps + lead)
                governed = True
            elif (v_new < 0.0 and target < v_new and v_new < v_mps - lead
                    and accel_mps2 < -_CATCHING_UP_MPS2):
                v_new = min(self.v_ref, v_mps - lead)
                governed = True
            self.v_ref = v_new
            direction = 1 if target > 0.0 else -1 if target < 0.0 else 0
        else:
            self.v_ref = v_mps
            governed = False
            direction = 1 if self.cmd > 0.0 else -1 if self.cmd < 0.0 else 0
        # ---- gear management
        self.gear_request = G_NONE
        want = self._wanted_gear(gear, direction)
        slow = abs(v_mps) <= p.gear_max_shift_speed_mps
        stopping = self.cmd_type == 1 and target == 0.0 and abs(self.v_ref) < 1e-6
        if stopping and abs(v_mps) < p.ulc_stop_speed_mps:
            self.stopped_s += dt
        else:
            self.stopped_s = 0.0
        if direction != 0 and want != gear and slow and not shifting:
            park_involved = gear == G_PARK
            if self.enable_shift and (not park_involved or self.enable_shift_park):
                self.gear_request = want
        elif (stopping and self.enable_shift and self.enable_shift_park and gear != G_PARK
              and not shifting and self.stopped_s >= p.ulc_park_delay_s):
            self.gear_request = G_PARK
        d = -1.0 if gear == G_REVERSE else 1.0 if gear in (G_DRIVE, G_LOW) else 0.0
        wrong_gear = shifting or (direction != 0 and want != gear) or d == 0.0
        # ---- stand-still hold
        hold = stopping and abs(v_mps) < p.ulc_stop_speed_mps
        if hold or wrong_gear:
            self.integ = 0.0
            self.braking = True
            self.throttle_pct = 0.0
            self.brake_bar = 0.0 if self.coast_decel else p.ulc_hold_bar
            if wrong_gear and not hold and direction == 0 and d == 0.0 and not shifting:
                # in P/N with nothing to do: no need to hold the pedals
                self.brake_bar = 0.0 if gear == G_PARK else self.brake_bar
            return
        # ---- control
        err = (self.v_ref - v_mps) if self.cmd_type == 1 else 0.0
        a_des = self.a_ref + p.ulc_kp_speed * err + self.integ
        if self.cmd_type == 1:
            a_des -= p.ulc_kd_accel * (accel_mps2 - self.a_ref)
        m = p.vehicle_mass_kg
        pt = self.powertrain
        v_d = d * v_mps  # speed along the gear's direction
        f_res = m * G * p.ulc_rolling_coeff * min(1.0, abs(v_mps) / 0.5) \
            + 0.5 * p.aero_air_density_kg_m3 * p.aero_drag_area_m2 * v_mps * v_mps
        m_r = m + pt.rotating_mass_kg(pt.rear_ratio(gear))
        f = m_r * d * a_des + d * m * grade_mps2 + (f_res if v_d >= 0.0 else -f_res)
        u = pt.solve(f, d * a_des, gear, v_d, engine_rpm, cvt_ratio)
        f0 = pt.force0_n
        h = m * p.ulc_hysteresis_mps2
        if self.braking and f > f0 + h:
            self.braking = False
        elif not self.braking and f < f0 - h:
            self.braking = True
        sat_hi = sat_lo = False
        if self.braking:
            self.throttle_pct = 0.0
            bar = 0.0 if self.coast_decel else max(0.0, f0 - f) * p.tyres_radius_m / self._G
            self.brake_bar = clamp(bar, 0.0, p.brake_max_bar)
            sat_lo = self.coast_decel or bar >= p.brake_max_bar  # cannot decelerate more
        else:
            self.brake_bar = 0.0
            uc = 0.0 if u < 0.0 else 1.0 if u > 1.0 else u
            self.throttle_pct = 100.0 * uc ** self._inv_gamma if uc > 0.0 else 0.0
            sat_hi = u >= 1.0  # full throttle: cannot accelerate more
        # drive direction sign: err > 0 asks for more speed along the gear direction
        e_dir = err * d
        if not governed and ((e_dir > 0.0 and not sat_hi) or (e_dir < 0.0 and not sat_lo)):
            lim = p.ulc_integral_limit_mps2
            self.integ = clamp(self.integ + p.ulc_ki_speed * err * dt, -lim, lim)

    def disengage(self, v_mps: float) -> None:
        """The ULC stops driving: outputs to zero, references follow the vehicle."""
        self.engaged = False
        self.throttle_pct = 0.0
        self.brake_bar = 0.0
        self.gear_request = G_NONE
        self.v_ref = v_mps
        self.a_ref = 0.0
        self.integ = 0.0
