"""Signals as a flag (acres_dbw_sim/stop_signals.py), the stop handling of sim_node and demo_driver."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from acres_dbw_sim.stop_signals import stop_flag_for_imports, stop_on_signals


def test_a_signal_sets_the_flag_a_second_one_interrupts_and_the_handlers_come_back():
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    stop: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        with stop_on_signals(stop) as flag:
            assert flag is stop
            os.kill(os.getpid(), signal.SIGTERM)
            assert stop == [signal.SIGTERM]   # the first one only raises the flag
            os.kill(os.getpid(), signal.SIGINT)   # the user insists
    assert stop == [signal.SIGTERM]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_signal_caught_during_the_imports_stops_the_loop_before_it_starts(monkeypatch):
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(sys, "argv", ["/venv/bin/demo_driver"])
    try:
        stop = stop_flag_for_imports(("demo_driver",))
        os.kill(os.getpid(), signal.SIGINT)
        assert stop == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])


def test_imported_as_a_library_the_handlers_are_left_alone(monkeypatch):
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(sys, "argv", ["/venv/bin/pytest"])
    assert stop_flag_for_imports(("demo_driver",)) == []
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
