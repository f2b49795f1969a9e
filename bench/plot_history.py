#!/usr/bin/env python3
"""Plot the benchmarks' history: bench/results/history/*.json -> docs/img/*.svg.

    python3 bench/plot_history.py [--out DIR]

Each history file is one benchmark's runs, oldest first, each with its date, the commit measured,
the machine, the command and its figures (bench/results/README.md says how to add a run). This
script draws what the documentation shows (docs/results.md):

- dpdk_side_by_side_history.svg: p4odp's rate over DPDK's l2fwd and l3fwd per run (median, and the
  range of the rounds), with hugepages and without;
- instructions_history.svg: instructions per packet of the examples' pipelines and worker loops.

Needs matplotlib (`pip install 'p4odp[bench]'`; the test extras have it too).
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HISTORY = REPO / "bench" / "results" / "history"
OUT = REPO / "docs" / "img"

# The comparisons that are l2fwd's and l3fwd's headline ratios, whatever a run called them.
L2 = ("l2fwd, 1,000 MACs / DPDK l2fwd", "l2fwd / DPDK l2fwd")
L3 = ("l3fwd, 1,000 routes / DPDK l3fwd (LPM)", "l3fwd / DPDK l3fwd (LPM)")


def load(name: str) -> dict:
    return json.loads((HISTORY / f"{name}.json").read_text())


def _when(run: dict) -> datetime:
    return datetime.fromisoformat(run["date"].replace("Z", "+00:00"))


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "p4odp"  # the same SVG for the same figures
    import matplotlib.pyplot as plt

    return plt


def _order(ax, dates: list[datetime]) -> None:
    """Runs one after the other on the x axis (several a day, then none for days), labelled by date."""
    ax.set_xticks(range(len(dates)), [d.strftime("%m-%d") for d in dates], rotation=60, fontsize=7)
    ax.set_xlabel("runs in order (date of the tree measured)")


def _save(fig, path: Path) -> None:
    fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
    print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")


def plot_side_by_side(out: Path) -> None:
    plt = _plt()
    runs = [r for r in load("dpdk_side_by_side")["runs"] if "sweep" not in r]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, hugepages in zip(axes, (True, False)):
        panel = [run for run in runs if run["hugepages"] == hugepages]
        for names, label, marker in ((L2, "l2fwd / DPDK l2fwd", "o"), (L3, "l3fwd / DPDK l3fwd (LPM)", "s")):
            xs, ys, lo, hi = [], [], [], []
            for index, run in enumerate(panel):
                for row in run["rows"]:
                    if row["comparison"] in names:
                        xs.append(index)
                        ys.append(row["ratio"])
                        low, high = row.get("ratio_range", [row["ratio"], row["ratio"]])
                        lo.append(row["ratio"] - low)
                        hi.append(high - row["ratio"])
            ax.errorbar(xs, ys, yerr=[lo, hi], marker=marker, capsize=3, label=label, linestyle="-")
        ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
        ax.set_title("with hugepages" if hugepages else "without hugepages (--no-huge)")
        _order(ax, [_when(run) for run in panel])
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("p4odp Mpps / DPDK Mpps (median, range of rounds)")
    axes[0].legend(loc="lower right")
    fig.suptitle("The examples' switches against DPDK's l2fwd and l3fwd, one core, 64-byte frames")
    _save(fig, out / "dpdk_side_by_side_history.svg")
    plt.close(fig)


def plot_instructions(out: Path) -> None:
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, name, title in ((axes[0], "pipeline_instructions", "pipeline (traffic manager's burst, x86)"),
                            (axes[1], "worker_instructions", "whole worker loop (x86-dpdk, drivers included)")):
        runs = load(name)["runs"]
        for example, marker in (("l2fwd", "o"), ("l3fwd", "s")):
            points = [(i, r["instructions_per_packet"][example]) for i, r in enumerate(runs)
                      if example in r["instructions_per_packet"]]
            ax.plot([p[0] for p in points], [p[1] for p in points], marker=marker, label=example)
        if name == "worker_instructions":
            dpdk = runs[-1].get("dpdk_instructions_per_packet", {})
            for example, style in (("l2fwd", "--"), ("l3fwd", ":")):
                if example in dpdk:
                    ax.axhline(dpdk[example], color="grey", linestyle=style, linewidth=0.8,
                               label=f"DPDK {example}")
        ax.set_title(title)
        ax.set_ylabel("instructions per packet")
        _order(ax, [_when(r) for r in runs])
        ax.set_yscale("log" if name == "pipeline_instructions" else "linear")
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.suptitle("Instructions per packet of the examples (callgrind)")
    _save(fig, out / "instructions_history.svg")
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, metavar="DIR", help="where to write the plots (default docs/img)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    plot_side_by_side(args.out)
    plot_instructions(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
