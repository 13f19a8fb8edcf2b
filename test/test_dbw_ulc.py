"""The ULC's powertrain model (vehicles/polaris/ulc_plant.py): golden numbers and a cross-check with the vehicle model.

The golden numbers are worked out here by hand from the equations of
polaris-ranger-dynamics.md ("Engine", "CVT and Primary Clutch", "Driveline
Solve") with the shipped parameters; the cross-check runs the vehicle model
at a constant pedal to equilibrium and asks the ULC's model for the request
that holds that speed.
"""

import math

import pytest

from acres_dbw_sim.dbw.msg_fields import Gear
from acres_dbw_sim.dbw.params import DbwParameters
from acres_dbw_sim.vehicles.polaris.ulc_plant import PowertrainModel
from acres_dbw_sim.model.enums import AwdSwitch
from acres_dbw_sim.model.enums import Gear as ModelGear
from acres_dbw_sim.vehicles.polaris.params import load_parameters
from acres_dbw_sim.vehicles.polaris.vehicle import Vehicle
from acres_dbw_sim.model.inputs import VehicleInputs

VP = load_parameters()
RT = VP.tyres.radius_m
ETA = VP.cvt.belt_efficiency * VP.cvt.gear_efficiency
I_H = VP.gearbox.rear_high_ratio
K_BAR = 1e5 * 0.999e-3 / (4.0 * math.pi)  # N m per bar for 0.999 L
RPM = math.pi / 30.0


def _model():
    return PowertrainModel(DbwParameters.from_vehicle_parameters(VP))


def _t_fr(n_rpm):
    nk = n_rpm / 1000.0
    return (0.8 + 0.12 * nk + 0.03 * nk * nk) * K_BAR


def _t_wot(n_rpm):  # the torque curve between 3000 and 5000 rev/min: 70 -> 76 -> 81 N m
    assert 3000.0 <= n_rpm <= 5000.0
    if n_rpm <= 4000.0:
        return 70.0 + (n_rpm - 3000.0) / 1000.0 * 6.0
    return 76.0 + (n_rpm - 4000.0) / 1000.0 * 5.0


def test_the_belt_shifting_up_pushes_the_vehicle_and_the_ulc_knows_it():
    """End of a speed ramp: 5 m/s in H with the belt still at 2.6 (engine at 4710 rev/min).

    A cruise force of 300 N needs T_c = 3.64 N m, whose shift speed
    (3257 rev/min) wants r* = 1.80; the belt moving there with tau_cvt = 0.3 s
    decelerates the engine at ~507 rad/s^2, which is 51 N m of the engine's
    inertia the vehicle receives. Even with the pedal released the powertrain
    then pushes with ~2.2 kN: the request is negative and the force with the
    pedal released is positive, so the ULC must brake (ulc.py)."""
    v, r = 5.0, 2.6
    c = v / RT
    w_e = r * I_H * c
    f = 300.0
    t_c = f * RT / (ETA * r * I_H)
    sigma = t_c / 84.1
    n_s = math.sqrt(3000.0 ** 2 + (6800.0 ** 2 - 3000.0 ** 2) * sigma)
    r_star = n_s * RPM / (c * I_H)
    w_dot = I_H * c * (r_star - r) / 0.3
    n = w_e / RPM
    t_e = t_c + 1.5 + 0.1 * w_dot
    u_expect = (t_e + _t_fr(n) + 0.8 * K_BAR) / (_t_wot(n) + _t_fr(n) + 0.8 * K_BAR)
    f0_expect = (-_t_fr(n) - 0.8 * K_BAR - 1.5 - 0.1 * w_dot) * r * I_H * ETA / RT
    pt = _model()
    u = pt.solve(f, 0.0, int(Gear.DRIVE), v, n, r)
    assert not pt.slipping
    assert (round(n), round(r_star, 3), round(w_dot)) == (4710, 1.798, -507)
    assert u == pytest.approx(u_expect, rel=1e-9) and u < 0.0
    assert pt.force0_n == pytest.approx(f0_expect, rel=1e-9)
    assert 2100.0 < pt.force0_n < 2300.0


