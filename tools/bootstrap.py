#!/usr/bin/env python3
"""Bootstrap steps of the project venv that pip alone cannot do.

The Makefile calls this script with the venv's Python; every step is idempotent
and either finishes or exits non-zero with a message that says what is missing
and how to fix it (the Makefile writes its stamp only after success, so a failed
step is never trusted by the next run).

Steps
-----
check-tools
    cmake, a C and a C++ compiler and make must be on PATH to build the interface
    packages. When one is missing and we are root on a Debian-like machine, they
    are installed with apt-get; otherwise the step fails with the command to run.
patch-cmake
    The ROS wheels install CMake export files that point at the include
    directories of the machine that built them (``/opt/python/cp311-cp311/...``).
    They are rewritten to this venv's Python and numpy include directories.
build-interfaces
    Builds and installs the interface packages under ``msg_adapters/interfaces``
    (``ds_dbw_msgs`` 2.3.11, ``dbw_polaris_msgs``, ``tf2_msgs``, ``ackermann_msgs`` 2.0.2,
    ``autoware_control_msgs`` and ``autoware_vehicle_msgs`` 1.12.0, ``tier4_vehicle_msgs``) into the venv
    prefix with the pip-installed rosidl and ament_cmake.
install-index
    Makes ``acres_dbw_sim`` findable the ROS way from the venv prefix: the ament
    index marker, ``share/acres_dbw_sim/{package.xml,launch,config,rviz}`` and the
    executables under ``lib/acres_dbw_sim``. The share tree is made of real
    directories with one link per file: ``ros2 launch`` finds a package's files
    with ``os.walk``, which does not enter a linked directory.
warm-kernels
    Runs a few physics steps so that numba compiles the model's kernels and
    caches them on disk: the first ``make run`` starts as fast as the second.
pip-install REQUIREMENTS...
    ``pip install -q -r`` each requirements file into the venv, with a line of
    progress every 20 s (pip's quiet mode is minutes of silence on a slow mirror);
    the ROS wheels and the Python requirements. Runs with the standard library only.
write-env
    Writes ``<prefix>/setup.sh``: one script that sets ``AMENT_PREFIX_PATH``,
    ``PYTHONPATH``, ``LD_LIBRARY_PATH`` and ``PATH`` so that any process (a shell,
    a test's subprocess) finds rclpy, the built interfaces and this package.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INTERFACES = ROOT / "msg_adapters" / "interfaces"
# Build order: a package may depend only on those before it.
INTERFACE_PACKAGES = ("tf2_msgs", "ds_dbw_msgs", "dbw_polaris_msgs", "ackermann_msgs", "autoware_control_msgs",
                      "autoware_vehicle_msgs", "tier4_vehicle_msgs")
PACKAGE = "acres_dbw_sim"
# Console entry points that ``ros2 run acres_dbw_sim <name>`` must find.
EXECUTABLES = ("sim_node", "demo_driver", "acres-sim", "acres-demo", "acres-scenario", "acres-replay",
               "acres-sweep", "acres-calibrate")
# What share/<pkg> holds (as setup.py's data_files): files and directories of ROOT.
SHARE_FILES = ("package.xml", "launch", "config", "rviz")
WHEEL_BUILD_PREFIX = "/opt/python/cp311-cp311"


class BootstrapError(RuntimeError):
    """A bootstrap step failed; the message says what to do."""


def _have(tool: str) -> bool:
    return shutil.which(tool) is not None


def check_tools() -> None:
    """Ensure cmake, cc, c++ and make exist; apt-get them as root if absent.

    Raises
    ------
    BootstrapError
        A tool is missing and cannot be installed here.
    """
    needed = {"cmake": "cmake", "cc": "gcc", "c++": "g++", "make": "make"}
    missing = [pkg for tool, pkg in needed.items() if not _have(tool)]
    if not missing:
        return
    hint = f"sudo apt-get install -y {' '.join(sorted(set(missing)))}"
    if os.geteuid() == 0 and _have("apt-get"):
        print(f"bootstrap: installing missing build tools: {' '.join(missing)}", flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in (["apt-get", "update", "-q"],
                    ["apt-get", "install", "-y", "-q", *sorted(set(missing))]):
            if subprocess.run(cmd, env=env).returncode != 0:
                raise BootstrapError(f"could not install {missing} with apt-get; run: {hint}")
        if all(_have(t) for t in needed):
            return
    raise BootstrapError(
        f"missing build tools {missing}: the interface packages ({', '.join(INTERFACE_PACKAGES)}) "
        f"are compiled with cmake and gcc. Install them, e.g.: {hint}")


def _include_dirs() -> tuple[str, str]:
    import numpy  # the venv's numpy, installed with the ROS wheels

    return sysconfig.get_paths()["include"], numpy.get_include()


def patch_cmake(prefix: Path) -> int:
    """Rewrite wheel-build include paths in ``<prefix>/share/**/*.cmake``.

    Returns
    -------
    int
        Number of files changed (0 on a second run).
    """
    py_inc, np_inc = _include_dirs()
    old_np = f"{WHEEL_BUILD_PREFIX}/lib/python3.11/site-packages/numpy/_core/include"
    old_py = f"{WHEEL_BUILD_PREFIX}/include/python3.11"
    changed = 0
    for path in (prefix / "share").rglob("*.cmake"):
        text = path.read_text(errors="surrogateescape")
        if WHEEL_BUILD_PREFIX not in text:
            continue
        text = text.replace(old_np, np_inc).replace(old_py, py_inc)
        if WHEEL_BUILD_PREFIX in text:
            raise BootstrapError(f"{path}: unknown wheel build path left after patching")
        path.write_text(text, errors="surrogateescape")
        changed += 1
    return changed


def build_interfaces(prefix: Path, build_root: Path, jobs: int) -> None:
    """Configure, build and install each interface package into ``prefix``.

    Raises
    ------
    BootstrapError
        CMake failed; the message names the package and the log file.
    """
    check_tools()
    for pkg in INTERFACE_PACKAGES:
        build_package(INTERFACES / pkg, build_root / pkg, prefix, jobs)


def build_package(src: Path, build: Path, prefix: Path, jobs: int, install: bool = True) -> None:
    """Configure and build the interface package in ``src`` (in ``build``, emptied first) with the
    rosidl and ament_cmake of ``prefix``, and install it there (``install``).

    Raises
    ------
    BootstrapError
        CMake failed; the message names the package and the log file.
    """
    env = dict(os.environ)
    env["AMENT_PREFIX_PATH"] = str(prefix)
    env["CMAKE_PREFIX_PATH"] = str(prefix)
    pkg = src.name
    if build.exists():
        shutil.rmtree(build)
    build.mkdir(parents=True)
    log = build / "build.log"
    steps = [
        ["cmake", "-S", str(src), "-B", str(build),
         f"-DCMAKE_INSTALL_PREFIX={prefix}", f"-DCMAKE_PREFIX_PATH={prefix}",
         f"-DPython3_EXECUTABLE={sys.executable}", "-DBUILD_TESTING=OFF"],
        ["cmake", "--build", str(build), "--", f"-j{jobs}"],
    ] + ([["cmake", "--install", str(build)]] if install else [])
    print(f"bootstrap: building {pkg} (log: {log})", flush=True)
    with log.open("w") as out:
        for cmd in steps:
            if _run_with_progress(cmd, out, env, log, pkg):
                tail = "".join(log.read_text(errors="replace").splitlines(True)[-25:])
                raise BootstrapError(f"building {pkg} failed at `{' '.join(cmd[:2])}`; "
                                     f"last lines of {log}:\n{tail}")


#: A line of progress at least this often while an interface builds [s] (the build is silent otherwise).
PROGRESS_PERIOD_S = 20.0


def _run_with_progress(cmd: list[str], out, env: dict, log: Path, pkg: str, what: str | None = None) -> int:
    """Run ``cmd`` with its output to ``out`` (the build log); every PROGRESS_PERIOD_S print how long it
    has run (as ``pkg: what``, default the command's first two words) and the build's last ``[ NN%]``
    from the log. Returns the exit status."""
    import re
    import time
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    while True:
        try:
            return proc.wait(timeout=PROGRESS_PERIOD_S)
        except subprocess.TimeoutExpired:
            out.flush()
            done = re.findall(r"^\[\s*(\d+)%\]", log.read_text(errors="replace"), flags=re.M)
            print(f"bootstrap:   {pkg}: {what if what is not None else ' '.join(cmd[:2])} running for "
                  f"{time.monotonic() - t0:.0f} s"
                  + (f", {done[-1]} % built" if done else ""), flush=True)


def _while_printing(label: str, fn):
    """Run ``fn()``; every PROGRESS_PERIOD_S until it returns print how long ``label`` has run. Returns
    ``fn()``'s value (its exception propagates)."""
    import threading
    import time
    t0 = time.monotonic()
    done = threading.Event()

    def tick() -> None:
        while not done.wait(PROGRESS_PERIOD_S):
            print(f"bootstrap:   {label}: running for {time.monotonic() - t0:.0f} s", flush=True)
    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        return fn()
    finally:
        done.set()
        ticker.join()


def pip_install(requirements: list[Path], log: Path) -> None:
    """``pip install -q -r`` the files into this venv, with progress lines; the output goes to ``log``.

    Raises
    ------
    BootstrapError
        If pip fails: the last lines of its output and what to do.
    """
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", "install", "-q"]
    for r in requirements:
        cmd += ["-r", str(r)]
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        rc = _run_with_progress(cmd, out, dict(os.environ), log, "pip install", "still")
    if rc:
        tail = "".join(ln for ln in log.read_text(errors="replace").splitlines(True)[-25:]
                       if not ln.startswith("WARNING: Location"))
        raise BootstrapError(f"pip could not install {', '.join(str(r) for r in requirements)} ({log}):\n{tail}\n"
                             "Check that PyPI is reachable (pip config list; proxy settings), then run make "
                             "again: it resumes where it stopped.")


def _symlink(target: Path, link: Path) -> None:
    if link.is_symlink() or link.is_file():
        link.unlink()
    elif link.is_dir():
        shutil.rmtree(link)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)


