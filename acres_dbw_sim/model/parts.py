"""Parameter types of the shared parts that every vehicle's file carries in the same form.

A vehicle's own parameter dataclasses extend these (``class TyreParams(TyreContact)``), so its
loader reads the shared keys with the shared ranges (:func:`~acres_dbw_sim.model.params.check_params`)
and its code reads them under the same attribute names. What the compiled step takes from them
(the shared kernel constants of stages.py, ``K_*``) is built here once, for every vehicle.

* :class:`TyreContact` (section ``tyres``): the tyre's contact and soil constants of the tyre and
  soil model (tyre.py, soil.py; polaris-ranger-dynamics.md "Tyres", soil-and-surface-facts.md).
* :class:`BodyBox` (section ``chassis``, keys ``body_box.*``): the box that collides with the ground
  (chassis.py; gaps.md "Chassis").
"""
from __future__ import annotations

from dataclasses import dataclass

from .params import LUG_CORRECTION_LIMITS, NON_NEGATIVE, POSITIVE, param

__all__ = ["TyreContact", "BodyBox"]


@dataclass(frozen=True)
class TyreContact:
    """The tyre's contact and soil constants, the same keys in every vehicle's ``tyres`` section.

    Attributes
    ----------
    carcass_pa : float
        Carcass stiffness pressure p_c [Pa] (file: kPa).
    hysteresis, lug_height_m, lug_correction, tread_k_m : float
        Hysteresis h_y [-], lug height h [m], Bekker's lug correction c_l [-], the tread's shear
        compliance [m].
    cornering_per_load_1_rad, relaxation_m, longitudinal_relaxation_m : float
        C_alpha / N [1/rad], sigma_y [m], sigma_x [m].
    carcass_damping_s, damping_fade_speed_mps : float
        tau_c [s] and the speed over which it fades [m/s].
    hard_slip_stiffness, slip_speed_floor_mps, sinkage_limit_m : float
        k_s [-], the reported slip's speed floor [m/s], the deepest rut z_max [m].
    """

    carcass_pa: float = param("carcass_kpa", NON_NEGATIVE, scale=1e3)
    hysteresis: float = param("hysteresis", NON_NEGATIVE)
    lug_height_m: float = param("lug_height_m", NON_NEGATIVE)
    lug_correction: float = param("lug_correction", LUG_CORRECTION_LIMITS)
    tread_k_m: float = param("tread_k_m", NON_NEGATIVE)
    cornering_per_load_1_rad: float = param("cornering_per_load", POSITIVE)
    relaxation_m: float = param("relaxation_m", POSITIVE)
    longitudinal_relaxation_m: float = param("longitudinal_relaxation_m", POSITIVE)
    carcass_damping_s: float = param("carcass_damping_s", NON_NEGATIVE)
    damping_fade_speed_mps: float = param("damping_fade_speed_mps", POSITIVE)
    hard_slip_stiffness: float = param("hard_slip_stiffness", POSITIVE)
    slip_speed_floor_mps: float = param("slip_speed_floor_mps", POSITIVE)
    sinkage_limit_m: float = param("sinkage_limit_m", POSITIVE)

    def kernel_constants(self) -> dict:
        """The shared kernel constants (stages.py ``K_NAMES``) these give, by name."""
        return dict(sigma_x=self.longitudinal_relaxation_m, tau_c=self.carcass_damping_s,
                    fade_speed=self.damping_fade_speed_mps, k_slip=self.hard_slip_stiffness,
                    slip_floor=self.slip_speed_floor_mps, sigma_y=self.relaxation_m,
                    c_alpha=self.cornering_per_load_1_rad, z_max=self.sinkage_limit_m, hysteresis=self.hysteresis,
                    lug_height=self.lug_height_m, tread_k=self.tread_k_m, lug_factor=self.lug_correction)


@dataclass(frozen=True)
class BodyBox:
    """The body box that collides with the ground (chassis.py), keys ``chassis.body_box.*`` of every vehicle.

    Attributes
    ----------
    box_rear_m, box_front_overhang_m : float
        Its rear end from the rear axle (behind it is negative) and its front end beyond the front
        axle [m], along x.
    box_half_width_m : float
        Half its width [m].
    box_bottom_m, box_top_m : float
        Its bottom and top above the ground under the axles [m].
    box_stiffness_n_m, box_damping_n_s_m, box_friction : float
        The contact law at each corner: stiffness [N/m], damping [N s/m], friction coefficient [-].
    """

    box_rear_m: float = param("body_box.rear_m")
    box_front_overhang_m: float = param("body_box.front_overhang_m", NON_NEGATIVE)
    box_half_width_m: float = param("body_box.half_width_m", POSITIVE)
    box_bottom_m: float = param("body_box.bottom_m", NON_NEGATIVE)
    box_top_m: float = param("body_box.top_m", POSITIVE)
    box_stiffness_n_m: float = param("body_box.stiffness_n_m", POSITIVE)
    box_damping_n_s_m: float = param("body_box.damping_n_s_m", NON_NEGATIVE)
    box_friction: float = param("body_box.friction", NON_NEGATIVE)

    def box_corners(self, wheelbase_m: float, cg_m: tuple) -> tuple:
        """The box's 8 corners relative to the centre of mass, body frame (REP-103: x forward, y left, z up) [m].

        Parameters
        ----------
        wheelbase_m : float
            L [m]: the box runs from ``box_rear_m`` to ``L + box_front_overhang_m``.
        cg_m : tuple of 3 float
            The centre of mass in the frame the box is given in: ahead of the rear axle, left of the
            centre line, above the ground [m].
        """
        return tuple((x - cg_m[0], y - cg_m[1], z - cg_m[2])
                     for x in (self.box_rear_m, wheelbase_m + self.box_front_overhang_m)
                     for y in (-self.box_half_width_m, self.box_half_width_m)
                     for z in (self.box_bottom_m, self.box_top_m))

    def kernel_constants(self) -> dict:
        """The shared kernel constants (stages.py ``K_NAMES``) of the box's contact law, by name."""
        return dict(box_stiffness=self.box_stiffness_n_m, box_damping=self.box_damping_n_s_m,
                    box_friction=self.box_friction)
