"""Transmission, front-wheel drive and differentials of the Maxxum 150 (maxxum-150-dynamics.md,
"Transmission", "Front-Wheel Drive", "Axle and Differential").

16 forward and 16 reverse gears; the overall ratio is i = +/- i_g i_f
(negative in reverse). The road speed of a gear without slip is

    v = omega_e r_r / (i_g i_f)

A gear change sets the clutch's engagement target to 0 for ``shift_time_s``
(from full engagement epsilon falls to about 0.63 in 0.3 s, a capacity of
about 570 N m); the change is accepted at any speed (a powershift). A
direction change is accepted only below 0.25 m/s and does not open the clutch.
One efficiency eta covers the gearbox and the axles.

MFD (``front_drive``): the front carrier turns at kappa times the rear carrier,
kappa = (1 + lambda) r_r / r_f (1.300 shipped); 2WD: the front wheels have no
drive shaft. The differential lock has three states: 0 open, 1 rear locked,
2 rear and front locked. These are data for the shared driveline solve
(:func:`driveline_setup`).
"""
from __future__ import annotations


from typing import NamedTuple

from ...model._jit import njit

__all__ = ["N_GEARS", "FORWARD", "REVERSE", "overall_ratio", "front_speed_ratio",
           "request_gear", "advance_shift", "request_direction", "diff_lock_axles", "DrivelineSetup",
           "driveline_setup", "DIFF_OPEN", "DIFF_REAR", "DIFF_ALL"]

N_GEARS = 16
FORWARD = 1
REVERSE = -1
DIFF_OPEN, DIFF_REAR, DIFF_ALL = 0, 1, 2


@njit
def overall_ratio(gear: int, direction: int, forward_gears, reverse_gears, final_drive: float) -> float:
    """i = +/- i_g i_f [-] of ``gear`` (1..16) in ``direction`` (+1 forward, -1 reverse).

    Parameters
    ----------
    gear : int
        1..16; outside that range the result is 0 (no drive).
    direction : int
        FORWARD (1) or REVERSE (-1).
    forward_gears, reverse_gears : sequence of 16 float
        i_g of each gear, gear 1 first.
    final_drive : float
        i_f [-].
    """
    if gear < 1 or gear > len(forward_gears):
        return 0.0
    if direction >= 0:
        return forward_gears[gear - 1] * final_drive
    return -reverse_gears[gear - 1] * final_drive


@njit
def front_speed_ratio(front_lead: float, rear_radius_m: float, front_radius_m: float) -> float:
    """kappa = (1 + lambda) r_r / r_f [-]: front carrier speed over rear carrier speed with MFD."""
    return (1.0 + front_lead) * rear_radius_m / front_radius_m


@njit
def request_gear(gear: int, requested: int, shift_left_s: float, shift_time_s: float) -> tuple:
    """A gear request: (gear, shift time left [s]).

    A different gear in 1..16 is taken at once and starts a gear change of
    ``shift_time_s`` (during which the clutch target is 0); the same gear or a
    gear outside 1..16 changes nothing.
    """
    if requested < 1 or requested > N_GEARS or requested == gear:
        return gear, shift_left_s
    return requested, shift_time_s


@njit
def advance_shift(shift_left_s: float, dt_s: float) -> tuple:
    """Advance a gear change by one step: (time left [s], shifting).

    The step that takes the request counts: a change of 0.3 s holds the
    clutch target at 0 for 35 steps of 1/120 s (epsilon from 1 to 0.635, a
    capacity of 572 N m of 900), the page's "about 0.63" and "570 N m". Half a
    step absorbs the rounding of the time.
    """
    left = shift_left_s - dt_s
    if left <= 0.5 * dt_s:
        return 0.0, False
    return left, True


@njit
def request_direction(direction: int, requested: int, speed_mps: float, max_speed_mps: float) -> int:
    """Direction after a request (key V): changed only below 0.25 m/s; the clutch does not open."""
    if requested != FORWARD and requested != REVERSE:
        return direction
    if requested != direction and abs(speed_mps) < max_speed_mps:
        return requested
    return direction


@njit
def diff_lock_axles(state: int) -> tuple:
    """(rear locked, front locked) of differential-lock state 0 open, 1 rear, 2 rear and front."""
    return state >= DIFF_REAR, state >= DIFF_ALL


class DrivelineSetup(NamedTuple):
    """What the shared driveline solve needs from the tractor in one step.

    Attributes
    ----------
    overall_ratio : float
        i [-] (0: no drive).
    efficiency : float
        eta [-].
    front_driven : bool
        MFD engaged (False: 2WD, the front wheels roll free).
    front_speed_ratio : float
        kappa [-].
    rear_locked, front_locked : bool
        Differential locks (open otherwise).

    The clutch capacity, the same in both directions, is a result of each step
    (:func:`~.clutch.clutch_capacity_nm` in the compiled step).
    """

    overall_ratio: float
    efficiency: float
    front_driven: bool
    front_speed_ratio: float
    rear_locked: bool
    front_locked: bool


def driveline_setup(params, gear: int, direction: int, front_drive: bool, diff_lock: int) -> DrivelineSetup:
    """The tractor's data for the shared driveline solve (page "Driveline Solve").

    Parameters
    ----------
    params : MaxxumParameters
    gear, direction : int
        Current gear 1..16 and direction (+1/-1).
    front_drive : bool
        MFD engaged.
    diff_lock : int
        0, 1 or 2.
    """
    tr, ty = params.transmission, params.tyres
    rear, front = diff_lock_axles(diff_lock)
    i = overall_ratio(gear, direction, tr.forward_gears, tr.reverse_gears, tr.final_drive)
    return DrivelineSetup(i, tr.efficiency, bool(front_drive),
                          front_speed_ratio(tr.front_lead_ratio, ty.rear_radius_m, ty.front_radius_m),
                          bool(rear), bool(front))



