"""`p4odp swap`: another program into a running switch, through its control channel (BMv2's
load_new_config_file and swap_configs): the program's datapath.so is loaded beside the one
forwarding, its tables filled from a commands file, then swapped in between two bursts of each
worker, without a lost packet."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

from p4odp.controlplane.channel import ChannelError, CommandError, SwitchChannel
from p4odp.controlplane.cli import run_lines

__all__ = ["swap_program"]


def swap_program(address: str, datapath: Path, commands: Optional[str]) -> int:
    """Swap the program of `datapath` into the switch at `address`, after running the commands
    of file `commands` on it; 0, or 1 after saying why not (the switch then runs its program
    still, unchanged)."""
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


def _run_commands(channel: SwitchChannel, path: str) -> int:
    """The commands of file `path` on the program loaded, as `p4odp cli FILE` runs them: 0, or 1
    after reporting each refused one (file:line) or a file that cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as lines:
            return run_lines(channel, lines, path)
    except OSError as err:
        sys.stderr.write(f"error: {path}: {err.strerror}\n")
        return 1
