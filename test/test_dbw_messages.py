"""The plain message mirrors match ds_dbw_msgs 2.3.11 field by field."""

from dataclasses import asdict, fields

import pytest

from acres_dbw_sim.vehicles import vehicle_spec
from acres_dbw_sim.dbw import commands as C
from acres_dbw_sim.dbw import msg_fields as F
from acres_dbw_sim.dbw import reports as R
from acres_dbw_sim.dbw.state import SIM_VIN, vin_ok
from acres_dbw_sim.dbw.system import DbwSystem
from helpers.reference_layout import ds_dbw_layout
from helpers.dbw import FakeVehicle, make

MIRRORED = [C.SteeringCmd, C.BrakeCmd, C.ThrottleCmd, C.GearCmd, C.MiscCmd, C.TurnSignalCmd, C.UlcCmd,
            C.DriveModeCmd] + [getattr(R, n) for n in R.__all__ if n != "ImuData"]


@pytest.fixture(scope="module")
def layout():
    return ds_dbw_layout()


@pytest.mark.parametrize("cls", MIRRORED, ids=lambda c: c.__name__)
def test_field_names_and_order_equal_the_message(layout, cls):
    expect = [name for name, _ in layout[cls.__name__]["fields"] if name != "header"]
    assert [f.name for f in fields(cls)] == expect


@pytest.mark.parametrize("name", [n for n in F.__all__])
def test_field_type_constants(layout, name):
    expect = layout[name]["constants"]
    assert {m.name: int(m) for m in getattr(F, name)} == expect


def test_command_constants(layout):
    for cls in (C.SteeringCmd, C.BrakeCmd, C.ThrottleCmd, C.UlcCmd):
        for k, v in layout[cls.__name__]["constants"].items():
            assert getattr(cls, k) == v


def test_vin_and_ecu_identities():
    assert len(SIM_VIN) == 17 and not set("IOQ") & set(SIM_VIN) and vin_ok(SIM_VIN)
    dbw = make()
    rep = dbw.reports(1.0, FakeVehicle())
    names = [e.name for e in rep.ecu_info]
    assert names == ["POLARIS_RANGERXP_Gateway", "POLARIS_RANGERXP_Throttle"]
    assert all(len(e.mac_addr) == 17 and len(e.config_hash) == 8 for e in rep.ecu_info)


def test_each_vehicle_reports_its_own_vin():
    from acres_dbw_sim.simulation import Simulation
    from acres_dbw_sim.vehicles.maxxum150 import VIN
    ranger, tractor = Simulation().reports().vin, Simulation(vehicle="maxxum150").reports().vin
    assert ranger == SIM_VIN and tractor == VIN and tractor != ranger and vin_ok(tractor)
    for bad in ("3NSRRE995SE00000", "3NSRRE995SE00000O", "3nsrre995se000001"):
        with pytest.raises(ValueError, match="vin="):
            DbwSystem(make().p, 1 / 120, vin=bad, ulc_plant=vehicle_spec("polaris").ulc_plant)
    with pytest.raises(TypeError, match="ulc_plant is needed"):
        DbwSystem(make().p, 1 / 120)


def test_ecu_clock_follows_the_report_time_and_the_identities_stay():
    """The identities are filled once (at construction); the modules' clock with every report."""
    dbw = make()
    first = [asdict(e) for e in dbw.reports(2.7, FakeVehicle()).ecu_info]
    later = [asdict(e) for e in dbw.reports(65.2, FakeVehicle()).ecu_info]
    assert [e["datetime"] for e in later] == [e["datetime"] + 63 for e in first]
    for a, b in zip(first, later):
        a.pop("datetime"), b.pop("datetime")
        assert a == b and a["app_version"] and a["name"].startswith("POLARIS_RANGERXP_")


def test_imu_reports_specific_force_with_gravity():
    dbw, veh = make(), FakeVehicle()
    dbw.step(0.0, veh)
    imu = dbw.reports(0.0).imu
    assert imu.linear_acceleration_z == pytest.approx(9.81, abs=0.01)
