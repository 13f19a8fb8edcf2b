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


def test_importing_the_node_and_its_launcher_changes_no_signal_handler():
    """``import acres_dbw_sim.node`` (and the launcher, imported as a library) leaves every handler as it
    was, faulthandler's SIGUSR1 included: only ``sim_node``/``acres-sim`` run as programs set them."""
    import subprocess
    code = (
        "import faulthandler, signal\n"
        "names = [s for s in signal.Signals if s not in (signal.SIGKILL, signal.SIGSTOP)]\n"
        "before = {s: signal.getsignal(s) for s in names}\n"
        "import acres_dbw_sim.node, acres_dbw_sim.launcher, acres_dbw_sim.fleet_node\n"
        "after = {s: signal.getsignal(s) for s in names}\n"
        "changed = [s.name for s in names if before[s] != after[s]]\n"
        "try:\n"
        "    faulthandler.unregister(signal.SIGUSR1) and changed.append('faulthandler SIGUSR1')\n"
        "except Exception:\n"
        "    pass\n"
        "print(changed)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stderr
