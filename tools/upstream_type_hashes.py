#!/usr/bin/env python3
"""Record the type hashes (RIHS01) of interface packages from their upstream sources at a pinned commit.

Usage::

    . .venv/setup.sh
    python tools/upstream_type_hashes.py                        # clones each upstream repository
    python tools/upstream_type_hashes.py --git ackermann_msgs=DIR  # or reads a local clone of its repository

The project re-creates interface packages that PyPI lacks (``msg_adapters/interfaces/``). Their
type hashes must equal those of the upstream definitions, or a node of a full ROS installation
would not talk to ours. This script takes the upstream package's interface files (``msg/``,
``srv/``) at the pinned commit (:data:`UPSTREAM`), builds them with the venv's rosidl
(``tools/bootstrap.py``'s ``build_package``, not installed) under this project's CMakeLists of the
package (upstream's use ament_cmake_auto, which the ROS wheels lack; a type hash depends only on
the interface files and the types they use), and writes every type's RIHS01 hash that rosidl
generated into ``test/data/upstream_type_hashes.json``; ``test/test_interface_hashes.py`` compares the installed
packages with that file. Exit 0, 1 when a step fails, 2 for a bad argument.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "test" / "data" / "upstream_type_hashes.json"
#: package -> (repository, commit, the package's folder in it): the pinned upstream definitions.
UPSTREAM = {
    "ackermann_msgs": ("https://github.com/ros-drivers/ackermann_msgs.git",
                       "f61ddd8978bc1604b8beab958bb057ed344225d0", "."),
    # autoware_msgs 1.12.0, the version Autoware 1.8.0 pins (its repositories/autoware.repos)
    "autoware_control_msgs": ("https://github.com/autowarefoundation/autoware_msgs.git",
                              "7025d8f7df0ead43037d86f8a4ffda8b397d0293", "autoware_control_msgs"),
    "autoware_vehicle_msgs": ("https://github.com/autowarefoundation/autoware_msgs.git",
                              "7025d8f7df0ead43037d86f8a4ffda8b397d0293", "autoware_vehicle_msgs"),
    # tier4_autoware_msgs: the package's files, unchanged there since May 2023
    "tier4_vehicle_msgs": ("https://github.com/tier4/tier4_autoware_msgs.git",
                           "cf6771745c27edd577b836765966cd571dc185a0", "tier4_vehicle_msgs"),
}
#: This project's re-created packages, whose build files wrap the upstream interface files.
INTERFACES = ROOT / "msg_adapters" / "interfaces"


def upstream_files(package: str, git_dir: str | None, tmp: Path) -> Path:
    """The upstream package's interface files (``msg/``, ``srv/``) at its pinned commit, with this
    project's ``CMakeLists.txt`` and ``package.xml`` of the package, in ``tmp/<package>`` (the
    repository cloned unless ``git_dir`` is a local clone of it).

    Raises
    ------
    subprocess.CalledProcessError
        If git cannot clone or read the commit.
    """
    url, commit, folder = UPSTREAM[package]
    if git_dir is None:
        git_dir = str(tmp / "clone")
        subprocess.run(["git", "clone", "-q", "--no-checkout", url, git_dir], check=True)
    extracted = tmp / "upstream"
    extracted.mkdir()
    archive = subprocess.run(["git", "-C", git_dir, "archive", "--format=tar", commit, folder],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(extracted)], input=archive, check=True)
    dest = tmp / package
    dest.mkdir()
    for sub in ("msg", "srv"):
        if (extracted / folder / sub).is_dir():
            shutil.copytree(extracted / folder / sub, dest / sub)
    for name in ("CMakeLists.txt", "package.xml"):
        shutil.copy(INTERFACES / package / name, dest / name)
    return dest


def type_hashes(build: Path, package: str) -> dict:
    """``{"pkg/msg/Name": "RIHS01_..."}`` of every type rosidl described in the build tree ``build``."""
    out = {}
    for f in sorted((build / "rosidl_generator_type_description" / package).rglob("*.json")):
        for h in json.loads(f.read_text())["type_hashes"]:
            if h["type_name"].startswith(f"{package}/"):
                out[h["type_name"]] = h["hash_string"]
    return out


def main(argv: list | None = None) -> int:
    """Build each pinned upstream package and write the hashes; 0, 1 on a failed step, 2 on a bad argument."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--git", action="append", default=[], metavar="PACKAGE=DIR",
                    help="read PACKAGE's upstream files from this local clone instead of cloning")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    local = {}
    for item in args.git:
        name, _, path = item.partition("=")
        if name not in UPSTREAM or not path:
            ap.error(f"--git {item!r}: expected PACKAGE=DIR with PACKAGE one of {', '.join(UPSTREAM)}")
        local[name] = path
    sys.path.insert(0, str(ROOT / "tools"))
    import bootstrap

    record = {}
    try:
        for package, (url, commit, _folder) in UPSTREAM.items():
            with tempfile.TemporaryDirectory() as tmp:
                src = upstream_files(package, local.get(package), Path(tmp))
                build = Path(tmp) / "build"
                bootstrap.build_package(src, build, Path(sys.prefix), 2, install=False)
                hashes = type_hashes(build, package)
            if not hashes:
                print(f"upstream_type_hashes: {package}: rosidl described no type", file=sys.stderr)
                return 1
            record[package] = {"repository": url, "commit": commit, "type_hashes": hashes}
    except (subprocess.CalledProcessError, bootstrap.BootstrapError) as exc:
        print(f"upstream_type_hashes: {exc}", file=sys.stderr)
        return 1
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"{args.out}: " + "; ".join(f"{p} {len(r['type_hashes'])} types at {r['commit'][:7]}"
                                        for p, r in record.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
