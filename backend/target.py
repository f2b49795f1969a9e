"""What a target is: a toolchain, an ODP provider, default interfaces.

A target plugin is a `Target` value published under the `p4odp.targets`
entry-point group.  Environment variables override the toolchain as users
of C toolchains expect: `CC`, `CROSS_COMPILE`, `CFLAGS`, `LDFLAGS`.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field

__all__ = ["Target"]


@dataclass(frozen=True)
class Target:
    name: str
    description: str
    cc: str = "cc"
    cflags: tuple = ("-O2", "-g", "-march=native")
    ldflags: tuple = ()
    # Compiler prefix for cross builds, e.g. "aarch64-linux-gnu-".
    cross_compile: str = ""
    # "auto": a system ODP when pkg-config finds one, else the bundled one; or "bundled".
    odp: str = "auto"
    # Extra C sources of the bundled ODP's packet I/O for this target (e.g. DPDK).
    pktio_sources: tuple = ()
    libraries: tuple = ()
    default_interface: str = "pcap:in=in.pcap:out=out.pcap"
    template_dirs: tuple = field(default=())

    def compiler(self, override: str | None = None) -> list[str]:
        """The C compiler command: --cc, then $CC, then CROSS_COMPILE + the target's."""
        if override:
            return shlex.split(override)
        if os.environ.get("CC"):
            return shlex.split(os.environ["CC"])
        prefix = os.environ.get("CROSS_COMPILE", self.cross_compile)
        return [prefix + self.cc]

    def all_cflags(self) -> list[str]:
        return list(self.cflags) + shlex.split(os.environ.get("CFLAGS", ""))

    def all_ldflags(self) -> list[str]:
        return list(self.ldflags) + shlex.split(os.environ.get("LDFLAGS", ""))
