"""A P4Runtime client for the tests, on the p4runtime package's own stubs: a controller with its
stream, the entities and updates the tests write, and a switch served for them."""

from __future__ import annotations

import queue
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from google.rpc import status_pb2
from one_header_switch import start_switch

from p4odp.controlplane.protos import p4runtime_pb2 as p4r
from p4odp.controlplane.protos import p4runtime_pb2_grpc
from p4odp.controlplane.server import serve

__all__ = ["Controller", "entry", "update", "rejected", "p4runtime_switch", "counts", "growing"]


@contextmanager
def p4runtime_switch(binary: Path, folder: Path, frames: tuple, options: tuple = ()):
    """The switch `binary` (run with `options` too) replaying `frames` and a P4Runtime server for
    it: the server's HOST:PORT."""
    address = f"unix:{folder / 'control.sock'}"
    process = start_switch(binary, folder, address, frames, options)
    server = None
    try:
        server = serve(address, "127.0.0.1:0")
        yield f"127.0.0.1:{server.port}"
    finally:
        if server is not None:
            server.stop()
        process.kill()
        process.wait()
        process.stderr.close()


class Controller:
    """A P4Runtime client: the stubs, and a StreamChannel it has sent arbitration on."""

    def __init__(self, target: str, election_id: int | None = None, device_id: int = 0) -> None:
        self.channel = grpc.insecure_channel(target)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.election_id = election_id
        self.device_id = device_id
        self.requests: queue.Queue = queue.Queue()
        self.received: queue.Queue = queue.Queue()  # the stream's messages, or the error that ended it
        self.stream = None
        self.info = self.stub.GetForwardingPipelineConfig(
            p4r.GetForwardingPipelineConfigRequest(device_id=device_id)).config.p4info

    def arbitrate(self, election_id: int | None = None, device_id: int | None = None) -> p4r.StreamMessageResponse:
        """Send a MasterArbitrationUpdate (opening the stream the first time); the answer."""
        if election_id is not None:
            self.election_id = election_id
        update = p4r.StreamMessageRequest()
        update.arbitration.device_id = self.device_id if device_id is None else device_id
        if self.election_id is not None:
            update.arbitration.election_id.low = self.election_id
        self.requests.put(update)
        if self.stream is None:
            self.stream = self.stub.StreamChannel(iter(self.requests.get, None))
            threading.Thread(target=self._receive, daemon=True).start()
        return self.message()

    def _receive(self) -> None:
        try:
            for message in self.stream:
                self.received.put(message)
        except grpc.RpcError as err:
            self.received.put(err)

    def message(self, kind: str | None = None, seconds: float = 10) -> p4r.StreamMessageResponse | None:
        """The next message on the stream (of `kind`: digest, error, arbitration...; the others are
        passed over) within `seconds`; None when none came.  The error that ended the stream is raised."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                message = self.received.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if isinstance(message, grpc.RpcError):
                raise message
            if kind is None or message.WhichOneof("update") == kind:
                return message

    def close(self) -> None:
        self.requests.put(None)
        self.channel.close()

    def id_of(self, kind: str, name: str) -> int:
        return next(e.preamble.id for e in getattr(self.info, kind) if e.preamble.name.endswith(name))

    def write(self, *updates: p4r.Update, election_id: int | None = None) -> None:
        request = p4r.WriteRequest(device_id=self.device_id)
        if (election_id or self.election_id) is not None:
            request.election_id.low = election_id or self.election_id
        request.updates.extend(updates)
        self.stub.Write(request)

    def read(self, *entities: p4r.Entity) -> list[p4r.Entity]:
        request = p4r.ReadRequest(device_id=self.device_id)
        request.entities.extend(entities)
        return [entity for response in self.stub.Read(request) for entity in response.entities]

    def table_entries(self, table: str) -> list[p4r.TableEntry]:
        entity = p4r.Entity()
        entity.table_entry.table_id = self.id_of("tables", table)
        return [e.table_entry for e in self.read(entity)]

    def cell(self, index: int) -> int:
        """Packets counted in cell `index` of counter `seen`."""
        entity = p4r.Entity()
        entity.counter_entry.counter_id = self.id_of("counters", "seen")
        entity.counter_entry.index.index = index
        return self.read(entity)[0].counter_entry.data.packet_count


def entry(controller: Controller, table: str, *matches: tuple, action: str | None = None, params: tuple = (),
          priority: int = 0, default: bool = False) -> p4r.Entity:
    """A table entry: each match (field name suffix, kind, values...); the action's params as bytes."""
    entity = p4r.Entity()
    te = entity.table_entry
    te.table_id = controller.id_of("tables", table)
    te.priority = priority
    te.is_default_action = default
    fields = {f.name: f.id for t in controller.info.tables if t.preamble.id == te.table_id for f in t.match_fields}
    for name, kind, *values in matches:
        field = te.match.add(field_id=fields[name])
        if kind == "exact":
            field.exact.value = values[0]
        elif kind == "lpm":
            field.lpm.value, field.lpm.prefix_len = values
        elif kind == "ternary":
            field.ternary.value, field.ternary.mask = values
        elif kind == "range":
            field.range.low, field.range.high = values
        else:
            field.optional.value = values[0]
    if action is not None:
        te.action.action.action_id = controller.id_of("actions", action)
        for number, value in enumerate(params, 1):
            te.action.action.params.add(param_id=number, value=value)
    return entity


def update(kind: int, entity: p4r.Entity) -> p4r.Update:
    return p4r.Update(type=kind, entity=entity)


def rejected(call) -> tuple[grpc.StatusCode, list]:
    """The status a call ended with, and its per-update errors (code, message)."""
    with pytest.raises(grpc.RpcError) as failure:
        call()
    details = []
    for key, value in failure.value.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                error = p4r.Error()
                detail.Unpack(error)
                details.append((error.canonical_code, error.message))
    return failure.value.code(), details


def counts(controller: Controller, counter: str) -> list[int]:
    """Every cell of `counter` (packets), in one read."""
    entity = p4r.Entity()
    entity.counter_entry.counter_id = controller.id_of("counters", counter)
    return [e.counter_entry.data.packet_count for e in controller.read(entity)]


def growing(controller: Controller, counter: str) -> set:
    """The cells of `counter` that grow within a second (the switch replays its frames all the
    while)."""
    before = counts(controller, counter)
    grown: set = set()
    deadline = time.monotonic() + 1
    while time.monotonic() < deadline:
        time.sleep(0.1)
        grown |= {i for i, n in enumerate(counts(controller, counter)) if n > before[i]}
    return grown
