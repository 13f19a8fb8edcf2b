"""Import a script of ``tools/`` as a module (the tools are scripts, not a package)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load_tool(name: str):
    """The module ``tools/<name>.py``, loaded once and registered as ``sys.modules[name]`` (dataclasses
    look their module up there).

    Raises
    ------
    FileNotFoundError
        If there is no such tool.
    """
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
