"""Every command block of README.md and docs/*.md runs as written; shown output matches.

The convention (docs/testing.md, "Command blocks in the documentation"):

* A fenced block tagged ``sh`` holds commands only; ``console`` holds commands after ``$ ``
  and, below each, the output it prints. Both run here, from a scratch folder that mirrors
  the repository (links to its files; what the commands write lands in the scratch folder),
  in this test's environment (``.venv/setup.sh`` sourced, the test's own DDS domain).
* A second word in the fence's info string says how the block runs:
  ``server`` - its last command starts a node that keeps running: it must come up (its
  topics appear) and stay up; it is then stopped with Ctrl-C. ``node`` - the block needs a
  running simulator node: the test starts ``sim_node`` in ``sim`` mode at 4x real time
  (clients use ``use_sim_time:=true``) and runs the block against it. ``ros`` - needs a full
  ROS 2 installation (``ros2``, ``colcon``): not run, but each ``ros2 run acres_dbw_sim EXE
  ARGS`` line must have its venv form ``EXE ARGS`` in a block of the same document that runs.
  ``norun`` - cannot run here (e.g. ``make test`` inside the test suite, data the reader
  records); the line before the fence must be an HTML comment giving the reason.
* Output under a ``console`` command: each shown line must appear in the real output, in
  order; a line ``...`` stands for any lines. Numbers must be equal, except on lines that
  report wall-clock figures (that say ``real time`` or ``wall``, and the rows of a table
  whose header has a ``wall`` column), where only the text around the numbers must match.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from helpers.processes import RosProcess

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN_LANGS = {"sh", "console"}
SHELL_LANGS = {"bash", "shell", "zsh", "shell-session"}   # not allowed: say sh or console
TAGS = {"", "server", "node", "ros", "norun"}
FENCE = re.compile(r"^```([\w-]*)[ \t]*(.*)$")
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?")
COMMAND_TIMEOUT_S = 180.0
SERVER_UP_TIMEOUT_S = 60.0


@dataclass
class Block:
    doc: str
    line: int
    lang: str
    tag: str
    text: list[str]
    before: str = ""
    commands: list[tuple[str, list[str]]] = field(default_factory=list)  # (command, shown output)

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def _parse(path: Path) -> list[Block]:
    blocks, lines = [], path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        before = lines[i - 1].strip() if i > 0 else ""
        b = Block(path.relative_to(ROOT).as_posix(), i + 1, m[1], m[2].strip(), lines[i + 1:j], before)
        if b.lang == "sh":
            b.commands = [(c, []) for c in _join(b.text)]
        elif b.lang == "console":
            for ln in b.text:
                if ln.startswith("$ "):
                    b.commands.append((ln[2:], []))
                elif b.commands and (ln.strip() or b.commands[-1][1]):
                    b.commands[-1][1].append(ln)
        blocks.append(b)
        i = j + 1
    return blocks


def _join(lines: list[str]) -> list[str]:
    """Commands of an ``sh`` block: ``\\`` continues a line; blank and comment lines dropped."""
    out, cur = [], ""
    for ln in lines:
        if not cur and (not ln.strip() or ln.lstrip().startswith("#")):
            continue
        cur += ln[:-1] + " " if ln.endswith("\\") else ln
        if not ln.endswith("\\"):
            out.append(cur.strip())
            cur = ""
    return out


BLOCKS = [b for d in DOCS for b in _parse(d)]
RUN_BLOCKS = [b for b in BLOCKS if b.lang in RUN_LANGS and b.tag not in ("ros", "norun")]
#: A block that starts or talks to a node (its commands create DDS participants): marked ``dds``.
DDS_COMMAND = re.compile(r"\b(sim_node|demo_driver|acres-sim|acres-demo|ulc_drive\.py|watch\.py|ros\.py)\b|--live\b")


def _param(block: Block):
    """``block`` as a test parameter, marked ``dds`` when it starts or needs a node."""
    dds = block.tag in ("server", "node") or any(DDS_COMMAND.search(c) for c, _ in block.commands)
    return pytest.param(block, id=block.id, marks=[pytest.mark.dds] if dds else [])


# --------------------------------------------------------------------------- the convention


def test_blocks_follow_the_convention():
    bad = []
    for b in BLOCKS:
        if b.lang in SHELL_LANGS:
            bad.append(f"{b.id}: fence '{b.lang}': use 'sh' (commands) or 'console' ($ command + output)")
        if b.lang in RUN_LANGS and b.tag not in TAGS:
            bad.append(f"{b.id}: unknown tag '{b.tag}' (one of {sorted(TAGS - {''})})")
        if b.lang in RUN_LANGS and not b.commands:
            bad.append(f"{b.id}: no command in the block")
        if b.tag == "norun" and not re.match(r"<!--.+-->", b.before):
            bad.append(f"{b.id}: a norun block needs the reason in an HTML comment on the line before")
        if b.lang == "console" and any(not ln.startswith("$ ") for ln in b.text[:1]):
            bad.append(f"{b.id}: a console block starts with a '$ ' command")
    assert not bad, "\n".join(bad)
    assert len(RUN_BLOCKS) >= 8, "most command blocks must run"


@pytest.mark.parametrize("doc", sorted({b.doc for b in BLOCKS}))
def test_ros2_run_lines_have_their_venv_form(doc):
    runnable = [" ".join(c.split()) for b in RUN_BLOCKS if b.doc == doc for c, _ in b.commands]
    missing = []
    for b in BLOCKS:
        if b.doc != doc or b.lang not in RUN_LANGS:
            continue
        for c, _ in b.commands:
            code = re.split(r"\s#", c, maxsplit=1)[0]      # a comment may name the ros2 form
            for m in re.finditer(r"ros2 run acres_dbw_sim (\S+)([^&]*)", code):
                venv = " ".join(f"{m[1]} {m[2]}".split())
                if not any(r.startswith(venv) for r in runnable):
                    missing.append(f"{b.id}: '{m[0].strip()}' has no runnable '{venv}' in {doc}")
    assert not missing, "\n".join(missing)


def _masked(shown: list[str]) -> list[bool]:
    """Per shown line: True where numbers are wall-clock figures (compared as text only)."""
    out, table = [], False
    for ln in shown:
        if ln.strip() == "..." or not ln.strip():
            table = table and ln.strip() == "..."
        if re.search(r"\bwall \[", ln):
            table = True
        out.append(table or "real time" in ln or re.search(r"\bwall\b", ln) is not None)
    return out


def _line_matches(shown: str, actual: str, masked: bool) -> bool:
    norm = lambda s: " ".join(s.split())   # noqa: E731
    if masked:
        return norm(NUMBER.sub("#", shown)) == norm(NUMBER.sub("#", actual))
    return norm(shown) == norm(actual)


def check_output(shown: list[str], actual: str) -> str | None:
    """None if every shown line appears in ``actual`` in order (``...`` skips), else why not."""
    lines = actual.splitlines()
    pos = 0
    for ln, masked in zip(shown, _masked(shown)):
        if ln.strip() == "..." or not ln.strip():
            continue
        k = next((k for k in range(pos, len(lines)) if _line_matches(ln, lines[k], masked)), None)
        if k is None:
            return f"shown line not in the output (after line {pos}): {ln!r}"
        pos = k + 1
    return None


def test_output_matching_rules():
    out = "run: 30 s simulated in 0.0513 s (590x real time)\n  top = 26.8962 ok\nwrote a.csv\n"
    assert check_output(["run: 30 s simulated in 0.0427 s (703x real time)", "...", "wrote a.csv"],
                        out) is None
    assert check_output(["  top = 26.8962 ok"], out) is None
    assert check_output(["  top = 26.9 ok"], out) is not None            # figures are compared
    assert check_output(["wrote a.csv", "  top = 26.8962 ok"], out) is not None  # order counts
    table = "name  sim [s]  wall [s]\n----\nx     5.15     0.02\n3 scenarios, 1.4 s wall\n"
    assert check_output(["name  sim [s]  wall [s]", "----", "x     5.15     0.01", "...",
                         "3 scenarios, 1.0 s wall"], table) is None


# --------------------------------------------------------------------------- running them


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A folder that mirrors the repository through links; commands write into it. The packages are not
    linked: ``python -m acres_dbw_sim...`` run there imports them from the repository, whose compiled kernels
    numba's cache holds (it keys a kernel on its source file's path as imported, so a package imported
    through a link compiles every kernel afresh: about 50 s a block)."""
    d = tmp_path_factory.mktemp("docs_scratch")
    for entry in ROOT.iterdir():
        if entry.name not in ("out", "scenario_out", "replay_out", "acres_dbw_sim", "msg_adapters"):
            (d / entry.name).symlink_to(entry)
    return d


