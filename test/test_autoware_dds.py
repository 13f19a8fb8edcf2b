"""Autoware's vehicle interface over real DDS: a client speaking only Autoware's topics drives the Ranger.

One node process serves ``ds_dbw`` and ``autoware`` in ``sim`` time at twice real time, in Turf on
asphalt, from PARK (every time below is simulation time, from the stamps of ``odom``):

1. ``/control/control_mode_request`` AUTONOMOUS -> success, ``control_mode`` AUTONOMOUS;
2. ``gear_cmd`` DRIVE -> ``gear_status`` DRIVE; ``turn_indicators_cmd`` ENABLE_LEFT and
   ``hazard_lights_cmd`` ENABLE round-trip through the DBW's turn signal;
3. ``Control`` 3 m/s and a 0.2 rad tyre angle: after 5 s the speed is within 0.1 m/s of 3 m/s and
   the yaw rate within 5 % of the bicycle value ``v tan(delta) / L``; ``steering_status`` reports
   the angle; the six status topics come at 10 Hz;
4. a driver brake override (``~/inject_override``) -> ``control_mode`` MANUAL, and the vehicle no
   longer obeys the ``Control`` stream after the pedal is released (it coasts).
"""

from __future__ import annotations

import math
import threading
from pathlib import Path

import numpy as np
import pytest
import rclpy
from ament_index_python.packages import get_package_prefix
from std_srvs.srv import SetBool

from acres_dbw_sim.vehicles.polaris.params import load_parameters
from helpers.dds import wait_for
from helpers.stream_client import StreamClient

pytestmark = pytest.mark.dds
aw_ctrl = pytest.importorskip("autoware_control_msgs.msg")
aw_veh = pytest.importorskip("autoware_vehicle_msgs.msg")
aw_srv = pytest.importorskip("autoware_vehicle_msgs.srv")

NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"
STATUS = {"velocity_status": aw_veh.VelocityReport, "steering_status": aw_veh.SteeringReport,
          "gear_status": aw_veh.GearReport, "control_mode": aw_veh.ControlModeReport,
          "turn_indicators_status": aw_veh.TurnIndicatorsReport, "hazard_lights_status": aw_veh.HazardLightsReport}


class AutowareClient(StreamClient):
    """Autoware's side: the command topics at 20 Hz, the mode service, the six statuses kept."""

    def __init__(self):
        super().__init__("autoware_client")
        self.status: dict = {name: [] for name in STATUS}
        for name, msg_type in STATUS.items():
            self.subs.append(self.node.create_subscription(
                msg_type, f"/vehicle/status/{name}", lambda m, n=name: self._keep(n, m), 10))
        self.control = self.publisher(aw_ctrl.Control, "/control/command/control_cmd", 1)
        self.gear = self.publisher(aw_veh.GearCommand, "/control/command/gear_cmd", 1)
        self.turn = self.publisher(aw_veh.TurnIndicatorsCommand, "/control/command/turn_indicators_cmd", 1)
        self.hazard = self.publisher(aw_veh.HazardLightsCommand, "/control/command/hazard_lights_cmd", 1)
        self.mode_client = self.node.create_client(aw_srv.ControlModeCommand, "/control/control_mode_request")
        self.override_client = self.node.create_client(SetBool, "/vehicle/dbw_node/inject_override")
        self.clients += [self.mode_client, self.override_client]

    def _keep(self, name, msg):
        stamp = msg.header.stamp if name == "velocity_status" else msg.stamp
        with self.lock:
            self.status[name].append((stamp.sec + 1e-9 * stamp.nanosec, msg))

    def last(self, name):
        with self.lock:
            return self.status[name][-1][1] if self.status[name] else None

    def call(self, client, request):
        """The response to ``request`` (the server was found by ``start``; the executor's thread spins)."""
        done = threading.Event()
        future = client.call_async(request)
        future.add_done_callback(lambda _f: done.set())
        assert done.wait(10.0), f"no response from {client.srv_name}"
        return future.result()


