"""A client of a running switch's control channel (runtime/core/channel.c).

    with SwitchChannel("unix:p4odp.sock") as switch:
        print(switch.command("table_add ipv4_lpm ipv4_forward 10.0.0.0/8 => 00:00:00:00:00:01 1"))

Protocol version 2: the switch greets with `p4odp-control 2 PROGRAM`; each command line is
answered `ok N` or `error N` followed by N bytes (what the command printed, or why it failed).
A client that sent `digest_listen` or `packet_listen` also gets `event N` and an N-byte line
between answers (a digest message, a packet the program sent to the CPU port: `listen` and
`next_event`).  The line `binary` turns the connection into one of frames (wire.py).
"""

from __future__ import annotations

import collections
import select
import socket
import time
from typing import Optional

from p4odp.runtime.limits import CONTROL_LINE, WIRE_VERSION

__all__ = ["DEFAULT_ADDRESS", "ChannelError", "CommandError", "SwitchChannel"]

DEFAULT_ADDRESS = "unix:p4odp.sock"  # the switch's default, in its run directory
PROTOCOL_VERSION = WIRE_VERSION
MAX_LINE = CONTROL_LINE - 1  # the longest line the switch takes, without its newline


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
        self.received = bytearray()  # bytes from the switch not yet taken
        self.events: collections.deque[str] = collections.deque()  # events that came with answers
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
            raise ChannelError(f"{self.address}: {self._bytes(int(words[1])).decode(errors='replace')}")
        if len(words) < 2 or words[0] != "p4odp-control" or not words[1].isdigit():
            raise ChannelError(f"{self.address}: not a p4odp switch's control channel")
        if int(words[1]) != PROTOCOL_VERSION:
            raise ChannelError(f"{self.address}: control protocol version {words[1]}, this client speaks "
                               f"{PROTOCOL_VERSION}")
        return words[2] if len(words) > 2 else ""

    def command(self, line: str) -> str:
        """Run one simple_switch_CLI command line; what it printed, or CommandError."""
        ok, text = self.commands([line])[0]
        if not ok:
            raise CommandError(text)
        return text

    def load_program(self, datapath: str) -> str:
        """Load the program of a datapath.so beside the running one (load_new_config_file: this
        connection's commands then go to it); its name, or CommandError."""
        return self.command(f"load_new_config_file {datapath}").removeprefix("program ").strip()

    def commands(self, lines: list[str]) -> list[tuple[bool, str]]:
        """Run command lines in order, each whatever the others' outcome: for each, whether it
        succeeded and what it printed or why it failed.  Lines are sent a window at a time
        without waiting for each answer (the switch answers in order)."""
        results: list[tuple[bool, str]] = []
        window: list[bytes | CommandError] = []
        window_bytes = 0
        for line in lines:
            data = _encoded(line)
            window.append(data)
            window_bytes += len(data) + 1 if isinstance(data, bytes) else 0
            if window_bytes >= self.WINDOW_BYTES:
                results += self._run_window(window)
                window, window_bytes = [], 0
        return results + self._run_window(window)

    # The bytes of lines in flight at once: they must fit the sockets' buffers, or this client,
    # still sending, and the switch, which reads a client's next line only once the client has
    # taken the last answer, would wait for each other.
    WINDOW_BYTES = 32768

    def _run_window(self, window: list) -> list[tuple[bool, str]]:
        try:
            self.sock.sendall(b"".join(data + b"\n" for data in window if isinstance(data, bytes)))
            return [self._answer() if isinstance(data, bytes) else (False, data.args[0]) for data in window]
        except OSError as err:
            raise ChannelError(f"{self.address}: {err.strerror or err}") from None

    def binary(self) -> None:
        """From now on this connection carries frames (calls), not lines: see `calls`."""
        self.command("binary")

    def calls(self, requests: list[bytes]) -> list[bytes]:
        """Send request frames' bodies (p4odp_wire.h: an op and its arguments) in order, a window
        at a time; the answers' bodies (a status and the results)."""
        answers: list[bytes] = []
        window, size = [], 0
        try:
            for body in requests:
                window.append(body)
                size += 4 + len(body)
                if size >= self.WINDOW_BYTES:
                    answers += self._call_window(window)
                    window, size = [], 0
            return answers + self._call_window(window)
        except OSError as err:
            raise ChannelError(f"{self.address}: {err.strerror or err}") from None

    def _call_window(self, window: list[bytes]) -> list[bytes]:
        self.sock.sendall(b"".join(len(body).to_bytes(4, "big") + body for body in window))
        answers: list[bytes] = []
        at = 0  # read from `received` at an offset, cut once: not a copy of the rest per answer
        while len(answers) < len(window):
            if len(self.received) >= at + 4:
                end = at + 4 + int.from_bytes(self.received[at:at + 4], "big")
                if len(self.received) >= end:
                    answers.append(bytes(self.received[at + 4:end]))
                    at = end
                    continue
            self._receive()
        del self.received[:at]
        return answers

    EVENTS = ("digest", "packet", "swap", "idle")

    def listen(self, events: str, on: bool = True) -> None:
        """From now on (`on`) or no longer, the switch's events of a kind of EVENTS come
        (next_event): its digest messages, the packets its program sends to the CPU port,
        where another program was swapped in, or the entries idle past their idle timeout."""
        self.command(f"{events}_listen" if on else f"{events}_unlisten")

    def next_event(self, timeout: Optional[float] = None) -> Optional[str]:
        """The next event line (`digest NAME VALUE...`, `digests_dropped N`, `packet_in HEX`,
        `program_swapped`, `idle_timeout TABLE HANDLE...`, `events_missed N`), waiting at most
        `timeout` seconds for it (None: as long as it takes); None when none came."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.events:
            if not self._frame_received():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                if not select.select([self.sock], [], [], left)[0]:
                    return None
                self._receive()
                continue
            status, body = self._frame()
            if status != "event":
                raise ChannelError(f"{self.address}: an answer to no command")
            self.events.append(body.rstrip("\n"))
        return self.events.popleft()

    def _answer(self) -> tuple[bool, str]:
        """The next answer; the events before it are kept for next_event."""
        while True:
            status, body = self._frame()
            if status != "event":
                return status == "ok", body
            self.events.append(body.rstrip("\n"))

    def _frame(self) -> tuple[str, str]:
        """The next `STATUS N` line and its N bytes."""
        status, _, size = self._line().partition(" ")
        if status not in ("ok", "error", "event") or not size.isdigit():
            raise ChannelError(f"{self.address}: the switch answered out of protocol")
        return status, self._bytes(int(size)).decode(errors="replace")

    def _frame_received(self) -> bool:
        """Whether a whole frame is in `received`."""
        newline = self.received.find(b"\n")
        if newline < 0:
            return False
        size = self.received[:newline].partition(b" ")[2]
        return size.isdigit() and len(self.received) >= newline + 1 + int(size)

    def _line(self) -> str:
        while (newline := self.received.find(b"\n")) < 0:
            if len(self.received) > 65536:
                raise ChannelError(f"{self.address}: the switch answered out of protocol")
            self._receive()
        line = bytes(self.received[:newline])
        del self.received[:newline + 1]
        return line.decode(errors="replace")

    def _bytes(self, n: int) -> bytes:
        while len(self.received) < n:
            self._receive()
        data = bytes(self.received[:n])
        del self.received[:n]
        return data

    def _receive(self) -> None:
        try:
            data = self.sock.recv(65536)
        except OSError as err:
            raise ChannelError(f"{self.address}: {err.strerror or err}") from None
        if not data:
            raise ChannelError(f"{self.address}: the switch closed the connection")
        self.received += data

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> "SwitchChannel":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _encoded(line: str) -> bytes | CommandError:
    """The line as sent (bytes read as text pass as they came), or why it cannot be."""
    data = line.rstrip("\n").encode(errors="surrogateescape")
    if b"\n" in data:
        return CommandError("one command at a time: the line holds a newline")
    if len(data) > MAX_LINE:
        return CommandError("line too long")
    return data


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
