"""The node's Fast DDS participant profile (docs/discovery.md): the shipped file
announces every 0.3 s, matches endpoints by type name, and changes nothing else, parses in Fast DDS, is installed
with the package, and the node uses it only where the user has not chosen otherwise."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ament_index_python.packages import get_package_prefix

from acres_dbw_sim.launcher import FASTDDS_PROFILE_NAME, use_fast_discovery_profile
from helpers.dds import wait_for


ROOT = Path(__file__).resolve().parents[1]
PROFILE = ROOT / "config" / FASTDDS_PROFILE_NAME
NS = {"f": "http://www.eprosima.com"}
NODE_EXE = Path(get_package_prefix("acres_dbw_sim")) / "lib" / "acres_dbw_sim" / "sim_node"


def test_the_profile_sets_only_a_0_3_s_announcement_period_type_names_and_a_5_ms_heartbeat():
    root = ET.parse(PROFILE).getroot()
    participants = root.findall("f:profiles/f:participant", NS)
    assert len(participants) == 1 and participants[0].get("is_default_profile") == "true"
    rtps = participants[0].find("f:rtps", NS)
    # two settings: the type propagation property and rtps/builtin/discovery_config/leaseAnnouncement
    assert [c.tag.split("}")[1] for c in rtps] == ["propertiesPolicy", "builtin"]
    props = {p.find("f:name", NS).text: p.find("f:value", NS).text
             for p in rtps.findall("f:propertiesPolicy/f:properties/f:property", NS)}
    assert props == {"fastdds.type_propagation": "registration_only"}   # no TypeLookup: match by name
    builtin = rtps.find("f:builtin", NS)
    assert [c.tag.split("}")[1] for c in builtin] == ["discovery_config"]
    disc = builtin.find("f:discovery_config", NS)
    assert [c.tag.split("}")[1] for c in disc] == ["leaseAnnouncement"]
    lease = disc.find("f:leaseAnnouncement", NS)
    period = int(lease.find("f:sec", NS).text) + 1e-9 * int(lease.find("f:nanosec", NS).text)
    assert period == pytest.approx(0.3)
    # and the writers' heartbeat (lockstep waits for acknowledgements), nothing else
    assert [c.tag.split("}")[1] for c in root.find("f:profiles", NS)] == ["participant", "data_writer"]
    writer = root.find("f:profiles/f:data_writer", NS)
    assert writer.get("is_default_profile") == "true"
    assert [c.tag.split("}")[1] for c in writer] == ["times"]
    times = writer.find("f:times", NS)
    assert [c.tag.split("}")[1] for c in times] == ["heartbeat_period"]
    hb = times.find("f:heartbeat_period", NS)
    assert int(hb.find("f:sec", NS).text) + 1e-9 * int(hb.find("f:nanosec", NS).text) == pytest.approx(0.005)


@pytest.mark.dds
def test_fast_dds_reads_the_profile_without_an_error(ros_process):
    """Fast DDS logs an XMLPARSER error and falls back to its defaults for a file it cannot
    read (an element name of another Fast DDS version, say): the node must start without one."""
    assert Path(os.environ["FASTDDS_DEFAULT_PROFILES_FILE"]).resolve() == PROFILE.resolve()  # conftest
    node = ros_process([str(NODE_EXE), "--ros-args", "-r", "__ns:=/profile_check"], name="node")
    assert wait_for(lambda: "simulating" in node.output() or not node.alive(), 60.0), node.output()
    out = node.output()
    assert "simulating" in out and "XMLPARSER" not in out, out


def test_setup_installs_the_profile_with_the_config():
    text = (ROOT / "setup.py").read_text()
    assert 'glob("config/*.xml")' in text


def test_the_node_uses_the_shipped_profile_when_nothing_else_is_set():
    env = {}
    path = use_fast_discovery_profile(env)
    assert path is not None and Path(path).resolve() == PROFILE.resolve()
    assert env["FASTDDS_DEFAULT_PROFILES_FILE"] == path
    env = {"RMW_IMPLEMENTATION": "rmw_fastrtps_cpp"}
    assert use_fast_discovery_profile(env) == path


@pytest.mark.parametrize("env", [
    {"FASTDDS_DEFAULT_PROFILES_FILE": "my_profile.xml"},
    {"FASTRTPS_DEFAULT_PROFILES_FILE": "legacy.xml"},
    {"RMW_IMPLEMENTATION": "rmw_cyclonedds_cpp"},
    {"RMW_IMPLEMENTATION": "rmw_zenoh_cpp"},
    {"ACRES_FASTDDS_PROFILE": "0"},
])
def test_the_users_choice_is_left_alone(env):
    before = dict(env)
    assert use_fast_discovery_profile(env) is None
    assert env == before