def install_share(share: Path) -> list[Path]:
    """Link every file of ``SHARE_FILES`` into ``share`` (real directories, one link per file).

    Files that disappeared from the source tree lose their link; a linked directory
    left by an older bootstrap is replaced by a real one.

    Returns
    -------
    list of Path
        The links, relative to ``share``.
    """
    share.mkdir(parents=True, exist_ok=True)
    made = []
    for name in SHARE_FILES:
        src = ROOT / name
        if src.is_file():
            _symlink(src, share / name)
            made.append(Path(name))
            continue
        dst = share / name
        if dst.is_symlink() or dst.is_file():
            dst.unlink()
        if dst.is_dir():  # drop links to files that are gone
            for old in dst.rglob("*"):
                if old.is_symlink() and not old.exists():
                    old.unlink()
        for path in sorted(src.rglob("*")) if src.is_dir() else ():
            if path.is_file() and "__pycache__" not in path.parts:
                rel = path.relative_to(ROOT)
                _symlink(path, share / rel)
                made.append(rel)
    return made


def install_index(prefix: Path) -> None:
    """Lay out the ament index entry, share files and ``lib/<pkg>`` executables."""
    marker = prefix / "share" / "ament_index" / "resource_index" / "packages" / PACKAGE
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text("")
    install_share(prefix / "share" / PACKAGE)
    libdir = prefix / "lib" / PACKAGE
    libdir.mkdir(parents=True, exist_ok=True)
    for exe in EXECUTABLES:
        # setup.cfg puts console scripts in lib/<pkg> (where `ros2 run` looks, as
        # colcon does); bin/<exe> links to them so that they are on the venv's PATH.
        in_lib, in_bin = libdir / exe, prefix / "bin" / exe
        if in_lib.exists() and not in_lib.is_symlink():
            _symlink(in_lib, in_bin)
        elif in_bin.exists() and not in_bin.is_symlink():
            _symlink(in_bin, in_lib)
        else:
            raise BootstrapError(f"{in_lib} is missing: the package install did not create "
                                 f"the console script `{exe}` (check setup.py)")