def test_at_the_belt_equilibrium_the_request_is_the_clutch_torque_plus_losses():
    """r = r*: no engine acceleration, u = (T_c + T_acc + T_fr + T_pu) / (T_wot + T_fr + T_pu)."""
    v, f = 10.0, 500.0
    c = v / RT
    # fixed point of r = n_s(T_c(r)) / (c i_r), solved by iteration here
    r = 1.0
    for _ in range(200):
        t_c = f * RT / (ETA * r * I_H)
        n_s = math.sqrt(3000.0 ** 2 + (6800.0 ** 2 - 3000.0 ** 2) * t_c / 84.1)
        r = n_s * RPM / (c * I_H)
    n = r * I_H * c / RPM
    u_expect = (t_c + 1.5 + _t_fr(n) + 0.8 * K_BAR) / (_t_wot(n) + _t_fr(n) + 0.8 * K_BAR)
    pt = _model()
    assert pt.solve(f, 0.0, int(Gear.DRIVE), v, n, r) == pytest.approx(u_expect, rel=1e-6)
    assert pt.force0_n < -500.0  # engine braking through the locked clutch


def test_launch_through_the_slipping_clutch():
    """At rest in H at idle the clutch is open: the ULC drives the engine to the speed whose
    clutch capacity carries the wanted torque (here 14.8 N m -> 1724 rev/min) in 0.15 s."""
    f = 1500.0
    r = 3.2
    t_c = f * RT / (ETA * r * I_H)
    w_eng, w_full = 1600.0 * RPM, 2600.0 * RPM
    w_t = math.sqrt(w_eng ** 2 + t_c / 150.0 * (w_full ** 2 - w_eng ** 2))
    w_idle = 1250.0 * RPM
    t_e = t_c + 1.5 + 0.1 * (w_t - w_idle) / 0.15
    t_fr = _t_fr(1250.0)
    u_expect = (t_e + t_fr + 0.8 * K_BAR) / (52.0 + t_fr + 0.8 * K_BAR)
    pt = _model()
    u = pt.solve(f, 1.0, int(Gear.DRIVE), 0.0, 1250.0, r)
    assert pt.slipping and pt.force0_n == 0.0
    assert round(w_t / RPM) == 1724
    assert u == pytest.approx(u_expect, rel=1e-9)


@pytest.mark.parametrize("gear", [Gear.PARK, Gear.NEUTRAL, Gear.NONE, 99])
def test_no_request_without_a_drive_gear(gear):
    pt = _model()
    assert pt.solve(800.0, 1.0, int(gear), 3.0, 3000.0, 2.0) == 0.0 and pt.force0_n == 0.0


@pytest.mark.parametrize("pedal,seconds", [(0.2, 40.0), (0.3, 120.0)])
def test_the_ulc_model_inverts_the_vehicle_model_at_equilibrium(pedal, seconds):
    """Constant pedal in Turf until the speed settles; the ULC's request for the
    road load at that speed (asphalt f = 0.015, drag 0.5 rho C_dA v^2) is the
    request the engine runs at, within 4 % (the ULC ignores the front wheels'
    and the tyres' slip losses)."""
    veh = Vehicle(VP)
    veh.reset(0.0, 0.0, 0.0, 5.0, ModelGear.DRIVE, AwdSwitch.TURF)
    inp = VehicleInputs(pedal=pedal, steering_wheel_deg=VP.steering.center_deg, drive_mode=AwdSwitch.TURF)
    for _ in range(int(seconds * 120)):
        veh.step(inp)
    v = veh.velocity_body_mps[0]
    f = VP.mass_kg * 9.80665 * 0.015 + 0.5 * 1.2 * 2.5 * v * v
    u = _model().solve(f, 0.0, int(Gear.DRIVE), v, veh.engine_rpm, veh.cvt_ratio)
    assert veh.torque_request == pytest.approx(pedal ** VP.engine.pedal_exponent, rel=1e-3)  # settled
    assert u == pytest.approx(veh.torque_request, rel=0.04)
