"""What a target needs on the build machine, whether it is there, and how to get it."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Requirement", "debian_hint", "install_debian_packages", "missing_packages"]


def debian_hint(packages: tuple) -> str:
    """` (Debian: apt-get install P...)`, or nothing without packages."""
    return f" (Debian: apt-get install {' '.join(packages)})" if packages else ""


@dataclass(frozen=True)
class Requirement:
    """One thing a target needs: `what` it is, whether it was `found`, a `detail` (where it
    was found, or why it is missing) and the Debian packages that provide it."""
    what: str
    found: bool
    detail: str
    debian: tuple = ()

    def render(self) -> str:
        if self.found:
            return f"{self.what}: {self.detail}"
        return f"{self.what}: missing, {self.detail}{debian_hint(self.debian)}"


def missing_packages(needs: list[Requirement]) -> list[str]:
    """The Debian packages that provide what `needs` misses."""
    return sorted({package for need in needs if not need.found for package in need.debian})


_apt_updated = False


def install_debian_packages(packages: list[str]) -> tuple[bool, str]:
    """Install Debian packages with apt-get, as root only; (installed, what happened)."""
    if not packages:
        return True, "nothing to install"
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return False, f"as root on Debian: apt-get install {' '.join(packages)}"
    # Parallel test processes may install at the same time: one at a time, each waiting for the
    # other's apt-get to end (dpkg's own lock would fail an `apt-get update` at once).
    with open(Path(tempfile.gettempdir()) / "p4odp-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _apt_install(packages)


def _apt_install(packages: list[str]) -> tuple[bool, str]:
    global _apt_updated
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    wait = ["-o", "DPkg::Lock::Timeout=600"]  # for another apt-get than ours
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *wait, *packages]
    result = subprocess.run(install, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    if result.returncode != 0 and not _apt_updated:
        # A fresh machine's package lists may be missing or stale: update once, try again.
        updated = subprocess.run(["apt-get", "update", "-q", *wait], capture_output=True, env=env,
                                 stdin=subprocess.DEVNULL)
        _apt_updated = updated.returncode == 0
        result = subprocess.run(install, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["apt-get failed"])[-1]
        return False, f"apt-get install {' '.join(packages)} failed: {last}"
    return True, f"installed {' '.join(packages)}"
