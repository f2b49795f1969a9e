"""A PTF base test for a switch served by P4Runtime (`p4odp ptf` runs the tests that derive from it):
the dataplane of PTF, and a primary controller of the switch, which the test programs by name.

    from ptf import testutils
    from p4odp.ptfharness.base_test import P4RuntimeTest

    class Route(P4RuntimeTest):
        def runTest(self):
            self.insert("ipv4_lpm", {"hdr.ipv4.dstAddr": ("10.0.1.0", 24)}, "ipv4_forward",
                        dstAddr="00:00:00:00:01:01", port=1)
            testutils.send_packet(self, 0, packet)
            testutils.verify_packet(self, expected, 1)

Names are P4Info names, in full or by a unique suffix (`ipv4_lpm`, `dstAddr`); values are numbers,
byte strings, or text as simple_switch_CLI reads it (`10.0.0.1`, `00:00:00:00:00:01`, `0x800`).
What a test writes is deleted after it, in reverse order, so that each test starts from the
switch's initial state.  Test parameters (`--test-params`): grpcaddr (the server's address;
`p4odp ptf` sets it), device_id (default 0), election_id (default 1).
"""

from __future__ import annotations

import ipaddress
import queue
import threading
import time
from typing import Optional

import grpc
import ptf
from ptf import testutils
from ptf.base_tests import BaseTest

from p4odp.controlplane.bytestrings import canonical
from p4odp.controlplane.protos import p4info_pb2, p4runtime_pb2, p4runtime_pb2_grpc

__all__ = ["P4RuntimeTest"]

Update = p4runtime_pb2.Update
MatchField = p4info_pb2.MatchField
STREAM_TIMEOUT = 10  # seconds to wait for the arbitration answer


