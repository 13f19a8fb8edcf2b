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
from ...model._jit import array, njit

__all__ = ["GearInfo", "gear_table", "gear_ratios", "GearLever", "lever_request", "lever_advance", "two_way_lock",
           "ADC_PEDAL_THRESHOLD"]

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


def gear_ratios(table: dict):
    """The ratios of ``table`` (:func:`gear_table`) as a flat array for the compiled step: for the lever
    position ``g`` (Gear value 0..5; NONE as N), ``[3 g]`` the direction d, ``[3 g + 1]`` i_r [-],
    ``[3 g + 2]`` the ring ratio K [-]."""
    values = []
    for g in range(6):
        info = table[Gear(g)]
        values += [float(info.direction), float(info.rear_ratio), float(info.ring_ratio)]
    return array(values)


# The lever's state lv (a float array, so the compiled step carries it with the model's arrays).
LV_GEAR = 0          # position the lever is in (Gear; NEUTRAL during a shift)
LV_TARGET = 1        # position at the end of the shift (Gear)
LV_REMAINING = 2     # time left in the shift [s]
LV_REJECT = 3        # reason of the last refused request (GearReject)
LV_MAX_SPEED = 4     # a shift is accepted only below this |speed| [m/s]
LV_SHIFT_TIME = 5    # time in neutral of a shift [s]
N_LEVER = 6

_PARK, _REVERSE, _NEUTRAL, _DRIVE, _LOW = int(Gear.PARK), int(Gear.REVERSE), int(Gear.NEUTRAL), int(Gear.DRIVE), \
    int(Gear.LOW)
_UNSUPPORTED, _IN_PROGRESS, _SPEED = int(GearReject.UNSUPPORTED), int(GearReject.SHIFT_IN_PROGRESS), \
    int(GearReject.VEHICLE_SPEED)


@njit
def lever_request(lv, gear: int, speed_mps: float) -> int:
    """Ask the lever ``lv`` (``LV_*``) for ``gear`` at vehicle speed ``speed_mps`` [m/s] (shift rule, module
    docstring). Returns GearReject: NONE when accepted (or already there, or ``gear`` is NONE), otherwise the
    reason (UNSUPPORTED, SHIFT_IN_PROGRESS, VEHICLE_SPEED), also kept in ``lv[LV_REJECT]``."""
    if gear == 0:
        return 0
    if gear != _PARK and gear != _REVERSE and gear != _NEUTRAL and gear != _DRIVE and gear != _LOW:
        lv[LV_REJECT] = _UNSUPPORTED
        return _UNSUPPORTED
    if gear == lv[LV_TARGET]:
        return 0
    if lv[LV_REMAINING] > 0.0:
        lv[LV_REJECT] = _IN_PROGRESS
        return _IN_PROGRESS
    if abs(speed_mps) >= lv[LV_MAX_SPEED]:
        lv[LV_REJECT] = _SPEED
        return _SPEED
    lv[LV_TARGET] = gear
    lv[LV_GEAR] = _NEUTRAL
    lv[LV_REMAINING] = lv[LV_SHIFT_TIME]
    lv[LV_REJECT] = 0
    if lv[LV_REMAINING] <= 0.0:
        lv[LV_GEAR] = gear
    return 0


@njit
def lever_advance(lv, dt_s: float) -> None:
    """Advance the shift timer of ``lv`` by ``dt_s`` [s]; the gear engages when it runs out."""
    if lv[LV_REMAINING] > 0.0:
        lv[LV_REMAINING] -= dt_s
        if lv[LV_REMAINING] <= 1e-9:
            lv[LV_REMAINING] = 0.0
            lv[LV_GEAR] = lv[LV_TARGET]


class GearLever:
    """Lever position with the shift rule: a view of the state array ``lv`` (``LV_*``), which the compiled
    step and these methods (:func:`lever_request`, :func:`lever_advance`) change.

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
    lv : array of N_LEVER float
        The state.
    gear : Gear
        Current position (NEUTRAL during a shift).
    target : Gear
        Position at the end of the shift (equals ``gear`` when idle).
    remaining_s : float
        Time left in the current shift [s].
    last_reject : GearReject
    """

    def __init__(self, max_shift_speed_mps: float, shift_time_s: float, gear: Gear = Gear.LOW) -> None:
        self.lv = array([0.0] * N_LEVER)
        self.lv[LV_MAX_SPEED] = max_shift_speed_mps
        self.lv[LV_SHIFT_TIME] = shift_time_s
        self.reset(gear)

    @property
    def max_shift_speed_mps(self) -> float:
        """A shift is accepted only below this |speed| [m/s]."""
        return float(self.lv[LV_MAX_SPEED])

    @property
    def shift_time_s(self) -> float:
        """Time in neutral of a shift [s]."""
        return float(self.lv[LV_SHIFT_TIME])

    @property
    def gear(self) -> Gear:
        """Current position (NEUTRAL during a shift)."""
        return Gear(int(self.lv[LV_GEAR]))

    @property
    def target(self) -> Gear:
        """Position at the end of the shift."""
        return Gear(int(self.lv[LV_TARGET]))

    @property
    def remaining_s(self) -> float:
        """Time left in the current shift [s]."""
        return float(self.lv[LV_REMAINING])

    @property
    def last_reject(self) -> GearReject:
        """Reason of the last refused request."""
        return GearReject(int(self.lv[LV_REJECT]))

    def reset(self, gear: Gear) -> None:
        """Put the lever in ``gear`` with no shift in progress.

        Raises
        ------
        ValueError
            If ``gear`` is not a lever position (P R N D L).
        """
        if gear not in (Gear.PARK, Gear.REVERSE, Gear.NEUTRAL, Gear.DRIVE, Gear.LOW):
            raise ValueError(f"gear {gear!r} is not a lever position")
        self.lv[LV_GEAR] = self.lv[LV_TARGET] = int(gear)
        self.lv[LV_REMAINING] = 0.0
        self.lv[LV_REJECT] = 0

    @property
    def shift_in_progress(self) -> bool:
        """True while the transmission is in neutral for a shift."""
        return self.lv[LV_REMAINING] > 0.0

    def request(self, gear: int, speed_mps: float) -> GearReject:
        """Ask for ``gear`` at vehicle speed ``speed_mps`` [m/s] (:func:`lever_request`).

        Returns
        -------
        GearReject
            NONE when accepted (or already there / no request), otherwise the
            reason: SHIFT_IN_PROGRESS, VEHICLE_SPEED or UNSUPPORTED.
        """
        return GearReject(lever_request(self.lv, int(gear), float(speed_mps)))

    def advance(self, dt_s: float) -> None:
        """Advance the shift timer by ``dt_s`` [s] (:func:`lever_advance`)."""
        lever_advance(self.lv, float(dt_s))
