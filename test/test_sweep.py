"""Parameter sweeps: file checks, designs, draws, local and Ray engines, kill and resume, analysis."""
from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from acres_dbw_sim.vehicles.polaris.params import load_parameters
from acres_dbw_sim.scenario import ScenarioError
from acres_dbw_sim.sweep import load_sweep, main, run_sweep
from acres_dbw_sim.sweep.analysis import sobol, src
from acres_dbw_sim.sweep.design import make_samples, unit_design
from acres_dbw_sim.sweep.spec import ParamSpec, Sweep, format_value

ROOT = Path(__file__).resolve().parents[1]
BRAKE = ROOT / "scenarios" / "brake_70bar_asphalt.yaml"


def write(tmp_path: Path, text: str, name: str = "sw.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip("\n"))
    return p


def small_sweep(tmp_path: Path, samples: int = 6, design: str = "montecarlo", extra_set: str = "",
                params: str = "[brakes.front_nm_per_bar, brakes.rear_nm_per_bar, mass.cargo_kg]") -> Path:
    return write(tmp_path, f"""
        name: small
        scenarios:
          - file: {BRAKE}
            set: "initial.speed_mps=10;metrics=null{extra_set}"
        parameters: {params}
        design: {design}
        samples: {samples}
        seed: 3
        metrics:
          stopping_distance_m: {{final: x_m}}
          t_stop_s: {{first_t: "speed_mps <= 0.05"}}
        """)


def rows(path: Path) -> list:
    with open(path, newline="") as f:
        return list(csv.reader(f))


# --------------------------------------------------------------------------- bad sweep files


BAD = {
    "unknown top-level key": ("""
        scenarios: [{BRAKE}]
        sampels: 8
        """, ":2: sampels: unknown key (did you mean 'samples'?)"),
    "unknown parameter": ("""
        scenarios: [{BRAKE}]
        parameters:
          - brakes.front_nm_per_bar
          - brakes.front_nm_per_barr
        samples: 8
        """, ":4: parameters[1]: 'brakes.front_nm_per_barr': unknown key (did you mean "
             "'brakes.front_nm_per_bar'?)"),
    "parameter that does not vary": ("""
        scenarios: [{BRAKE}]
        parameters: [brakes.max_bar]
        samples: 8
        """, ":2: parameters[0]: 'brakes.max_bar' does not vary in the parameter file (sd 0)"),
    "misspelt distribution": ("""
        scenarios: [{BRAKE}]
        parameters: [{{brakes.front_nm_per_bar: {{sdd: 2}}}}]
        samples: 8
        """, ":2: parameters[0].brakes.front_nm_per_bar: unknown distribution 'sdd' (did you mean 'sd'?); expected "
             "exactly one of {sd: x}, {range: [lo, hi]}, {values: [...]}"),
    "range outside the loader's limits": ("""
        scenarios: [{BRAKE}]
        parameters:
          - brakes.rear_nm_per_bar
          - brakes.front_nm_per_bar: {{range: [-5, 30]}}
        samples: 8
        """, ":4: parameters[1].brakes.front_nm_per_bar: 'brakes.front_nm_per_bar': range [-5.0, 30.0] is outside "
             "the loader's limits: lo = -5.0: out of range: -5 not in [0, 1000]"),
    "range outside the DBW loader's limits": ("""
        scenarios: [{BRAKE}]
        parameters:
          - dbw.ulc.kp_speed: {{range: [1, 200]}}
        samples: 8
        """, ":3: parameters[0].dbw.ulc.kp_speed: 'dbw.ulc.kp_speed': range [1.0, 200.0] is outside the loader's "
             "limits: hi = 200.0"),
    "glob matching nothing": ("""
        scenarios: [{BRAKE}]
        parameters: [brake.*]
        samples: 8
        """, ":2: parameters[0]: 'brake.*' matches no parameter with an sd or range"),
    "Sobol' base not a power of 2": ("""
        scenarios: [{BRAKE}]
        design: sobol
        samples: 100
        """, ":3: samples: the Sobol' design needs a power of 2"),
    "metric the scenario lacks": ("""
        scenarios: [{BRAKE}]
        parameters: [brakes.*]
        samples: 8
        metrics: [t_stop_s, stopping_distance_m]
        """, ":4: metrics[1]: scenario 'brake_70bar_asphalt' (brake_70bar_asphalt.yaml) has no metric "
             "'stopping_distance_m'"),
    "bad metric definition": ("""
        scenarios: [{BRAKE}]
        samples: 8
        metrics:
          d_m: {{final: x_mm}}
        """, ":4: metrics.d_m"),
    "not a mapping": ("""
        - {BRAKE}
        """, ":1: a sweep file is a mapping of name, description, scenarios"),
    "missing scenario file": ("""
        scenarios:
          - file: nothere.yaml
        samples: 8
        """, ":2: scenarios[0].file: file not found"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_sweep_file_names_file_line_and_key_before_anything_runs(tmp_path, capsys, case):
    text, expected = BAD[case]
    sw = write(tmp_path, text.format(BRAKE=BRAKE))
    out = tmp_path / "out"
    assert main([str(sw), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {sw}"), err
    assert expected in err, err
    assert not out.exists()  # nothing ran, nothing written


_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 2**70), st.floats(allow_nan=True),
                  st.text(max_size=12), st.lists(st.integers(-3, 3), max_size=3),
                  st.dictionaries(st.sampled_from(["sd", "range", "values", "x"]),
                                  st.one_of(st.floats(-1e3, 1e3), st.lists(st.floats(-50, 50), max_size=3)),
                                  max_size=2))
_FIELDS = st.fixed_dictionaries({}, optional={
    "design": st.one_of(st.sampled_from(["montecarlo", "lhs", "sobol", "grid", "nope"]), _JUNK),
    "samples": st.one_of(st.integers(-2, 70), _JUNK), "seed": st.one_of(st.integers(-2, 99), _JUNK),
    "levels": st.one_of(st.integers(0, 4), _JUNK), "metrics": st.one_of(st.just(["t_stop_s"]), _JUNK),
    "parameters": st.one_of(st.lists(st.one_of(
        st.sampled_from(["brakes.*", "mass.dry_kg", "engine.torque_curve_nm[3]", "engine.torque_curve_nm",
                         "nope.key", "surfaces.*.mu", "cvt.ebs"]),
        st.dictionaries(st.sampled_from(["brakes.front_nm_per_bar", "mass.cargo_kg", "cvt.adc"]), _JUNK,
                        min_size=1, max_size=1)), max_size=3), _JUNK)})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=_FIELDS)
def test_any_sweep_file_loads_or_fails_with_a_located_error(tmp_path, fields):
    """Whatever the values, loading gives a Sweep or a ScenarioError naming the file: no other exception."""
    p = tmp_path / "fuzz.yaml"
    p.write_text(yaml.safe_dump({"scenarios": [str(BRAKE)], **fields}))
    try:
        sw = load_sweep(p)
    except ScenarioError as exc:
        assert str(exc).startswith(str(p)), exc
        return
    assert sw.params and sw.n_runs >= 1 and sw.metric_columns


def test_key_without_sd_or_range_is_refused(tmp_path, capsys):
    tree = json.loads((ROOT / "config" / "polaris.json").read_text())
    del tree["brakes"]["front_nm_per_bar"]["range"]
    (tmp_path / "p.json").write_text(json.dumps(tree))
    scen = BRAKE.read_text().replace("duration_s: 20", f"duration_s: 20\nvehicle: {{parameters: {tmp_path / 'p.json'}}}")
    write(tmp_path, scen, "s.yaml")
    sw = write(tmp_path, """
        scenarios: [s.yaml]
        parameters:
          - brakes.front_nm_per_bar
        samples: 4
        """)
    assert main([str(sw), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"{sw}:3: parameters[0]: 'brakes.front_nm_per_bar' has neither sd nor range in the parameter file" in err


@pytest.mark.parametrize("edit, key", [("initial.speed_kph=3", "initial.speed_kph: unknown key"),
                                       ("brakes.front_nm_per_barr=30", "brakes.front_nm_per_barr: unknown key"),
                                       ("timeline[1]={t: 1}", "timeline[1]: no such list item")])
def test_a_bad_set_edit_names_the_sweep_file_line_and_key(tmp_path, capsys, edit, key):
    """An edit in the sweep's ``set:`` is the sweep file's: its error names that file, line and key."""
    sw = write(tmp_path, f"""
        scenarios:
          - file: {BRAKE}
            set: "{edit}"
        samples: 4
        """)
    assert main([str(sw), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"{sw}:3: scenarios[0].set: {key}" in err, err
    assert "--set" not in err


def test_an_error_in_the_scenario_names_the_scenario_file(tmp_path, capsys):
    bad = write(tmp_path, BRAKE.read_text().replace("duration_s:", "duration_sec:"), "bad.yaml")
    sw = write(tmp_path, f"""
        scenarios:
          - file: {bad}
        samples: 4
        """)
    assert main([str(sw), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "duration_sec" in err, err


# --------------------------------------------------------------------------- designs and draws


def _sweep(params: tuple, design: str, samples: int = 0, levels: int = 0, seed: int = 1) -> Sweep:
    pf = str(ROOT / "config" / "polaris.json")
    return Sweep(name="t", description="", source=None, scenarios=(), params=params, design=design,
                 samples=samples, seed=seed, levels=levels, metric_columns=("y",), parameter_file=pf,
                 base_checks=(("polaris", pf, "", None, None),))


P_UNIFORM = ParamSpec("brakes.front_nm_per_bar", "uniform", 22, lo=18.0, hi=26.0)
P_INTEGER = ParamSpec("mass.occupants", "integer", 1, lo=0.0, hi=6.0)
P_CHOICE = ParamSpec("cvt.adc", "choice", False, choices=(False, True))
P_NORMAL = ParamSpec("mass.dry_kg", "normal", 1063, sd=10.0)


@pytest.mark.parametrize("design", ["montecarlo", "lhs", "sobol"])
def test_samples_stay_in_each_keys_range_and_are_reproducible(design):
    sw = _sweep((P_UNIFORM, P_INTEGER, P_CHOICE, P_NORMAL), design, samples=32)
    a, b = make_samples(sw), make_samples(sw)
    assert [s.overrides for s in a] == [s.overrides for s in b]
    assert len(a) == sw.n_runs == (32 * 6 if design == "sobol" else 32)
    v = np.array([[float(x) for x in s.values] for s in a])
    assert np.all((v[:, 0] >= 18.0) & (v[:, 0] < 26.0))
    assert set(v[:, 1]) <= set(range(7)) and len(set(v[:, 1])) >= 5
    assert set(v[:, 2]) == {0.0, 1.0}
    assert abs(v[:, 3].mean() - 1063) < 6 and 5 < v[:, 3].std() < 15
    assert all(not s.invalid for s in a)
    assert all(isinstance(s.values[1], int) and isinstance(s.values[2], bool) for s in a)


def test_a_normal_key_takes_exactly_the_normal_distributions_quantile():
    """to_values maps u through scipy's normal ppf (called as the special function it evaluates): the same
    numbers bit for bit, in the tails too, so results tables do not change with the shortcut."""
    from scipy.stats import norm

    from acres_dbw_sim.sweep.design import to_values
    u = np.concatenate([np.random.default_rng(3).random(200), [1e-12, 0.5, 1.0 - 1e-12]])
    got = [to_values((P_NORMAL,), np.array([x]))[0] for x in u]
    assert got == [float(norm.ppf(x, loc=1063.0, scale=10.0)) for x in u]


def test_lhs_puts_one_sample_in_each_stratum():
    sw = _sweep((P_UNIFORM, ParamSpec("brakes.rear_nm_per_bar", "uniform", 12, lo=9.0, hi=15.0)), "lhs", samples=16)
    u = unit_design(sw)
    for j in range(2):
        assert sorted(np.floor(u[:, j] * 16).astype(int)) == list(range(16))


def test_grid_covers_every_combination():
    sw = _sweep((P_UNIFORM, P_CHOICE), "grid", levels=4)
    s = make_samples(sw)
    assert len(s) == 4 * 4
    assert sorted({x.values[0] for x in s}) == [19.0, 21.0, 23.0, 25.0]
    assert {x.values[1] for x in s} == {False, True}


def test_invalid_monte_carlo_draws_are_redrawn_not_clamped():
    """droop must stay below travel: a wide normal for the droop is cut by the loader, not clamped."""
    wide = ParamSpec("suspension.droop_m", "normal", 0.1, sd=0.15)
    sw = _sweep((wide,), "montecarlo", samples=40)
    s = make_samples(sw)
    assert sum(x.redraws for x in s) > 0
    droop = np.array([x.values[0] for x in s])
    assert np.all((droop > 0.0) & (droop < 0.2794)), droop
    assert len(set(droop.tolist())) == 40  # no pile-up at a bound
    for x in s[:5]:
        load_parameters(None, x.overrides)  # every kept draw loads


def test_invalid_lhs_draws_are_reported_and_not_run(tmp_path):
    sw_path = small_sweep(tmp_path, samples=8, design="lhs",
                          params="[{suspension.droop_m: {sd: 0.15}}, brakes.front_nm_per_bar]")
    sw = load_sweep(sw_path)
    samples = make_samples(sw)
    bad = [s for s in samples if s.invalid]
    assert bad and len(bad) < 8
    res = run_sweep(sw, tmp_path / "out", jobs=1, plots=False)
    table = rows(res.results)
    assert res.ran == 8 - len(bad)
    invalid = [r for r in table[1:] if r[1] == "invalid"]
    assert [int(r[0]) for r in invalid] == [s.sample_id for s in bad]
    assert all("suspension.droop_m" in r[-1] and r[4] == "" for r in invalid)
    assert res.counts["invalid"] == len(bad) and res.counts["ok"] == 8 - len(bad)


def test_format_value_reads_back_exactly():
    for x in (0.1, 1 / 3, 1e-300, 22.000000000000004, -0.0):
        assert float(format_value(x)) == x
    assert format_value(np.float64(0.1)) == "0.1"
    assert (format_value(True), format_value(None), format_value(3)) == ("true", "null", "3")


# --------------------------------------------------------------------------- analysis


def test_src_and_sobol_rank_a_known_linear_function():
    """y = 2 x1 + x2 with x uniform: SRC 2/sqrt(5), 1/sqrt(5); first-order Sobol' 0.8, 0.2."""
    p1 = ParamSpec("a", "uniform", 0.5, lo=0.0, hi=1.0)
    p2 = ParamSpec("b", "uniform", 0.5, lo=0.0, hi=1.0)
    p3 = ParamSpec("c", "uniform", 0.5, lo=0.0, hi=1.0)
    sw = _sweep((p1, p2, p3), "sobol", samples=1024)
    u = unit_design(sw)
    y = 2.0 * u[:, 0] + u[:, 1]
    r = src(u, y, ["a", "b", "c"])
    assert r["r2"] == pytest.approx(1.0)
    assert [e["key"] for e in r["ranking"]] == ["a", "b", "c"]
    assert r["ranking"][0]["src"] == pytest.approx(2 / 5 ** 0.5, abs=0.02)
    assert r["ranking"][2]["src"] == pytest.approx(0.0, abs=1e-9)
    s = sobol(y, 1024, ["a", "b", "c"])
    first = {e["key"]: e["first"] for e in s["ranking"]}
    assert first["a"] == pytest.approx(0.8, abs=0.05) and first["b"] == pytest.approx(0.2, abs=0.05)
    assert abs(first["c"]) < 0.02 and s["ranking"][0]["key"] == "a"


def test_a_sobol_sweep_reports_sobol_indices(tmp_path):
    sw = load_sweep(small_sweep(tmp_path, samples=4, design="sobol",
                                params="[brakes.front_nm_per_bar, mass.cargo_kg]"))
    res = run_sweep(sw, tmp_path / "o", jobs=1, plots=False)
    assert res.ran == 4 * (2 + 2) and res.counts["ok"] == 16
    ranking = res.summary["metrics"]["stopping_distance_m"]["sobol"]["ranking"]
    assert {e["key"] for e in ranking} == {"brakes.front_nm_per_bar", "mass.cargo_kg"}
    assert all(np.isfinite(e["first"]) and np.isfinite(e["total"]) for e in ranking)


# --------------------------------------------------------------------------- engines, outputs


def test_local_and_ray_give_a_byte_identical_table(tmp_path):
    ray = pytest.importorskip("ray")
    sw = load_sweep(small_sweep(tmp_path, samples=6))
    local = run_sweep(sw, tmp_path / "local", engine="local", jobs=1, plots=False)
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING", log_to_driver=False)
    try:
        remote = run_sweep(sw, tmp_path / "ray", engine="ray", jobs=2, plots=False)
    finally:
        ray.shutdown()
    a, b = local.results.read_bytes(), remote.results.read_bytes()
    assert a == b
    table = rows(local.results)
    assert table[0] == ["sample_id", "status", "brakes.front_nm_per_bar", "brakes.rear_nm_per_bar", "mass.cargo_kg",
                        "stopping_distance_m", "t_stop_s", "simulated_s", "message"]
    assert [r[0] for r in table[1:]] == [str(i) for i in range(6)] and {r[1] for r in table[1:]} == {"ok"}
    d = np.array([float(r[5]) for r in table[1:]])
    assert np.all((d > 4.0) & (d < 9.0))  # 10 m/s at about 8-9 m/s^2: 5.5-6 m
    assert remote.ran == local.ran == 6


def test_outputs_summary_and_plots(tmp_path):
    res = run_sweep(load_sweep(small_sweep(tmp_path, samples=12, design="lhs")), tmp_path / "o", jobs=1)
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    m = s["metrics"]["stopping_distance_m"]
    vals = np.array([float(r[5]) for r in rows(res.results)[1:]])
    assert m["summary"]["mean"] == pytest.approx(vals.mean())
    assert m["summary"]["q50"] == pytest.approx(np.median(vals))
    assert m["summary"]["q05"] <= m["summary"]["q50"] <= m["summary"]["q95"]
    keys = [e["key"] for e in m["src"]["ranking"]]
    assert sorted(keys) == ["brakes.front_nm_per_bar", "brakes.rear_nm_per_bar", "mass.cargo_kg"]
    for f in ("histograms.png", "tornado.png"):
        assert (tmp_path / "o" / f).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_no_plots_or_fresh_leave_no_plots_of_an_earlier_run(tmp_path):
    """Plots describe one state of the table: a run without plots, or a fresh start, removes old ones."""
    out = tmp_path / "o"
    sw = small_sweep(tmp_path, samples=3)
    pngs = [out / "histograms.png", out / "tornado.png"]
    assert main([str(sw), "--out", str(out), "-q", "-j", "1"]) == 0
    assert all(p.exists() for p in pngs)
    assert main([str(sw), "--out", str(out), "-q", "-j", "1", "--no-plots"]) == 0   # resumed, no plots
    assert not any(p.exists() for p in pngs)
    assert main([str(sw), "--out", str(out), "-q", "-j", "1"]) == 0
    for p in pngs:
        p.write_bytes(b"old")
    sw_bigger = small_sweep(tmp_path, samples=4)
    # a fresh start discards them at once, before anything runs (a run cut short leaves none behind)
    from acres_dbw_sim.sweep.store import ResultStore
    ResultStore(out, load_sweep(sw_bigger), fresh=True).close()
    assert not any(p.exists() for p in pngs)


def test_samples_option_shrinks_a_sweep_and_is_checked_like_the_file(tmp_path, capsys):
    sw = small_sweep(tmp_path, samples=6)
    out = tmp_path / "o"
    assert main([str(sw), "--samples", "2", "--out", str(out), "--no-plots", "-q", "-j", "1"]) == 0
    assert len(rows(out / "results.csv")) == 3   # header and 2 samples
    assert json.loads((out / "sweep.json").read_text())["samples"] == 2
    capsys.readouterr()
    sobol = small_sweep(tmp_path, samples=4, design="sobol")
    assert main([str(sobol), "--samples", "6", "--check"]) == 2
    assert "--samples: samples: the Sobol' design needs a power of 2" in capsys.readouterr().err
    assert main([str(sw), "--samples", "0", "--check"]) == 2
    assert "--samples: samples: out of range: 0" in capsys.readouterr().err


def test_several_scenarios_give_one_row_per_sample_with_prefixed_columns(tmp_path):
    sw = load_sweep(write(tmp_path, f"""
        scenarios:
          - {{file: {BRAKE}, name: asphalt, set: "initial.speed_mps=10"}}
          - {{file: {BRAKE}, name: gravel, set: "initial.speed_mps=10;terrain.surface=gravel"}}
        parameters: [brakes.front_nm_per_bar]
        samples: 3
        metrics: [t_stop_s]
        """))
    res = run_sweep(sw, tmp_path / "o", jobs=1, plots=False)
    table = rows(res.results)
    assert table[0][3:5] == ["asphalt.t_stop_s", "gravel.t_stop_s"]
    for r in table[1:]:
        assert float(r[4]) > float(r[3]) > 0.5  # gravel stops later than asphalt
        assert float(r[5]) == pytest.approx(float(r[3]) + float(r[4]), abs=0.02)  # simulated_s: both runs


def test_a_different_sweep_in_the_same_directory_is_refused(tmp_path, capsys):
    out = tmp_path / "o"
    assert main([str(small_sweep(tmp_path, samples=2)), "--out", str(out), "--no-plots", "-q", "-j", "1"]) == 0
    assert main([str(small_sweep(tmp_path, samples=3)), "--out", str(out), "--no-plots", "-q", "-j", "1"]) == 2
    assert "holds the results of a different sweep (changed: n_runs, samples)" in capsys.readouterr().err
    assert main([str(small_sweep(tmp_path, samples=3)), "--out", str(out), "--no-plots", "-q", "-j", "1",
                 "--fresh"]) == 0
    assert len(rows(out / "results.csv")) == 4


def test_kill_halfway_then_resume_runs_only_the_missing_samples(tmp_path):
    n = 16
    sw_path = small_sweep(tmp_path, samples=n, extra_set=";stop_when=null;duration_s=20")
    ref = run_sweep(load_sweep(sw_path), tmp_path / "ref", jobs=1, plots=False)
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "acres_dbw_sim.sweep", str(sw_path), "--out", str(out),
                             "--jobs", "1", "--no-plots", "-q"], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    runs = out / "runs.csv"
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if runs.exists() and runs.read_bytes().count(b"\n") >= 4:  # header + 3 runs
                break
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    done = runs.read_bytes().count(b"\n") - 1
    assert 3 <= done < n, f"killed after {done} of {n} runs"
    assert not (out / "results.csv").exists()
    with open(runs, "a") as f:  # as if the kill had cut a line short
        f.write("15,ok,21.5")
    res = run_sweep(load_sweep(sw_path), out, jobs=2, plots=False)
    assert res.resumed == done and res.ran == n - done
    assert res.results.read_bytes() == ref.results.read_bytes()
    assert runs.read_bytes().count(b"\n") == n + 1


def test_a_scenario_edited_between_two_sweeps_of_one_program_is_read_again(tmp_path):
    """The sweep worker keeps parsed scenario files per process (and forked workers inherit them): an edit
    between two sweeps in one program is seen, with the local workers and in process."""
    scen = tmp_path / "stop.yaml"
    scen.write_text(BRAKE.read_text())
    sw_text = textwrap.dedent(f"""
        name: edited
        scenarios:
          - file: {scen}
            set: "initial.speed_mps=10;metrics=null"
        parameters: [brakes.front_nm_per_bar]
        samples: 4
        seed: 3
        metrics:
          stopping_distance_m: {{final: x_m}}
        """)
    (tmp_path / "sw.yaml").write_text(sw_text)
    first = run_sweep(load_sweep(tmp_path / "sw.yaml"), tmp_path / "a", jobs=1, plots=False)
    scen.write_text(scen.read_text().replace("brake_bar: 70", "brake_bar: 35"))
    assert "brake_bar: 35" in scen.read_text()
    for jobs in (1, 2):
        again = run_sweep(load_sweep(tmp_path / "sw.yaml"), tmp_path / f"b{jobs}", jobs=jobs, plots=False)
        assert again.results.read_bytes() != first.results.read_bytes()
    assert (tmp_path / "b1" / "results.csv").read_bytes() == (tmp_path / "b2" / "results.csv").read_bytes()


def test_a_height_map_file_changed_before_a_resume_is_refused(tmp_path, capsys):
    """The height map a scenario reads from a file fixes the results as much as the scenario file: a sweep
    whose map was rewritten since its directory was written is refused, not resumed into a mixed table."""
    grid = tmp_path / "bump.npy"
    np.save(grid, np.zeros((5, 40)))
    scen = tmp_path / "ramp.yaml"
    scen.write_text(textwrap.dedent("""
        duration_s: 3
        terrain:
          height_map: {file: bump.npy, resolution_m: 1.0, origin_m: [-5.0, -2.0]}
        initial: {gear: H, speed_mps: 5}
        timeline:
          - {t: 0, pedal: 0.2}
        metrics:
          z_final_m: {final: z_m}
        """).lstrip())
    sw = write(tmp_path, f"""
        name: maps
        scenarios: [{scen}]
        parameters: [brakes.front_nm_per_bar]
        samples: 3
        seed: 1
        """)
    flat = run_sweep(load_sweep(sw), tmp_path / "out", jobs=1, plots=False)
    g = np.zeros((5, 40))
    g[:, 10:] = 0.3
    np.save(grid, g)
    assert main([str(sw), "--out", str(tmp_path / "out"), "--jobs", "1", "--no-plots", "-q"]) == 2
    assert "holds the results of a different sweep (changed: scenarios)" in capsys.readouterr().err
    bumped = run_sweep(load_sweep(sw), tmp_path / "out2", jobs=1, plots=False)
    assert bumped.results.read_bytes() != flat.results.read_bytes()


def test_sigterm_to_a_ray_sweep_stops_it_and_its_local_ray(tmp_path):
    """ray.init takes SIGTERM over (it would end the tool with status 15, the finished runs written but no
    message); the engine gives the tool its handling back: exit 130, and the local Ray it started is shut
    down: nothing is left in the tool's session."""
    pytest.importorskip("ray")
    sw_path = small_sweep(tmp_path, samples=400, extra_set=";stop_when=null;duration_s=20")
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "acres_dbw_sim.sweep", str(sw_path), "--out", str(out),
                             "--engine", "ray", "--jobs", "2", "--no-plots", "-q"], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def session() -> list:
        r = subprocess.run(["ps", "-o", "pid=,stat=", "-s", str(proc.pid)], capture_output=True, text=True)
        return [ln.split()[0] for ln in r.stdout.splitlines() if ln.split() and not ln.split()[1].startswith("Z")]

    try:
        deadline = time.monotonic() + 180
        runs = out / "runs.csv"
        while time.monotonic() < deadline and proc.poll() is None:
            if runs.exists() and runs.read_bytes().count(b"\n") >= 2:   # Ray is up and running samples
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        assert "finished runs are in" in err and "runs.csv; run the same command again to resume" in err
        deadline = time.monotonic() + 30
        while session() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert session() == [], "processes of the tool's session outlived it"
    finally:
        for pid in session():   # only what this test's tool started, in its own session
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_an_interrupt_before_the_first_run_says_nothing_was_written(tmp_path, capsys, monkeypatch):
    import acres_dbw_sim.sweep.cli as cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "run_sweep", interrupted)
    sw = small_sweep(tmp_path, samples=1200)
    assert main([str(sw), "--out", str(tmp_path / "out"), "--no-plots"]) == 130
    err = capsys.readouterr().err
    assert "drawing 1200 samples" in err       # a large design says what it is doing first
    assert "interrupted before the first run finished: no results written" in err and "runs.csv" not in err


def test_a_sweep_and_a_scenario_word_the_same_fault_the_same_way(tmp_path):
    """One checker (scenario.source.Check) for both documents: an integer given as text reads the same."""
    from acres_dbw_sim.scenario import load_scenario
    from acres_dbw_sim.scenario.source import ScenarioError
    from acres_dbw_sim.sweep.spec import MAX_RUNS
    with pytest.raises(ScenarioError) as sweep_err:
        load_sweep(small_sweep(tmp_path, samples='"ten"'))
    scen = tmp_path / "s.yaml"
    scen.write_text("name: s\nduration_s: 1\nvehicle: {occupants: \"ten\"}\n")
    with pytest.raises(ScenarioError) as scen_err:
        load_scenario(scen)
    assert f"samples: wrong type: expected an integer 1..{MAX_RUNS}, got 'ten'" in str(sweep_err.value)
    assert "wrong type: expected an integer 0..6, got 'ten'" in str(scen_err.value)


def test_a_tractor_sweep_varies_the_tractors_keys_with_the_tractors_loader(tmp_path):
    """A sweep of a scenario of another vehicle than the Ranger checks and runs its draws with that vehicle's
    loader (the registry's row): values the tractor's loader takes are ok, a value it refuses is named with the
    tractor loader's reason."""
    scenario = ROOT / "scenarios" / "maxxum150_scripted.yaml"
    sw = write(tmp_path, f"""
        scenarios: [{{file: {scenario}, set: "duration_s=0.5;metrics=null"}}]
        parameters: [{{engine.idle_rpm: {{values: [800, 850]}}}}, engine.max_speed_mps]
        samples: 3
        metrics: {{x_m: {{final: x_m}}}}
        """)
    sweep = load_sweep(sw)
    res = run_sweep(sweep, tmp_path / "out", jobs=1, plots=False)
    assert res.counts["ok"] == 3, rows(res.results)
    bad = write(tmp_path, f"""
        scenarios: [{{file: {scenario}, set: "duration_s=0.5;metrics=null"}}]
        parameters: [{{engine.idle_rpm: {{values: [800, 4000]}}}}]
        samples: 2
        metrics: {{x_m: {{final: x_m}}}}
        """, "bad.yaml")
    with pytest.raises(ScenarioError, match=r"value 4000 is refused by the loader: 4000 must be below engine.max_rpm"):
        load_sweep(bad)
