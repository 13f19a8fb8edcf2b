"""Fuel and energy ledger (reference "Fuel and Energy"; gaps.md "Energy and Fuel").

Willans line: P_b = T_e w_e_mean, P_fr = T_fr w_e_mean, P_pu = (1 - u) T_pu w_e_mean,

    P_fuel = max(0, P_b + P_fr + P_pu) / clamp(eta_i, eta_min, eta_max)   (fuel and w_e_mean > 1)

The clamp's bounds are the reference's 0.05 and 0.7, parameters of the vehicle
(``engine.indicated_efficiency_min`` / ``_max`` of the Ranger, ``fuel.indicated_efficiency_min``
/ ``_max`` of the tractor); the vehicle clamps eta_i once when it builds its kernel constants
(:func:`clamped_efficiency`), so that the compiled :func:`fuel_power_w` takes the clamped value.
The fuel volume of a step is P_fuel dt / (H_u rho_f). The ledger accumulates,
per step, the reference's terms (fuel, engine loss, parasitic, engine kinetic,
clutch, driveline, brake incl. park pawl) plus the sinks and stores of gaps.md.
``residual_j = fuel_j - sum(all other terms)``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from ._jit import njit

__all__ = ["fuel_power_w", "clamped_efficiency", "ledger_residual_j", "EnergyLedger", "LEDGER_TERMS"]


def clamped_efficiency(eta_i: float, eta_min: float, eta_max: float) -> float:
    """clamp(eta_i, eta_min, eta_max) [-]: the indicated efficiency that :func:`fuel_power_w` takes.

    Reference "Fuel and Energy" (the Willans line's clamp, 0.05 and 0.7). The loaders refuse an eta_i
    outside the bounds (params.check_order), so with a loaded file this returns eta_i; it keeps the
    reference's rule for parameters built by hand. Raises nothing.
    """
    return eta_min if eta_i < eta_min else eta_max if eta_i > eta_max else eta_i


@njit
def fuel_power_w(fuel: bool, t_e: float, t_fr: float, t_pu: float, u: float, omega_mean: float,
                 eta_i: float) -> tuple:
    """(P_fuel [W], P_b [W]) of the Willans line; ``eta_i`` already clamped (:func:`clamped_efficiency`)."""
    pb = t_e * omega_mean
    if not fuel or omega_mean <= 1.0:
        return 0.0, pb
    p = pb + t_fr * omega_mean + (1.0 - u) * t_pu * omega_mean
    return (p / eta_i if p > 0.0 else 0.0), pb


@njit
def ledger_residual_j(led) -> float:
    """``residual_j = fuel_j - sum(all other terms)`` [J] of the ledger ``led`` (its terms in
    :data:`LEDGER_TERMS` order, fuel first; a sequence of floats), summed in that order
    (reference "Fuel and Energy"; gaps.md "Energy and Fuel")."""
    other = 0.0
    for k in range(1, len(led)):
        other += led[k]
    return led[0] - other


@dataclass
class EnergyLedger:
    """Accumulated energy terms since the last reset [J].

    Source: ``fuel_j``. Stores (change since reset): ``engine_kinetic_j``,
    ``wheel_kinetic_j`` (wheels and the secondary/gearbox inertia),
    ``chassis_kinetic_j`` (translation and rotation), ``potential_j``.
    Sinks: ``engine_loss_j`` (P_fuel - P_b), ``parasitic_j`` (T_acc),
    ``clutch_j`` (primary clutch slip), ``driveline_j`` (belt and gear
    losses), ``coupling_j`` (carrier work minus shaft work: differential and
    overrunning-clutch engagement), ``brake_j`` (wheel brakes and park pawl),
    ``rolling_j``, ``tyre_slip_j`` (longitudinal and lateral slip, including the
    tread deflection), ``suspension_j`` (net work into springs, bump stops and
    dampers), ``body_contact_j`` (body box against the ground after a roll-over), ``aero_j``, ``water_j``,
    ``angular_damping_j``, ``soil_j`` (the soil's motion resistance, compaction, on deformable ground: the
    clamped F_mr times the contact's forward speed; soil.py), ``implement_j`` (the work of an implement's
    force on the chassis, its draft: maxxum-150-dynamics.md "Implement Coupling"; 0 for the Ranger).
    """

    fuel_j: float = 0.0
    engine_loss_j: float = 0.0
    parasitic_j: float = 0.0
    engine_kinetic_j: float = 0.0
    clutch_j: float = 0.0
    driveline_j: float = 0.0
    coupling_j: float = 0.0
    brake_j: float = 0.0
    wheel_kinetic_j: float = 0.0
    rolling_j: float = 0.0
    tyre_slip_j: float = 0.0
    soil_j: float = 0.0
    suspension_j: float = 0.0
    body_contact_j: float = 0.0
    aero_j: float = 0.0
    water_j: float = 0.0
    angular_damping_j: float = 0.0
    implement_j: float = 0.0
    chassis_kinetic_j: float = 0.0
    potential_j: float = 0.0

    def reset(self) -> None:
        """Set every term to 0."""
        for f in fields(self):
            setattr(self, f.name, 0.0)

    @property
    def residual_j(self) -> float:
        """Fuel energy minus all sinks and stores [J] (:func:`ledger_residual_j`)."""
        return float(ledger_residual_j(np.array([getattr(self, f.name) for f in fields(self)])))

    @property
    def relative_residual(self) -> float:
        """residual_j / fuel_j [-] (0 when no fuel was burnt)."""
        return self.residual_j / self.fuel_j if self.fuel_j > 0.0 else 0.0

    def as_dict(self) -> dict:
        """All terms and the residual as ``{name: J}``."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["residual_j"] = self.residual_j
        return d


LEDGER_TERMS = tuple(f.name for f in fields(EnergyLedger))
"""Names of the ledger's terms in field order (the index of each in the step kernel's ledger array)."""
(L_FUEL, L_ENGINE_LOSS, L_PARASITIC, L_ENGINE_KINETIC, L_CLUTCH, L_DRIVELINE, L_COUPLING, L_BRAKE, L_WHEEL_KINETIC,
 L_ROLLING, L_TYRE_SLIP, L_SOIL, L_SUSPENSION, L_BODY_CONTACT, L_AERO, L_WATER, L_ANGULAR_DAMPING, L_IMPLEMENT,
 L_CHASSIS_KINETIC, L_POTENTIAL) = range(20)
assert len(LEDGER_TERMS) == 20 and LEDGER_TERMS[L_POTENTIAL] == "potential_j" and LEDGER_TERMS[L_IMPLEMENT] == "implement_j"
