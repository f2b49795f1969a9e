"""`p4odp cli`: simple_switch_CLI's commands against a running switch, from a file, from standard
input or typed at a prompt (with history and completion of the command names); with --digests
or --packets, the digest messages or the packets sent to the CPU port, as they come."""

from __future__ import annotations

import os
import sys
from typing import Iterable

from p4odp.controlplane.channel import ChannelError, CommandError, SwitchChannel

__all__ = ["run_cli", "COMMANDS"]

# The commands the switch serves (runtime/core/control.c), for completion and `help`.
COMMANDS = (
    "table_add", "table_set_default", "table_reset_default", "table_modify", "table_delete", "table_clear",
    "table_indirect_add", "table_indirect_add_with_group", "table_indirect_modify",
    "table_indirect_modify_with_group", "table_indirect_delete", "table_indirect_set_default",
    "table_indirect_set_default_with_group", "act_prof_create_member", "act_prof_modify_member",
    "act_prof_delete_member", "act_prof_create_group", "act_prof_delete_group",
    "act_prof_add_member_to_group", "act_prof_remove_member_from_group", "counter_read", "counter_write",
    "counter_reset", "register_read", "register_write", "register_reset", "meter_array_set_rates",
    "meter_set_rates", "meter_get_rates", "meter_reset", "mc_mgrp_create", "mc_mgrp_destroy", "mc_node_create",
    "mc_node_update", "mc_node_associate", "mc_node_dissociate", "mc_node_destroy",
    "mirroring_add", "mirroring_add_mc", "mirroring_delete", "mirroring_get", "pvs_add", "pvs_remove",
    "pvs_clear", "set_crc16_parameters", "set_crc32_parameters", "table_num_entries", "table_dump",
    "table_dump_entry", "table_dump_entry_from_key", "mc_dump", "p4info", "packet_out", "digest_listen", "digest_unlisten",
    "packet_listen", "packet_unlisten",
)
HISTORY = os.path.expanduser("~/.p4odp_cli_history")


def run_cli(address: str, source: str | None, events: tuple = ()) -> int:
    """Run the commands of `source` (a file; None: standard input, a prompt when it is a terminal)
    against the switch at `address`, or print its `events` (kinds of SwitchChannel.EVENTS) until
    interrupted; 0, or 1 when a command failed or the switch cannot be reached."""
    try:
        channel = SwitchChannel(address)
    except ChannelError as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    with channel:
        if events:
            return _print_events(channel, events)
        if source is None and sys.stdin.isatty():
            return _interactive(channel)
        if source is None:
            stdin = open(sys.stdin.fileno(), encoding="utf-8", errors="surrogateescape", closefd=False)
            return _run_lines(channel, stdin, "<stdin>")
        try:
            with open(source, encoding="utf-8", errors="surrogateescape") as lines:
                return _run_lines(channel, lines, source)
        except OSError as err:
            sys.stderr.write(f"error: {source}: {err.strerror}\n")
            return 1


def _print_events(channel: SwitchChannel, events: tuple) -> int:
    """Each event (`digest NAME VALUE...`, `packet_in HEX`) on a line of its own, until interrupted."""
    try:
        for kind in events:
            channel.listen(kind)
        while True:
            sys.stdout.write(channel.next_event() + "\n")
            sys.stdout.flush()
    except KeyboardInterrupt:
        return 0
    except (ChannelError, CommandError) as err:
        sys.stderr.write(f"error: {err}\n")
        return 1


def _run_lines(channel: SwitchChannel, lines: Iterable[str], name: str) -> int:
    """Each line in turn; a refused one is reported with its place and the others still run."""
    status = 0
    for number, line in enumerate(lines, 1):
        try:
            sys.stdout.write(channel.command(line))
        except CommandError as err:
            sys.stderr.write(f"{name}:{number}: error: {err}\n")
            status = 1
        except ChannelError as err:
            sys.stderr.write(f"{name}:{number}: error: {err}\n")
            return 1
    return status


def _interactive(channel: SwitchChannel) -> int:
    import readline

    readline.set_completer(lambda text, state: ([c for c in COMMANDS if c.startswith(text)] + [None])[state]
                           if readline.get_begidx() == 0 else None)
    readline.parse_and_bind("tab: complete")
    try:
        readline.read_history_file(HISTORY)
    except OSError:
        pass
    sys.stdout.write(f"p4odp cli: {channel.program} at {channel.address}; `help` lists the commands, Ctrl-D quits\n")
    try:
        while True:
            try:
                line = input("p4odp> ")
            except EOFError:
                sys.stdout.write("\n")
                return 0
            if line.strip() in ("help", "?"):
                sys.stdout.write(" ".join(COMMANDS) + "\n")
                continue
            try:
                sys.stdout.write(channel.command(line))
            except CommandError as err:
                sys.stdout.write(f"error: {err}\n")
            except ChannelError as err:
                sys.stdout.write(f"error: {err}\n")
                return 1
    finally:
        try:
            readline.write_history_file(HISTORY)
        except OSError:
            pass
