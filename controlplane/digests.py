"""P4Runtime's digests: the switch's digest messages (its control channel's events) gathered
into DigestLists for the primary controller, as each digest's DigestEntry config says (section
"DigestEntry" of the specification): a list goes when it holds max_list_size messages or its
first has waited max_timeout_ns; a message already in a list not yet acknowledged (for
ack_timeout_ns) is not sent again.  The switch's events thread (events.py) hands it the
messages; the switch sends them only while some digest is configured."""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from p4odp.controlplane.bytestrings import canonical
from p4odp.controlplane.protos import p4data_pb2, p4info_pb2, p4runtime_pb2

__all__ = ["DigestLists"]


@dataclass
class _Digest:
    """A configured digest: its config, the list being gathered and the lists not acknowledged."""
    config: p4runtime_pb2.DigestEntry.Config
    gathering: list = field(default_factory=list)  # P4Data
    keys: set = field(default_factory=set)  # of `gathering`, serialized
    first_ns: int = 0  # when the first of `gathering` came
    unacknowledged: dict = field(default_factory=dict)  # list id -> (keys, sent at ns)


class DigestLists:
    """The switch's digest events (an EventListener of events.SwitchEvents)."""
    events = "digest"
    words = ("digest",)  # digests_dropped: the specification allows losing digests

    def __init__(self, info: p4info_pb2.P4Info, deliver: Callable[[object], bool]) -> None:
        """`deliver(StreamMessageResponse)` sends a list to the primary controller; False when
        there is none (the list is then dropped, as the specification allows)."""
        self.info = info
        self.deliver = deliver
        self.ids = {digest.preamble.name: digest.preamble.id for digest in info.digests}
        self.specs = {digest.preamble.id: digest.type_spec for digest in info.digests}
        self.lock = threading.Lock()
        self.digests: dict[int, _Digest] = {}
        self.list_ids = 0
        self.unexpected: set[str] = set()  # digests the switch sent that P4Info does not describe, said

    # --- from the server's requests (any thread) ------------------------------------------

    def known(self, digest_id: int) -> bool:
        return digest_id in self.specs

    def configured(self, digest_id: int) -> Optional[p4runtime_pb2.DigestEntry.Config]:
        with self.lock:
            digest = self.digests.get(digest_id)
            return digest.config if digest is not None else None

    def configure(self, digest_id: int, config: Optional[p4runtime_pb2.DigestEntry.Config]) -> None:
        """Start, change or (None) stop digest `digest_id`."""
        with self.lock:
            if config is None:
                self.digests.pop(digest_id, None)
            elif digest_id in self.digests:
                self.digests[digest_id].config = config
            else:
                self.digests[digest_id] = _Digest(config)

    def entries(self) -> Iterator:
        """The configured digests' DigestEntry."""
        with self.lock:
            configured = sorted(self.digests.items())
        for digest_id, digest in configured:
            yield p4runtime_pb2.DigestEntry(digest_id=digest_id, config=digest.config)

    def acknowledge(self, digest_id: int, list_id: int) -> None:
        with self.lock:
            digest = self.digests.get(digest_id)
            if digest is not None:
                digest.unacknowledged.pop(list_id, None)

    def clear(self) -> None:
        with self.lock:
            self.digests.clear()

    # --- from the events' thread ------------------------------------------------------------

    def wanted(self) -> bool:
        with self.lock:
            return bool(self.digests)

    def take(self, event: str) -> None:
        words = event.split(" ")
        digest_id = self.ids.get(words[1]) if len(words) > 1 else None
        try:
            if digest_id is None:
                raise KeyError(words[1] if len(words) > 1 else "")
            values = iter(words[2:])
            data = self._data(self.specs[digest_id], values)
            if next(values, None) is not None:
                raise ValueError("more values than the digest's fields")
        except (StopIteration, ValueError, KeyError):  # not what P4Info describes: said, once a digest
            self._unexpected(words[1] if len(words) > 1 else event)
            return
        key = data.SerializeToString(deterministic=True)
        now = time.monotonic_ns()
        with self.lock:
            digest = self.digests.get(digest_id)
            if digest is None or key in digest.keys or any(key in keys for keys, _ in digest.unacknowledged.values()):
                return
            if not digest.gathering:
                digest.first_ns = now
            digest.gathering.append(data)
            digest.keys.add(key)
            config = digest.config
            if config.max_timeout_ns == 0 or config.max_list_size == 1 or \
                    config.max_list_size and len(digest.gathering) >= config.max_list_size:
                self._send(digest_id, digest, now)

    def _unexpected(self, name: str) -> None:
        """A message the switch sent that the P4Info does not describe (one control-plane list
        makes both, so a p4odp bug): dropped, and said on stderr the first time for each name."""
        if name in self.unexpected:
            return
        self.unexpected.add(name)
        sys.stderr.write(f"p4odp runtime: internal error: the switch sent a message of digest {name!r} that its "
                         "P4Info does not describe; it is dropped (please report this p4odp bug)\n")

    def tick(self) -> None:
        """Send the lists whose first message has waited max_timeout_ns; forget the lists not
        acknowledged for ack_timeout_ns."""
        now = time.monotonic_ns()
        with self.lock:
            for digest_id, digest in self.digests.items():
                if digest.gathering and now - digest.first_ns >= digest.config.max_timeout_ns:
                    self._send(digest_id, digest, now)
                timeout = digest.config.ack_timeout_ns
                for list_id, (_, sent_ns) in list(digest.unacknowledged.items()):
                    if now - sent_ns >= timeout:
                        del digest.unacknowledged[list_id]

    def flush(self) -> None:
        """Send every list being gathered."""
        now = time.monotonic_ns()
        with self.lock:
            for digest_id, digest in self.digests.items():
                if digest.gathering:
                    self._send(digest_id, digest, now)

    def _send(self, digest_id: int, digest: _Digest, now: int) -> None:
        """Send the list gathered (the lock is held)."""
        self.list_ids += 1
        message = p4runtime_pb2.StreamMessageResponse()
        message.digest.digest_id = digest_id
        message.digest.list_id = self.list_ids
        message.digest.data.extend(digest.gathering)
        message.digest.timestamp = time.time_ns()
        if self.deliver(message) and digest.config.ack_timeout_ns:
            digest.unacknowledged[self.list_ids] = (digest.keys, now)
        digest.gathering, digest.keys = [], set()

    def _data(self, spec, values: Iterator[str]) -> p4data_pb2.P4Data:
        """The P4Data of a value of type `spec`, from the switch's flattened field values."""
        kind = spec.WhichOneof("type_spec")
        data = p4data_pb2.P4Data()
        if kind == "header":  # a valid header: its fields' bit strings
            data.header.is_valid = True
            for member in self.info.type_info.headers[spec.header.name].members:
                data.header.bitstrings.append(_bytes(next(values)))
        elif kind in ("struct", "tuple"):
            members = self.info.type_info.structs[spec.struct.name].members if kind == "struct" else None
            target = data.struct if kind == "struct" else data.tuple
            for member_spec in ([m.type_spec for m in members] if members is not None else spec.tuple.members):
                target.members.append(self._data(member_spec, values))
        elif kind == "new_type":
            new_type = self.info.type_info.new_types[spec.new_type.name]
            if new_type.WhichOneof("representation") == "original_type":
                return self._data(new_type.original_type, values)
            data.bitstring = _bytes(next(values))
        elif kind == "error":
            data.error.name = next(values)
        elif kind == "enum":
            data.enum = next(values)
        elif kind == "serializable_enum":
            data.enum_value = _bytes(next(values))
        elif kind == "bool":
            data.bool = next(values) != "0x0"
        else:  # bitstring
            data.bitstring = _bytes(next(values))
        return data


def _bytes(value: str) -> bytes:
    return canonical(int(value, 16))