@pytest.mark.slow
def test_an_autoware_client_drives_the_ranger_through_the_dbw(ros_process):
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "interfaces:=[ds_dbw, autoware]",
                        "-p", "drive_mode:=Turf", "-p", "time_mode:=sim", "-p", "rate_factor:=2.0"], name="sim_node")
    rclpy.init()
    c = AutowareClient()
    try:
        c.start(proc)
        assert wait_for(lambda: c.last("control_mode") is not None, 10.0), proc.output()
        assert c.last("control_mode").mode == aw_veh.ControlModeReport.MANUAL

        # 1. engage
        autonomous = aw_srv.ControlModeCommand.Request.AUTONOMOUS
        res = c.call(c.mode_client, aw_srv.ControlModeCommand.Request(mode=autonomous))
        assert res.success
        assert wait_for(lambda: c.last("control_mode").mode == aw_veh.ControlModeReport.AUTONOMOUS, 5.0), \
            proc.output()[-2000:]
        assert not c.call(c.mode_client, aw_srv.ControlModeCommand.Request(mode=9)).success

        # 2. gear, indicators and hazard lights round-trip
        c.streams[c.gear] = aw_veh.GearCommand(command=aw_veh.GearCommand.DRIVE)
        c.streams[c.turn] = aw_veh.TurnIndicatorsCommand(command=aw_veh.TurnIndicatorsCommand.ENABLE_LEFT)
        assert wait_for(lambda: c.last("gear_status").report == aw_veh.GearReport.DRIVE, 10.0), c.last("gear_status")
        assert wait_for(lambda: c.last("turn_indicators_status").report ==
                        aw_veh.TurnIndicatorsReport.ENABLE_LEFT, 5.0)
        c.streams[c.hazard] = aw_veh.HazardLightsCommand(command=aw_veh.HazardLightsCommand.ENABLE)
        assert wait_for(lambda: c.last("hazard_lights_status").report == aw_veh.HazardLightsReport.ENABLE, 5.0)
        c.streams[c.hazard] = aw_veh.HazardLightsCommand(command=aw_veh.HazardLightsCommand.DISABLE)
        c.streams[c.turn] = aw_veh.TurnIndicatorsCommand(command=aw_veh.TurnIndicatorsCommand.DISABLE)

        # 3. Control: 3 m/s on a 0.2 rad tyre angle
        control = aw_ctrl.Control()
        control.longitudinal.velocity, control.lateral.steering_tire_angle = 3.0, 0.2
        t0 = c.now()
        c.streams[c.control] = control
        assert wait_for(lambda: c.now() > t0 + 9.0, 40.0), "9 s of simulated driving"
        late = c.track(t0 + 5.0, t0 + 9.0)
        bicycle = 3.0 * math.tan(0.2) / load_parameters().geometry.wheelbase_m
        print(f"autoware over DDS: speed {late[:, 3].min():.3f}..{late[:, 3].max():.3f} m/s, yaw rate "
              f"{late[:, 4].mean():.4f} rad/s against {bicycle:.4f}")
        assert np.all(np.abs(late[:, 3] - 3.0) < 0.1)
        assert np.all(np.abs(late[:, 4] / bicycle - 1.0) < 0.05)
        assert c.last("steering_status").steering_tire_angle == pytest.approx(0.2, abs=0.005)
        assert c.last("velocity_status").longitudinal_velocity == pytest.approx(3.0, abs=0.1)
        with c.lock:
            for name, rows in c.status.items():
                stamps = np.array([t for t, _m in rows if t0 + 5.0 <= t <= t0 + 9.0])
                assert np.median(np.diff(stamps)) == pytest.approx(0.1, abs=0.01), name

        # 4. the driver brakes: MANUAL, and the Control stream no longer drives the vehicle
        assert c.call(c.override_client, SetBool.Request(data=True)).success
        assert wait_for(lambda: c.last("control_mode").mode == aw_veh.ControlModeReport.MANUAL, 5.0)
        c.call(c.override_client, SetBool.Request(data=False))
        t1 = c.now()
        assert wait_for(lambda: c.now() > t1 + 8.0, 30.0)
        after = c.track(t1 + 1.0, t1 + 8.0)[:, 3]   # coasting: no ULC holds 3 m/s any more
        assert after.max() < 2.5 and np.all(np.diff(after) <= 1e-3) and after[-1] < after[0], \
            "the vehicle still obeys after the override"
        assert c.last("control_mode").mode == aw_veh.ControlModeReport.MANUAL
    finally:
        c.close()
        rclpy.try_shutdown()
        assert proc.alive(), f"the node died:\n{proc.output()}"


