"""tools/bootstrap.py: what a fresh or broken machine meets (issue 2, "bad environment")."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from helpers.tools import load_tool

ROOT = Path(__file__).resolve().parents[1]
bootstrap = load_tool("bootstrap")


def test_missing_compiler_is_named_with_the_command_to_install_it(monkeypatch):
    monkeypatch.setattr(bootstrap.shutil, "which", lambda tool: None if tool in ("cmake", "c++") else "/usr/bin/" + tool)
    monkeypatch.setattr(bootstrap.os, "geteuid", lambda: 1000)   # not root: no apt-get attempt
    with pytest.raises(bootstrap.BootstrapError) as err:
        bootstrap.check_tools()
    text = str(err.value)
    assert "cmake" in text and "g++" in text
    assert "apt-get install -y cmake g++" in text


def test_patch_cmake_rewrites_wheel_build_paths_once(tmp_path):
    cfg = tmp_path / "share" / "std_msgs" / "cmake" / "export.cmake"
    cfg.parent.mkdir(parents=True)
    cfg.write_text('INTERFACE_INCLUDE_DIRECTORIES "/opt/python/cp311-cp311/include/python3.11;'
                   '/opt/python/cp311-cp311/lib/python3.11/site-packages/numpy/_core/include"\n')
    assert bootstrap.patch_cmake(tmp_path) == 1
    text = cfg.read_text()
    py_inc, np_inc = bootstrap._include_dirs()
    assert "/opt/python" not in text and py_inc in text and np_inc in text
    assert bootstrap.patch_cmake(tmp_path) == 0      # idempotent


def test_patch_cmake_refuses_an_unknown_wheel_path(tmp_path):
    cfg = tmp_path / "share" / "x" / "x.cmake"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("/opt/python/cp311-cp311/somewhere/else\n")
    with pytest.raises(bootstrap.BootstrapError, match="unknown wheel build path"):
        bootstrap.patch_cmake(tmp_path)


def test_env_script_sets_the_ros_variables(tmp_path):
    script = bootstrap.write_env(tmp_path)
    out = subprocess.run(["bash", "-c", f". {script} && echo $AMENT_PREFIX_PATH && echo $LD_LIBRARY_PATH"
                          " && echo $PYTHONPATH"], capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin"}).stdout.splitlines()
    assert out[0] == str(tmp_path)
    assert out[1].split(":")[0] == str(tmp_path / "lib")
    assert out[2].endswith("site-packages")


def test_install_index_reports_a_missing_console_script(tmp_path):
    (tmp_path / "bin").mkdir()
    with pytest.raises(bootstrap.BootstrapError, match="sim_node"):
        bootstrap.install_index(tmp_path)


def test_a_long_build_step_prints_its_progress(monkeypatch, tmp_path, capsys):
    """The interface build is minutes of silence otherwise: a line every PROGRESS_PERIOD_S with the time so far
    and the build's last percentage from its log; the exit status is the command's."""
    monkeypatch.setattr(bootstrap, "PROGRESS_PERIOD_S", 0.3)
    log = tmp_path / "build.log"
    with log.open("w") as out:
        rc = bootstrap._run_with_progress(
            ["sh", "-c", "echo '[ 10%] Building C object'; sleep 0.5; echo '[ 55%] Linking'; sleep 0.6; exit 3"],
            out, dict(__import__("os").environ), log, "ds_dbw_msgs")
    assert rc == 3
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("bootstrap:   ds_dbw_msgs: sh -c")]
    assert len(lines) >= 2 and "running for" in lines[0]
    assert lines[-1].endswith("55 % built"), lines


def test_the_kernel_compile_and_pip_print_their_progress(monkeypatch, tmp_path, capsys):
    """The kernels' first compile and the Python requirements are tens of seconds each: a line every
    PROGRESS_PERIOD_S. A pip failure says what failed and what to do."""
    import time
    monkeypatch.setattr(bootstrap, "PROGRESS_PERIOD_S", 0.2)
    assert bootstrap._while_printing("compiling the model kernels (numba, once)",
                                     lambda: time.sleep(0.7) or 42) == 42
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "compiling the model kernels" in ln]
    assert len(lines) >= 2 and "running for" in lines[0], lines
    with pytest.raises(bootstrap.BootstrapError, match="pip could not install .*no-such-requirements.txt"):
        bootstrap.pip_install([tmp_path / "no-such-requirements.txt"], tmp_path / "pip.log")
