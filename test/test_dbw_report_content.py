"""The report content (dbw/report_content.py) reads the DBW state and never writes it."""
from __future__ import annotations

import ast
import copy
import inspect
import pickle

from acres_dbw_sim.dbw import report_content
from acres_dbw_sim.dbw.commands import ENABLE, SteeringCmd, ThrottleCmd
from acres_dbw_sim.dbw.state import DbwReports
from acres_dbw_sim.simulation import Simulation


def test_no_report_function_assigns_to_the_dbw_state():
    """Every ``fill_*`` takes the view as ``d``; no statement of the module assigns to ``d.<...>``."""
    tree = ast.parse(inspect.getsource(report_content))
    written = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Attribute):
                    base = sub
                    while isinstance(base, (ast.Attribute, ast.Subscript)):
                        base = base.value
                    if isinstance(base, ast.Name) and base.id == "d":
                        written.append(ast.unparse(t))
    assert written == []
    fills = {name for name, f in vars(report_content).items() if name.startswith("fill_") and callable(f)}
    assert set(f.__name__ for f in report_content.FILLERS.values()) <= fills
    for f in report_content.FILLERS.values():
        assert list(inspect.signature(f).parameters) == ["d", "r"]


def test_the_functions_give_dbw_system_reports_from_a_copied_state():
    """Filling a fresh ``DbwReports`` from a deep copy of the DBW gives what ``DbwSystem.reports`` gives,
    and leaves the copy as it was: the content depends on the view only."""
    sim = Simulation()
    sim.submit(ENABLE)
    for _ in range(150):
        sim.submit(ThrottleCmd(cmd_type=14, cmd=25.0, enable=True))
        sim.submit(SteeringCmd(cmd_type=2, cmd=90.0, enable=True))
        sim.step()
    want = sim.reports()
    view = copy.deepcopy(sim.dbw)
    before = pickle.dumps(view)
    got = DbwReports()
    got.gear_report_changes, got.system_report_changes = want.gear_report_changes, want.system_report_changes
    for f in dict.fromkeys(report_content.FILLERS.values()):
        f(view, got)
    for name in report_content.FILLERS:
        assert repr(getattr(got, name)) == repr(getattr(want, name)), name
    assert pickle.dumps(view) == before
