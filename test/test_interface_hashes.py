"""The interface packages re-created here hash as their upstream definitions do.

``test/data/upstream_type_hashes.json`` holds the RIHS01 type hashes that rosidl generates from each
upstream package's own files at its pinned commit (``tools/upstream_type_hashes.py``). The
packages the bootstrap built from ``msg_adapters/interfaces/`` must have the same hashes: a node of
a full ROS installation, with the real package, then talks to ours.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_share_directory

from msg_adapters.bag.store import INTERFACES_DIR

RECORD = json.loads((Path(__file__).parent / "data" / "upstream_type_hashes.json").read_text())


@pytest.mark.parametrize("package", sorted(RECORD))
def test_the_built_package_has_the_upstream_type_hashes(package):
    want = RECORD[package]["type_hashes"]
    ours = sorted(f"{package}/msg/{f.stem}" for f in (INTERFACES_DIR / package / "msg").glob("*.msg"))
    assert ours == sorted(want), "the re-created package has other types than upstream"
    share = Path(get_package_share_directory(package)) / "msg"
    for type_name, rihs01 in want.items():
        generated = json.loads((share / f"{type_name.rsplit('/', 1)[1]}.json").read_text())
        got = next(h["hash_string"] for h in generated["type_hashes"] if h["type_name"] == type_name)
        assert got == rihs01, type_name


def test_the_pinned_commit_is_the_one_the_package_and_docs_name():
    pinned = RECORD["ackermann_msgs"]["commit"]
    assert pinned[:7] in (INTERFACES_DIR / "ackermann_msgs" / "package.xml").read_text()
    assert pinned[:7] in (Path(__file__).parents[1] / "docs" / "adapters.md").read_text()
