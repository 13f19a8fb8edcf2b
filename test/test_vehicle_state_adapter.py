"""msg_adapters.vehicle_state: joint states and report headers as Dataspeed's driver fills them."""
from __future__ import annotations

import math

from acres_dbw_sim.dbw.commands import ENABLE, UlcCmd
from acres_dbw_sim.model.enums import Gear
from acres_dbw_sim.simulation import Simulation
from msg_adapters.vehicle_state import JOINT_NAMES, JointStateBuilder


def test_wheel_joint_angles_wrap_within_one_turn_as_the_real_driver_does():
    """Dataspeed's driver publishes fmod(angle, 2 pi) (dbw_ford_can DbwNode::publishJointStates); the model's
    angle grows without bound (5400 rad seen in a long drive). The steer and steering-wheel joints are not
    wrapped, and the frame id is empty, as there."""
    sim = Simulation(gear=Gear.DRIVE)
    sim.submit(ENABLE)
    for k in range(120 * 20):
        if k % 6 == 0:
            sim.submit(UlcCmd(cmd=15.0, cmd_type=UlcCmd.CMD_VELOCITY, enable=True))
        sim.step()
    v = sim.state
    assert max(abs(a) for a in v.wheel_angle_rad) > 100.0   # many turns
    m = JointStateBuilder()(v, None)
    assert list(m.name) == list(JOINT_NAMES) and m.header.frame_id == ""
    for i in range(4):
        assert abs(m.position[i]) < 2.0 * math.pi
        assert m.position[i] == math.fmod(v.wheel_angle_rad[i], 2.0 * math.pi)
    assert list(m.position[4:6]) == list(v.road_wheel_angle_rad[:2])
