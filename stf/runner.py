"""`p4odp stf PROG.p4 TEST.stf`: build the switch, play the test, compare packets and counters.

The switch runs offline: each port reads its input packets from a pcap file
and writes what it sends to another.  The test's statements reach it in their
order as one commands file: `add`, `setdefault` and `remove all` in
simple_switch_CLI syntax (translated with the switch's own control-plane
metadata), `receive PORT` for each `packet`, so that a packet sees exactly the
entries added before it, and `counter_read` for each `check_counter`, whose
answers are checked after the run.  The switch processes each packet to the
end before it reads the next line, which makes every `wait` already true and
the test deterministic (BMv2's runner races its CLI against its packets).
A statement the switch cannot honour fails the test with its position.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from p4odp import ir
from p4odp.backend.build import BuildOptions, build_switch
from p4odp.backend.requirements import debian_hint
from p4odp.backend.target import Target
from p4odp.diagnostics import Diagnostics, Loc
from p4odp.stf import parser as stf
from p4odp.stf.packets import ExpectedOutputs
from p4odp.stf.pcap import read_packets, write_pcap
from p4odp.transpiler import transpile
from p4odp.transpiler.emit import render_datapath
from p4odp.transpiler.model import CProgram, CTable

__all__ = ["StfResult", "run_stf"]

# simple_switch_CLI priorities: the smaller number wins.  STF: the larger one.
_CLI_PRIORITY_TOP = 1 << 24
SWITCH_TIMEOUT = 60


@dataclass
class StfResult:
    passed: bool
    report: str


def run_stf(program: ir.Program, program_path: str, stf_path: str, target: Target, options: BuildOptions,
            keep: Optional[Path], diags: Diagnostics, workers: int = 1) -> Optional[StfResult]:
    """Run one STF test on a switch with `workers` workers; None after reporting an error that stopped it."""
    statements = stf.parse_stf_file(stf_path, diags)
    if diags.error_count:
        return None
    model = transpile(program, program_path, diags)
    if model is None:
        return None
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        return _run(statements, model, keep, True, target, options, diags, workers)
    with tempfile.TemporaryDirectory(prefix="p4odp-stf-") as work:
        return _run(statements, model, Path(work), False, target, options, diags, workers)


def _run(statements: list, model: CProgram, work: Path, keep: bool, target: Target, options: BuildOptions,
         diags: Diagnostics, workers: int) -> Optional[StfResult]:
    script = switch_commands(statements, model, diags)
    if script is None:
        return None
    commands, counter_checks = script
    wrapper_need = target.wrapper_requirement()
    if wrapper_need is not None and not wrapper_need.found:
        diags.error(Loc("<command line>", 0, 0), f"target {target.name} runs the switch under "
                                                 f"{' or '.join(target.run_wrapper.commands)}, not found"
                                                 f"{debian_hint(wrapper_need.debian)}")
        return None
    binary = build_switch({"datapath.c": render_datapath(model, target.template_dirs, diags=diags)}, work, target, options,
                          diags)
    if binary is None:
        if not keep:
            diags.note(Loc(str(work), 0, 0), "this temporary folder and its build.log are removed: "
                                            "run again with --keep DIR to keep them")
        return None
    expected = stf.expected_outputs(statements)
    inputs: dict[int, list[bytes]] = {port: [] for port in expected.ports}
    for statement in statements:
        if isinstance(statement, stf.Packet):
            inputs[statement.port].append(statement.data)
    if not inputs:  # a test without packets still runs its commands, on a switch of one idle port
        inputs[0] = []
    (work / "commands.txt").write_text("".join(line + "\n" for line in commands))
    for port in sorted(inputs):
        write_pcap(str(work / f"in{port}.pcap"), inputs[port])
    ports = target.pcap_ports({port: (work / f"in{port}.pcap", work / f"out{port}.pcap") for port in inputs})
    wrapper, wrapper_env = target.run_prefix(options.sysroot)
    # A test's assert() and assume() are checked, as BMv2 checks them.
    argv = [*wrapper, str(binary), "--exit-when-done", "--asserts", "--commands", str(work / "commands.txt"), "-w",
            str(workers)]
    for port, name in sorted(ports.names.items()):
        argv += ["-i", f"{port}={name}"]
    if keep:
        _write_run_script(work, argv, {**wrapper_env, **ports.env})
    try:
        run = subprocess.run(argv, capture_output=True, text=True, timeout=SWITCH_TIMEOUT,
                             env={**os.environ, **wrapper_env, **ports.env})
    except subprocess.TimeoutExpired:
        return StfResult(False, f"the switch did not finish within {SWITCH_TIMEOUT} s")
    except OSError as err:  # not runnable here: built for another machine (--cc), a wrapper gone
        diags.error(Loc(str(binary), 0, 0), f"cannot run the switch: {err.strerror}: {shlex.join(argv[:2])}"
                                            f" (a binary built for another machine needs the target's run wrapper)")
        return None
    if run.returncode != 0:
        return StfResult(False, f"the switch failed (exit {run.returncode}):\n{run.stderr.strip()}")
    received = {port: read_packets(str(work / f"out{port}.pcap")) for port in inputs
                if (work / f"out{port}.pcap").exists()}
    if keep:
        _write_expected(work, expected)
    failures = expected.check(received)
    if failures:
        return StfResult(False, "FAIL: " + failures[0].render())
    counter_failure = _check_counters(counter_checks, run.stdout)
    if counter_failure is not None:
        return StfResult(False, "FAIL: " + counter_failure)
    return StfResult(True, f"PASS: {len(statements)} statements, {sum(len(v) for v in received.values())} packets out")


def _write_run_script(work: Path, argv: list[str], env: dict[str, str]) -> None:
    """For --keep: run.sh runs the switch again as the test did."""
    lines = ["#!/bin/sh", "# Runs the switch as `p4odp stf` did.", "cd \"$(dirname \"$0\")\""]
    lines += [f"export {name}={shlex.quote(value)}" for name, value in sorted(env.items())]
    lines.append(" ".join(shlex.quote(a) for a in argv) + ' "$@"')
    script = work / "run.sh"
    script.write_text("\n".join(lines) + "\n")
    script.chmod(0o755)


def _write_expected(work: Path, expected: ExpectedOutputs) -> None:
    """For --keep: the expected packets of each port, as text (with the `*` wildcards) and as a
    pcap (wildcard nibbles as 0, to open next to the output in a packet viewer)."""
    for port, patterns in expected.packets.items():
        (work / f"expected{port}.txt").write_text(
            "".join(f"{p if p is not None else '(any packet)'}\n" for p in patterns))
        packets = [bytes.fromhex(p.nibbles.replace("*", "0").ljust(2 * p.length, "0")) for p in patterns
                   if p is not None]
        write_pcap(str(work / f"expected{port}.pcap"), packets)


def switch_commands(statements: list, model: CProgram, diags: Diagnostics) -> Optional[tuple[list[str], list]]:
    """The switch's commands file for `statements`, in their order, and the `check_counter`
    statements whose `counter_read` answers the switch prints, in the same order."""
    commands, counter_checks = [], []
    added_to: dict[str, None] = {}  # the tables `remove all` clears, in the order first added to
    # The handle of each named entry (`add ... = ENTRY`): a table's entries take handles 0, 1, 2, ...
    # in the order added, until `remove all` frees some, whose reuse the runner cannot foresee.
    handles: dict[str, tuple[str, int]] = {}
    next_handle: dict[str, Optional[int]] = {}
    order = _CLI_PRIORITY_TOP - 1
    for statement in statements:
        if isinstance(statement, stf.Add):
            table = _find(model.tables, statement.table, statement.loc, "table", diags)
            if table is None:
                return None
            line = _table_add(statement, table, model, order, diags)
            if line is None:
                return None
            order -= 1
            commands.append(line)
            added_to[table.name] = None
            handle = next_handle.setdefault(table.name, 0)
            if handle is not None:
                next_handle[table.name] = handle + 1
                if statement.entry is not None:
                    handles[statement.entry] = (table.name, handle)
        elif isinstance(statement, stf.SetDefault):
            table = _find(model.tables, statement.table, statement.loc, "table", diags)
            if table is None:
                return None
            action_line = _action(statement.action, table, model, diags)
            if action_line is None:
                return None
            name, args = action_line
            commands.append(f"table_set_default {table.name} {name} {' '.join(args)}".rstrip())
        elif isinstance(statement, stf.RemoveAll):
            commands += [f"table_clear {name}" for name in added_to]
            next_handle.update(dict.fromkeys(added_to))
            added_to.clear()
        elif isinstance(statement, stf.Packet):
            commands.append(f"receive {statement.port}")
        elif isinstance(statement, stf.CheckCounter):
            counter = _find(model.counters, statement.counter, statement.loc, "counter", diags)
            if counter is None:
                return None
            index = statement.index
            if statement.entry is not None:
                index = _direct_counter_cell(statement, counter, handles, model, diags)
                if index is None:
                    return None
            commands.append(f"counter_read {counter.name} {index}")
            counter_checks.append(statement)
        elif isinstance(statement, stf.CliCommand):
            commands.append(statement.line)
        # `expect` is checked on the outputs; `wait` and `no_packet` hold by construction: every
        # packet is processed before the next line, and every port's packets are all checked.
    return commands, counter_checks


_COUNTER_READ = re.compile(r"^(\S+)\[(\d+)\]= \((\d+) bytes, (\d+) packets\)$", re.M)
_COMPARE = {"==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__, ">": int.__gt__,
            ">=": int.__ge__}


def _direct_counter_cell(check: stf.CheckCounter, counter, handles: dict, model: CProgram,
                         diags: Diagnostics) -> Optional[int]:
    """The entry handle that `counter_read` takes for a direct counter's `check_counter C($ENTRY)`."""
    if counter.table < 0:
        diags.error(check.loc, f"counter {counter.name} is not a direct counter: check it by index")
        return None
    if check.entry not in handles:
        diags.error(check.loc, f"no entry named {check.entry} whose handle is known (named by `add ... = "
                               f"{check.entry}`, before any `remove all` of its table)")
        return None
    table, handle = handles[check.entry]
    if table != model.tables[counter.table].name:
        diags.error(check.loc, f"entry {check.entry} is of table {table}, not of counter {counter.name}'s")
        return None
    return handle