def write_env(prefix: Path) -> Path:
    """Write ``<prefix>/setup.sh`` (POSIX sh) and return its path."""
    site = Path(sysconfig.get_paths()["purelib"])
    libs = [str(prefix / "lib")] + sorted(str(p) for p in site.glob("ros_*.libs"))
    script = prefix / "setup.sh"
    script.write_text(
        "# Generated by tools/bootstrap.py: source it to use the project's ROS 2 venv.\n"
        f'export AMENT_PREFIX_PATH="{prefix}${{AMENT_PREFIX_PATH:+:$AMENT_PREFIX_PATH}}"\n'
        f'export PYTHONPATH="{site}${{PYTHONPATH:+:$PYTHONPATH}}"\n'
        f'export LD_LIBRARY_PATH="{":".join(libs)}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"\n'
        f'export PATH="{prefix / "bin"}:$PATH"\n'
        "export _ROS_WHEELS_BOOTSTRAP_COMPLETE=1\n"
        'export RMW_IMPLEMENTATION="${RMW_IMPLEMENTATION:-rmw_fastrtps_cpp}"\n')
    return script


def warm_kernels() -> float:
    """Step a simulation, with a command of each kind, so that numba compiles and caches the model's kernels
    and the DBW's compiled functions.

    Returns
    -------
    float
        Seconds it took (long the first time, short once the cache exists).
    """
    import time

    t0 = time.monotonic()
    sys.path.insert(0, str(ROOT))

    def compile_all() -> None:   # importing the model compiles kernels too
        from acres_dbw_sim.vehicles.polaris.params import load_parameters
        from acres_dbw_sim.model.terrain import FlatTerrain
        from acres_dbw_sim.simulation import Simulation
        from acres_dbw_sim.dbw import commands as C
        sim = Simulation(load_parameters(), FlatTerrain(), 1.0 / 120.0)
        for cmd in (C.ENABLE, C.SteeringCmd(cmd_type=2, cmd=10.0, enable=True), C.BrakeCmd(cmd_type=1, cmd=10.0),
                    C.ThrottleCmd(cmd_type=14, cmd=10.0), C.UlcCmd(cmd_type=1, cmd=1.0), C.GearCmd(cmd=4),
                    C.TurnSignalCmd(cmd=1), C.DriveModeCmd(), C.MiscCmd(), C.STEERING_CALIBRATE, C.DISABLE):
            sim.submit(cmd)   # the DBW's compiled command functions, compiled at their first use
            sim.step()
        sim.reports()
        # the scenario runner's compiled headless loop between timeline entries
        from acres_dbw_sim.scenario import load_scenario, run_scenario
        run_scenario(load_scenario(ROOT / "scenarios" / "examples" / "dbw_pedals_and_steering.yaml"))
        # the second vehicle's kernels (vehicles/maxxum150): its step through the DBW, its events, its row
        run_scenario(load_scenario(ROOT / "scenarios" / "examples" / "maxxum150_dbw.yaml"))
        # the kinematic level, through the DBW and at the actuator level (its one compiled tick)
        run_scenario(load_scenario(ROOT / "scenarios" / "examples" / "fleet_mixed_levels.yaml"))
    _while_printing("compiling the model kernels (numba, once)", compile_all)
    return time.monotonic() - t0


