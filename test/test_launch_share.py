"""The installed share tree is what ``ros2 launch acres_dbw_sim sim.launch.py`` needs
(issue 13 item 1), checked without launch_ros: ros2launch resolves a file name
inside a package by ``os.walk`` over the package's share directory, which does
not enter linked directories, and wants exactly one match."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ament_index_python.packages import get_package_share_directory

from helpers.tools import load_tool

ROOT = Path(__file__).resolve().parents[1]
bootstrap = load_tool("bootstrap")


def find_like_ros2launch(share: str, file_name: str) -> list[str]:
    """``ros2launch.api.get_share_file_path_from_package``'s search: os.walk, no links followed."""
    return [os.path.join(root, file_name) for root, _dirs, files in os.walk(share)
            if file_name in files]


@pytest.mark.parametrize("file_name", ["sim.launch.py", "vehicles.launch.py", "sim.yaml",
                                       "polaris.json", "ranger.rviz"])
def test_installed_share_files_resolve_by_package_name(file_name):
    share = get_package_share_directory("acres_dbw_sim")
    found = find_like_ros2launch(share, file_name)
    assert len(found) == 1, f"{file_name} found {len(found)} times under {share}"
    assert Path(found[0]).read_bytes() == next(ROOT.rglob(file_name)).read_bytes()


def test_install_share_makes_real_directories_with_file_links(tmp_path):
    share = tmp_path / "share" / "acres_dbw_sim"
    (share / "launch").parent.mkdir(parents=True)
    (share / "launch").symlink_to(ROOT / "launch")     # what the old bootstrap left
    made = bootstrap.install_share(share)
    assert Path("launch/sim.launch.py") in made
    assert not (share / "launch").is_symlink() and (share / "launch").is_dir()
    assert find_like_ros2launch(str(share), "sim.launch.py") == [str(share / "launch" / "sim.launch.py")]
    bootstrap.install_share(share)                     # idempotent
    assert len(find_like_ros2launch(str(share), "sim.launch.py")) == 1


def test_setup_py_installs_the_same_share_directories():
    text = (ROOT / "setup.py").read_text()
    for name in bootstrap.SHARE_FILES:
        if (ROOT / name).is_dir():
            assert f"share/{{PACKAGE}}/{name}" in text, name