def _check_counters(checks: list, output: str) -> Optional[str]:
    """The first `check_counter` that the switch's `counter_read` answers contradict, said in words."""
    answers = _COUNTER_READ.findall(output)
    if len(answers) != len(checks):
        return f"the switch answered {len(answers)} of {len(checks)} counter reads"
    for check, (name, index, nbytes, packets) in zip(checks, answers):
        if check.op is None:
            continue
        got = int(packets) if check.kind == "packets" else int(nbytes)
        if not _COMPARE[check.op](got, check.value):
            cell = check.index if check.entry is None else f"${check.entry}"
            return (f"{check.loc}: check_counter {check.counter}({cell}): {check.kind} is {got}, "
                    f"expected {check.op} {check.value} ({name}[{index}])")
    return None


def _find(items, name: str, loc: Loc, what: str, diags: Diagnostics):
    name = re.sub(r"\$(\d+)", r"[\1]", name)  # STF writes stack elements as `x$0`
    # A P4_14 `valid` key is named `header.$valid$`; STF names it by the header.
    exact = [i for i in items if i.name in (name, name + ".$valid$")]
    if exact:
        return exact[0]
    suffix = [i for i in items if i.name.endswith("." + name) or name.endswith("." + i.name)]
    if len(suffix) == 1:
        return suffix[0]
    diags.error(loc, f"no {what} named '{name}'" if not suffix else f"{what} name '{name}' is ambiguous")
    return None


