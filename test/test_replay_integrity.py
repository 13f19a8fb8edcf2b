"""Bags that lose nothing (issue 14): the replay never touches its input, damage is always reported with
the messages lost per topic, a bag without ``enable`` replays engaged as its reports show, output files
have final names, one exit-status rule, and a closed pipe ends quietly."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from rosbags.rosbag2 import Reader

from acres_dbw_sim.dbw import commands as core_cmd
from acres_dbw_sim.replay import load_replay, main, reader, replay_bag, scan_bag, scenario_to_bag
from msg_adapters import bag as B
from helpers.replay import bag_without, replay_scenario

STORE = B.typestore()


@pytest.fixture(scope="module")
def drive(tmp_path_factory):
    """A 4 s bag as from the vehicle: commands (with enable) and reports at the CAN periods."""
    tmp = tmp_path_factory.mktemp("drive")
    sc = replay_scenario(tmp)
    scenario_to_bag(sc, tmp / "bag")
    return sc, tmp / "bag"


def _snapshot(path: Path) -> dict:
    """``{relative path: sha256}`` of every file under ``path`` (or of the file itself)."""
    if path.is_file():
        return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()}
    return {str(f.relative_to(path)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(path.rglob("*")) if f.is_file()}


def _copy_bag(src: Path, dst: Path) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(src, dst)
    return dst


# ----------------------------------------------------------------------------- 1. the input is never touched


@pytest.mark.parametrize("named", ["folder", "storage_file"])
@pytest.mark.parametrize("where", ["parent", "bag", "inside", "symlink_to_parent"])
def test_replay_never_removes_or_writes_into_its_input(drive, tmp_path, where, named, capsys):
    """``--out`` the bag's parent (whose ``bag/`` output would be the input), the bag itself, a directory
    inside it, or a link to the parent: refused with exit status 2, the input bag byte for byte intact,
    whether the bag is named by its folder or by its ``.mcap`` file (``bag/bag_0.mcap``)."""
    _sc, src = drive
    bag = _copy_bag(src, tmp_path / "DIR" / "bag")
    before = _snapshot(bag)
    out = {"parent": bag.parent, "bag": bag, "inside": bag / "sub",
           "symlink_to_parent": tmp_path / "link"}[where]
    if where == "symlink_to_parent":
        out.symlink_to(bag.parent, target_is_directory=True)
    given = bag if named == "folder" else next(bag.glob("*.mcap"))
    assert main([str(given), "--out", str(out), "--no-plots", "-q"]) == 2
    assert "input" in capsys.readouterr().err
    assert bag.is_dir() and _snapshot(bag) == before and not (bag / "sub").exists()


def test_replay_of_a_replays_output_into_its_own_directory_is_refused(drive, tmp_path):
    """The output bag of a replay replayed with ``--out`` its replay directory: its ``bag/`` is the
    input, even though the tool wrote it: refused, intact."""
    _sc, src = drive
    assert main([str(src), "--out", str(tmp_path / "r"), "--no-plots", "-q"]) == 0
    before = _snapshot(tmp_path / "r" / "bag")
    assert main([str(tmp_path / "r" / "bag"), "--out", str(tmp_path / "r"), "--no-plots", "-q"]) == 2
    assert _snapshot(tmp_path / "r" / "bag") == before


def test_only_an_earlier_replays_outputs_are_replaced(drive, tmp_path, capsys):
    """A directory holding files the tool did not write (a scenario run's summary.json, a foreign bag/)
    is refused and left as it was; a single-file bag replayed beside itself works; an earlier replay's
    outputs are replaced."""
    _sc, src = drive
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "summary.json").write_text('{"mine": true}\n')
    assert main([str(src), "--out", str(foreign), "--no-plots", "-q"]) == 2
    assert "summary.json" in capsys.readouterr().err
    assert (foreign / "summary.json").read_text() == '{"mine": true}\n' and len(list(foreign.iterdir())) == 1
    other = _copy_bag(src, tmp_path / "other" / "bag")
    before = _snapshot(other)
    assert main([str(src), "--out", str(tmp_path / "other"), "--no-plots", "-q"]) == 2
    assert _snapshot(other) == before
    # a single .mcap file: outputs beside it, the file intact
    single = tmp_path / "single"
    single.mkdir()
    f = str(shutil.copy(next(src.glob("*.mcap")), single / "drive.mcap"))
    digest = _snapshot(Path(f))
    assert main([f, "--out", str(single), "--no-plots", "-q"]) == 0
    assert _snapshot(Path(f)) == digest and (single / "bag" / "metadata.yaml").is_file()
    # the same output directory again: the earlier replay's outputs are replaced
    assert main([f, "--out", str(single), "--no-plots", "-q", "--param", "cargo_kg=300"]) == 0
    assert _snapshot(Path(f)) == digest
    assert '"cargo_kg": 300.0' in (single / "replay.json").read_text()


# ----------------------------------------------------------------------------- 5. final names


def test_output_bag_files_have_their_final_names(drive, tmp_path):
    """No hidden or temporary name is left in the output: ``cp out/bag/* elsewhere/`` copies a
    readable bag."""
    _sc, src = drive
    res = replay_bag(src, tmp_path / "out", plots=False)
    names = sorted(p.name for p in (tmp_path / "out").rglob("*"))
    assert not [n for n in names if n.startswith(".") or "tmp" in n], names
    meta = yaml.safe_load((tmp_path / "out" / "bag" / "metadata.yaml").read_text())["rosbag2_bagfile_information"]
    assert meta["relative_file_paths"] == ["bag.mcap"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for f in (tmp_path / "out" / "bag").glob("*"):   # what `cp out/bag/* elsewhere/` copies
        shutil.copy(f, elsewhere)
    with Reader(elsewhere) as r:
        assert r.message_count == res.bag_messages > 0


# ----------------------------------------------------------------------------- 2. damage is reported


def _truth(bag: Path) -> dict:
    """``{topic: set of (log time, bytes)}`` of an intact bag (rosbags' reader)."""
    out: dict = {}
    with Reader(bag) as r:
        for c, t, d in r.messages():
            out.setdefault(c.topic, set()).add((t, bytes(d)))
    return out


def _lost(problems) -> dict:
    return {p.topic: p.count for p in problems if p.kind == "lost" and p.topic}


@pytest.mark.parametrize("metadata", [True, False])
def test_damage_in_the_middle_of_the_file_is_reported_with_the_losses_per_topic(drive, tmp_path, metadata):
    """10 KB of random bytes inside the MCAP: reported (exit status 1) with the messages lost per topic,
    from metadata.yaml's counts or, without it, the MCAP summary; every message kept is an original one."""
    _sc, src = drive
    truth = _truth(src)
    bag = _copy_bag(src, tmp_path / "bag")
    f = next(bag.glob("*.mcap"))
    data = bytearray(f.read_bytes())
    at = int(len(data) * 0.4)
    data[at:at + 10_000] = random.Random(5).randbytes(10_000)
    f.write_bytes(bytes(data))
    if not metadata:
        (bag / "metadata.yaml").unlink()
    scan = scan_bag(bag)
    got: dict = {}
    for t, cid, d in scan.records:
        got.setdefault(scan.channels[cid].topic, set()).add((t, d))
    for topic, msgs in got.items():
        assert msgs <= truth[topic], f"{topic}: a damaged record was kept as a message"
    lost = _lost(scan.problems)
    want = {topic: len(msgs) - len(got.get(topic, ())) for topic, msgs in truth.items()}
    assert lost == {t: n for t, n in want.items() if n}, scan.problems
    assert sum(lost.values()) > 20
    assert any(p.kind == "corrupt" for p in scan.problems)
    assert main([str(bag), "--out", str(tmp_path / "out"), "--no-plots", "-q"]) == 1
    rep = json.loads((tmp_path / "out" / "replay.json").read_text())
    assert {p["topic"]: p["count"] for p in rep["problems"] if p["kind"] == "lost" and p["topic"]} == lost
    assert all(p["serious"] for p in rep["problems"] if p["kind"] in ("lost", "corrupt"))
    assert main([str(bag), "--info"]) == 1


@pytest.mark.parametrize("cut", [1, 37, 100])
def test_a_missing_footer_is_reported(drive, tmp_path, cut):
    """A closed bag cut by 1 to 100 bytes (no footer): reported as truncated, with no message lost
    (metadata.yaml's counts are all there); every command replayed; exit status 1 (damaged file)."""
    sc, src = drive
    bag = _copy_bag(src, tmp_path / "bag")
    f = next(bag.glob("*.mcap"))
    f.write_bytes(f.read_bytes()[:-cut])
    inp = load_replay(bag)
    (tr,) = [p for p in inp.problems if p.kind == "truncated"]
    assert "footer" in tr.message and "no message lost" in tr.message and tr.count == 0 and tr.serious
    assert not _lost(inp.problems)
    assert inp.command_counts == load_replay(src).command_counts
    assert main([str(bag), "--info"]) == 1


def test_a_data_section_cut_reports_the_losses_per_topic(drive, tmp_path):
    """A closed bag cut in its data: the messages lost per topic against metadata.yaml."""
    _sc, src = drive
    truth = _truth(src)
    bag = _copy_bag(src, tmp_path / "bag")
    f = next(bag.glob("*.mcap"))
    f.write_bytes(f.read_bytes()[:int(f.stat().st_size * 0.6)])
    scan = scan_bag(bag)
    read = scan.topic_counts()
    lost = _lost(scan.problems)
    assert lost == {t: len(m) - read.get(t, 0) for t, m in truth.items() if len(m) > read.get(t, 0)}
    (tr,) = [p for p in scan.problems if p.kind == "truncated"]
    assert tr.count == sum(lost.values()) > 0


def test_the_losses_of_many_topics_print_as_one_line_with_the_table_in_replay_json(drive, tmp_path, capsys):
    _sc, src = drive
    bag = _copy_bag(src, tmp_path / "bag")
    f = next(bag.glob("*.mcap"))
    f.write_bytes(f.read_bytes()[:int(f.stat().st_size * 0.6)])
    lost = _lost(scan_bag(bag).problems)
    assert len(lost) > 5
    assert main([str(bag), "--out", str(tmp_path / "out"), "--no-plots", "--no-bag", "-q"]) == 1
    err = capsys.readouterr().err
    assert sum("messages that metadata.yaml lists" in ln for ln in err.splitlines()) == 0, err
    assert f"{sum(lost.values())} messages lost on {len(lost)} topics" in err and "per topic in" in err, err
    rep = json.loads((tmp_path / "out" / "replay.json").read_text())
    assert {p["topic"]: p["count"] for p in rep["problems"] if p["kind"] == "lost" and p["topic"]} == lost


def test_a_damaged_chunk_header_without_summary_resumes_at_the_next_chunk(tmp_path):
    """A recording that was not closed (no footer, no metadata.yaml) with the header of its second chunk
    overwritten: the chunks after it are read (the walk resumes at the next chunk), the damage and the
    losses the message indexes show are reported, nothing damaged is kept."""
    odom = B.OdometryFiller("odom", "base_footprint")
    from acres_dbw_sim.simulation import Simulation
    v = Simulation().vehicle
    with B.BagWriter(tmp_path / "bag") as w:
        cid = w.add_topic("/vehicle/odom", "nav_msgs/msg/Odometry")
        for k in range(4000):   # about 3 MB: chunks of 1 MiB
            w.write_message(cid, 1_700_000_000_000_000_000 + k * 10_000_000, odom(1_700_000_000, k, v))
    truth = _truth(tmp_path / "bag")["/vehicle/odom"]
    f = next((tmp_path / "bag").glob("*.mcap"))
    raw = f.read_bytes()
    chunks = [i for i in range(8, len(raw)) if raw[i] == 6 and reader._plausible_chunk(raw, i, len(raw))]
    assert len(chunks) >= 3, chunks
    data = bytearray(raw)
    data[chunks[1]:chunks[1] + 64] = random.Random(1).randbytes(64)
    f.write_bytes(bytes(data[:-50]))
    (tmp_path / "bag" / "metadata.yaml").unlink()
    scan = scan_bag(tmp_path / "bag")
    got = {(t, d) for t, _c, d in scan.records}
    assert got <= truth and len(got) > len(truth) // 2
    assert max(t for t, _d in got) == max(t for t, _d in truth)   # the last chunk was read
    assert any("resumed" in p.message for p in scan.problems if p.kind == "corrupt"), scan.problems
    assert any(p.kind == "lost" for p in scan.problems)


# ----------------------------------------------------------------------------- 3. bags without enable


BUTTONS = """\
name: buttons
description: the stack streams its commands; the driver engages with the buttons at 0.53 s, disengages at 3.2 s
duration_s: 4.0
command_rate_hz: 50
initial:
  gear: P
timeline:
  - t: 0
    ulc: {cmd: 3.0, cmd_type: VELOCITY, limit_accel: 1.5, limit_decel: 1.5, enable: true,
          enable_shift: true, enable_shift_park: true}
    steering: {cmd: 12.5, cmd_type: CMD_ANGLE, enable: true}
  - t: 0.53
    enable: true
  - t: 1.5
    steering: {cmd: 102.5, cmd_type: CMD_ANGLE, cmd_rate: 300, enable: true}
  - t: 3.2
    disable: true
"""


@pytest.fixture(scope="module")
def buttons(tmp_path_factory):
    """A bag of a drive engaged mid-way (recorded with its enable and disable messages)."""
    tmp = tmp_path_factory.mktemp("buttons")
    (tmp / "buttons.yaml").write_text(BUTTONS)
    from acres_dbw_sim.scenario import load_scenario
    sc = load_scenario(tmp / "buttons.yaml")
    scenario_to_bag(sc, tmp / "bag")
    return sc, tmp / "bag"


@pytest.mark.parametrize("drop", [{"/vehicle/enable", "/vehicle/disable"},
                                  {"/vehicle/enable", "/vehicle/disable", "/vehicle/dbw_enabled"},
                                  {"/vehicle/enable", "/vehicle/disable", "/vehicle/dbw_enabled",
                                   "/vehicle/system/report"}],
                         ids=["dbw_enabled", "system_report", "steering_report"])
def test_a_bag_without_enable_replays_engaged_as_its_reports_show(buttons, tmp_path, drop):
    """Engaged with the steering-wheel buttons: no enable message; dbw_enabled (or the system report, or
    the steering report's enabled flag) shows the engagement. The replay engages and disengages as
    the reports show and matches the recorded speed within the replay's error."""
    sc, src = buttons
    bag = bag_without(src, tmp_path / "bag", drop)
    res = replay_bag(bag, tmp_path / "out", plots=False, write_bag=False)
    (note,) = [p for p in res.input.problems if p.kind == "engaged_from_reports"]
    assert not note.serious and sorted(drop)[0] not in note.topic
    assert not [p for p in res.input.problems if p.serious], res.input.problems
    e = res.comparison["speed_mps"]
    tr, vr = res.input.references["speed_mps"]
    assert vr.max() > 2.5 and max(res.run.column("speed_mps")) > 2.5
    if "/vehicle/dbw_enabled" not in drop:
        # as exact as the replay of the same bag with its enable and disable messages (float32 reports)
        assert e["max_abs"] < 1e-5, e
    else:
        # the actuator reports show their own engagement, one physics step after the system's
        # (dbw_enabled), and at the 10 ms CAN period: the replay engages one step late, which the
        # ULC's acceleration turns into a small speed error (docs/bags.md, "Tests and figures")
        first = float(note.message.split("the first at t=")[1].split(" s")[0])
        assert 0.53 < first <= 0.53 + 0.010 + 2 / 120 + 1e-6, note.message   # a CAN period, the step grid, the lag
        assert e["rms"] < 0.03 and e["max_abs"] < 0.1, e
    assert main([str(bag), "--out", str(tmp_path / "o"), "--no-plots", "--no-bag", "-q"]) == 0


def test_a_bag_without_enable_or_engagement_reports_says_so(drive, tmp_path):
    _sc, src = drive
    gone = {"/vehicle/enable", "/vehicle/dbw_enabled", "/vehicle/system/report", "/vehicle/steering/report",
            "/vehicle/brake/report", "/vehicle/throttle/report"}
    bag = bag_without(src, tmp_path / "bag", gone)
    inp = load_replay(bag)
    (p,) = [p for p in inp.problems if p.kind == "not_engaged"]
    assert p.serious and "disengaged" in p.message
    assert main([str(bag), "--out", str(tmp_path / "o"), "--no-plots", "--no-bag", "-q"]) == 1


# ----------------------------------------------------------------------------- 7. exit status, pipes


def test_exit_status_rule(drive, tmp_path):
    """2 when nothing is replayed: no command topic, or command topics without a command message;
    --info says the same as the replay."""
    _sc, src = drive
    no_topics = bag_without(src, tmp_path / "no_topics", {f"/vehicle/{t}" for t in
                            ("steering/cmd", "brake/cmd", "throttle/cmd", "gear/cmd", "misc/cmd", "ulc/cmd",
                             "turn_signal/cmd", "drive_mode/cmd", "enable", "disable", "steering/calibrate")})
    with B.BagWriter(tmp_path / "no_messages") as w:   # command topics declared, no command message
        w.add_topic("/vehicle/ulc/cmd", "ds_dbw_msgs/msg/UlcCmd")
        w.add_topic("/vehicle/enable", "std_msgs/msg/Empty")
        vv = w.add_topic("/vehicle/vehicle_velocity", "ds_dbw_msgs/msg/VehicleVelocity")
        w.write_message(vv, 1_700_000_000_000_000_000, B.default_message("ds_dbw_msgs/msg/VehicleVelocity"))
    for bag in (no_topics, tmp_path / "no_messages"):
        assert main([str(bag), "--out", str(tmp_path / "o"), "--no-plots", "-q"]) == 2, bag
        assert main([str(bag), "--info"]) == 2, bag
    assert main([str(src), "--info"]) == 0


def test_info_reports_what_the_replay_reports(tmp_path, capsys):
    """A clock reset in the bag: --info lists the same problems as the replay (issue 20)."""
    fill = B.CommandFiller("ds_dbw_msgs/msg/UlcCmd")
    t0 = 1_700_000_000_000_000_000
    with B.BagWriter(tmp_path / "b") as w:
        cid = w.add_topic("/vehicle/ulc/cmd", "ds_dbw_msgs/msg/UlcCmd")
        en = w.add_topic("/vehicle/enable", "std_msgs/msg/Empty")
        w.write_message(en, t0, B.default_message("std_msgs/msg/Empty"))
        for k in range(40):
            t = t0 + k * 20_000_000 - (50_000_000_000 if k >= 20 else 0)
            w.write_message(cid, t, fill(core_cmd.UlcCmd(cmd=1.0, cmd_type=1, enable=True), t))
    assert main([str(tmp_path / "b"), "--info"]) == 0
    info = capsys.readouterr().out
    assert "clock reset" in info
    assert main([str(tmp_path / "b"), "--out", str(tmp_path / "o"), "--no-plots", "-q"]) == 0
    replay = capsys.readouterr().err
    assert [line for line in replay.splitlines() if "bag problem" in line] == \
        [line for line in info.splitlines() if "bag problem" in line]


@pytest.mark.parametrize("args", [["--info"], ["--no-plots", "--no-bag"]])
def test_a_closed_pipe_ends_quietly(drive, tmp_path, args):
    """``acres-replay ... | head``: the reader goes away; no traceback, the usual exit status, outputs written."""
    _sc, src = drive
    out = tmp_path / "o"
    cmd = [sys.executable, "-m", "acres_dbw_sim.replay", str(src), "--out", str(out), *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))
    proc.stdout.close()   # as `head` does once it has its lines (here: before any)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
    if "--info" not in args:
        assert (out / "replay.json").is_file()


def test_a_jump_of_the_recorded_speed_is_reported_serious():
    """A ~/reset while recording: 8 m/s to 0 between two 10 ms reports; a hard stop (9 m/s^2) is not a jump."""
    import numpy as np

    from acres_dbw_sim.replay.offline import _check_speed_jumps
    t = np.arange(0.0, 2.0, 0.01)
    braking = {"speed_mps": (t, np.maximum(0.0, 8.0 - 9.0 * t))}
    problems: list = []
    _check_speed_jumps(braking, problems)
    assert problems == []
    reset = {"speed_mps": (t, np.where(t < 1.0, 8.0, 0.0))}
    _check_speed_jumps(reset, problems)
    (p,) = problems
    assert p.kind == "not_replayed" and p.serious and "t=1.000 s" in p.message and "8.00 to 0.00" in p.message


def test_a_refused_parameter_leaves_no_output_folder(drive, tmp_path, capsys):
    """A --param refused only when the run starts (the gear name) leaves no empty --out behind."""
    _sc, src = drive
    out = tmp_path / "new" / "out"
    assert main([str(src), "--out", str(out), "--no-plots", "-q", "--param", "initial_gear=TOP"]) == 2
    assert "initial_gear" in capsys.readouterr().err
    assert not out.exists()
