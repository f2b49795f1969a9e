"""`p4odp swap`: another program into a running switch, through its control channel (BMv2's
load_new_config_file and swap_configs): the program's datapath.so is loaded beside the one
forwarding, its tables filled from a commands file, then swapped in between two bursts of each
worker, without a lost packet.  With `keep_state`, what the control plane wrote into the running
program (entries with what controllers keep with them, default actions, action profile members and
groups, meter configs, value sets) is first read from the switch and written into the loaded one
through the switch's typed API (wire.py), as P4Runtime's RECONCILE_AND_COMMIT does: all of it, or
no swap."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

from p4odp.controlplane.channel import ChannelError, CommandError, SwitchChannel
from p4odp.controlplane.cli import run_lines
from p4odp.controlplane.device import Device, P4RuntimeError

__all__ = ["swap_program"]


class _NotSwapped(Exception):
    """Why the loaded program was not swapped in."""


def swap_program(address: str, datapath: Path, commands: Optional[str], keep_state: bool = False) -> int:
    """Swap the program of `datapath` into the switch at `address`, after writing the running
    program's state into it (`keep_state`) and running the commands of file `commands` on it; 0,
    or 1 after saying why not (the switch then runs its program still, unchanged)."""
    if keep_state:
        return _swap_keeping_state(address, datapath, commands)
    try:
        with SwitchChannel(address) as channel:
            before = channel.program
            try:
                after = channel.load_program(str(datapath.resolve()))
            except CommandError as err:
                sys.stderr.write(f"error: {address}: {err}\n")
                return 1
            # From here, the loaded program is this connection's: the switch drops it if it closes.
            if commands is not None and _run_commands(channel, commands):
                channel.command("discard_new_config")
                sys.stderr.write(f"error: {address}: {after} was not swapped in; {before} runs on\n")
                return 1
            channel.command("swap_configs")
    except (ChannelError, CommandError) as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    sys.stderr.write(f"{address}: {after} runs in place of {before}\n")
    return 0


def _swap_keeping_state(address: str, datapath: Path, commands: Optional[str]) -> int:
    def no_controller(message) -> bool:  # digests and packet-ins have no one to go to
        return False

    try:
        running = Device(address, 0, no_controller)
    except (ChannelError, CommandError) as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    try:
        loaded = Device(address, 0, no_controller, load=str(datapath.resolve()), events=running.events)
    except (ChannelError, CommandError) as err:
        sys.stderr.write(f"error: {address}: {err}\n")
        running.close()
        return 1
    try:
        refused = next((err for err in loaded.write(running.forwarding_state()) if err), None)
        if refused is not None:
            raise _NotSwapped(f"{loaded.program} cannot keep the state of {running.program}: {refused.message}")
        if commands is not None:
            with loaded.wire.text() as channel:
                failed = _run_commands(channel, commands)
            if failed:
                raise _NotSwapped(f"{loaded.program} was not swapped in")
        loaded.swap_in(running)
    except (_NotSwapped, P4RuntimeError, ChannelError, CommandError) as err:
        loaded.discard()
        running.close()
        sys.stderr.write(f"error: {address}: {err}; {running.program} runs on\n")
        return 1
    sys.stderr.write(f"{address}: {loaded.program} runs in place of {running.program}, with its state\n")
    loaded.close()
    return 0


def _run_commands(channel: SwitchChannel, path: str) -> int:
    """The commands of file `path` on the program loaded, as `p4odp cli FILE` runs them: 0, or 1
    after reporting each refused one (file:line) or a file that cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as lines:
            return run_lines(channel, lines, path)
    except OSError as err:
        sys.stderr.write(f"error: {path}: {err.strerror}\n")
        return 1
