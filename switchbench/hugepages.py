"""2 MB hugepages for DPDK runs, as DPDK is deployed: `p4odp bench` on x86-dpdk and the
benchmarks beside DPDK's own programs (bench/) run on them unless told not to."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

__all__ = ["HugepagesError", "free_hugepages", "ensure_hugepages", "PAGE_MB"]

PAGE_MB = 2
MOUNT = Path("/dev/hugepages")
TOTAL = Path("/proc/sys/vm/nr_hugepages")


class HugepagesError(Exception):
    """What is missing, said to the user as is."""


def free_hugepages() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("HugePages_Free:"):
            return int(line.split()[1])
    return 0


def _mounted() -> bool:
    return any(line.split()[2] == "hugetlbfs" for line in Path("/proc/mounts").read_text().splitlines())


def ensure_hugepages(needed: int) -> str:
    """`needed` free 2 MB pages and a hugetlbfs mount, reserved and mounted when root and
    missing; what was done, to be said to the user ("" for nothing), or HugepagesError saying
    what is missing."""
    mounted = _mounted()
    missing = needed - free_hugepages()
    done = []
    if os.geteuid() == 0:
        if missing > 0:
            try:
                before = int(TOTAL.read_text())
                TOTAL.write_text(f"{before + missing}\n")
                done.append(f"reserved {missing} 2 MB hugepages (nr_hugepages {before} -> {int(TOTAL.read_text())})")
            except OSError as error:
                raise HugepagesError(f"hugepages: cannot reserve them in {TOTAL}: {error.strerror}") from None
        if not mounted:
            MOUNT.mkdir(exist_ok=True)
            mounted = subprocess.run(["mount", "-t", "hugetlbfs", "nodev", str(MOUNT)],
                                     capture_output=True).returncode == 0
            if mounted:
                done.append(f"mounted hugetlbfs on {MOUNT}")
        missing = needed - free_hugepages()
    if missing > 0 or not mounted:
        raise HugepagesError(f"hugepages: {needed} free 2 MB pages needed (free: {free_hugepages()}) and a hugetlbfs "
                             f"mount ({'there' if mounted else 'none'}); as root they are reserved and mounted")
    return "; ".join(done)
