"""The node's pacing as arithmetic (acres_dbw_sim/pacing.py), without DDS: what a timer call owes in each time
mode, how far a late call catches up, and what joins a /clock owner."""
from __future__ import annotations

import pytest

from acres_dbw_sim.pacing import (MAX_BATCH_S, MAX_CATCH_UP_RECORDING_S, MAX_CATCH_UP_S, Pacing, clock_due, pace,
                                  steps_due)

DT = 1.0 / 120.0


@pytest.mark.parametrize("now_s,rate,done,expected", [
    (0.0, 1.0, 0, 0),                 # the first call: nothing yet
    (DT, 1.0, 0, 1),                  # on a step's instant that step is owed (1e-6 of slack)
    (DT * (1.0 - 1e-9), 1.0, 0, 1),   # a hair early still counts
    (0.5, 1.0, 0, 60),
    (0.5, 1.0, 60, 0),                # already run
    (0.5, 4.0, 0, 240),               # sim mode at 4x: four times the steps per wall second
    (0.5, 1.0, 70, -10),              # ahead of the clock (reset): a negative debt, nothing to run
])
def test_steps_due(now_s, rate, done, expected):
    assert steps_due(now_s, 0.0, rate, DT, done) == expected


def test_nothing_owed_changes_nothing():
    assert pace(0, DT, 1.0, sim_mode=False, recording=False) == Pacing(0, 0.0, 0.0, 0.0)
    assert pace(-3, DT, 1.0, sim_mode=True, recording=False) == Pacing(0, 0.0, 0.0, 0.0)


def test_sim_mode_runs_at_most_a_batch_and_slows_down_instead_of_skipping():
    batch = int(MAX_BATCH_S / DT)                              # 3 steps at 120 Hz
    assert pace(batch, DT, 10.0, sim_mode=True, recording=False) == Pacing(batch, 0.0, 0.0, 0.0)
    p = pace(batch + 12, DT, 10.0, sim_mode=True, recording=False)
    assert p.steps == batch and p.epoch_shift_s == 0.0 and p.skipped_s == 0.0
    assert p.wall_shift_s == pytest.approx(12 * DT / 10.0)    # wall_t0 moves: the 12 steps come later


def test_realtime_catches_up_a_second_and_skips_the_rest_so_stamps_jump_forward():
    most = int(MAX_CATCH_UP_S / DT)
    assert pace(most, DT, 1.0, sim_mode=False, recording=False) == Pacing(most, 0.0, 0.0, 0.0)
    p = pace(3 * 120, DT, 1.0, sim_mode=False, recording=False)         # 3 s late
    assert p.steps == most and p.skipped_s == pytest.approx(2.0)
    assert p.wall_shift_s == p.epoch_shift_s == p.skipped_s


def test_while_recording_realtime_catches_up_far_longer_before_skipping():
    p = pace(3 * 120, DT, 1.0, sim_mode=False, recording=True)
    assert p == Pacing(360, 0.0, 0.0, 0.0)
    p = pace(int((MAX_CATCH_UP_RECORDING_S + 5.0) * 120), DT, 1.0, sim_mode=False, recording=True)
    assert p.steps == int(MAX_CATCH_UP_RECORDING_S / DT) and p.skipped_s == pytest.approx(5.0)


def test_clock_due_steps_to_the_owner_and_joins_an_owner_far_ahead():
    assert clock_due(0.5, 0.0, DT, 0) == (60, 0.0)
    assert clock_due(0.5, 0.0, DT, 60) == (0, 0.0)
    assert clock_due(0.4, 0.0, DT, 60) == (0, 0.0)                       # the owner is behind: wait
    assert clock_due(10.5, 10.0, DT, 0) == (60, 0.0)                     # stamps start at the epoch
    steps, shift = clock_due(5.0, 0.0, DT, 0)                             # the owner started 5 s earlier
    assert steps == int(MAX_CATCH_UP_S / DT) and shift == pytest.approx(4.0)
