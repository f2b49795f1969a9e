"""A client of a running switch's control channel (runtime/core/channel.c).

    with SwitchChannel("unix:p4odp.sock") as switch:
        print(switch.command("table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 00:00:00:00:00:01 1"))

Protocol version 1: the switch greets with `p4odp-control 1 PROGRAM`; each command line is
answered `ok N` or `error N` followed by N bytes (what the command printed, or why it failed).
"""

from __future__ import annotations

import socket
from typing import Optional

__all__ = ["DEFAULT_ADDRESS", "ChannelError", "CommandError", "SwitchChannel"]

DEFAULT_ADDRESS = "unix:p4odp.sock"  # the switch's default, in its run directory
PROTOCOL_VERSION = 1
MAX_LINE = 8191  # the longest line the switch takes, without its newline


class ChannelError(Exception):
    """The switch cannot be reached, or spoke something other than the protocol."""


class CommandError(Exception):
    """The switch refused a command (and changed nothing)."""


class SwitchChannel:
    def __init__(self, address: str = DEFAULT_ADDRESS, timeout: Optional[float] = 30.0) -> None:
        self.address = address
        try:
            self.sock = _connect(address, timeout)
        except OSError as err:
            raise ChannelError(f"{address}: cannot connect: {err.strerror or err}") from None
        self.reader = self.sock.makefile("rb")
        try:
            self.program = self._greeting()
        except ChannelError:
            self.close()
            raise

    def _greeting(self) -> str:
        """The program the switch runs, from its greeting."""
        line = self._line()
        words = line.split(" ", 2)
        if words[0] == "error" and len(words) == 2 and words[1].isdigit():  # the switch refused the connection
            raise ChannelError(f"{self.address}: {self.reader.read(int(words[1])).decode(errors='replace')}")
        if len(words) < 2 or words[0] != "p4odp-control" or not words[1].isdigit():
            raise ChannelError(f"{self.address}: not a p4odp switch's control channel")
        if int(words[1]) != PROTOCOL_VERSION:
            raise ChannelError(f"{self.address}: control protocol version {words[1]}, this client speaks "
                               f"{PROTOCOL_VERSION}")
        return words[2] if len(words) > 2 else ""

    def command(self, line: str) -> str:
        """Run one simple_switch_CLI command line; what it printed, or CommandError."""
        data = line.rstrip("\n").encode(errors="surrogateescape")  # bytes read as text pass as they came
        if b"\n" in data:
            raise CommandError("one command at a time: the line holds a newline")
        if len(data) > MAX_LINE:
            raise CommandError("line too long")
        try:
            self.sock.sendall(data + b"\n")
            status, _, size = self._line().partition(" ")
            body = self.reader.read(int(size)) if size.isdigit() else b""
        except OSError as err:
            raise ChannelError(f"{self.address}: {err.strerror or err}") from None
        if status not in ("ok", "error") or not size.isdigit() or len(body) != int(size):
            raise ChannelError(f"{self.address}: the switch closed the connection or answered out of protocol")
        text = body.decode(errors="replace")
        if status == "error":
            raise CommandError(text)
        return text

    def _line(self) -> str:
        try:
            raw = self.reader.readline(65536)
        except OSError as err:
            raise ChannelError(f"{self.address}: {err.strerror or err}") from None
        if not raw.endswith(b"\n"):
            raise ChannelError(f"{self.address}: the switch closed the connection or answered out of protocol")
        return raw.decode(errors="replace").rstrip("\n")

    def close(self) -> None:
        self.reader.close()
        self.sock.close()

    def __enter__(self) -> "SwitchChannel":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _connect(address: str, timeout: Optional[float]) -> socket.socket:
    if address.startswith("unix:"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        target = address[5:]
    elif address.startswith("tcp:") and address.count(":") == 2 and address.rsplit(":", 1)[1].isdigit():
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        host, port = address[4:].rsplit(":", 1)
        target = (host, int(port))
    else:
        raise OSError(0, "expected unix:PATH or tcp:HOST:PORT")
    sock.settimeout(timeout)
    try:
        sock.connect(target)
    except OSError:
        sock.close()
        raise
    return sock
