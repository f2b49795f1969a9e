"""Packet-rate arithmetic as RFC 2544 counts it, and the CPU's frequency.

A frame of `size` bytes (with its FCS) takes size + 20 bytes of the line: 7 of preamble, 1 of
start-of-frame delimiter and 12 of inter-frame gap.  So a 10 GbE port carries at most
10e9 / ((64 + 20) * 8) = 14.88 million 64-byte frames a second.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LINK_SPEEDS_GBPS", "FRAMING_OVERHEAD", "line_rate_pps", "line_rate_share", "gbps", "cycles_per_packet",
           "CpuFrequency", "cpu_frequency", "summarize", "RateSummary"]

LINK_SPEEDS_GBPS = (10, 25, 40, 100)
FRAMING_OVERHEAD = 20  # preamble, start-of-frame delimiter, inter-frame gap


def line_rate_pps(size: int, link_gbps: float) -> float:
    """The most frames of `size` bytes a second a link of `link_gbps` Gbit/s carries."""
    return link_gbps * 1e9 / ((size + FRAMING_OVERHEAD) * 8)


def line_rate_share(mpps: float, size: int, link_gbps: float) -> float:
    """The share of a link's line rate (1.0: all of it) that `mpps` frames of `size` bytes take."""
    return mpps * 1e6 / line_rate_pps(size, link_gbps)


def gbps(mpps: float, size: int) -> float:
    """The frames' bit rate, FCS included, preamble and gap not: what the frames carry."""
    return mpps * 1e6 * size * 8 / 1e9


def cycles_per_packet(mpps: float, cpu_hz: float, workers: int) -> float | None:
    """CPU cycles per packet, derived: the workers' time (each busy polling all of it) at the
    CPU's nominal frequency, divided by the packets.  None when nothing was forwarded."""
    if mpps <= 0 or cpu_hz <= 0:
        return None
    return cpu_hz * workers / (mpps * 1e6)


@dataclass(frozen=True, slots=True)
class CpuFrequency:
    hz: float
    source: str  # where it was read


def cpu_frequency(cpuinfo: str | None = None, sysfs: Path = Path("/sys/devices/system/cpu/cpu0/cpufreq")
                  ) -> CpuFrequency | None:
    """The CPU's nominal frequency: the cpufreq driver's base frequency, else the one in the
    model name ("... @ 2.40GHz"), else /proc/cpuinfo's `cpu MHz` (the current frequency, which
    is the TSC's on machines with a constant TSC and no frequency scaling, such as VMs)."""
    for name in ("base_frequency", "cpuinfo_max_freq"):
        try:
            khz = int((sysfs / name).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        if khz > 0:
            return CpuFrequency(khz * 1e3, f"{sysfs / name}")
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            return None
    model = re.search(r"^model name\s*:.*@\s*([\d.]+)\s*GHz", cpuinfo, re.M)
    if model:
        return CpuFrequency(float(model[1]) * 1e9, "/proc/cpuinfo model name")
    mhz = re.search(r"^cpu MHz\s*:\s*([\d.]+)", cpuinfo, re.M)
    if mhz and float(mhz[1]) > 0:
        return CpuFrequency(float(mhz[1]) * 1e6, "/proc/cpuinfo cpu MHz")
    return None


@dataclass(frozen=True, slots=True)
class RateSummary:
    """The rounds' packet rates (Mpps) of one frame size, and what follows from their median."""

    size: int
    rounds: tuple
    mpps: float
    gbps: float
    cycles_per_packet: float | None
    line_rate: dict  # link speed in Gbit/s -> share of its line rate
    rx_mpps: float | None = None  # the median rate received: lower with replication, higher with drops

    @property
    def spread(self) -> float:
        """Half the distance between the slowest and the fastest round, in Mpps."""
        return (max(self.rounds) - min(self.rounds)) / 2 if self.rounds else 0.0


def summarize(size: int, rounds: list[float], cpu_hz: float | None, workers: int,
              rx_rounds: list[float] | None = None) -> RateSummary:
    """The result of one size from the rounds' rates sent (and received) in Mpps."""
    mpps = statistics.median(rounds) if rounds else 0.0
    return RateSummary(size, tuple(rounds), mpps, gbps(mpps, size),
                       cycles_per_packet(mpps, cpu_hz or 0, workers),
                       {speed: line_rate_share(mpps, size, speed) for speed in LINK_SPEEDS_GBPS},
                       statistics.median(rx_rounds) if rx_rounds else None)
