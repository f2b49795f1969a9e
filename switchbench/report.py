"""What `p4odp bench` shows: a table, a JSON document, a plot; and with --latency their
latency counterparts."""

from __future__ import annotations

import json

from p4odp.switchbench.latency import LatencyRun, run_to_json
from p4odp.switchbench.linerate import LINK_SPEEDS_GBPS, line_rate_pps
from p4odp.switchbench.runner import BenchResult, LatencyResult

__all__ = ["table", "to_json", "plot", "PlotUnavailable", "check_plot", "latency_table", "latency_json",
           "plot_latency", "latency_header", "latency_rows", "BASELINE_NOTE", "plot_latency_runs"]

PLUS_MINUS = "\u00b1"


class PlotUnavailable(Exception):
    """matplotlib cannot be imported; the message says how to get it."""


def table(result: BenchResult) -> str:
    """One line per frame size: the median rate, its spread over the rounds and what follows."""
    links = "".join(f"{f'{speed}GbE':>8}" for speed in LINK_SPEEDS_GBPS)
    memory = f", {result.memory}" if result.memory else ""
    lines = [f"{result.program} on {result.target}{memory}, {result.workers} worker(s), {result.seconds:g} s per size",
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
        "memory": result.memory or None,
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


# ---------------------------------------------------------------------------- --latency

BASELINE_NOTE = ("baseline: the generator's own loop with a minimal DPDK forwarder (port 0 to port 1, a burst of 32 "
                 "at a time, frames untouched) in the switch's place: the floor of this path (memif copies, two "
                 "pollers, the generator)")


def _us(value) -> str:
    return f"{value:,.1f}" if value is not None else "-"


def latency_rows(run: LatencyRun, name: str) -> list[str]:
    """One line for the maximum rate and one per load: the columns of `latency_table`."""
    shares = [f"{who} {share:.0%}" for who, share in (("program", run.device_cpu_share),
                                                      ("generator", run.generator_cpu_share)) if share is not None]
    lines = [f"{name:<22}{'max':>6}{run.max_pps / 1e6:>9.3f}{run.max_sent:>12,}{run.max_sent - run.max_received:>12,}"
             + (f"   CPU got: {', '.join(shares)}" if shares else "")]
    skipped = [f"{load.skipped:,} at {load.load:g}%" for load in run.loads if load.skipped]
    for load in run.loads:
        lines.append(f"{'':<22}{f'{load.load:g}%':>6}{load.rate_pps / 1e6:>9.3f}{load.sent:>12,}{load.lost:>12,}"
                     f"{_us(load.p50_us):>10}{_us(load.p99_us):>11}{_us(load.p999_us):>12}{_us(load.max_us):>12}")
    if skipped:
        lines.append(f"{'':<22}the generator, held up, skipped sends: {', '.join(skipped)}")
    backwards = [f"{load.backwards:,} at {load.load:g}%" for load in run.loads if load.backwards]
    if backwards:
        lines.append(f"{'':<22}frames back before their stamp by the TSC (counted as 0 us): {', '.join(backwards)}")
    return lines


def latency_header() -> str:
    return (f"{'':<22}{'load':>6}{'Mpps':>9}{'sent':>12}{'lost':>12}{'p50 us':>10}{'p99 us':>11}{'p99.9 us':>12}"
            f"{'max us':>12}")


def latency_table(result: LatencyResult) -> str:
    o = result.options
    lines = [f"{result.program} on {result.target}: one-way latency through DPDK net_memif links; the switch (one "
             f"worker) pinned to CPU {o.device_cpu}, the generator to CPU {o.generator_cpu} (taskset); "
             f"{'2 MB hugepages' if o.hugepages else 'no hugepages'}; {o.seconds:g} s per load after {o.warmup:g} s"]
    for size, switch, baseline in result.results:
        lines.append(f"{size}-byte frames")
        lines.append(latency_header())
        lines += latency_rows(switch, "switch")
        if baseline is not None:
            lines += latency_rows(baseline, "baseline (forwarder)")
        copies = sum(load.copies for load in switch.loads)
        if copies:
            lines.append(f"frames back more than once (floods, multicast; not counted again): {copies:,}")
    lines.append("max: frames back per second when sent as fast as the link takes them (lost: refused or not back); "
                 "loads: shares of it, paced; lost: sent and not back (refused by a full ring, dropped, or later "
                 "than the drain); latency: the TSC when the frame's burst came back minus the TSC stamped in it "
                 "when sent, both read on the generator's CPU; CPU got: of the time the program's and the "
                 "generator's polling threads were ready to run, the share they ran (less than 100%: other "
                 "processes took their CPU)")
    if any(baseline is not None for _, _, baseline in result.results):
        lines.append(BASELINE_NOTE)
    return "\n".join(lines) + "\n"


def latency_json(result: LatencyResult) -> str:
    o = result.options
    doc = {
        "program": result.program,
        "target": result.target,
        "latency": True,
        "cpus": {"switch": o.device_cpu, "generator": o.generator_cpu},
        "hugepages": o.hugepages,
        "seconds": o.seconds,
        "warmup": o.warmup,
        "loads": list(o.loads),
        "results": [{"size": size, "switch": run_to_json(switch),
                     "baseline": run_to_json(baseline) if baseline is not None else None}
                    for size, switch, baseline in result.results],
    }
    return json.dumps(doc, indent=1) + "\n"


def plot_latency(result: LatencyResult, path: str) -> None:
    size, switch, baseline = result.results[0]
    runs = [switch] + ([baseline] if baseline is not None else [])
    plot_latency_runs(runs, path, f"{result.program} on {result.target}, {size}-byte frames, one-way latency "
                                  f"through memif")


def plot_latency_runs(runs: list, path: str, title: str) -> None:
    """Left: p50, p99 and p99.9 against load, one colour per run; right: each run's histogram at
    the load nearest 50%.  The format follows the file's suffix (.png, .svg, ...)."""
    check_plot()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (curves, hist) = plt.subplots(1, 2, figsize=(12, 4.8))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for run, colour in zip(runs, colours * 4):
        loads = [load for load in run.loads if load.p50_us is not None]
        x = [load.load for load in loads]
        for attr, style in (("p50_us", "-"), ("p99_us", "--"), ("p999_us", ":")):
            curves.plot(x, [getattr(load, attr) for load in loads], style, marker="o", color=colour,
                        label=run.label if attr == "p50_us" else None)
        middle = min(run.loads, key=lambda load: abs(load.load - 50))
        edges = [middle.histogram_low_ns / 1e3 * 10 ** (k / middle.histogram_per_decade)
                 for k in range(len(middle.histogram) + 1)]
        total = sum(middle.histogram) or 1
        hist.stairs([count / total for count in middle.histogram], edges, color=colour,
                    label=f"{run.label} at {middle.load:g}%")
    curves.set_yscale("log")
    curves.set_xlabel("load (% of the maximum rate)")
    curves.set_ylabel("one-way latency (us): p50 solid, p99 dashed, p99.9 dotted")
    curves.grid(alpha=0.3, which="both")
    curves.legend(fontsize="x-small")
    hist.set_xscale("log")
    hist.set_xlabel("one-way latency (us)")
    hist.set_ylabel("share of frames")
    hist.grid(alpha=0.3)
    hist.legend(fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
