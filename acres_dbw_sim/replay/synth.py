"""Bags made from scenarios: test and benchmark data with a generator instead of a binary blob.

:func:`scenario_to_bag` runs a DBW-level scenario
(:mod:`acres_dbw_sim.scenario`) exactly as the scenario runner does (same
timeline semantics: events once, streamed messages re-sent at
``command_rate_hz``) and records what a bag of the vehicle would hold:
every command delivered, on its ``/vehicle/...`` topic at the start time of
the step it was delivered to, and the DBW reports, IMU, odometry and TF the
node would publish, at the real CAN periods or every step. The simulated
vehicle stands in for the real one, so replaying the bag with the same
parameters reproduces its reports exactly, and with other parameters shows
the model error the comparison is for.
"""
from __future__ import annotations

import json
from pathlib import Path

from msg_adapters import bag as B

from ..dbw import commands as core_cmd
from ..scenario.schema import STREAMED
from ..scenario.timeline import TimelinePlayer
from ..scenario.validated import Scenario
from ..simulation import Simulation
from ..vehicles import vehicle_spec
from .offline import _Outputs
from ..interface import DRIVE_MODE_VALUES
from .params import GEARS, ReplayError
from .topics import COMMAND_TOPICS, EVENT_TOPICS, NODE_DEFAULTS, TopicMap, ds_type

__all__ = ["scenario_to_bag"]


def scenario_to_bag(sc: Scenario, path: str | Path, report_rates: str = "vehicle", epoch_s: float = 1.7e9,
                    node_metadata: bool = False, storage: str = "mcap") -> dict:
    """Run ``sc`` and write its commands and simulated reports as a rosbag2.

    Parameters
    ----------
    sc : Scenario
        A DBW-level scenario on a flat terrain; ``driver`` and ``fault``
        entries (not messages) are refused.
    path : str or Path
        New bag directory.
    report_rates : {'vehicle', 'mission'}
        Reports at the real CAN periods or at every physics step.
    epoch_s : float
        Bag time of scenario time 0 [s] (default a 2023 wall-clock time, as a vehicle bag has).
    node_metadata : bool
        Also store the node's ``custom_data`` (parameters, ``epoch_s``) as the
        node's recorder does; without it the bag looks like one from a vehicle.
    storage : {'mcap', 'sqlite3'}

    Returns
    -------
    dict
        ``{"steps", "commands", "messages", "speed_mps": final speed}``.

    Raises
    ------
    ReplayError
        For an actuator-level scenario or an entry the bag cannot carry.
    """
    if sc.control != "dbw":
        raise ReplayError(f"{sc.name}: an actuator-level scenario has no DBW commands to record")
    for entry in sc.timeline:
        for key, _obj in entry.commands:
            if key in ("driver", "fault"):
                raise ReplayError(f"{sc.name}: {entry.key}.{key} is not a message: a bag cannot carry it")
    ini = sc.initial
    gear_letter = {v: k for k, v in GEARS.items() if k != "H"}[ini.gear]
    mode_name = {v: k for k, v in DRIVE_MODE_VALUES.items()}[ini.drive_mode]
    p = dict(NODE_DEFAULTS, step_hz=sc.step_hz, report_rates=report_rates, initial_x_m=ini.x_m,
             initial_y_m=ini.y_m, initial_yaw_rad=ini.yaw_rad, initial_speed_mps=ini.speed_mps,
             initial_gear=gear_letter, drive_mode=mode_name, surface=sc.terrain.surface,
             grade_pct=sc.terrain.grade_pct, bank_pct=sc.terrain.bank_pct,
             vehicle_config=str(sc.vehicle.get("parameters") or ""),
             overrides=sc.vehicle.get("overrides") or "", vehicle=sc.vehicle_type)
    mass = getattr(sc.params, "mass", None)
    if vehicle_spec(p["vehicle"]).carries_payload and mass is not None:   # occupants and cargo, where they apply
        p.update(occupants=int(mass.occupants), cargo_kg=float(mass.cargo_kg))
    custom = ({B.CUSTOM_PREFIX + "parameters": json.dumps(p, sort_keys=True),
               B.CUSTOM_PREFIX + "epoch_s": repr(float(epoch_s))} if node_metadata else {})
    sim = Simulation(sc.params, sc.terrain.build(), sc.dt_s, gear=ini.gear, drive_mode=ini.drive_mode,
                     vehicle=p["vehicle"])
    sim.reset(ini.x_m, ini.y_m, ini.yaw_rad, ini.speed_mps, ini.gear, ini.drive_mode)
    tm = TopicMap()
    n_cmd = 0
    with B.BagWriter(path, storage, custom) as w:
        qos = B.reliable_qos(1)
        cmd_topic = {}
        for topic, name in COMMAND_TOPICS:
            cls = getattr(core_cmd, name)
            cmd_topic[cls] = (w.add_topic(tm.output_topic(topic), ds_type(name), qos), B.CommandFiller(ds_type(name)))
        empty = B.default_message("std_msgs/msg/Empty")
        for topic, event in EVENT_TOPICS:
            cmd_topic[type(event)] = (w.add_topic(tm.output_topic(topic), "std_msgs/msg/Empty", B.reliable_qos(10)),
                                      lambda _e, _t, m=empty: m)
        outs = _Outputs(w, tm, p, sim)

        def deliver(obj) -> None:
            nonlocal n_cmd
            cid, fill = cmd_topic[type(obj)]
            t_ns = int(round((epoch_s + sim.time_s) * 1e9))
            w.write_message(cid, t_ns, fill(obj, t_ns))
            sim.submit(obj)
            n_cmd += 1

        n = sc.n_steps
        due_at = TimelinePlayer(sc.timeline, STREAMED, sc.step_hz, sc.command_rate_hz, n).at
        for k in range(n):
            for _key, obj in due_at(k):
                deliver(obj)
            sim.step()
            outs.write(k + 1, int(round((epoch_s + sim.time_s) * 1e9)), sim.reports(), sim.vehicle)
        count = w.message_count
    return {"steps": sc.n_steps, "commands": n_cmd, "messages": count, "speed_mps": sim.vehicle.speed_mps}
