"""unread-fields: the parser does not load header fields that nothing reads, the pipeline does not set
metadata fields that nothing reads.

An extract copies every field of a header from the packet into the headers struct.  A field
that no expression, table key, checksum, digest or deparser ever reads is copied for nothing
(an L2 switch reads the destination MAC and nothing else of Ethernet).  The pass finds those
fields, per header type, and records them in `PassResult.unread_fields` (header type name ->
field names); the C generator's extract leaves them out.  The report names them.

A field counts as read wherever its value may be used:

* `h.f` of a header `h`, anywhere but as the whole target of a plain assignment (`h.f = e`): a
  compound assignment (`h.f += 1`) and a slice target (`h.f[3:0] = e`) read it too;
* every field of a header used whole as a value, or inside one (a struct, stack, union or tuple
  holding it): assigned, passed, compared, listed, or emitted by a deparser that deparses whole;
* a field the in-place deparser stores (the deparse-in-place pass's written fields), since it
  stores the struct's value, which is the packet's when no statement wrote it.

Not reads: a header as the base of a member access or of a method (`h.isValid()`), the header
an extract fills, the whole target of an assignment, the header an in-place deparser emits, and a
field in a csum16 list (an architecture's checksum extern, see `Extern.csum16_fields`) that the
checksum takes from the packet's bytes (_csum16_words.py).
The pass keys on header types: one read of `f` anywhere keeps it loaded in every header of that
type.  Varbit fields are always loaded, and so is every field of a lookahead.

The same reads of the architecture's metadata struct (v1model's standard_metadata_t) go to
`PassResult.metadata_read`: the names of its fields the program reads, None when it uses the struct
whole (then every field counts as read).  The pipeline template sets only those of the fields it
fills in for each packet (ingress_port, packet_length, instance_type...).  Passing the struct to an
extern function that only writes it (`Extern.reads_arguments`, v1model's mark_to_drop) reads nothing.
"""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.transpiler.architectures import Architecture, architecture_of
from p4odp.transpiler.passes._csum16_words import csum16_words
from p4odp.transpiler.passes._walk import (children, header_types, holds_struct, is_packet_call, main_instance,
                                          member_path)
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["UnreadFields"]

# How an expression is used: its value is taken, it is the base of a member or index, or it is
# only written (an assignment's target, an extract's header, an in-place deparser's header).
_VALUE, _BASE, _WRITTEN = "value", "base", "written"


class UnreadFields:
    name = "unread-fields"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        main = main_instance(program)
        reads = _Reads(ctx.result.deparse_in_place, ctx.result.in_place_headers,
                       architecture_of(main) if main is not None else None)
        reads.visit(program, _VALUE)
        unread = {}
        for name, typ in sorted(reads.extracted.items()):
            if name in reads.whole:
                continue
            fields = frozenset(f.name for f in typ.fields
                               if not isinstance(f.type, t.Varbit) and (name, f.name) not in reads.fields)
            if fields:
                unread[name] = fields
                ctx.report(f"the parser does not load {', '.join(f'{name}.{f}' for f in sorted(fields))}: "
                           f"nothing reads them")
        ctx.result.unread_fields = unread
        ctx.result.times_read = reads.times_read
        if reads.metadata is not None and not reads.metadata_whole:
            ctx.result.metadata_read = frozenset(reads.metadata_fields)
            ctx.report(f"the pipeline sets no {reads.metadata} field but those it reads: "
                       f"{', '.join(sorted(reads.metadata_fields)) or 'none'}")
        return program


