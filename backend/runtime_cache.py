"""The runtime and its ODP compiled once per toolchain and flags, kept as a static library.

Every switch links the same runtime (runtime/core, runtime/tables) and, with the bundled
ODP, the same ODP sources; only datapath.c is the program's.  The library is cached under
$P4ODP_CACHE_DIR (default $XDG_CACHE_HOME/p4odp, ~/.cache/p4odp), keyed by everything that
goes into it: the compiler and its version, the flags, and the text of every source and
header (the runtime's, and those of the ODP and libraries it is built against).  A build
that changes none of these reuses it; entries are published with an atomic rename, so
parallel builds share the cache safely.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional

__all__ = ["BuildFailure", "archiver_for", "cache_dir", "cache_folder", "runtime_library"]

_HEADER_FOLDERS = ("include", "core", "tables", "odp", "odp/include")
_SYSTEM_INCLUDES = ("/usr/include", "/usr/local/include")


class BuildFailure(Exception):
    """A compiler command failed: the command and what it printed."""

    def __init__(self, command: list[str], output: str):
        super().__init__(output)
        self.command = command
        self.output = output


def cache_dir() -> Optional[Path]:
    """$P4ODP_CACHE_DIR, else $XDG_CACHE_HOME/p4odp, else ~/.cache/p4odp; None when there is no
    home folder to put it in (no HOME and no password entry)."""
    if os.environ.get("P4ODP_CACHE_DIR"):
        return Path(os.environ["P4ODP_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "p4odp"
    home = os.path.expanduser("~")
    return Path(home) / ".cache" / "p4odp" if os.path.isabs(home) else None


def runtime_library(compiler: list[str], cflags: list[str], sources: list[str], runtime: Path,
                    private: Path) -> Path:
    """The static library of `sources` compiled with `compiler` and `cflags`, from the cache or
    built now.  It is built in `private` (and not shared) when the cache folder cannot be
    written, or when a source or header changed while it was being compiled (its objects
    then match no key).  Raises BuildFailure."""
    key = build_key(compiler, cflags, sources, runtime)
    name = f"libp4odp-runtime-{key}.a"
    shared = cache_folder(key[:2])
    if shared is not None and (shared / name).exists():
        return shared / name
    with tempfile.TemporaryDirectory(dir=shared or private, prefix=".build-") as work:
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
        library = shared / name if shared is not None and build_key(compiler, cflags, sources, runtime) == key \
            else private / "libp4odp-runtime.a"
        os.replace(Path(work) / "lib.a", library)
    return library


def cache_folder(name: str) -> Optional[Path]:
    """cache_dir()/name, created; None without a cache folder or when it cannot be created or
    written (a caller then builds in a scratch folder of its own)."""
    cache = cache_dir()
    if cache is None:
        return None
    folder = cache / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK | os.X_OK) else None


def archiver_for(compiler: list[str]) -> str:
    """$AR, else the `ar` of the compiler's toolchain: `aarch64-linux-gnu-gcc` (also behind a
    launcher such as ccache) -> `aarch64-linux-gnu-ar` when that exists, else plain `ar`."""
    if os.environ.get("AR"):
        return os.environ["AR"]
    for word in compiler:
        name = Path(word).name
        for suffix, tool in (("gcc", "ar"), ("clang", "llvm-ar"), ("cc", "ar")):
            if name.endswith(suffix):
                prefixed = name[: -len(suffix)] + tool
                return prefixed if shutil.which(prefixed) else "ar"
    return "ar"


@functools.lru_cache(maxsize=None)
def compiler_identity(compiler: tuple) -> tuple[str, str]:
    """The compiler's `--version` text and the machine it compiles for (`-dumpmachine`)."""
    version = subprocess.run([*compiler, "--version"], capture_output=True, text=True)
    machine = subprocess.run([*compiler, "-dumpmachine"], capture_output=True, text=True)
    return version.stdout, machine.stdout


def build_key(compiler: list[str], cflags: list[str], sources: list[str], runtime: Path) -> str:
    """What identifies a build of `sources` with `compiler` and `cflags`: their contents, the
    compiler's identity and the headers they can include."""
    digest = hashlib.sha256()
    for part in (compiler, cflags, compiler_identity(tuple(compiler))):
        digest.update("\0".join(part).encode() + b"\1")
    files = [Path(s) for s in sources]
    for folder in _HEADER_FOLDERS:
        files += sorted((runtime / folder).rglob("*.h")) if folder == "odp/include" else \
            sorted((runtime / folder).glob("*.h"))
    # The headers of a system ODP or of DPDK inline code into the objects: a reinstall at
    # the same place must not reuse them.  The compiler's default folders are left out.
    for folder in _include_folders(cflags):
        if folder.is_dir() and str(folder) not in _SYSTEM_INCLUDES and runtime.resolve() not in folder.resolve().parents:
            files += sorted(p for p in folder.rglob("*.h") if p.is_file())
        elif folder.is_file():  # -include FILE
            files.append(folder)
    for path in files:
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\1")
    return digest.hexdigest()[:32]


# Flags that name a folder of headers, or a header (-include), glued (-IDIR) or not (-I DIR).
_PATH_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros")


def _include_folders(cflags: list[str]) -> list[Path]:
    """The folders and files the flags (and $CPATH, $C_INCLUDE_PATH) add to the header search."""
    found = []
    flags = iter(cflags)
    for flag in flags:
        for option in _PATH_FLAGS:
            if flag == option:
                value = next(flags, "")
            elif flag.startswith(option) and option in ("-I", "-isystem", "-iquote", "-idirafter"):
                value = flag[len(option):]
            else:
                continue
            if value:
                found.append(Path(value))
            break
    for variable in ("CPATH", "C_INCLUDE_PATH"):
        found += [Path(folder) for folder in os.environ.get(variable, "").split(os.pathsep) if folder]
    return found