def main(argv: list[str] | None = None) -> int:
    """Run one bootstrap step named on the command line (the Makefile's rules); return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["check-tools", "patch-cmake", "build-interfaces",
                                         "install-index", "write-env", "warm-kernels", "pip-install"])
    parser.add_argument("requirements", nargs="*", type=Path, help="pip-install: requirements files")
    parser.add_argument("--prefix", type=Path, default=Path(sys.prefix))
    parser.add_argument("--build-dir", type=Path, default=ROOT / "_interfaces_build")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args(argv)
    prefix = args.prefix.resolve()
    try:
        if args.step == "check-tools":
            check_tools()
        elif args.step == "patch-cmake":
            print(f"bootstrap: patched {patch_cmake(prefix)} CMake export files", flush=True)
        elif args.step == "build-interfaces":
            build_interfaces(prefix, args.build_dir.resolve(), args.jobs)
        elif args.step == "install-index":
            install_index(prefix)
        elif args.step == "warm-kernels":
            print(f"bootstrap: model kernels compiled and cached ({warm_kernels():.1f} s)", flush=True)
        elif args.step == "pip-install":
            pip_install(args.requirements, args.build_dir / "pip-install.log")
        elif args.step == "write-env":
            print(f"bootstrap: wrote {write_env(prefix)}", flush=True)
    except BootstrapError as err:
        print(f"bootstrap: error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
