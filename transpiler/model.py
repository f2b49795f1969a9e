"""The C-shaped model the templates print.

The transpiler decides everything (names, layouts, statement order) and
fills these records; the Jinja2 templates only loop over them and print.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

__all__ = ["CStruct", "CFunction", "CKeyField", "CActionParam", "CAction", "CTable",
           "CCounter", "CProgram"]


@dataclass
class CStruct:
    name: str
    p4_name: str
    members: list[str]  # C member declarations, without the ';'


@dataclass
class CFunction:
    signature: str
    body: list[str]  # C lines, already indented relative to the body
    comment: str = ""


@dataclass
class CKeyField:
    name: str  # control-plane name of the key field
    width: int
    match_kind: str  # P4ODP_MATCH_*
    signed: bool  # int<W>


@dataclass
class CActionParam:
    name: str
    width: int
    signed: bool  # int<W>


@dataclass
class CAction:
    id: int
    name: str  # control-plane name
    params: list[CActionParam]


@dataclass
class CFieldMatch:
    """One key field of a const entry as struct p4odp_field_match holds it: its byte strings
    (None: NULL), each ceil(width/8) bytes in network order."""
    value: Optional[list[int]]
    mask: Optional[list[int]] = None
    low: Optional[list[int]] = None
    high: Optional[list[int]] = None
    prefix_len: int = 0
    wildcard: bool = False


@dataclass
class CConstEntry:
    fields: list[CFieldMatch]
    priority: int  # the larger wins
    action_id: int
    data: list[int]  # the action's parameters' bytes


@dataclass
class CTable:
    index: int
    c_name: str
    name: str  # control-plane name
    keys: list[CKeyField]
    action_ids: list[int]
    size: int
    default_action: int
    default_data: list[int]  # action data bytes of the default action
    default_const: bool
    action_data_len: int
    entries: list[CConstEntry] = field(default_factory=list)
    structure: str = "P4ODP_TABLE_AUTO"  # the lookup structure (enum p4odp_table_kind)
    key_bytes: int = 0
    # The key as bytes of the packet, (byte in the key, byte in the packet, bytes) each, when the
    # traffic manager looks it up for a whole burst first (burst-lookup pass); else empty.
    burst_key: list[tuple] = field(default_factory=list)
    burst_state: tuple = ()  # then its members in struct p4_worker_state: (keys, entries) (burst_state())
    profile: int = -1  # the index of its action profile (CProfile), -1 when its entries name actions
    last_hit: str = ""  # with idle timeouts: its entries' hit times in `struct p4_worker_state` (last_hit())

    @property
    def idle_timeout(self) -> bool:
        return bool(self.last_hit)

    @property
    def burst_key_len(self) -> int:
        """The packet bytes the burst's key needs."""
        return max((packet_byte + n for _, packet_byte, n in self.burst_key), default=0)


@dataclass
class CCounter:
    name: str  # control-plane name
    size: int
    member: str  # its cells in `struct p4_worker_state`: uint64_t member[size][2], packets then bytes
    table: int = -1  # a direct counter: the index of its table, whose entry indexes are its cells'


@dataclass
class CMeter:
    name: str  # control-plane name
    size: int
    member: str  # its cells in `struct p4_state`: struct p4odp_meter member[size]
    table: int = -1  # a direct meter: the index of its table, whose entry indexes are its cells'
    bytes: bool = False  # meters bytes (else packets)


@dataclass
class CValueSet:
    name: str  # control-plane name
    size: int
    member: str  # its members in `struct p4_state`: member[size], each a `used` byte and the value's bytes
    width: int  # bits of a value
    signed: bool  # an int<W> (not a struct of values)


@dataclass
class CDigest:
    name: str  # as P4Info names it
    fields: list  # (bits, member names or None) of each field in order, nested structs flattened

    @property
    def size(self) -> int:
        """Bytes of a message: each field in whole bytes."""
        return sum((bits + 7) // 8 for bits, _ in self.fields)


@dataclass
class CLearner:
    table: int  # the index of its table
    size: int  # slots of a worker, a power of 2
    key_bytes: int
    data_bytes: int
    member: str  # its slots in `struct p4_worker_state` (struct p4odp_learnt, P4ODP_LEARNT_BYTES each)


@dataclass
class CProfile:
    name: str  # control-plane name
    size: int  # members, and groups
    action_data_len: int  # a member's action data
    selector: bool  # an action selector: it has groups
    action_ids: list[int]  # the actions a member may run


@dataclass
class CRegister:
    name: str  # control-plane name
    size: int
    member: str  # its cells in `struct p4_state`
    width: int  # bits of a cell's value (a struct's: 8 times its fields' bytes, each field's whole bytes)
    signed: bool
    c_type: str = ""  # a cell's C type, when it is a struct
    fields: list = field(default_factory=list)  # then its leaf fields: (C member path, width, signed) each
    lock: str = ""  # its lock's member in `struct p4_state`, when the program's regions take one (atomic.py)


@dataclass
class CProgram:
    source: str
    structs: list[CStruct]
    functions: list[CFunction]
    tables: list[CTable]
    actions: list[CAction]
    errors: list[str]  # names of the error members, by code
    state: list[str]  # members of `struct p4_state`: the storage of extern instances the workers share
    worker_state: list[str]  # members of `struct p4_worker_state`: the storage each worker has its own of
    counters: list[CCounter]  # the counter arrays the control plane reads
    registers: list[CRegister]  # the register arrays of bit<W>, int<W> or bool the control plane reads and writes
    pipeline: dict  # the C names of the blocks' functions (by role) and of the types between them
    pipeline_template: str  # the architecture's pipeline, e.g. v1model/pipeline.c.j2
    constants: dict  # the architecture's constants, printed as #defines
    line_directives: bool = True  # `#line`s back to the P4 source
    deparse_in_place: bool = False  # the deparser writes fields in the packet itself (deparse-in-place pass)
    # The fields of the architecture's metadata the program reads, sorted (unread-fields pass): the only
    # ones the pipeline sets; None when it may read any.
    metadata_read: Optional[tuple] = None
    meters: list[CMeter] = field(default_factory=list)  # the meter arrays whose rates the control plane sets
    value_sets: list[CValueSet] = field(default_factory=list)  # the parser value sets the control plane fills
    # The lists of fields that clones, resubmits and recirculations keep, by number (members of struct
    # p4odp_packet_state; number 0, none); empty when no list has a field.
    field_lists: list[tuple] = field(default_factory=list)
    copies: tuple = ()  # those of "clone", "recirculate", "resubmit" the program asks for, sorted
    profiles: list[CProfile] = field(default_factory=list)  # the action profiles and selectors, by index
    extern_code: list[str] = field(default_factory=list)  # the C of the externs it uses (Extern.c_code)
    # The calculations by a custom CRC (crc16_custom, crc32_custom) whose parameters the control plane
    # sets, by index: (name, width).
    crcs: list[tuple] = field(default_factory=list)
    digests: list[CDigest] = field(default_factory=list)  # the digest messages it sends, by number
    learners: list[CLearner] = field(default_factory=list)  # the tables whose entries the datapath adds
    p4info: bytes = b""  # the program's P4Info, serialized: what a P4Runtime server learns the switch runs from
    timestamps: bool = False  # it may read a time (Architecture.timed_fields): the workers time their bursts
    truncates: bool = False  # it calls truncate(): what it sends may be cut
