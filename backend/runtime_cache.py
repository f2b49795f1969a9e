"""The runtime and its ODP compiled once per toolchain and flags, kept as a static library.

Every switch links the same runtime (runtime/core, runtime/tables) and, with the bundled
ODP, the same ODP sources; only datapath.c is the program's.  The library is cached under
$P4ODP_CACHE_DIR (default $XDG_CACHE_HOME/p4odp, ~/.cache/p4odp), keyed by everything that
goes into it: the compiler and its version, the flags, and the text of every source and
header (the runtime's, and those of the ODP and libraries it is built against).  A build that changes none of these reuses it; entries are published with an atomic
rename, so parallel builds share the cache safely.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = ["BuildFailure", "archiver_for", "cache_dir", "runtime_library"]

_HEADER_FOLDERS = ("include", "core", "tables", "odp", "odp/include")
_SYSTEM_INCLUDES = ("/usr/include", "/usr/local/include")


class BuildFailure(Exception):
    """A compiler command failed: the command and what it printed."""

    def __init__(self, command: list[str], output: str):
        super().__init__(output)
        self.command = command
        self.output = output


def cache_dir() -> Path:
    if os.environ.get("P4ODP_CACHE_DIR"):
        return Path(os.environ["P4ODP_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "p4odp"


def runtime_library(compiler: list[str], cflags: list[str], sources: list[str], runtime: Path) -> Path:
    """The static library of `sources` compiled with `compiler` and `cflags`, from the cache or
    built now.  Raises BuildFailure."""
    key = _key(compiler, cflags, sources, runtime)
    library = cache_dir() / key[:2] / f"libp4odp-runtime-{key}.a"
    if library.exists():
        return library
    library.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=library.parent, prefix=".build-") as work:
        objects = [str(Path(work) / f"{i}-{Path(source).stem}.o") for i, source in enumerate(sources)]
        commands = [[*compiler, *cflags, "-c", source, "-o", obj] for source, obj in zip(sources, objects)]
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda c: subprocess.run(c, capture_output=True, text=True), commands))
        for command, result in zip(commands, results):
            if result.returncode != 0:
                raise BuildFailure(command, result.stdout + result.stderr)
        archive = [archiver_for(compiler), "rcs", str(Path(work) / "lib.a"), *objects]
        result = subprocess.run(archive, capture_output=True, text=True)
        if result.returncode != 0:
            raise BuildFailure(archive, result.stdout + result.stderr)
        os.replace(Path(work) / "lib.a", library)
    return library


def archiver_for(compiler: list[str]) -> str:
    """`ar` of the compiler's toolchain: `aarch64-linux-gnu-gcc` -> `aarch64-linux-gnu-ar` when
    that exists, else the compiler's own `gcc-ar`/`llvm-ar`, else plain `ar`."""
    name = Path(compiler[0]).name
    for suffix, tool in (("gcc", "ar"), ("clang", "llvm-ar"), ("cc", "ar")):
        if name.endswith(suffix):
            prefixed = name[: -len(suffix)] + tool
            if shutil.which(prefixed):
                return prefixed
    return "ar"


def _key(compiler: list[str], cflags: list[str], sources: list[str], runtime: Path) -> str:
    digest = hashlib.sha256()
    version = subprocess.run([*compiler, "--version"], capture_output=True, text=True)
    machine = subprocess.run([*compiler, "-dumpmachine"], capture_output=True, text=True)
    for part in (compiler, cflags, [version.stdout, machine.stdout]):
        digest.update("\0".join(part).encode() + b"\1")
    files = [Path(s) for s in sources]
    for folder in _HEADER_FOLDERS:
        files += sorted((runtime / folder).rglob("*.h")) if folder == "odp/include" else \
            sorted((runtime / folder).glob("*.h"))
    # The headers of a system ODP or of DPDK inline code into the objects: a reinstall at
    # the same place must not reuse them.  The compiler's default folders are left out.
    for flag in cflags:
        folder = Path(flag[2:]) if flag.startswith("-I") else None
        if folder and folder.is_dir() and str(folder) not in _SYSTEM_INCLUDES and runtime not in folder.parents:
            files += sorted(folder.rglob("*.h"))
    for path in files:
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\1")
    return digest.hexdigest()[:32]
