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


def _generated_hashes(package: str) -> dict:
    """``{type name: RIHS01}`` of every type the installed package's type descriptions hold."""
    share = Path(get_package_share_directory(package))
    out = {}
    for f in sorted(share.glob("*/*.json")):
        if f.parent.name in ("msg", "srv"):
            for h in json.loads(f.read_text())["type_hashes"]:
                if h["type_name"].startswith(f"{package}/"):
                    out[h["type_name"]] = h["hash_string"]
    return out


@pytest.mark.parametrize("package", sorted(RECORD))
def test_the_built_package_has_the_upstream_type_hashes(package):
    want = RECORD[package]["type_hashes"]
    ours = sorted(f"{package}/{f.parent.name}/{f.stem}" for f in (INTERFACES_DIR / package).glob("*/*.*")
                  if f.suffix in (".msg", ".srv"))
    assert ours == sorted(t for t in want if not t.endswith(("_Request", "_Response", "_Event"))), \
        "the re-created package has other types than upstream"
    assert _generated_hashes(package) == want


@pytest.mark.parametrize("package", sorted(RECORD))
def test_the_pinned_commit_is_the_one_the_package_and_docs_name(package):
    pinned = RECORD[package]["commit"]
    assert pinned[:7] in (INTERFACES_DIR / package / "package.xml").read_text()
    docs = Path(__file__).parents[1] / "docs"
    assert pinned[:7] in (docs / "adapters.md").read_text() + (docs / "autoware.md").read_text()