class _Reads:
    """The header fields a program reads, and the header types it extracts."""

    def __init__(self, in_place: Optional[dict], in_place_headers: Optional[t.Type],
                 architecture: Optional[Architecture]) -> None:
        self.in_place = in_place
        self.in_place_headers = in_place_headers
        self.architecture = architecture
        self.fields: set[tuple[str, str]] = set()  # (header type name, field name)
        self.whole: set[str] = set()  # header types read whole
        self.extracted: dict[str, t.StructLike] = {}
        self.metadata = (architecture.metadata or None) if architecture is not None else None
        self.metadata_fields: set[str] = set()  # fields of the architecture's metadata read
        self.metadata_whole = False  # the metadata struct used whole as a value
        # The architecture's time fields (PSA's ingress_timestamp, ...): whether one is read, as a
        # member of a struct or in a struct holding it used whole.
        self.timed = frozenset(architecture.timed_fields) if architecture is not None else frozenset()
        self.times_read = False
        self.struct_holds_time: dict[str, bool] = {}
        self.header_params: set[str] = set()  # the block's parameters of the in-place headers type
        self.from_packet: set[int] = set()  # ids of checksum fields taken from the packet's bytes

    def _holds_time(self, typ: t.Type, seen: frozenset = frozenset()) -> bool:
        """Does a value of `typ` hold one of the architecture's time fields (a struct's, not a
        header's)?  Answers for structs are kept: every expression asks."""
        if not self.timed:
            return False
        if isinstance(typ, t.Stack):
            return self._holds_time(typ.element, seen)
        if isinstance(typ, t.TupleT):
            return any(self._holds_time(e, seen) for e in typ.elements)
        if not isinstance(typ, t.StructLike) or typ.kind == "header" or typ.name in seen:
            return False
        if typ.name not in self.struct_holds_time:
            self.struct_holds_time[typ.name] = any(f.name in self.timed or self._holds_time(f.type, seen | {typ.name})
                                                   for f in typ.fields)
        return self.struct_holds_time[typ.name]

    def visit(self, node: ir.Node, use: str) -> None:
        if id(node) in self.from_packet:
            return
        if isinstance(node, (ir.Parser, ir.Control)):
            outer = self.header_params
            self.header_params = {p.name for p in node.params if p.type == self.in_place_headers}
            for child in children(node):
                self.visit(child, _VALUE)
            self.header_params = outer
            return
        if isinstance(node, ir.Expression) and use == _VALUE:
            self.whole.update(h.name for h in header_types(node.type))
            if self.metadata is not None and holds_struct(node.type, self.metadata):
                self.metadata_whole = True
            if self._holds_time(node.type):
                self.times_read = True
        if isinstance(node, ir.Member):
            base = node.expr.type
            if use != _WRITTEN and isinstance(base, t.StructLike) and base.field(node.member):
                if base.kind == "header":
                    self.fields.add((base.name, node.member))
                else:
                    if base.name == self.metadata:
                        self.metadata_fields.add(node.member)
                    if node.member in self.timed:
                        self.times_read = True
            self.visit(node.expr, _BASE)
        elif isinstance(node, ir.ArrayIndex):
            self.visit(node.expr, _BASE)
            self.visit(node.index, _VALUE)
        elif isinstance(node, ir.Assignment):
            self.visit(node.target, _WRITTEN if node.op is None else _VALUE)
            self.visit(node.value, _VALUE)
        elif isinstance(node, ir.MethodCall):
            self.call(node)
        else:  # a slice written is read too: every other node's children are values
            for child in children(node):
                self.visit(child, _VALUE)

    def call(self, call: ir.MethodCall) -> None:
        self.visit(call.method, _VALUE)
        args = [a.value for a in call.args if a.value is not None]
        if is_packet_call(call, "packet_in", ("extract",)) and args:
            for typ in header_types(args[0].type):
                self.extracted[typ.name] = typ
            self.visit(args[0], _WRITTEN)
            args = args[1:]
        elif is_packet_call(call, "packet_out", ("emit",)) and args and self.in_place is not None:
            header = self.in_place.get(member_path(args[0])[1])
            if header is not None:
                self.fields.update((typ.name, f) for typ in header_types(args[0].type) for f in header.written)
                self.visit(args[0], _WRITTEN)
                args = args[1:]
        elif isinstance(call.method, ir.PathExpression) and self.architecture is not None:
            if not self.architecture.reads_arguments(call.method.name):
                for arg in args:
                    self.visit(arg, _WRITTEN)
                return
            elements = self.architecture.csum16_fields(call.method.name, args)
            words = csum16_words(self.in_place, self.header_params, elements) if elements else None
            if words is not None:
                self.from_packet.update(id(elements[i]) for i in words.from_packet_only)
        for arg in args:
            self.visit(arg, _VALUE)
