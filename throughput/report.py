"""What `p4odp bench` shows: a table, a JSON document, a plot."""

from __future__ import annotations

import json

from p4odp.throughput.linerate import LINK_SPEEDS_GBPS, line_rate_pps
from p4odp.throughput.runner import BenchResult

__all__ = ["table", "to_json", "plot", "PlotUnavailable", "check_plot"]

PLUS_MINUS = "\u00b1"


class PlotUnavailable(Exception):
    """matplotlib cannot be imported; the message says how to get it."""


def table(result: BenchResult) -> str:
    """One line per frame size: the median rate, its spread over the rounds and what follows."""
    links = "".join(f"{f'{speed}GbE':>8}" for speed in LINK_SPEEDS_GBPS)
    lines = [f"{result.program} on {result.target}, {result.workers} worker(s), {result.seconds:g} s per size",
             f"{'size':>5}{'Mpps':>10}{PLUS_MINUS:>8}{'Gbit/s':>9}{'cycles/pkt':>12}{links}"]
    for r in result.results:
        shares = "".join(f"{r.line_rate[speed] * 100:>7.1f}%" for speed in LINK_SPEEDS_GBPS)
        cycles = f"{r.cycles_per_packet:,.0f}" if r.cycles_per_packet is not None else "-"
        lines.append(f"{r.size:>5}{r.mpps:>10.3f}{r.spread:>8.3f}{r.gbps:>9.3f}{cycles:>12}{shares}")
    copies = [f"{r.size} B: {r.mpps / r.rx_mpps:.2f}" for r in result.results
              if r.rx_mpps and abs(r.mpps / r.rx_mpps - 1) > 0.02]
    if copies:
        lines.append("packets sent per packet received (replication, drops): " + ", ".join(copies))
    cpu = (f"{result.cpu.hz / 1e9:.3f} GHz from {result.cpu.source}" if result.cpu
           else "unknown (no cycles per packet)")
    lines.append(f"Mpps: median of the rounds, {PLUS_MINUS} half their range; Gbit/s: the frames' bytes with FCS; "
                 f"line rate with 20 bytes of preamble and gap per frame (RFC 2544); cycles per packet "
                 f"derived: worker time at the CPU's nominal frequency ({cpu}) / packets")
    return "\n".join(lines) + "\n"


def to_json(result: BenchResult) -> str:
    doc = {
        "program": result.program,
        "target": result.target,
        "workers": result.workers,
        "seconds": result.seconds,
        "cpu_hz": result.cpu.hz if result.cpu else None,
        "cpu_hz_source": result.cpu.source if result.cpu else None,
        "results": [{
            "size": r.size,
            "mpps": r.mpps,
            "rx_mpps": r.rx_mpps,
            "gbps": r.gbps,
            "cycles_per_packet": r.cycles_per_packet,
            "line_rate": {str(speed): r.line_rate[speed] for speed in LINK_SPEEDS_GBPS},
            "rounds": list(r.rounds),
        } for r in result.results],
    }
    return json.dumps(doc, indent=1) + "\n"


def check_plot() -> None:
    """Raise PlotUnavailable unless matplotlib can be imported (checked before a long run)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as err:
        raise PlotUnavailable(f"--plot needs matplotlib, which cannot be imported ({err}): "
                              f"pip install 'p4odp[bench]' (or apt-get install python3-matplotlib)") from None


def plot(result: BenchResult, path: str) -> None:
    """Mpps per frame size with the rounds' range, and the 10/25/40/100 GbE line rates."""
    check_plot()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r.size for r in result.results]
    mpps = [r.mpps for r in result.results]
    low = [r.mpps - min(r.rounds) for r in result.results]
    high = [max(r.rounds) - r.mpps for r in result.results]
    fig, (rate, bits) = plt.subplots(1, 2, figsize=(11, 4.5))
    rate.errorbar(sizes, mpps, yerr=[low, high], marker="o", capsize=3, label=result.target)
    curve = range(min(sizes), max(sizes) + 1, max(1, (max(sizes) - min(sizes)) // 200))
    for speed in LINK_SPEEDS_GBPS:
        rate.plot(curve, [line_rate_pps(size, speed) / 1e6 for size in curve], linestyle="--", linewidth=0.8,
                  label=f"{speed} GbE line rate")
    top = max(mpps + [line_rate_pps(min(sizes), LINK_SPEEDS_GBPS[0]) / 1e6]) * 1.3
    rate.set_ylim(0, top)
    rate.set_xlabel("frame size (bytes, with FCS)")
    rate.set_ylabel("Mpps")
    rate.legend(fontsize="small")
    rate.grid(alpha=0.3)
    bits.bar([str(size) for size in sizes], [r.gbps for r in result.results])
    bits.set_xlabel("frame size (bytes)")
    bits.set_ylabel("Gbit/s (frames with FCS)")
    bits.grid(axis="y", alpha=0.3)
    fig.suptitle(f"{result.program} on {result.target}, {result.workers} worker(s)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
