"""The drive the replay tests record and replay, and bags cut from it."""
from __future__ import annotations

from pathlib import Path

from rosbags.rosbag2 import Reader, StoragePlugin, Writer

from acres_dbw_sim.scenario import load_scenario
from msg_adapters import bag as B

SCENARIO = """\
name: replay_drive
description: engage, ULC to 3 m/s, steer left, stop
duration_s: {duration}
command_rate_hz: 50
initial:
  gear: P
timeline:
  - t: 0
    enable: true
    ulc: {{cmd: 3.0, cmd_type: VELOCITY, limit_accel: 1.5, limit_decel: 1.5, enable: true,
          enable_shift: true, enable_shift_park: true}}
    steering: {{cmd: 12.5, cmd_type: CMD_ANGLE, enable: true}}
  - t: 1.5
    steering: {{cmd: 102.5, cmd_type: CMD_ANGLE, cmd_rate: 300, enable: true}}
  - t: 3.0
    ulc: {{cmd: 0.0, cmd_type: VELOCITY, limit_decel: 2.0, enable: true, enable_shift: true}}
"""


def replay_scenario(tmp_path: Path, duration: float = 4.0, sets=None):
    f = tmp_path / "replay_drive.yaml"
    f.write_text(SCENARIO.format(duration=duration))
    return load_scenario(f, sets)


def bag_without(src: Path, dst: Path, drop: set) -> Path:
    """A copy of the bag ``src`` at ``dst`` without the topics in ``drop`` (a bag recorded without them)."""
    store = B.typestore()
    with Reader(src) as r, Writer(dst, version=9, storage_plugin=StoragePlugin.MCAP) as w:
        conns = {c.id: w.add_connection(c.topic, c.msgtype, typestore=store) for c in r.connections
                 if c.topic not in drop}
        for c, t, d in r.messages():
            if c.id in conns:
                w.write(conns[c.id], t, d)
    return dst
