"""What a target is: a toolchain, an ODP provider, a way to run, interfaces, template overrides.

A target plugin is a `Target` value published under the `p4odp.targets`
entry-point group; the built-in targets (backend/targets) are published the same
way.  Environment variables override the toolchain as users of C toolchains
expect: `CC`, `CROSS_COMPILE`, `CFLAGS`, `LDFLAGS`.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from p4odp.backend.requirements import Requirement

__all__ = ["Toolchain", "OdpProvider", "RunWrapper", "Target", "PortFiles", "pcap_interfaces",
           "SYSTEM_ODPS", "first_installed", "header_folder"]

# pkg-config names of the system ODP implementations, in the order they are preferred.
SYSTEM_ODPS = ("libodp-linux", "libodp-dpdk")


@dataclass(frozen=True)
class Toolchain:
    """The C compiler and its flags.  `cross_compile` is the tool prefix of a cross build
    (`aarch64-linux-gnu-`); `sysroot` the folder of the target's libraries, used to run
    its binaries under an emulator (`--sysroot` on the command line overrides it)."""
    cc: str = "cc"
    cflags: tuple = ("-O2", "-g", "-march=native")
    ldflags: tuple = ()
    cross_compile: str = ""
    sysroot: str = ""
    debian: tuple = ("gcc",)  # provides `cc`

    def compiler(self, override: Optional[str] = None) -> list[str]:
        """The compiler command: --cc, then $CC, then $CROSS_COMPILE (or the target's prefix) + cc."""
        if override:
            return shlex.split(override)
        if os.environ.get("CC"):
            return shlex.split(os.environ["CC"])
        return [os.environ.get("CROSS_COMPILE", self.cross_compile) + self.cc]

    def all_cflags(self) -> list[str]:
        return list(self.cflags) + shlex.split(os.environ.get("CFLAGS", ""))

    def all_ldflags(self) -> list[str]:
        return list(self.ldflags) + shlex.split(os.environ.get("LDFLAGS", ""))


@dataclass(frozen=True)
class OdpProvider:
    """Which ODP a target links: a system ODP found by pkg-config (`system`, in order of
    preference; empty for cross builds, whose ODP comes from --odp-prefix), else the
    bundled ODP with the optional packet I/O kinds in `pktio` (runtime/odp/pktio_KIND.c)
    and what those need: pkg-config packages, linker flags, and headers given as
    (header, environment variable naming its folder)."""
    system: tuple = SYSTEM_ODPS
    pktio: tuple = ()
    pkg_config: tuple = ()
    libraries: tuple = ()
    headers: tuple = ()
    debian: tuple = ()
    note: str = ""


@dataclass(frozen=True)
class RunWrapper:
    """How the build machine runs the target's binaries: the first of `commands` found on
    the PATH, with the sysroot in `sysroot_env` (qemu-user's QEMU_LD_PREFIX)."""
    commands: tuple
    sysroot_env: str = ""
    debian: tuple = ()


@dataclass(frozen=True)
class PortFiles:
    """How a pcap-driven run (the STF runner) attaches files to P4 ports: the switch's
    `-i PORT=NAME` names and the environment it needs."""
    names: dict
    env: dict


def pcap_interfaces(files: dict[int, tuple[Path, Path]]) -> PortFiles:
    """Each port reads and writes pcap files through the ODP pcap interface."""
    return PortFiles({port: f"pcap:in={rx}:out={tx}" for port, (rx, tx) in files.items()}, {})


@dataclass(frozen=True)
class Target:
    name: str
    description: str
    toolchain: Toolchain = Toolchain()
    odp: OdpProvider = OdpProvider()
    run_wrapper: Optional[RunWrapper] = None
    # How users name the switch's interfaces on this target (for `p4odp targets`).
    interfaces: str = "pcap:in=F:out=G, loop, or a Linux interface name (socket-mmap)"
    # Ports for pcap-driven runs: port -> (input pcap, output pcap) to PortFiles.
    pcap_ports: Callable[[dict], PortFiles] = pcap_interfaces
    # Searched before the built-in templates: a target replaces a target-dependent
    # template (packet_io.c.j2, table_lookup.c.j2, checksum.c.j2) by one of the same name.
    template_dirs: tuple = field(default=())

    def system_odp(self) -> Optional[str]:
        """The pkg-config name of the system ODP this target would use, if one is installed."""
        return first_installed(self.odp.system)

    def wrapper_command(self) -> Optional[str]:
        """The run wrapper found on the PATH (None: none needed, or none found)."""
        if self.run_wrapper is None:
            return None
        return next((found for command in self.run_wrapper.commands if (found := shutil.which(command))), None)

    def run_prefix(self, sysroot: Optional[str] = None) -> tuple[list[str], dict[str, str]]:
        """The command prefix and environment that run one of this target's binaries here."""
        if self.run_wrapper is None:
            return [], {}
        command = self.wrapper_command() or self.run_wrapper.commands[0]
        variable = self.run_wrapper.sysroot_env
        root = sysroot or (os.environ.get(variable) if variable else None) or self.toolchain.sysroot
        env = {variable: root} if variable and root else {}
        return [command], env

    def requirements(self) -> list[Requirement]:
        """What building (and, for emulated targets, running) needs, and whether it is here."""
        needs = []
        cc = self.toolchain.compiler()
        path = shutil.which(cc[0])
        needs.append(Requirement("C compiler", path is not None, path or f"{cc[0]} not found",
                                 self.toolchain.debian))
        system = self.system_odp()
        if system is not None:
            needs.append(Requirement("ODP", True, f"system {system} (pkg-config)"))
        else:
            needs.extend(self._bundled_requirements())
        wrapper = self.wrapper_requirement()
        return needs + [wrapper] if wrapper is not None else needs

    def wrapper_requirement(self) -> Optional[Requirement]:
        """What running this target's binaries here needs (None: they run natively)."""
        if self.run_wrapper is None:
            return None
        found = self.wrapper_command()
        return Requirement("runs under", found is not None,
                           found or f"none of {', '.join(self.run_wrapper.commands)} found", self.run_wrapper.debian)

    def _bundled_requirements(self) -> list[Requirement]:
        kinds = ", ".join(("pcap", "loop", "socket-mmap", *self.odp.pktio))
        needs = [Requirement("ODP", True, f"bundled ({kinds})")]
        make = shutil.which("make")  # lists the bundled ODP's sources
        needs.append(Requirement("make", make is not None, make or "make not found", ("make",)))
        for package in self.odp.pkg_config:
            version = _pkg_config_version(package)
            needs.append(Requirement(f"{package} (pkg-config)", version is not None,
                                     version or "not found by pkg-config", self.odp.debian))
        for header, variable in self.odp.headers:
            folder = header_folder(header, variable)
            detail = folder or (f"{header} not found: set {variable} to its folder"
                                + (f"; {self.odp.note}" if self.odp.note else ""))
            needs.append(Requirement(header, folder is not None, detail, self.odp.debian))
        return needs


def first_installed(packages: tuple, env: Optional[dict] = None) -> Optional[str]:
    """The first of `packages` that pkg-config finds (with the environment `env`)."""
    if not packages or not shutil.which("pkg-config"):
        return None
    return next((package for package in packages
                 if subprocess.run(["pkg-config", "--exists", package], capture_output=True, env=env).returncode == 0),
                None)


def header_folder(header: str, variable: str) -> Optional[str]:
    """The include folder holding `header`: $variable if set, else the system's."""
    folders = [os.environ[variable]] if os.environ.get(variable) else ["/usr/local/include", "/usr/include"]
    return next((folder for folder in folders if (Path(folder) / header).is_file()), None)


def _pkg_config_version(package: str) -> Optional[str]:
    if not shutil.which("pkg-config"):
        return None
    result = subprocess.run(["pkg-config", "--modversion", package], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else None
