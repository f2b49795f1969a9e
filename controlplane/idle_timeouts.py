"""P4Runtime's idle timeouts (sections "Idle-timeout" and "Table Idle Timeout Notification" of the
specification): the switch reports the entries of tables with support_timeout idle past their TTL
(`idle_timeout TABLE HANDLE...` events, its timers started again), and this listener sends them
to the primary controller as IdleTimeoutNotifications, one per table and report, each entry with
its key and its idle_timeout_ns, read from the switch on a connection of its own (the events'
thread must not wait for the server's requests)."""

from __future__ import annotations

import time
from typing import Callable, Optional

from p4odp.controlplane import wire
from p4odp.controlplane.channel import ChannelError, SwitchChannel
from p4odp.controlplane.pipeline import Pipeline, TableInfo
from p4odp.controlplane.protos import p4runtime_pb2
from p4odp.controlplane.wire import Match, Wire, WireError

__all__ = ["IdleTimeouts"]


class IdleTimeouts:
    """The switch's idle_timeout events (an EventListener of events.SwitchEvents)."""
    events = "idle"
    words = ("idle_timeout",)

    def __init__(self, switch: str, pipeline: Pipeline, deliver: Callable[[object], bool],
                 notified_entry: Callable[[TableInfo, Match, int, tuple], p4runtime_pb2.TableEntry]) -> None:
        """The events of the switch at control channel address `switch`, which runs `pipeline`;
        `deliver(StreamMessageResponse)` sends a notification to the primary controller (False:
        there is none, and the notification is dropped, as the specification allows);
        `notified_entry(table, match, ttl, note)` is an entry as a notification names it."""
        self.switch = switch
        self.deliver = deliver
        self.notified_entry = notified_entry
        self.tables = {table.name: table for table in pipeline.tables.values() if table.idle_timeout}
        self.reported: list[tuple[str, list[int]]] = []  # (table, handles) not yet sent
        self.wire: Optional[Wire] = None  # opened at the first report

    def wanted(self) -> bool:
        return bool(self.tables)

    def take(self, event: str) -> None:
        _, table, *handles = event.split(" ")
        if table in self.tables and all(h.isdigit() for h in handles):
            self.reported.append((table, [int(h) for h in handles]))

    def tick(self) -> None:
        """Send what was reported since the last tick (the events' thread)."""
        reported, self.reported = self.reported, []
        for table_name, handles in reported:
            entries = self._entries(table_name, handles)
            if entries:
                message = p4runtime_pb2.StreamMessageResponse()
                message.idle_timeout_notification.timestamp = time.time_ns()
                message.idle_timeout_notification.table_entry.extend(entries)
                self.deliver(message)

    def flush(self) -> None:
        """The program was swapped out: its reports are moot, its tables gone."""
        self.reported = []
        self.close()

    def close(self) -> None:
        if self.wire is not None:
            self.wire.channel.close()
            self.wire = None

    def _entries(self, table_name: str, handles: list[int]) -> list[p4runtime_pb2.TableEntry]:
        """The entries of `handles` still in the table, as a notification names them."""
        table = self.tables[table_name]
        try:
            if self.wire is None:
                self.wire = Wire(SwitchChannel(self.switch, timeout=None))
            index = self.wire.tables[table_name]
            answers = self.wire.calls([request for handle in handles for request in
                                       (wire.entry(index, handle), wire.entry_timer(index, handle),
                                        wire.entry_note(index, handle))])
        except ChannelError:  # the switch is gone: so are its entries
            self.close()
            return []
        entries = []
        for read, timer, note in zip(answers[::3], answers[1::3], answers[2::3]):
            if any(isinstance(answer, WireError) for answer in (read, timer, note)):
                continue  # deleted since it was reported
            entries.append(self.notified_entry(table, read.match(table.keys), timer.u64(), note.note()))
        return entries
