#!/usr/bin/env python3
"""Count the code lines of the parameter and validation modules (no blank lines, comments or docstrings).

Usage::

    python tools/count_code_lines.py                 # the parameter layer's modules, one line each and the total
    python tools/count_code_lines.py FILE [FILE...]  # any Python files

A line counts when it holds a token that is not a comment, a docstring (a string that is a whole statement)
or a line break. Exit 0.
"""
from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Every module whose job is reading, checking or describing parameters and their ranges.
PARAMETER_MODULES = ("acres_dbw_sim/model/params.py", "acres_dbw_sim/model/world.py", "acres_dbw_sim/model/parts.py",
                     "acres_dbw_sim/model/param_lines.py", "acres_dbw_sim/model/overrides.py",
                     "acres_dbw_sim/vehicles/polaris/params.py",
                     "acres_dbw_sim/vehicles/maxxum150/params.py", "acres_dbw_sim/dbw/params.py",
                     "acres_dbw_sim/scenario/schema.py", "acres_dbw_sim/scenario/validated.py",
                     "acres_dbw_sim/scenario/source.py",
                     "acres_dbw_sim/sweep/spec.py")


def code_lines(path: Path) -> int:
    """Lines of ``path`` that hold code (not blank, comment or docstring)."""
    text = path.read_text(encoding="utf-8")
    doc_lines = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            doc_lines.update(range(node.lineno, node.end_lineno + 1))
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                        tokenize.ENDMARKER):
            continue
        for n in range(tok.start[0], tok.end[0] + 1):
            if n not in doc_lines:
                lines.add(n)
    return len(lines)


def main(argv: list[str]) -> int:
    """Print the code lines of each file of ``argv`` (default: :data:`PARAMETER_MODULES`) and the total; 0."""
    files = [Path(a) for a in argv] or [ROOT / m for m in PARAMETER_MODULES]
    total = 0
    for f in files:
        n = code_lines(f)
        total += n
        print(f"{n:6d}  {f.relative_to(ROOT) if f.is_absolute() and ROOT in f.parents else f}")
    print(f"{total:6d}  total")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
