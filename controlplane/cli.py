"""`p4odp cli`: simple_switch_CLI's commands against a running switch, from a file, from standard
input or typed at a prompt (with history, and completion of the command names and of the names of
the program's tables, actions, counters, registers, meters, value sets and action profiles); with
--digests, --packets or --idle, the digest messages, the packets sent to the CPU port or the entries
idle past their timeout, as they come."""

from __future__ import annotations

import os
import sys
from typing import Iterable

from p4odp.controlplane.channel import ChannelError, CommandError, SwitchChannel

__all__ = ["run_cli", "run_lines", "Completer"]

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
            return run_lines(channel, stdin, "<stdin>")
        try:
            with open(source, encoding="utf-8", errors="surrogateescape") as lines:
                return run_lines(channel, lines, source)
        except OSError as err:
            sys.stderr.write(f"error: {source}: {err.strerror}\n")
            return 1


def _print_events(channel: SwitchChannel, events: tuple) -> int:
    """Each event (`digest NAME VALUE...`, `packet_in HEX`, `idle_timeout TABLE HANDLE...`) on a line of
    its own, until interrupted."""
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


def _p4info(channel: SwitchChannel):
    """The program's P4Info, from the switch; None when it cannot be had (completion then offers
    the command names alone)."""
    from google.protobuf.message import DecodeError

    from p4odp.controlplane.protos import p4info_pb2

    try:
        return p4info_pb2.P4Info.FromString(bytes.fromhex(channel.command("p4info").strip()))
    except (CommandError, ValueError, DecodeError):
        return None


def run_lines(channel: SwitchChannel, lines: Iterable[str], name: str) -> int:
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


class Completer:
    """The words that may come at a point of a command line: a command's name first, then the
    names of what its arguments name, from the program's P4Info (in full or by alias, as the
    switch takes them)."""

    def __init__(self, commands: list[str], info=None) -> None:
        """`commands`: the names of the switch's commands; `info`: the program's P4Info (None:
        command names only)."""
        self.commands = commands
        def names(*entities) -> list[str]:
            return sorted({n for group in entities for e in group for n in (e.preamble.name, e.preamble.alias) if n})
        self.entities: dict[str, list[str]] = {}  # command prefix -> the names its first argument takes
        self.actions: dict[str, list[str]] = {}  # a table's or action profile's name -> its actions' names
        if info is None:
            return
        self.entities = {"table_": names(info.tables), "counter_": names(info.counters, info.direct_counters),
                         "register_": names(info.registers), "meter_": names(info.meters, info.direct_meters),
                         "pvs_": names(info.value_sets), "act_prof_": names(info.action_profiles)}
        actions = {a.preamble.id: a for a in info.actions}
        for table in info.tables:
            table_actions = names([actions[ref.id] for ref in table.action_refs if ref.id in actions])
            for name in filter(None, (table.preamble.name, table.preamble.alias)):
                self.actions[name] = table_actions
        for profile in info.action_profiles:
            profile_actions = sorted({a for table in info.tables if table.preamble.id in profile.table_ids
                                      for a in self.actions[table.preamble.name]})
            for name in filter(None, (profile.preamble.name, profile.preamble.alias)):
                self.actions[name] = profile_actions

    def candidates(self, before: str, text: str) -> list[str]:
        """The completions of `text`, the word being typed after `before` (the line up to it)."""
        words = before.split()
        if not words:
            choices = self.commands
        elif len(words) == 1:
            choices = next((names for prefix, names in self.entities.items() if words[0].startswith(prefix)), [])
        elif len(words) == 2 and words[0] in ("table_add", "table_set_default", "table_modify",
                                              "act_prof_create_member", "act_prof_modify_member"):
            choices = self.actions.get(words[1], [])
        else:
            choices = []
        return [c for c in choices if c.startswith(text)]


def _interactive(channel: SwitchChannel) -> int:
    import readline

    try:
        commands = channel.command("help").split()
    except CommandError:  # a switch that does not list its commands: no completion of them
        commands = []
    completer = Completer(commands, _p4info(channel))
    readline.set_completer_delims(" \t")
    readline.set_completer(lambda text, state: (completer.candidates(
        readline.get_line_buffer()[:readline.get_begidx()], text) + [None])[state])
    readline.parse_and_bind("tab: complete")
    try:
        readline.read_history_file(HISTORY)
    except OSError:
        pass
    sys.stdout.write(f"p4odp cli: {channel.program} at {channel.address}; `help` lists the commands, Tab completes "
                     "them and the program's names, Ctrl-D quits\n")
    try:
        while True:
            try:
                line = input("p4odp> ")
            except EOFError:
                sys.stdout.write("\n")
                return 0
            if line.strip() == "?":
                line = "help"
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