@pytest.mark.slow
def test_the_autoware_example_client_drives_parks_and_hands_back(ros_process):
    """examples/autoware_drive.py, started as a user would beside a node in sim time, ends with status 0."""
    ros_process([str(NODE_EXE), "--ros-args", "-p", "interfaces:=[autoware]", "-p", "time_mode:=sim",
                 "-p", "rate_factor:=4.0"], name="sim_node")
    root = Path(__file__).resolve().parents[1]
    client = ros_process([str(root / "examples" / "autoware_drive.py"), "--ros-args",
                          "-p", "use_sim_time:=true"], name="autoware_drive")
    wait_for(lambda: not client.alive(), 120.0)
    out = client.output()
    assert client.proc.poll() == 0, out
    phases = ["engage done", "shift to D done", "drive done", "stop done", "park done", "manual done"]
    positions = [out.find(p) for p in phases]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), out
    line = next(ln for ln in out.splitlines() if "drive done" in ln)
    assert abs(float(line.split("speed ")[1].split(" m/s")[0]) - 3.0) < 0.1, line


@pytest.mark.slow
def test_the_actuation_path_drives_and_reports_its_strokes(ros_process):
    """actuation_cmd over DDS: a 0.4 accel stroke speeds the vehicle up, a 0.3 brake stroke slows it down;
    actuation_status reports the strokes."""
    tier4 = pytest.importorskip("tier4_vehicle_msgs.msg")
    proc = ros_process([str(NODE_EXE), "--ros-args", "-p", "interfaces:=[autoware]", "-p", "drive_mode:=Turf",
                        "-p", "time_mode:=sim", "-p", "rate_factor:=2.0"], name="sim_node")
    rclpy.init()
    c = AutowareClient()
    status = []
    c.subs.append(c.node.create_subscription(tier4.ActuationStatusStamped, "/vehicle/status/actuation_status",
                                             lambda m: status.append(m.status), 10))
    actuation = c.publisher(tier4.ActuationCommandStamped, "/control/command/actuation_cmd", 1)
    try:
        c.start(proc)
        assert c.call(c.mode_client, aw_srv.ControlModeCommand.Request(
            mode=aw_srv.ControlModeCommand.Request.AUTONOMOUS)).success
        c.streams[c.gear] = aw_veh.GearCommand(command=aw_veh.GearCommand.DRIVE)
        assert wait_for(lambda: c.last("gear_status").report == aw_veh.GearReport.DRIVE, 10.0)
        msg = tier4.ActuationCommandStamped()
        msg.actuation.accel_cmd = 0.4
        c.streams[actuation] = msg
        t0 = c.now()
        assert wait_for(lambda: c.now() > t0 + 4.0, 20.0)
        assert c.track(t0 + 3.0, t0 + 4.0)[:, 3].min() > 2.0, "the accel stroke did not drive"
        assert status[-1].accel_status == pytest.approx(0.4, abs=0.01) and status[-1].brake_status == 0.0
        brake = tier4.ActuationCommandStamped()
        brake.actuation.brake_cmd = 0.3
        c.streams[actuation] = brake
        t1 = c.now()
        assert wait_for(lambda: c.now() > t1 + 1.0, 10.0)
        slowing = c.track(t1 + 0.5, t1 + 1.0)[:, 3]
        assert slowing[-1] < slowing[0] - 0.5, slowing
        assert status[-1].brake_status == pytest.approx(0.3, abs=0.01) and status[-1].accel_status == 0.0
    finally:
        c.close()
        rclpy.try_shutdown()
        assert proc.alive(), f"the node died:\n{proc.output()}"
