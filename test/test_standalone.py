"""The repository stands alone: no file reads, runs or cites a path outside it.

A clone of the repository, with nothing beside it, must run its tests and its documented
commands. So no tracked text file may name the development machine's folders or a folder
beside the clone, and every relative link of the Markdown documents must lead to a file of
the repository.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".json", ".txt", ".cfg", ".toml", ".xml", ".sh",
                 ".msg", ".srv", ".csv", ""}
# Written in pieces so that this file does not match itself.
OUTSIDE = re.compile("|".join([
    r"/wo" + r"rk/",                   # the development machine's work folder
    r"\.\./sha" + r"red",               # a folder beside the clone
    r"sha" + r"red/reference",          # the project's reference folder, wherever it is
    r"/ho" + r"me/", r"/roo" + r"t/",    # a user's home
]))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                             timeout=30).stdout.decode()
        files = [ROOT / f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):   # an exported tree without git
        files = [p for p in ROOT.rglob("*") if p.is_file()
                 and not any(part.startswith(".") or part in ("build", "install", "log")
                             for part in p.relative_to(ROOT).parts)]
    return [f for f in files if f.is_file() and f.suffix in TEXT_SUFFIXES]


def test_no_path_outside_the_repository():
    files = _tracked_files()
    assert len(files) > 50, "the file list is suspiciously short"
    hits = []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "paths outside the repository:\n" + "\n".join(hits)


def test_the_guard_catches_what_it_looks_for():
    for bad in ["/wo" + "rk/shared/x.json", "../sha" + "red/reference/a.md",
                "Path(__file__).parents[2] / 'sha" + "red/reference'"]:
        assert OUTSIDE.search(bad), bad
    assert not OUTSIDE.search("test/data/ds_dbw_msgs_2.3.11.yaml, one core of a shared machine")


@pytest.mark.parametrize("doc", sorted(p.relative_to(ROOT).as_posix() for p in
                                       [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]))
def test_markdown_links_lead_into_the_repository(doc):
    path = ROOT / doc
    bad = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):      # http:, https:, mailto:
            continue
        resolved = (path.parent / target).resolve()
        if ROOT not in resolved.parents and resolved != ROOT or not resolved.exists():
            bad.append(target)
    assert not bad, f"{doc}: links that do not lead to a file of the repository: {bad}"
