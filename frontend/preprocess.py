"""Run the C preprocessor over a P4 program, as p4c does.

Line markers are kept, so the lexer can place every token in the user's
file.  The project's own `core.p4` and `v1model.p4` (in `include/` beside
this module) are always on the include path, after the user's `-I` folders.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from importlib import resources

from p4odp.diagnostics import Diagnostics, Loc

__all__ = ["preprocess", "architecture_include_dir"]


def architecture_include_dir() -> str:
    return str(resources.files("p4odp.frontend") / "include")


def preprocess(path: str, include_dirs: list[str], defines: list[str], undefines: list[str],
               diags: Diagnostics) -> str | None:
    """The preprocessed text of `path`, or None after reporting why not."""
    if not os.path.isfile(path):
        diags.error(Loc(path, 0, 0), "no such file")
        return None
    cpp = os.environ.get("CPP") or shutil.which("cpp")
    if cpp is None:
        diags.error(Loc(path, 0, 0), "no C preprocessor found (install cpp, or set CPP)")
        return None
    command = [*cpp.split(), "-undef", "-nostdinc", "-x", "assembler-with-cpp"]
    command += [f"-D{d}" for d in defines] + [f"-U{u}" for u in undefines]
    command += [f"-I{d}" for d in include_dirs] + [f"-I{architecture_include_dir()}", path]
    result = subprocess.run(command, capture_output=True, text=True, errors="replace")
    if result.returncode != 0:
        for line in result.stderr.splitlines():
            _report_cpp_message(line, path, diags)
        if not diags.error_count:
            diags.error(Loc(path, 0, 0), "the C preprocessor failed")
        return None
    return result.stdout


def _report_cpp_message(line: str, path: str, diags: Diagnostics) -> None:
    """cpp prints `file:line:col: error: message`; keep the position."""
    parts = line.split(":", 4)
    if len(parts) == 5 and parts[1].strip().isdigit() and parts[3].strip() in ("error", "fatal error"):
        col = parts[2].strip()
        diags.error(Loc(parts[0], int(parts[1]), int(col) if col.isdigit() else 0), parts[4].strip())
    elif ": error:" in line or ": fatal error:" in line:
        diags.error(Loc(path, 0, 0), line.split("error:", 1)[1].strip())
