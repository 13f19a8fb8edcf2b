"""Offline replay: bags made by the suite from a scenario, replay step-exact, comparison with
recorded reports, outputs, and damaged bags (unknown/missing types, truncation, backwards time)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from rosbags.rosbag2 import Reader, StoragePlugin, Writer

from acres_dbw_sim.dbw import commands as core_cmd
from acres_dbw_sim.dbw.schedule import ON_CHANGE
from acres_dbw_sim.replay import (BagReadError, ReplayError, TopicMap, TopicMapError, load_replay, main,
                                  replay_bag, run_replay, scan_bag, scenario_to_bag)
from acres_dbw_sim.replay import topics as T
from acres_dbw_sim.scenario import run_scenario
from helpers.replay import replay_scenario
from msg_adapters import bag as B

STORE = B.typestore()

# Command values exact in float32 (the messages' type), so the scenario runner, which submits
# them as float64, and the replay of its bag see the same numbers.
@pytest.fixture(scope="module")
def vehicle_bag(tmp_path_factory):
    """A 4 s bag as from the vehicle (no node metadata): commands and reports at CAN periods."""
    tmp = tmp_path_factory.mktemp("vehicle_bag")
    sc = replay_scenario(tmp)
    info = scenario_to_bag(sc, tmp / "drive")
    return sc, tmp / "drive", info


def test_tables_agree_with_the_node():
    from acres_dbw_sim import node
    assert T.REPORT_TOPICS == node.REPORT_TOPICS
    assert tuple((t, n) for t, n, _d in node.COMMAND_TOPICS) == T.COMMAND_TOPICS
    for name, default in T.NODE_DEFAULTS.items():
        assert node.PARAMETERS[name][0] == default, name
    assert (T.IMU_PERIOD_S, T.DBW_ENABLED_PERIOD_S) == (node.IMU_PERIOD_S, node.DBW_ENABLED_PERIOD_S)


def test_scenario_bag_is_a_plain_rosbag2(vehicle_bag):
    _sc, path, info = vehicle_bag
    with Reader(path) as r:
        topics = {c.topic: c.msgtype for c in r.connections}
        assert r.message_count == info["messages"]
    assert topics["/vehicle/ulc/cmd"] == "ds_dbw_msgs/msg/UlcCmd"
    assert topics["/vehicle/enable"] == "std_msgs/msg/Empty"
    assert topics["/vehicle/imu/data_raw"] == "sensor_msgs/msg/Imu"
    assert info["commands"] > 2 * 50 * 4 * 0.9   # ulc + steering streamed at 50 Hz


def test_replay_reproduces_the_scenario_step_for_step(vehicle_bag, tmp_path):
    """Commands at their recorded steps: the replay's CSV equals the scenario runner's, bit for bit,
    and its reports equal the recorded ones (compared in float32, the messages' precision)."""
    sc, path, _info = vehicle_bag
    ref = run_scenario(sc)
    res = replay_bag(path, tmp_path / "out", plots=False)
    assert res.input.param_source["initial_gear"] == "default"   # no gear report before the first command
    assert not [p for p in res.input.problems if p.kind != "not_replayed"], res.input.problems
    assert res.run.steps == sc.n_steps
    assert np.array_equal(ref.data, res.run.data, equal_nan=True)   # float32-exact commands
    cmp = res.comparison
    assert set(cmp) >= {"speed_mps", "yaw_rate_rad_s", "steering_wheel_angle_deg"}
    for name, e in cmp.items():
        assert e["max_abs"] < 1e-5 * (1 + np.abs(res.sim_signals[name]).max()), (name, e)
        assert e["lag_s"] == 0.0
    assert ref.column("yaw_rate_rad_s").max() > 0.05 and ref.column("speed_mps").max() > 2.5


def test_comparison_reports_the_model_error_of_other_parameters(vehicle_bag, tmp_path):
    """Replaying with a heavier vehicle: the errors are those computed directly from the two traces."""
    _sc, path, _info = vehicle_bag
    res = replay_bag(path, tmp_path / "out", params={"cargo_kg": "400", "occupants": "4"}, plots=True)
    e = res.comparison["speed_mps"]
    tr, vr = res.input.references["speed_mps"]
    ok = (tr >= res.sim_t_s[0]) & (tr <= res.sim_t_s[-1])
    err = np.interp(tr[ok], res.sim_t_s, res.sim_signals["speed_mps"]) - vr[ok]
    assert e["rms"] == pytest.approx(np.sqrt(np.mean(err ** 2)), rel=1e-12)
    assert e["max_abs"] == pytest.approx(np.abs(err).max(), rel=1e-12)
    assert 1e-3 < e["rms"] < 0.5, e
    out = tmp_path / "out"
    for name in ("timeseries.csv", "summary.json", "plots.png", "overlay.png", "replay.json", "bag/metadata.yaml"):
        assert (out / name).is_file(), name
    rep = json.loads((out / "replay.json").read_text())
    assert rep["parameters"]["cargo_kg"] == 400.0 and rep["parameter_source"]["cargo_kg"] == "override"
    assert rep["comparison"]["speed_mps"]["rms"] == pytest.approx(e["rms"])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["run"]["steps"] == res.run.steps and summary["scenario"]["control"] == "dbw"


def test_output_bag_has_the_node_topics_and_stamps(vehicle_bag, tmp_path):
    sc, path, _info = vehicle_bag
    res = replay_bag(path, tmp_path / "out", plots=False, params={"report_rates": "mission"})
    with Reader(tmp_path / "out" / "bag") as r:
        counts = {c.topic: c.msgcount for c in r.connections}
        vv = next(c for c in r.connections if c.topic == "/vehicle/vehicle_velocity")
        stamps = [STORE.deserialize_cdr(d, vv.msgtype).header.stamp for _c, t, d in r.messages([vv])]
    for topic, *_ in T.REPORT_TOPICS:
        assert counts[f"/vehicle/{topic}"] == sc.n_steps, topic
    assert counts["/vehicle/odom"] == counts["/tf"] == counts["/vehicle/imu/data_raw"] == sc.n_steps
    last = stamps[-1].sec + stamps[-1].nanosec * 1e-9
    assert last == pytest.approx(res.input.epoch_s + sc.n_steps * sc.dt_s, abs=1e-6)


def test_output_bag_reports_default_to_the_can_periods(vehicle_bag, tmp_path):
    """A bag without node parameters: the output bag has the reports at the vehicle's CAN periods
    (the replay's default), odometry and TF every step; an unknown report_rates is refused."""
    sc, path, _info = vehicle_bag
    res = replay_bag(path, tmp_path / "out", plots=False)
    assert res.input.params["report_rates"] == "vehicle" and res.input.param_source["report_rates"] == "default"
    with Reader(tmp_path / "out" / "bag") as r:
        counts = {c.topic: c.msgcount for c in r.connections}
    n = sc.n_steps
    for topic, attr, _name, period in T.REPORT_TOPICS:
        # CAN periods by time (acres_dbw_sim.dbw.schedule); gear and system also early on a change
        expect = n / (max(period, 1.0 / sc.step_hz) * sc.step_hz)
        got = counts[f"/vehicle/{topic}"]
        assert got >= int(expect) if attr in ON_CHANGE else abs(got - expect) <= 1.0, topic
    assert counts["/vehicle/odom"] == counts["/tf"] == n
    assert res.bag_messages == sum(counts.values())
    with pytest.raises(ReplayError, match="report_rates"):
        load_replay(path, params={"report_rates": "sometimes"})


def test_cli_writes_the_outputs_and_reports_the_errors(vehicle_bag, tmp_path, capsys):
    _sc, path, _info = vehicle_bag
    assert main([str(path), "--out", str(tmp_path / "o"), "--no-plots", "--param", "cargo_kg=200"]) == 0
    out = capsys.readouterr().out
    assert "x real time" in out and "speed_mps" in out and "RMS" in out
    assert main([str(path), "--info"]) == 0
    assert "/vehicle/ulc/cmd" in capsys.readouterr().out
    assert main([str(path), "--param", "warp=9"]) == 2
    assert main([str(path), "--topic-map", "nonsense"]) == 2
    assert main([str(tmp_path / "nope")]) == 2
    assert "no such bag" in capsys.readouterr().err


def test_topic_map_reads_commands_from_other_names(tmp_path):
    sc = replay_scenario(tmp_path, 2.0)
    scenario_to_bag(sc, tmp_path / "b")
    renamed = tmp_path / "renamed"
    with Reader(tmp_path / "b") as r, Writer(renamed, version=9, storage_plugin=StoragePlugin.MCAP) as w:
        conns = {}
        for c in r.connections:
            topic = c.topic.replace("/vehicle/ulc/cmd", "/dbw/speed").replace("/vehicle/", "/car/")
            conns[c.id] = w.add_connection(topic, c.msgtype, typestore=STORE)
        for c, t, d in r.messages():
            w.write(conns[c.id], t, d)
    with pytest.raises(ReplayError, match="no DBW command topic"):
        load_replay(renamed)
    inp = load_replay(renamed, TopicMap("/car", ["/dbw/speed=ulc/cmd"]))
    assert inp.command_counts["/dbw/speed"] > 90 and "/car/steering/cmd" in inp.command_counts
    ref = load_replay(tmp_path / "b")
    assert [k for k, _ in inp.events] == [k for k, _ in ref.events]
    with pytest.raises(TopicMapError, match="not one of our topics"):
        TopicMap("/vehicle", ["/x=steering/nope"])


def test_sqlite3_bag_replays_like_mcap(tmp_path):
    sc = replay_scenario(tmp_path, 2.0)
    scenario_to_bag(sc, tmp_path / "m", node_metadata=True)
    scenario_to_bag(sc, tmp_path / "s", node_metadata=True, storage="sqlite3")
    a, b = load_replay(tmp_path / "m"), load_replay(tmp_path / "s")
    assert b.scan.storage == "sqlite3" and not b.problems
    assert [(k, type(e)) for k, e in a.events] == [(k, type(e)) for k, e in b.events]
    assert a.param_source["step_hz"] == "bag" and a.epoch_s == 1.7e9


# ----------------------------------------------------------------------------- damaged bags


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def _mcap(path: Path) -> Path:
    return next(path.glob("*.mcap"))


@pytest.mark.parametrize("fraction", [0.3, 0.75, 0.999])
def test_truncated_mcap_is_reported_and_its_readable_part_replayed(vehicle_bag, tmp_path, fraction):
    """A recording cut short (no footer, no metadata.yaml): what precedes the cut is replayed."""
    sc, path, _info = vehicle_bag
    bag = _copy(path, tmp_path / "cut")
    f = _mcap(bag)
    data = f.read_bytes()
    f.write_bytes(data[:int(len(data) * fraction)])
    (bag / "metadata.yaml").unlink()
    res = replay_bag(bag, tmp_path / "out", plots=False)
    kinds = {p.kind for p in res.input.problems}
    if fraction > 0.99:   # cut in the summary after the data end record: every message is there, the cut reported
        assert kinds == {"no_metadata", "truncated"} and res.run.steps == sc.n_steps, res.input.problems
        assert "no MCAP footer" in next(p for p in res.input.problems if p.kind == "truncated").message
        return
    assert {"truncated", "no_metadata"} <= kinds, res.input.problems
    msg = next(p for p in res.input.problems if p.kind == "truncated").message
    assert "without the MCAP footer" in msg
    assert 0 < res.run.steps <= sc.n_steps
    full = run_scenario(sc)
    n = min(len(full.data), len(res.run.data)) // 2   # the part before the cut is the same drive
    assert np.array_equal(full.data[:n, :12], res.run.data[:n, :12]) or fraction < 0.5


def test_truncated_sqlite_is_reported_clearly(tmp_path):
    sc = replay_scenario(tmp_path, 2.0)
    scenario_to_bag(sc, tmp_path / "s", storage="sqlite3")
    f = next((tmp_path / "s").glob("*.db3"))
    data = f.read_bytes()
    f.write_bytes(data[:len(data) // 2])
    try:
        inp = load_replay(tmp_path / "s")
    except ReplayError as err:   # the topics table itself may be past the cut
        assert "no DBW command topic" in str(err)
        return
    assert any(p.kind in ("truncated", "corrupt") for p in inp.problems), inp.problems


def test_unknown_and_missing_types_are_reported_and_the_rest_replayed(vehicle_bag, tmp_path):
    _sc, path, _info = vehicle_bag
    bag = tmp_path / "mixed"
    with Reader(path) as r, Writer(bag, version=9, storage_plugin=StoragePlugin.SQLITE3) as w:
        conns = {c.id: w.add_connection(c.topic, c.msgtype, typestore=STORE) for c in r.connections}
        acme = w.add_connection("/acme/widget", "acme_msgs/msg/Widget", msgdef="", rihs01="RIHS01_00")
        wrong = w.add_connection("/vehicle/throttle/cmd", "dbw_polaris_msgs/msg/ThrottleCmd", msgdef="",
                                 rihs01="RIHS01_00")
        for c, t, d in r.messages():
            w.write(conns[c.id], t, d)
        w.write(acme, 1_700_000_000_500_000_000, b"\x00\x01\x00\x00\x07")
        w.write(wrong, 1_700_000_000_500_000_000, b"\x00\x01\x00\x00\x07")
    db = next(bag.glob("*.db3"))
    con = sqlite3.connect(db)
    con.execute("UPDATE topics SET type = '' WHERE name = '/vehicle/wheel_speeds'")
    con.commit()
    con.close()
    inp = load_replay(bag)
    by = {(p.kind, p.topic) for p in inp.problems}
    assert ("unknown_type", "/acme/widget") in by
    assert ("type_mismatch", "/vehicle/throttle/cmd") in by
    assert ("missing_type", "/vehicle/wheel_speeds") in by
    assert "wheel_speed_fl_rad_s" not in inp.references and "speed_mps" in inp.references
    assert inp.command_counts["/vehicle/ulc/cmd"] > 100
    # replayed, but a command topic and a compared report could not be used: serious, exit status 1
    assert {p.topic for p in inp.problems if p.serious} == {"/vehicle/throttle/cmd", "/vehicle/wheel_speeds"}
    assert main([str(bag), "--out", str(tmp_path / "o"), "--no-plots", "-q"]) == 1


def test_backwards_timestamps_are_reported_and_replayed_in_file_order(tmp_path):
    """A small jitter back is clamped; a jump of 100 s back is a clock reset: later messages continue."""
    fill = B.CommandFiller("ds_dbw_msgs/msg/UlcCmd")
    t0 = 1_700_000_000_000_000_000
    times = [t0 + k * 20_000_000 for k in range(50)]
    times[10] -= 30_000_000                          # 10 ms before its predecessor
    times[30:] = [t - 100_000_000_000 for t in times[30:]]   # clock reset
    with B.BagWriter(tmp_path / "b") as w:
        cid = w.add_topic("/vehicle/ulc/cmd", "ds_dbw_msgs/msg/UlcCmd")
        en = w.add_topic("/vehicle/enable", "std_msgs/msg/Empty")
        w.write_message(en, t0, B.default_message("std_msgs/msg/Empty"))
        for k, t in enumerate(times):
            w.write_message(cid, t, fill(core_cmd.UlcCmd(cmd=float(k), cmd_type=1, enable=True), t))
    inp = load_replay(tmp_path / "b")
    (back,) = [p for p in inp.problems if p.kind == "backwards"]
    assert back.count == 2 and "clock reset" in back.message
    cmds = [(k, e.cmd) for k, e in inp.events if isinstance(e, core_cmd.UlcCmd)]
    assert [c for _k, c in cmds] == [float(k) for k in range(50)]            # file order kept
    steps = [k for k, _c in cmds]
    assert steps == sorted(steps) and steps[10] == steps[9]                   # clamped to its predecessor
    assert steps[30] == steps[29] and steps[31] - steps[30] == round(0.02 * 120)   # time goes on after the reset
    res = replay_bag(tmp_path / "b", tmp_path / "out", plots=False, write_bag=False)
    assert res.run.steps == steps[-1] + 1


def test_undecodable_messages_are_counted_and_skipped(vehicle_bag, tmp_path):
    _sc, path, _info = vehicle_bag
    bag = tmp_path / "garbled"
    with Reader(path) as r, Writer(bag, version=9, storage_plugin=StoragePlugin.MCAP) as w:
        conns = {c.id: w.add_connection(c.topic, c.msgtype, typestore=STORE) for c in r.connections}
        for i, (c, t, d) in enumerate(r.messages()):
            w.write(conns[c.id], t, d[:7] if c.topic == "/vehicle/steering/cmd" and i % 2 else d)
    inp = load_replay(bag)
    (p,) = [p for p in inp.problems if p.kind == "undecodable"]
    assert p.topic == "/vehicle/steering/cmd" and p.count > 50
    assert inp.command_counts["/vehicle/steering/cmd"] > 50


@pytest.mark.parametrize("content, match", [
    (None, "no such bag"), ("ros1", "ROS 1 bag"), ("empty_dir", "no .mcap or .db3"), ("text", "not a rosbag2"),
])
def test_paths_that_are_not_bags_fail_with_a_message(tmp_path, content, match):
    p = tmp_path / "x"
    if content == "ros1":
        p = tmp_path / "x.bag"
        p.write_bytes(b"#ROSBAG V2.0\n")
    elif content == "empty_dir":
        p.mkdir()
        (p / "metadata.yaml").write_text("rosbag2_bagfile_information: {relative_file_paths: []}\n")
    elif content == "text":
        p = tmp_path / "x.txt"
        p.write_text("hello")
    with pytest.raises(BagReadError, match=match):
        scan_bag(p)


def test_an_empty_or_garbage_mcap_file_is_a_clear_problem(tmp_path):
    (tmp_path / "e.mcap").write_bytes(b"")
    assert scan_bag(tmp_path / "e.mcap").problems[0].kind == "truncated"
    (tmp_path / "g.mcap").write_bytes(b"garbage" * 10)
    assert "bad magic" in scan_bag(tmp_path / "g.mcap").problems[0].message
    with pytest.raises(ReplayError, match="no DBW command topic"):
        load_replay(tmp_path / "g.mcap")


@pytest.mark.parametrize("name, gear", [("PARK", 1), ("park", 1), ("P", 1), ("DRIVE", 4), ("H", 4), ("High", 4),
                                        ("LOW", 5), ("n", 3), ("REVERSE", 2)])
def test_initial_gear_takes_the_nodes_gear_names(vehicle_bag, name, gear):
    """--param initial_gear takes every name the node takes (interface.GEAR_NAMES, any case)."""
    _sc, path, _info = vehicle_bag
    inp = load_replay(path, params={"initial_gear": name})
    res = run_replay(inp)
    assert int(res.run.column("gear")[0]) == gear


def test_an_unknown_initial_gear_names_the_choices(vehicle_bag):
    _sc, path, _info = vehicle_bag
    with pytest.raises(ReplayError, match="unknown gear .TOP.; use one of P, PARK.*any case"):
        run_replay(load_replay(path, params={"initial_gear": "TOP"}))


def test_a_missing_vehicle_config_is_named_as_the_parameter_that_gave_it(vehicle_bag):
    _sc, path, _info = vehicle_bag
    inp = load_replay(path, params={"vehicle_config": "/no/such/vehicle.json"})
    with pytest.raises(ReplayError, match=r"parameter 'vehicle_config' = '/no/such/vehicle.json': cannot read"):
        run_replay(inp)
