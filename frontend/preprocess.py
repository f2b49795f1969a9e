"""Run the C preprocessor over a P4 program, as p4c does.

Line markers are kept, so the lexer can place every token in the user's
file.  The project's own architecture files (in `include/` beside this
module: `core.p4`, `v1model.p4`, `psa.p4`, `pna.p4`, and the names p4c's
programs include them by, `bmv2/psa.p4`, `dpdk/psa.p4`, `dpdk/pna.p4`) are
always on the include path, after the user's `-I` folders.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from importlib import resources

from p4odp.diagnostics import Diagnostics, Loc

__all__ = ["preprocess", "preprocess_source", "architecture_include_dir"]


def architecture_include_dir() -> str:
    return str(resources.files("p4odp.frontend") / "include")


def preprocess(path: str, include_dirs: list[str], defines: list[str], undefines: list[str],
               diags: Diagnostics) -> str | None:
    """The preprocessed text of `path`, or None after reporting why not."""
    if not os.path.isfile(path):
        diags.error(Loc(path, 0, 0), "no such file")
        return None
    return _run_cpp(path, None, include_dirs, defines, undefines, diags)


def preprocess_source(source: str, name: str, diags: Diagnostics) -> str | None:
    """The preprocessed text of `source`, a program of p4odp's own (its errors are placed in `name`)."""
    return _run_cpp(name, source, [], [], [], diags)


def _run_cpp(path: str, source: str | None, include_dirs: list[str], defines: list[str], undefines: list[str],
             diags: Diagnostics) -> str | None:
    cpp = os.environ.get("CPP") or shutil.which("cpp")
    if cpp is None:
        diags.error(Loc(path, 0, 0), "no C preprocessor found (install cpp, or set CPP)")
        return None
    command = [*cpp.split(), "-undef", "-nostdinc", "-x", "assembler-with-cpp"]
    command += [f"-D{d}" for d in defines] + [f"-U{u}" for u in undefines]
    command += [f"-I{d}" for d in include_dirs] + [f"-I{architecture_include_dir()}", path if source is None else "-"]
    result = subprocess.run(command, input=source, capture_output=True, text=True, errors="replace")
    if result.returncode != 0:
        for line in result.stderr.splitlines():
            _report_cpp_message(line, path, diags)
        if not diags.error_count:
            diags.error(Loc(path, 0, 0), "the C preprocessor failed")
        return None
    return result.stdout


# cpp's errors: `file:line:col: error: message`, or without the column (an unterminated #ifdef:
# the directive's line, whose start its caret shows).
_CPP_ERROR = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<message>.*)$")


def _report_cpp_message(line: str, path: str, diags: Diagnostics) -> None:
    """A line of cpp's output as a diagnostic, its position kept."""
    found = _CPP_ERROR.match(line)
    if found:
        diags.error(Loc(found["file"], int(found["line"]), int(found["col"] or 1)), found["message"].strip())
    elif ": error:" in line or ": fatal error:" in line:
        diags.error(Loc(path, 0, 0), line.split("error:", 1)[1].strip())