def _action(call: stf.ActionCall, table: CTable, model: CProgram, diags: Diagnostics):
    candidates = [a for a in model.actions if a.id in table.action_ids]
    action = _find(candidates, call.name, call.loc, f"action of table {table.name}", diags)
    if action is None:
        return None
    given = {arg.name: arg.value.value for arg in call.args}
    args = []
    for param in action.params:
        if param.name not in given:
            diags.error(call.loc, f"action {action.name}: no value for parameter {param.name}")
            return None
        args.append(str(given[param.name] % (1 << param.width)))
    return action.name, args


def _table_add(add: stf.Add, table: CTable, model: CProgram, order: int, diags: Diagnostics) -> Optional[str]:
    given = {}
    for match in add.matches:
        key = _find(table.keys, match.field, match.loc, f"key field of table {table.name}", diags)
        if key is None:
            return None
        given[key.name] = match
    keys = []
    for key in table.keys:
        match = given.get(key.name)
        full = (1 << key.width) - 1
        if key.match_kind == "P4ODP_MATCH_LPM":
            if match is None:
                keys.append("0/0")
            else:
                length = match.lpm_prefix_len(key.width)
                if length is None:
                    diags.error(match.loc, f"lpm key {key.name}: '*' digits must be the last ones (a prefix)")
                    return None
                keys.append(f"{match.value.value & full}/{length}")
        elif key.match_kind in ("P4ODP_MATCH_TERNARY", "P4ODP_MATCH_OPTIONAL"):
            if match is None:
                keys.append("0&&&0")
            else:
                mask = match.value.mask if match.value.mask is not None else full
                keys.append(f"{match.value.value & full}&&&{mask & full}")
        elif key.match_kind == "P4ODP_MATCH_RANGE":
            keys.append(f"0->{full}" if match is None else f"{match.value.value}->{match.value.value}")
        else:
            if match is None:
                diags.error(add.loc, f"table {table.name}: no value for the exact key {key.name}")
                return None
            keys.append(str(match.value.value & full))
    action = _action(add.action, table, model, diags)
    if action is None:
        return None
    name, args = action
    line = f"table_add {table.name} {name} {' '.join(keys)} => {' '.join(args)}"
    if any(k.match_kind in ("P4ODP_MATCH_TERNARY", "P4ODP_MATCH_RANGE", "P4ODP_MATCH_OPTIONAL")
           for k in table.keys):
        priority = _CLI_PRIORITY_TOP - 1 - add.priority if add.priority is not None else _CLI_PRIORITY_TOP - order
        line += f" {max(priority, 0)}"
    return line.rstrip()