class P4RuntimeTest(BaseTest):
    def setUp(self) -> None:
        BaseTest.setUp(self)
        self.dataplane = ptf.dataplane_instance
        self.dataplane.flush()
        self.device_id = testutils.test_param_get("device_id", 0)
        self.election_id = testutils.test_param_get("election_id", 1)
        self.channel = grpc.insecure_channel(testutils.test_param_get("grpcaddr", "127.0.0.1:9559"))
        self.addCleanup(self.channel.close)  # cleanups run when setUp fails too, unlike tearDown
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.info = self.stub.GetForwardingPipelineConfig(p4runtime_pb2.GetForwardingPipelineConfigRequest(
            device_id=self.device_id, response_type=p4runtime_pb2.GetForwardingPipelineConfigRequest.P4INFO_AND_COOKIE
        )).config.p4info
        self.undo: list[p4runtime_pb2.Update] = []  # what tearDown deletes, last first
        self.requests: queue.Queue = queue.Queue()
        self.received: dict[str, queue.Queue] = {}  # the stream's messages by kind
        self.stream = self.stub.StreamChannel(iter(self.requests.get, None))
        self.receiver = threading.Thread(target=self._receive, daemon=True)
        self.receiver.start()
        self.addCleanup(self._end_stream)
        arbitration = p4runtime_pb2.StreamMessageRequest()
        arbitration.arbitration.device_id = self.device_id
        arbitration.arbitration.election_id.low = self.election_id
        self.requests.put(arbitration)
        answer = self.stream_message("arbitration", STREAM_TIMEOUT)
        if answer is None or answer.arbitration.status.code != 0:
            self.fail(f"not the primary controller of device {self.device_id}: {answer}")

    def tearDown(self) -> None:
        try:
            if self.undo:
                self.write(*reversed(self.undo), undo=False)
        finally:
            BaseTest.tearDown(self)

    def _end_stream(self) -> None:
        """End the stream and wait until the server has ended it too: the next test's controller,
        with the same election id, is refused while this one is still connected (P4Runtime spec)."""
        self.requests.put(None)
        self.receiver.join(STREAM_TIMEOUT)

    def _receive(self) -> None:
        try:
            for message in self.stream:
                self.received.setdefault(message.WhichOneof("update"), queue.Queue()).put(message)
        except grpc.RpcError:  # the channel closed
            pass

    # --- names -----------------------------------------------------------------------------

    def _find(self, entities, name: str, what: str):
        """The entity called `name` among `entities` (P4Info messages with a preamble, or with a
        name), in full or by a unique suffix."""
        def full(entity):
            return entity.preamble.name if hasattr(entity, "preamble") else entity.name
        found = [e for e in entities if full(e) == name] or \
            [e for e in entities if full(e).endswith("." + name)]
        if len(found) != 1:
            self.fail(f"{'no' if not found else 'more than one'} {what} named {name!r}")
        return found[0]

    # --- writes ----------------------------------------------------------------------------

    def write(self, *updates: p4runtime_pb2.Update, undo: bool = True) -> None:
        """Write `updates` in one batch; inserted entities are deleted after the test."""
        request = p4runtime_pb2.WriteRequest(device_id=self.device_id)
        request.election_id.low = self.election_id
        request.updates.extend(updates)
        self.stub.Write(request)
        if undo:
            self.undo += [Update(type=Update.DELETE, entity=u.entity) for u in updates if u.type == Update.INSERT]

    def table_entry(self, table: str, match: dict, action: Optional[str] = None, priority: int = 0,
                    **params) -> p4runtime_pb2.Entity:
        """An entry of `table`: `match` maps field names to a value (exact, optional), (value,
        prefix length) (lpm), (value, mask) (ternary) or (low, high) (range); the action and its
        parameters by name."""
        info = self._find(self.info.tables, table, "table")
        entity = p4runtime_pb2.Entity()
        entry = entity.table_entry
        entry.table_id = info.preamble.id
        entry.priority = priority
        for name, value in match.items():
            field = self._find(info.match_fields, name, f"match field of table {table}")
            m = entry.match.add(field_id=field.id)
            width = field.bitwidth
            if field.match_type == MatchField.EXACT:
                m.exact.value = _bytes(value, width)
            elif field.match_type == MatchField.LPM:
                m.lpm.value, m.lpm.prefix_len = _bytes(value[0], width), value[1]
            elif field.match_type == MatchField.TERNARY:
                m.ternary.value, m.ternary.mask = _bytes(value[0], width), _bytes(value[1], width)
            elif field.match_type == MatchField.RANGE:
                m.range.low, m.range.high = _bytes(value[0], width), _bytes(value[1], width)
            else:
                m.optional.value = _bytes(value, width)
        if action is not None:
            entry.action.action.CopyFrom(self._action(action, params))
        return entity

    def _action(self, name: str, params: dict) -> p4runtime_pb2.Action:
        info = self._find(self.info.actions, name, "action")
        action = p4runtime_pb2.Action(action_id=info.preamble.id)
        for param_name, value in params.items():
            param = self._find(info.params, param_name, f"parameter of action {name}")
            action.params.add(param_id=param.id, value=_bytes(value, param.bitwidth))
        return action

    def insert(self, table: str, match: dict, action: str, priority: int = 0, **params) -> None:
        self.write(Update(type=Update.INSERT, entity=self.table_entry(table, match, action, priority, **params)))

    def insert_member(self, profile: str, member_id: int, action: str, **params) -> None:
        """Member `member_id` of action profile (or selector) `profile`: the action it runs."""
        entity = p4runtime_pb2.Entity()
        member = entity.action_profile_member
        member.action_profile_id = self._find(self.info.action_profiles, profile, "action profile").preamble.id
        member.member_id = member_id
        member.action.CopyFrom(self._action(action, params))
        self.write(Update(type=Update.INSERT, entity=entity))

    def _group(self, profile: str, group_id: int, members: list[int]) -> p4runtime_pb2.Entity:
        entity = p4runtime_pb2.Entity()
        group = entity.action_profile_group
        group.action_profile_id = self._find(self.info.action_profiles, profile, "action profile").preamble.id
        group.group_id = group_id
        for member_id in members:
            group.members.add(member_id=member_id, weight=1)
        return entity

    def insert_group(self, profile: str, group_id: int, members: list[int]) -> None:
        """Group `group_id` of action selector `profile`, of `members` (member ids)."""
        self.write(Update(type=Update.INSERT, entity=self._group(profile, group_id, members)))

    def modify_group(self, profile: str, group_id: int, members: list[int]) -> None:
        """Group `group_id` of `profile` made of `members` from now on."""
        self.write(Update(type=Update.MODIFY, entity=self._group(profile, group_id, members)))

    def insert_indirect(self, table: str, match: dict, member: Optional[int] = None, group: Optional[int] = None,
                        priority: int = 0) -> None:
        """An entry of `table` (which has an `implementation`) that names a member or a group."""
        entity = self.table_entry(table, match, None, priority)
        if group is not None:
            entity.table_entry.action.action_profile_group_id = group
        else:
            entity.table_entry.action.action_profile_member_id = member
        self.write(Update(type=Update.INSERT, entity=entity))

    def set_default(self, table: str, action: str, **params) -> None:
        """The table's default action, until the test ends (then the program's again)."""
        entity = self.table_entry(table, {}, action, **params)
        entity.table_entry.is_default_action = True
        self.write(Update(type=Update.MODIFY, entity=entity), undo=False)
        restore = p4runtime_pb2.Entity()
        restore.table_entry.table_id = entity.table_entry.table_id
        restore.table_entry.is_default_action = True
        self.undo.append(Update(type=Update.MODIFY, entity=restore))

    def insert_multicast_group(self, group_id: int, replicas: list[tuple[int, int]]) -> None:
        """Multicast group `group_id` of `replicas`, each (port, instance)."""
        entity = p4runtime_pb2.Entity()
        group = entity.packet_replication_engine_entry.multicast_group_entry
        group.multicast_group_id = group_id
        for port, instance in replicas:
            group.replicas.add(egress_port=port, instance=instance)
        self.write(Update(type=Update.INSERT, entity=entity))

    def enable_digest(self, name: str, max_list_size: int = 1) -> None:
        """Digest `name`'s messages sent to this controller, in lists of `max_list_size`."""
        entity = p4runtime_pb2.Entity()
        entity.digest_entry.digest_id = self._find(self.info.digests, name, "digest").preamble.id
        entity.digest_entry.config.max_list_size = max_list_size
        self.write(Update(type=Update.INSERT, entity=entity))

    # --- reads -----------------------------------------------------------------------------

    def counter(self, name: str, index: int) -> tuple[int, int]:
        """Cell `index` of counter `name`: (packets, bytes)."""
        entity = p4runtime_pb2.Entity()
        entity.counter_entry.counter_id = self._find(self.info.counters, name, "counter").preamble.id
        entity.counter_entry.index.index = index
        request = p4runtime_pb2.ReadRequest(device_id=self.device_id, entities=[entity])
        data = next(iter(self.stub.Read(request))).entities[0].counter_entry.data
        return data.packet_count, data.byte_count

    # --- the stream ------------------------------------------------------------------------

    def stream_message(self, kind: str, timeout: float = 2) -> Optional[p4runtime_pb2.StreamMessageResponse]:
        """The next message of `kind` (packet, digest, error, arbitration...) within `timeout`."""
        try:
            return self.received.setdefault(kind, queue.Queue()).get(timeout=timeout)
        except queue.Empty:
            return None

    def packet_out(self, payload: bytes, **metadata) -> None:
        """Send `payload` into the switch through its CPU port, with the packet_out header's
        fields by name."""
        header = next((h for h in self.info.controller_packet_metadata if h.preamble.name == "packet_out"), None)
        request = p4runtime_pb2.StreamMessageRequest()
        request.packet.payload = bytes(payload)
        for name, value in metadata.items():
            if header is None:
                self.fail("the program has no @controller_header(\"packet_out\") header")
            field = self._find(header.metadata, name, "packet_out field")
            request.packet.metadata.add(metadata_id=field.id, value=_bytes(value, field.bitwidth))
        self.requests.put(request)

    def packet_in(self, timeout: float = 2) -> Optional[tuple[bytes, dict]]:
        """The next packet the program sent to the CPU port within `timeout`: its payload and its
        packet_in header's fields by name (numbers)."""
        message = self.stream_message("packet", timeout)
        if message is None:
            return None
        header = next((h for h in self.info.controller_packet_metadata if h.preamble.name == "packet_in"), None)
        names = {m.id: m.name for m in header.metadata} if header is not None else {}
        return message.packet.payload, {names[m.metadata_id]: int.from_bytes(m.value, "big")
                                        for m in message.packet.metadata}

    def digest(self, timeout: float = 2) -> Optional[p4runtime_pb2.DigestList]:
        """The next digest list within `timeout`, acknowledged."""
        message = self.stream_message("digest", timeout)
        if message is None:
            return None
        ack = p4runtime_pb2.StreamMessageRequest()
        ack.digest_ack.digest_id, ack.digest_ack.list_id = message.digest.digest_id, message.digest.list_id
        self.requests.put(ack)
        return message.digest

    def wait_for(self, condition, timeout: float = 2) -> bool:
        """Whether `condition()` holds within `timeout` (the switch works while the test waits)."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True


def _bytes(value, width: int) -> bytes:
    """A value as a P4Runtime byte string of `width` bits: a number, bytes, or text (decimal,
    0x hex, an IPv4 or IPv6 address, a MAC address)."""
    if isinstance(value, (bytes, bytearray)):
        number = int.from_bytes(value, "big")
    elif isinstance(value, int):
        number = value
    elif len(value) == 17 and value.count(":") == 5 and all(len(part) == 2 for part in value.split(":")):
        number = int(value.replace(":", ""), 16)  # a MAC address
    elif "." in value or ":" in value:
        number = int(ipaddress.ip_address(value))
    else:
        number = int(value, 0)
    if number < 0 or number >> width:
        raise ValueError(f"{value!r} does not fit in {width} bits")
    return canonical(number)
