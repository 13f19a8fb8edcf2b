"""Accel and brake maps for Autoware's raw_vehicle_cmd_converter (acres_dbw_sim.autoware_maps)."""

from __future__ import annotations

import numpy as np
import pytest

from acres_dbw_sim import autoware_maps as M


@pytest.fixture(scope="module")
def maps(tmp_path_factory):
    out = tmp_path_factory.mktemp("maps")
    assert M.main([str(out)]) == 0
    return M.read_map(out / "accel_map.csv"), M.read_map(out / "brake_map.csv")


def test_the_files_have_the_converters_layout_and_its_monotonic_columns(maps):
    (name, vel, strokes, accel), (bname, bvel, bstrokes, brake) = maps
    assert name == bname == "polaris_asphalt" and vel == bvel == M.VELOCITIES_MPS
    assert strokes[0] == bstrokes[0] == 0.0 and set(strokes) <= set(M.STROKES) and set(bstrokes) <= set(M.STROKES)
    assert len(strokes) >= 8 and len(bstrokes) >= 8 and accel.shape[1] == brake.shape[1] == 11
    assert np.all(np.diff(accel, axis=0) > 0) and np.all(np.diff(brake, axis=0) < 0)
    # the Ranger's figures: 3 to 4 m/s^2 at full pedal at low speed, full braking near mu g on asphalt
    assert 3.0 < accel[-1, 1] < 4.2 and -9.5 < brake[-1, -1] < -8.5


def test_a_map_that_does_not_rise_is_refused_naming_the_cell():
    table = np.tile(np.arange(3.0)[:, None], (1, 2))
    table[2, 1] = 1.0
    with pytest.raises(M.MapError, match=r"at 1.39 m/s the acceleration at stroke 0.2 \(1.0000 m/s\^2\)"):
        M.check_monotonic(table, rising=True, strokes=(0.0, 0.1, 0.2), velocities=(0.0, 1.39))
    M.check_monotonic(-np.tile(np.arange(3.0)[:, None], (1, 2)), rising=False, strokes=(0, 1, 2), velocities=(0, 1))


def test_the_reader_refuses_a_ragged_file(tmp_path):
    f = tmp_path / "m.csv"
    f.write_text("x,0,1\n0,0.1,0.2\n1,0.3\n")
    with pytest.raises(ValueError, match="row 3 has 2 cells"):
        M.read_map(f)


def test_a_bad_surface_is_an_error_not_a_map(tmp_path, capsys):
    assert M.main([str(tmp_path), "--surface", "lava"]) == 2
    assert "lava" in capsys.readouterr().err and not (tmp_path / "accel_map.csv").exists()


def test_strokes_that_add_nothing_are_left_out_and_said():
    table = np.array([[0.0, 0.0], [-1.0, -1.0], [-2.0, -1.0], [-3.0, -2.0]])   # stroke 2 saturates at 1 m/s
    kept, dropped = M.keep_monotonic(table, rising=False, strokes=(0, 1, 2, 3), velocities=(0, 1))
    assert kept == [0, 1, 3] and len(dropped) == 1 and dropped[0].startswith("stroke 2 left out: at 1 m/s")


def test_on_gravel_the_brake_strokes_past_the_friction_limit_are_left_out(tmp_path, capsys):
    assert M.main([str(tmp_path), "--surface", "gravel"]) == 0
    out = capsys.readouterr().out
    assert "brake_map.csv: stroke 1 left out" in out
    _n, _v, strokes, brake = M.read_map(tmp_path / "brake_map.csv")
    assert 1.0 not in strokes and np.all(np.diff(brake, axis=0) < 0)


def test_the_released_pedals_are_one_row_of_both_maps():
    """Stroke 0 of the accel map and of the brake map are one state (no pedal, no brake): the same
    accelerations, so the converter has no dead band between the maps."""
    from acres_dbw_sim.autoware_maps import measure_maps
    accel, brake = measure_maps(velocities=(1.39, 8.33), strokes=(0.0, 0.5))
    assert np.array_equal(accel[0], brake[0])
    assert np.all(brake[1] < brake[0]) and np.all(accel[1] > accel[0])