def _bash(cmd: str, cwd: Path, timeout_s: float = COMMAND_TIMEOUT_S) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", cmd], cwd=cwd, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout_s,
                          stdin=subprocess.DEVNULL)


def _wait_for_node(proc: RosProcess, timeout_s: float) -> bool:
    """True once a DBW node publishes /vehicle/dbw_enabled in this domain (or, a
    process serving ``vehicles``, /<name>/vehicle/dbw_enabled)."""
    import rclpy

    from helpers.dds import DiscoveryTimeout, publishers_info, topic_names, wait_for_graph
    rclpy.init()
    probe = rclpy.create_node("docs_probe")
    try:
        wait_for_graph(probe, lambda: not proc.alive() or any(
            t.endswith("/vehicle/dbw_enabled") and publishers_info(probe, t) for t in topic_names(probe)),
            timeout_s, what="a publisher of */vehicle/dbw_enabled", proc=proc)
        return proc.alive()
    except DiscoveryTimeout:
        return False
    finally:
        probe.destroy_node()
        rclpy.try_shutdown()


def _start(cmd: str, cwd: Path, log: Path) -> RosProcess:
    """``bash -c cmd`` in ``cwd``, in its own process group (stopped with SIGINT, then killed)."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return RosProcess(["bash", "-c", cmd], log)
    finally:
        os.chdir(old)


#: ``{doc: [(block id, {path of a file the block wrote})]}``, filled as the blocks run in order in the one
#: scratch folder (a reader follows a page top to bottom in one folder).
WRITTEN: dict = {}


def _files(root: Path) -> dict:
    """``{path: mtime}`` of the files under ``root`` written there (not the repository's, which are links)."""
    out = {}
    for d, _dirs, files in os.walk(root):          # does not enter the links to the repository
        for f in files:
            p = Path(d) / f
            if not p.is_symlink():
                out[p] = p.stat().st_mtime_ns
    return out


@pytest.mark.parametrize("block", [_param(b) for b in RUN_BLOCKS])
def test_block_runs_as_written(block, scratch, tmp_path):
    before = _files(scratch)
    try:
        _run_block(block, scratch, tmp_path)
    finally:
        after = _files(scratch)
        WRITTEN.setdefault(block.doc, []).append(
            (block.id, {p for p, t in after.items() if before.get(p) != t}))


@pytest.mark.parametrize("doc", sorted({b.doc for b in RUN_BLOCKS}))
def test_a_page_followed_in_order_keeps_what_its_blocks_wrote(doc):
    """After every block of ``doc`` ran in order in one folder, what each wrote is still there: a later
    block does not remove an earlier one's outputs (a batch run's --out once deleted the quick start's plot)."""
    ran = WRITTEN.get(doc)
    if not ran:
        pytest.skip(f"no block of {doc} ran in this session")
    gone = [f"{bid} wrote {p.name} ({p}), gone by the end" for bid, files in ran for p in sorted(files)
            if not p.exists()]
    assert not gone, "\n".join(gone)


def _run_block(block, scratch: Path, tmp_path: Path) -> None:
    commands = block.commands
    node = None
    try:
        if block.tag == "node":
            node = _start("exec sim_node --ros-args -p time_mode:=sim -p rate_factor:=4.0", scratch,
                          tmp_path / "node.log")
            assert _wait_for_node(node, SERVER_UP_TIMEOUT_S), node.output()
        if block.tag == "server":
            commands = commands[:-1]
        if block.lang == "sh" and commands:
            script = "\n".join(c for c, _ in commands)
            r = _bash(script, scratch)
            assert r.returncode == 0, f"{block.id}: exit status {r.returncode}\n{script}\n{r.stdout}"
        elif block.lang == "console":
            for cmd, shown in commands:
                r = _bash(cmd, scratch)
                assert r.returncode == 0, f"{block.id}: '{cmd}': exit status {r.returncode}\n{r.stdout}"
                why = check_output(shown, r.stdout)
                assert why is None, f"{block.id}: '{cmd}': {why}\n--- real output:\n{r.stdout}"
        if block.tag == "server":
            server_cmd = block.commands[-1][0]
            setup = "; ".join(c for c, _ in block.commands[:-1] if c.startswith(". "))
            srv = _start(f"{setup + ' && ' if setup else ''}exec {server_cmd}", scratch,
                         tmp_path / "server.log")
            try:
                up = _wait_for_node(srv, SERVER_UP_TIMEOUT_S)
                assert up and srv.alive(), f"{block.id}: '{server_cmd}' did not come up\n{srv.output()}"
            finally:
                srv.stop()
    finally:
        if node is not None:
            node.stop()


# --------------------------------------------------------------------------- model figures


def test_model_doc_figures_equal_the_data():
    """docs/model.md's "Reference figures" table lists every figure of the data, same values."""
    figures = yaml.safe_load((ROOT / "test" / "data" / "ranger_reference_figures.yaml").read_text())
    text = (ROOT / "docs" / "model.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", text, flags=re.M))
    assert set(figures) <= set(rows), set(figures) - set(rows)
    for name, fig in figures.items():
        values = fig["value"] if isinstance(fig["value"], list) else [fig["value"]]
        shown = [float(x.replace(",", "")) for x in NUMBER.findall(rows[name])]
        assert shown[:len(values)] == [float(v) for v in values], (name, rows[name])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def test_model_doc_parameter_keys_exist():
    """Every parameter key docs/model.md names is a key of config/polaris.json."""
    import fnmatch
    import json

    def flatten(node, prefix=""):
        if isinstance(node, dict) and "value" in node:
            yield prefix
        elif isinstance(node, dict):
            for k, v in node.items():
                yield from flatten(v, f"{prefix}.{k}" if prefix else k)

    from acres_dbw_sim.model.params import assembled_tree  # the Ranger's file with the world and the DBW kit
    from acres_dbw_sim.vehicles.polaris.params import default_config_path
    keys = list(flatten(assembled_tree(default_config_path())))
    sections = {k.split(".")[0] for k in keys}
    text = (ROOT / "docs" / "model.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:%s)\.[\w.<>*\[\]]+)`" % "|".join(sorted(sections)), text))
    assert len(named) > 60, "the model page names the parameters it uses"
    missing = []
    for key in sorted(named):
        pattern = re.sub(r"\[\d+\]$", "", key).replace("<name>", "*")
        if not fnmatch.filter(keys, pattern):
            missing.append(key)
    assert not missing, f"docs/model.md names keys that config/polaris.json lacks: {missing}"


def test_readme_and_docs_carry_no_history_words():
    """The README and docs describe what is, not how it came to be: no "issue N", "round N" or "before the
    refactor" (dated measurements live in docs/performance.md with their commits)."""
    history = re.compile(r"\b[Ii]ssue \d|(?<![gG])\bround \d|before the refactor")
    found = [f"{p.name}:{i}: {line.strip()[:80]}" for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if history.search(line)]
    assert found == []
