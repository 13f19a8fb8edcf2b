"""The timeline player (scenario/timeline.py) the scenario runner and replay's synthesiser share."""
from __future__ import annotations

from dataclasses import dataclass

from acres_dbw_sim.scenario.timeline import TimelinePlayer


@dataclass
class Entry:
    step: int
    commands: tuple


def _play(entries, n=12, step_hz=120.0, rate_hz=40.0):
    player = TimelinePlayer(entries, ("steering", "ulc"), step_hz, rate_hz, n)
    return [list(player.at(k)) for k in range(n)]


def test_an_entrys_commands_go_out_in_order_and_streams_are_resent_at_their_rate():
    out = _play([Entry(0, (("enable", "E"), ("ulc", "U1"))), Entry(4, (("gear", "G"),))])
    assert out[0] == [("enable", "E"), ("ulc", "U1")]          # the entry's, the ULC not sent twice
    assert out[1] == out[2] == []
    assert out[3] == [("ulc", "U1")]                              # 120 / 40: every third step
    assert out[4] == [("gear", "G")]
    assert out[6] == out[9] == [("ulc", "U1")]


def test_a_changed_stream_goes_out_once_at_its_entry_and_null_ends_it():
    out = _play([Entry(0, (("ulc", "U1"), ("steering", "S1"))), Entry(3, (("ulc", "U2"),)), Entry(6, (("ulc", None),))])
    assert out[3] == [("ulc", "U2"), ("steering", "S1")]         # the new one, then the other stream's re-send
    assert out[6] == [("steering", "S1")]                         # ended: only the steering goes on
    assert out[9] == [("steering", "S1")]


def test_no_timeline_sends_nothing():
    assert _play([]) == [[]] * 12
