"""The build driver: generated C + the runtime + an ODP implementation -> a switch binary."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Optional

from p4odp.backend.target import Target
from p4odp.diagnostics import Diagnostics, Loc

__all__ = ["BuildOptions", "build_switch", "runtime_dir"]

# Generated code leaves unused labels and parameters; they are not worth a warning.
GENERATED_CFLAGS = ("-Wno-unused-label", "-Wno-unused-parameter", "-Wno-unused-variable",
                    "-Wno-unused-but-set-variable")


@dataclass
class BuildOptions:
    cc: Optional[str] = None
    odp_prefix: Optional[str] = None
    verbose: bool = False
    extra_cflags: tuple = ()


def runtime_dir() -> Path:
    return Path(str(resources.files("p4odp.runtime")))


def _odp_flags(target: Target, options: BuildOptions, diags: Diagnostics) -> Optional[tuple[list, list, list]]:
    """(cflags, sources, libs) of the ODP implementation to build against."""
    if options.odp_prefix:
        prefix = Path(options.odp_prefix)
        if not (prefix / "include" / "odp_api.h").exists():
            diags.error(Loc("<command line>", 0, 0), f"--odp-prefix {prefix}: no include/odp_api.h there")
            return None
        found = _pkg_config(str(prefix / "lib" / "pkgconfig"))
        if found is not None:
            return found
        return ([f"-I{prefix / 'include'}"], [], [f"-L{prefix / 'lib'}", f"-Wl,-rpath,{prefix / 'lib'}",
                                                     "-lodp-linux", "-latomic"])
    if target.odp == "auto":
        found = _pkg_config(None)
        if found is not None:
            return found
    odp = runtime_dir() / "odp"
    sources = sorted(str(p) for p in odp.glob("*.c"))
    sources += [str(odp / s) for s in target.pktio_sources]
    return [f"-I{odp / 'include'}", "-DP4ODP_ODP_BUNDLED"], sources, list(target.libraries)


def _pkg_config(search_path: Optional[str]) -> Optional[tuple[list, list, list]]:
    """A system ODP's flags from pkg-config (looking in `search_path` first), with an rpath
    so that the switch finds the library where it was installed."""
    if not shutil.which("pkg-config"):
        return None
    env = dict(os.environ)
    if search_path:
        env["PKG_CONFIG_PATH"] = search_path + os.pathsep + env.get("PKG_CONFIG_PATH", "")
    for package in ("libodp-linux", "libodp-dpdk"):
        if subprocess.run(["pkg-config", "--exists", package], env=env).returncode != 0:
            continue

        def ask(*what: str) -> list[str]:
            return subprocess.run(["pkg-config", *what, package], capture_output=True, text=True, env=env).stdout.split()

        libdir = ask("--variable=libdir")
        rpath = [f"-Wl,-rpath,{libdir[0]}"] if libdir else []
        return ask("--cflags"), [], ask("--libs") + rpath
    return None


def build_switch(c_files: dict[str, str], out_dir: Path, target: Target, options: BuildOptions,
                 diags: Diagnostics) -> Optional[Path]:
    """Write `c_files` to `out_dir` and build `out_dir/switch`; None after reporting a failure."""
    out_dir.mkdir(parents=True, exist_ok=True)
    generated = []
    for name, text in c_files.items():
        path = out_dir / name
        path.write_text(text)
        if name.endswith(".c"):
            generated.append(str(path))
    odp = _odp_flags(target, options, diags)
    if odp is None:
        return None
    odp_cflags, odp_sources, odp_libs = odp
    rt = runtime_dir()
    runtime_sources = sorted(str(p) for p in (rt / "core").glob("*.c"))
    runtime_sources += sorted(str(p) for p in (rt / "tables").glob("*.c") if not p.name.startswith("bench"))
    binary = out_dir / "switch"
    command = [*target.compiler(options.cc), "-std=gnu11", "-pthread", *target.all_cflags(), *GENERATED_CFLAGS,
               *options.extra_cflags, f"-I{rt / 'include'}", f"-I{rt / 'core'}", *odp_cflags,
               "-o", str(binary), *generated, *runtime_sources, *odp_sources, *target.all_ldflags(), *odp_libs]
    if options.verbose:
        sys.stderr.write(" ".join(command) + "\n")
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        diags.error(Loc("<command line>", 0, 0), f"C compiler not found: {command[0]} (set CC or --cc)")
        return None
    if result.returncode != 0:
        log = out_dir / "build.log"
        log.write_text(" ".join(command) + "\n" + result.stdout + result.stderr)
        first = next((line for line in result.stderr.splitlines() if "error" in line), result.stderr.strip()[:500])
        diags.error(Loc(str(out_dir / "switch"), 0, 0),
                    f"the C compiler failed (this is a p4odp bug when the program was accepted): {first}; "
                    f"full log in {log}")
        return None
    if options.verbose and result.stderr:
        sys.stderr.write(result.stderr)
    os.chmod(binary, 0o755)
    return binary
