"""Gear lever and drive modes (reference "Gear Lever", "Drive Modes").

=========  =====  =========  ================  ======================  ===========
Position   Value  Direction  Rear reduction    Front reduction i_f i_d  Ring ratio K
=========  =====  =========  ================  ======================  ===========
P          1      0          0                 0                       as L
R          2      -1         27.39             9.16 x 3.23             i_r/(i_f i_d)
N          3      0          0                 0                       as L
H (DRIVE)  4      1          13.01             4.35 x 3.23             i_r/(i_f i_d)
L (LOW)    5      1          28.84             9.65 x 3.23             i_r/(i_f i_d)
=========  =====  =========  ================  ======================  ===========

In a gear the secondary clutch and gearbox turn with the rear axle; the rear
wheels share that inertia: J_2 = J_3 = J_w + J_s i_r^2 / 2.

Shift rule: a change of gear is accepted only below ``dbw.gear.max_shift_speed_mps``
(0.3 m/s) and takes ``dbw.gear.shift_time_s`` (1 s) in neutral; otherwise it is
refused with a :class:`~acres_dbw_sim.model.enums.GearReject` reason.
Drive modes: Turf (open rear, front not driven), 2WD (locked rear), AWD (locked
rear, front overrunning clutches; two-way lock in park + AWD and with ADC and
pedal below 2 %).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...model.enums import Gear, GearReject
from ...model._jit import njit

__all__ = ["GearInfo", "gear_table", "GearLever", "two_way_lock", "ADC_PEDAL_THRESHOLD"]

ADC_PEDAL_THRESHOLD = 0.02


@dataclass(frozen=True)
class GearInfo:
    """Ratios of one lever position.

    Attributes
    ----------
    direction : int
        d: 1, -1 or 0.
    rear_ratio : float
        i_r [-] (0 in P and N).
    front_ratio : float
        i_f i_d [-] (0 in P and N).
    ring_ratio : float
        K = i_r / (i_f i_d) [-] (L's value in P and N).
    """

    direction: int
    rear_ratio: float
    front_ratio: float
    ring_ratio: float


def gear_table(gb) -> dict:
    """``{Gear: GearInfo}`` for P, R, N, DRIVE (H), LOW (L) from GearboxParams."""
    k_low = gb.rear_low_ratio / (gb.front_low_ratio * gb.front_drive_ratio)
    table = {
        Gear.PARK: GearInfo(0, 0.0, 0.0, k_low),
        Gear.NEUTRAL: GearInfo(0, 0.0, 0.0, k_low),
        Gear.REVERSE: GearInfo(-1, gb.rear_reverse_ratio, gb.front_reverse_ratio * gb.front_drive_ratio,
                               gb.rear_reverse_ratio / (gb.front_reverse_ratio * gb.front_drive_ratio)),
        Gear.DRIVE: GearInfo(1, gb.rear_high_ratio, gb.front_high_ratio * gb.front_drive_ratio,
                             gb.rear_high_ratio / (gb.front_high_ratio * gb.front_drive_ratio)),
        Gear.LOW: GearInfo(1, gb.rear_low_ratio, gb.front_low_ratio * gb.front_drive_ratio, k_low),
    }
    table[Gear.NONE] = table[Gear.NEUTRAL]
    return table


@njit
def two_way_lock(park: bool, awd: bool, adc: bool, pedal: float) -> bool:
    """True when the front axle locks in both directions (reference "Drive Modes").

    Parameters
    ----------
    park : bool
        Lever in P.
    awd : bool
        Drive mode AWD.
    adc : bool
        Active Descent Control on (``cvt.adc``).
    pedal : float
        Pedal 0..1; ADC locks below 2 % (``ADC_PEDAL_THRESHOLD``).
    """
    if not awd:
        return False
    return park or (adc and pedal < ADC_PEDAL_THRESHOLD)


class GearLever:
    """Lever position with the shift rule.

    Parameters
    ----------
    max_shift_speed_mps : float
        A shift is accepted only when |speed| is below this [m/s].
    shift_time_s : float
        Time spent in neutral during a shift [s].
    gear : Gear
        Initial position.

    Attributes
    ----------
    gear : Gear
        Current position (NEUTRAL during a shift).
    target : Gear
        Position at the end of the shift (equals ``gear`` when idle).
    remaining_s : float
        Time left in the current shift [s].
    last_reject : GearReject
    """

    def __init__(self, max_shift_speed_mps: float, shift_time_s: float, gear: Gear = Gear.LOW) -> None:
        self.max_shift_speed_mps = max_shift_speed_mps
        self.shift_time_s = shift_time_s
        self.reset(gear)

    def reset(self, gear: Gear) -> None:
        """Put the lever in ``gear`` with no shift in progress."""
        if gear not in (Gear.PARK, Gear.REVERSE, Gear.NEUTRAL, Gear.DRIVE, Gear.LOW):
            raise ValueError(f"gear {gear!r} is not a lever position")
        self.gear = Gear(gear)
        self.target = Gear(gear)
        self.remaining_s = 0.0
        self.last_reject = GearReject.NONE

    @property
    def shift_in_progress(self) -> bool:
        """True while the transmission is in neutral for a shift."""
        return self.remaining_s > 0.0

    def request(self, gear: int, speed_mps: float) -> GearReject:
        """Ask for ``gear`` at vehicle speed ``speed_mps`` [m/s].

        Returns
        -------
        GearReject
            NONE when accepted (or already there / no request), otherwise the
            reason: SHIFT_IN_PROGRESS, VEHICLE_SPEED or UNSUPPORTED.
        """
        if gear == Gear.NONE:
            return GearReject.NONE
        if gear not in (Gear.PARK, Gear.REVERSE, Gear.NEUTRAL, Gear.DRIVE, Gear.LOW):
            self.last_reject = GearReject.UNSUPPORTED
            return self.last_reject
        if gear == self.target:
            return GearReject.NONE
        if self.remaining_s > 0.0:
            self.last_reject = GearReject.SHIFT_IN_PROGRESS
            return self.last_reject
        if abs(speed_mps) >= self.max_shift_speed_mps:
            self.last_reject = GearReject.VEHICLE_SPEED
            return self.last_reject
        self.target = Gear(gear)
        self.gear = Gear.NEUTRAL
        self.remaining_s = self.shift_time_s
        self.last_reject = GearReject.NONE
        if self.remaining_s <= 0.0:
            self.gear = self.target
        return GearReject.NONE

    def advance(self, dt_s: float) -> None:
        """Advance the shift timer by ``dt_s`` [s]; the gear engages when it runs out."""
        if self.remaining_s > 0.0:
            self.remaining_s -= dt_s
            if self.remaining_s <= 1e-9:
                self.remaining_s = 0.0
                self.gear = self.target
