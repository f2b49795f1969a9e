"""The P4Info of a v1model program, as p4c makes it (control-plane/p4RuntimeSerializer.cpp, with
the names and the set of entities its front end leaves), printed from the midend's list of the
program's control-plane objects (transpiler/passes/control_plane.py), the same list the switch's
objects come from.

    info = p4info(result.control_plane, diags)   # a p4.config.v1.P4Info, or None after reporting why
    info = program_p4info(program, diags)        # the same from the front end's IR: runs the passes
                                                 # that decide the objects

Ids and aliases: ids.py.
"""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.controlplane.ids import IdAllocator, aliases
from p4odp.controlplane.protos import p4info_pb2, p4types_pb2
from p4odp.diagnostics import Diagnostics
from p4odp.frontend.lexer import tokenize
from p4odp.frontend.parser import KEY_VALUE_ANNOTATIONS
from p4odp.transpiler.key_names import key_name, param_name
from p4odp.transpiler.architectures import Architecture
from p4odp.transpiler.passes import PassManager, control_plane_passes
from p4odp.transpiler.passes._walk import error_names, main_instance
from p4odp.transpiler.passes.control_plane import ControlPlaneObjects, property_is, property_of

__all__ = ["p4info", "program_p4info"]

# P4Ids.Prefix of p4info.proto, by entity kind.
PREFIX = {"action": 0x01, "table": 0x02, "value_set": 0x03, "controller_header": 0x04, "action_profile": 0x11,
          "counter": 0x12, "direct_counter": 0x13, "meter": 0x14, "direct_meter": 0x15, "register": 0x16,
          "digest": 0x17}
MATCH_TYPES = {"exact": p4info_pb2.MatchField.EXACT, "lpm": p4info_pb2.MatchField.LPM,
               "ternary": p4info_pb2.MatchField.TERNARY, "range": p4info_pb2.MatchField.RANGE,
               "optional": p4info_pb2.MatchField.OPTIONAL}
# Annotations p4c keeps out of P4Info (it reads them itself), and those whose body it parses as
# expressions, printed `@a(e1, e2)` rather than token by token.
DROPPED_ANNOTATIONS = {"name", "id", "brief", "description"}
EXPRESSION_ANNOTATIONS = {"noWarn", "deprecated", "name", "length", "match", "field_list", "synchronous",
                          "controller_header", "brief", "description", "id", "max_group_size",
                          "selector_size_semantics", "max_member_weight", "p4runtime_translation", "command_line"}


def p4info(objects: ControlPlaneObjects, diags: Diagnostics) -> Optional[p4info_pb2.P4Info]:
    """The P4Info of the control-plane objects the midend listed; None after reporting why not."""
    if objects.architecture is None:
        main = main_instance(objects.program)
        diags.error(main.loc if main is not None else objects.program.loc,
                    "no P4Info: the program's main is of no architecture p4odp knows")
        return None
    builder = _Builder(objects, diags)
    info = builder.build()
    return None if builder.failed else info


def program_p4info(program: ir.Program, diags: Diagnostics) -> Optional[p4info_pb2.P4Info]:
    """The P4Info of `program` (the front end's IR), through the passes that decide its objects."""
    result = PassManager(control_plane_passes()).run(program, diags)
    return None if result.program is None else p4info(result.control_plane, diags)


def _find(annotations: tuple, name: str) -> Optional[ir.Annotation]:
    return next((a for a in annotations if a.name == name), None)


def _int_item(anno: Optional[ir.Annotation]) -> Optional[int]:
    item = anno.items[0] if anno is not None and anno.items else None
    return item.value if isinstance(item, ir.IntLiteral) else None


def _str_item(anno: Optional[ir.Annotation]) -> Optional[str]:
    item = anno.items[0] if anno is not None and anno.items else None
    return item.value if isinstance(item, ir.StringLiteral) else None


# The operators of constant annotation expressions p4c folds (`@a[5+6, 1==2]`).
_FOLDED = {ir.BinaryOp.ADD: lambda a, b: a + b, ir.BinaryOp.SUB: lambda a, b: a - b,
           ir.BinaryOp.MUL: lambda a, b: a * b, ir.BinaryOp.EQ: lambda a, b: a == b,
           ir.BinaryOp.NE: lambda a, b: a != b, ir.BinaryOp.LT: lambda a, b: a < b,
           ir.BinaryOp.GT: lambda a, b: a > b, ir.BinaryOp.LE: lambda a, b: a <= b,
           ir.BinaryOp.GE: lambda a, b: a >= b, ir.BinaryOp.AND: lambda a, b: a and b,
           ir.BinaryOp.OR: lambda a, b: a or b}


def _spelled(typ: t.Type) -> str:
    """A type argument as p4c spells it in the name of a specialized struct: as P4 writes it, without
    `<`, `>` and spaces, `,` and `.` made `_`."""
    text = typ.name if isinstance(typ, (t.StructLike, t.EnumT, t.NewTypeT)) else str(typ)
    return text.replace("<", "").replace(">", "").replace(" ", "").replace(",", "_").replace(".", "_")


def _to_bytes(value: int, width: int) -> bytes:
    """A value as p4c writes one in P4Info: big-endian, padded to ceil(width/8) bytes; a negative
    one of an int<W> in W-bit two's complement, as P4Runtime encodes it."""
    return (value & ((1 << max(width, 1)) - 1)).to_bytes(max(1, (width + 7) // 8), "big")


class _Builder:
    def __init__(self, objects: ControlPlaneObjects, diags: Diagnostics) -> None:
        self.objects = objects
        self.arch: Architecture = objects.architecture
        self.program = program = objects.program
        self.diags = diags
        self.failed = False
        self.info = p4info_pb2.P4Info()
        self.ids = IdAllocator()
        self.names: dict[str, None] = {}  # every entity's name, for aliases
        self.types = {d.name: d for d in program.declarations
                      if isinstance(d, (ir.Struct, ir.Header, ir.HeaderUnion, ir.Enum, ir.NewType))}
        self.top_actions = {d.name: d for d in program.declarations if isinstance(d, ir.Action)}
        self.needs_type_info = False
        self.local_actions: dict = {}  # the actions of the block whose tables are being added
        self.tables_applied = [table for found in objects.blocks for table in found.tables]
        self.externs_of: dict[int, list] = {}  # table_externs by id(table): derived, and reported, once

    def kind(self, extern: str) -> str:
        """The P4Info kind of the instances of the extern type `extern` (a selector is a profile)."""
        kind = self.arch.object_kinds[extern]
        return "action_profile" if kind == "action_selector" else kind

    def error(self, loc, message: str) -> None:
        self.diags.error(loc, message)
        self.failed = True

    # ------------------------------------------------------------------
    # What the program holds

    def build(self) -> p4info_pb2.P4Info:
        objects = self.objects
        # type_info is there, as in p4c's, when the program has an extern instance or calls an extern function.
        locals_ = [local for found in objects.blocks for local in found.block.locals]
        self.needs_type_info = any(isinstance(d, ir.Instance) and isinstance(d.type, t.ExternT)
                                   for d in (*self.program.declarations, *locals_)) or \
            any(found.calls_extern_functions for found in objects.blocks)
        # Collect: every name and its @id, then the ids, then the aliases.
        for decl in objects.top_instances:
            self.symbol(self.kind(decl.type.name), decl.control_name or decl.name, decl)
        for found in objects.blocks:
            for action in found.actions:
                self.symbol("action", self.action_name(action), action)
            for decl in found.instances:
                self.symbol(self.kind(decl.type.name), decl.control_name or decl.name, decl)
            for table in found.tables:
                self.symbol("table", table.control_name or table.name, table)
                for kind, name, _, _ in self.table_externs(table):
                    if name is not None:
                        self.symbol(kind, name, None)
            for digest in found.digests:
                self.symbol("digest", digest.name, None)
            for value_set in found.value_sets:
                self.symbol("value_set", value_set.control_name or value_set.name, value_set)
        for header in objects.controller_headers:
            self.symbol("controller_header", ir.type_control_name(header), header)
        self.ids.assign()
        self.alias = aliases(self.names)
        # Add: the entities, in p4c's order.
        for decl in objects.top_instances:
            self.extern_instance(decl)
        for found in objects.blocks:
            for action in found.actions:
                self.action(action, action.name in found.in_tables)
            for digest in found.digests:
                self.digest(digest.name, digest.type)
            for decl in found.instances:
                self.extern_instance(decl)
            self.local_actions = {d.name: d for d in found.block.locals if isinstance(d, ir.Action)}
            for table in found.tables:
                self.table(table)
            for value_set in found.value_sets:
                self.value_set(value_set)
        for header in objects.controller_headers:
            self.controller_header(header)
        self.pkg_info()
        if self.needs_type_info:
            self.info.type_info.SetInParent()
        return self.info

    def symbol(self, kind: str, name: str, decl) -> None:
        annotated = _int_item(_find(decl.annotations, "id")) if decl is not None else None
        problem = self.ids.add(PREFIX[kind], name, annotated)
        if problem is not None:
            self.error(decl.loc, f"{name}: {problem}")
        self.names[name] = None

    # ------------------------------------------------------------------
    # Names, annotations, types

    def action_name(self, action: ir.Action) -> str:
        return action.control_name or action.name

    def preamble(self, message, kind: str, name: str, annotations: tuple = (), drop: frozenset = frozenset()) -> None:
        message.preamble.id = self.ids.id_of(PREFIX[kind], name)
        message.preamble.name = name
        message.preamble.alias = self.alias[name]
        self.annotate(message.preamble, annotations, drop)
        self.document(message.preamble, annotations)

    def annotate(self, message, annotations: tuple, drop: frozenset = frozenset()) -> None:
        for anno in annotations:
            if anno.structured:
                self.structured(message.structured_annotations.add(), anno)
            elif anno.name not in DROPPED_ANNOTATIONS and anno.name not in drop:
                message.annotations.append(self.annotation_text(anno))

    def document(self, message, annotations: tuple) -> None:
        brief, description = _str_item(_find(annotations, "brief")), _str_item(_find(annotations, "description"))
        if brief is not None:
            message.doc.brief = brief
        if description is not None:
            message.doc.description = description

    def annotation_text(self, anno: ir.Annotation) -> str:
        """An annotation as p4c prints it into P4Info: its tokens one space apart, or, for one whose
        body p4c parses as expressions, those separated by `, `."""
        if not anno.body:
            return f"@{anno.name}"
        tokens = [tok for tok in tokenize(anno.body, "<annotation>", Diagnostics()) if tok.kind != "eof"]
        if anno.name not in EXPRESSION_ANNOTATIONS:
            return f"@{anno.name}({' '.join(tok.text for tok in tokens)})"
        parts, depth, current = [], 0, []
        for tok in tokens:
            if tok.kind == "op" and tok.text in "([{":
                depth += 1
            elif tok.kind == "op" and tok.text in ")]}":
                depth -= 1
            if depth == 0 and tok.is_("op", ","):
                parts.append(current)
                current = []
            else:
                current.append(tok.text)
        parts.append(current)
        return f"@{anno.name}({', '.join(' '.join(p) for p in parts)})"

    def structured(self, message, anno: ir.Annotation) -> None:
        message.name = anno.name
        for item in anno.items:
            if isinstance(item, ir.KeyValue):
                pair = message.kv_pair_list.kv_pairs.add()
                pair.key = item.key
                self.expression(pair.value, item.value)
            else:
                self.expression(message.expression_list.expressions.add(), item)

    def expression(self, message, expr: ir.Expression) -> None:
        value = self.constant(expr)
        if isinstance(value, bool):
            message.bool_value = value
        elif isinstance(value, int):
            message.int64_value = value
        elif isinstance(expr, ir.StringLiteral):
            message.string_value = expr.value
        else:
            self.error(expr.loc, "a structured annotation's expressions must be constants")

    def constant(self, expr: ir.Expression):
        """The value of a constant expression of an annotation, an entry or a constructor: an int,
        a bool, None when it is not one."""
        if isinstance(expr, ir.BoolLiteral):
            return expr.value
        if isinstance(expr, ir.IntLiteral):
            return expr.value
        if isinstance(expr, ir.Cast):
            value = self.constant(expr.expr)
            return int(value) if isinstance(value, bool) and isinstance(expr.type, t.Bits) else value
        if isinstance(expr, ir.Member) and isinstance(expr.type, t.EnumT):
            return dict(expr.type.members).get(expr.member)
        if isinstance(expr, ir.Unary) and expr.op in (ir.UnaryOp.NEG, ir.UnaryOp.NOT):
            value = self.constant(expr.expr)
            return None if value is None else (not value if expr.op is ir.UnaryOp.NOT else -value)
        if isinstance(expr, ir.Binary) and expr.op in _FOLDED:
            left, right = self.constant(expr.left), self.constant(expr.right)
            return None if left is None or right is None else _FOLDED[expr.op](left, right)
        return None

    def width(self, typ: t.Type) -> Optional[int]:
        """A key's, a parameter's or a field's bitwidth in P4Info (p4c's getTypeWidth): a translated
        type's controller width, None for a plain enum."""
        if isinstance(typ, t.NewTypeT):
            translated = self.translation(typ)
            if translated is not None:
                return translated[1]
            while isinstance(typ, t.NewTypeT):
                typ = typ.base
        if isinstance(typ, t.Bits):
            return typ.width
        if isinstance(typ, t.Bool):
            return 1
        if isinstance(typ, t.EnumT):
            return typ.underlying.width if typ.underlying is not None else None
        return 0

    def translation(self, typ: t.NewTypeT) -> Optional[tuple[str, int]]:
        """(uri, controller width: 0 for a string) of a `type` annotated @p4runtime_translation."""
        anno = _find(self.types[typ.name].annotations, "p4runtime_translation") if typ.name in self.types else None
        if anno is None or len(anno.items) < 2:
            return None
        uri, target = _str_item(anno), anno.items[1]
        if isinstance(target, ir.IntLiteral):
            return uri or "", target.value
        text = anno.body.split(",", 1)[1].strip() if anno.body and "," in anno.body else ""
        if text.startswith("bit<") and text.endswith(">") and text[4:-1].isdigit():
            return uri or "", int(text[4:-1])
        return uri or "", 0

    def type_ref(self, message, typ: t.Type) -> None:
        """type_name of a match field, parameter or metadata field of a `type` (and type_info)."""
        self.type_spec(typ)
        if isinstance(typ, t.NewTypeT):
            message.type_name.name = typ.name

    def type_spec(self, typ: t.Type, spec: Optional[p4types_pb2.P4DataTypeSpec] = None) -> None:
        """`typ` as a P4DataTypeSpec into `spec` (p4c's TypeSpecConverter), the named types it uses
        added to type_info."""
        spec = spec if spec is not None else p4types_pb2.P4DataTypeSpec()
        info = self.info.type_info
        if isinstance(typ, t.Bits):
            (spec.bitstring.int if typ.signed else spec.bitstring.bit).bitwidth = typ.width
        elif isinstance(typ, t.Varbit):
            spec.bitstring.varbit.max_bitwidth = typ.width
        elif isinstance(typ, t.Bool):
            spec.bool.SetInParent()
        elif isinstance(typ, (t.TupleT, t.ListT)):
            spec.tuple.SetInParent()
            for element in typ.elements if isinstance(typ, t.TupleT) else ():
                self.type_spec(element, spec.tuple.members.add())
        elif isinstance(typ, t.ErrorT):
            spec.error.SetInParent()
            if not info.error.members:
                info.error.members.extend(error_names(self.program))
        elif isinstance(typ, t.Stack):
            element = typ.element
            if isinstance(element, t.StructLike) and element.kind == "header_union":
                spec.header_union_stack.header_union.name = self.named(element)
                spec.header_union_stack.size = typ.size
            else:
                spec.header_stack.header.name = self.named(element)
                spec.header_stack.size = typ.size
            self.type_spec(element)
        elif isinstance(typ, t.StructLike):
            self.struct_spec(typ, spec)
        elif isinstance(typ, t.EnumT):
            name = self.named(typ)
            if typ.underlying is None:
                spec.enum.name = name
                if name not in info.enums:
                    info.enums[name].members.extend(p4types_pb2.P4EnumTypeSpec.Member(name=m) for m, _ in typ.members)
            else:
                spec.serializable_enum.name = name
                if name not in info.serializable_enums:
                    enum = info.serializable_enums[name]
                    enum.underlying_type.bitwidth = typ.underlying.width
                    for member, value in typ.members:
                        enum.members.add(name=member, value=_to_bytes(value or 0, typ.underlying.width))
        elif isinstance(typ, t.NewTypeT):
            name = self.named(typ)
            spec.new_type.name = name
            if name not in info.new_types:
                self.new_type(name, typ)

    def named(self, typ) -> str:
        """A named type's control-plane name; a generic struct's specialization's is its @name, else
        the name p4c's front end gives the struct it makes of it (`s_t_bit32` for s_t<bit<32>>)."""
        generic = getattr(typ, "generic", None)
        if generic is not None:
            base, args = generic
            decl = self.types.get(base)
            if decl is not None and ir.name_annotation(decl) is not None:
                return ir.type_control_name(decl)
            return base + "".join("_" + _spelled(arg) for arg in args)
        return ir.type_control_name(self.types[typ.name]) if typ.name in self.types else typ.name

    def struct_spec(self, typ: t.StructLike, spec) -> None:
        info, name = self.info.type_info, self.named(typ)
        decl = self.types.get(typ.name)
        field_decls = {f.name: f for f in decl.fields} if decl is not None else {}
        if typ.kind == "header":
            spec.header.name = name
            if name not in info.headers:
                header = info.headers[name]
                fields = self.flattened(decl, "") if decl is not None else [(f.name, f, f.type) for f in typ.fields]
                for field_name, _, bits in fields:
                    member = header.members.add(name=field_name)
                    while isinstance(bits, t.NewTypeT):
                        bits = bits.base
                    if isinstance(bits, t.EnumT) and bits.underlying is not None:
                        bits = bits.underlying
                    if isinstance(bits, t.Varbit):
                        member.type_spec.varbit.max_bitwidth = bits.width
                    elif isinstance(bits, t.Bits):
                        (member.type_spec.int if bits.signed else member.type_spec.bit).bitwidth = bits.width
        elif typ.kind == "header_union":
            spec.header_union.name = name
            if name not in info.header_unions:
                union = info.header_unions[name]
                for field in typ.fields:
                    union.members.add(name=self.field_name(field_decls.get(field.name), field.name),
                                      header=p4types_pb2.P4HeaderTypeSpec(name=self.named(field.type)))
                    self.type_spec(field.type)
        else:
            spec.struct.name = name
            if name not in info.structs:
                struct = info.structs[name]
                for field in typ.fields:  # a placeholder first: a member may name this struct again
                    struct.members.add(name=self.field_name(field_decls.get(field.name), field.name))
                for field, member in zip(typ.fields, struct.members):
                    self.type_spec(field.type, member.type_spec)

    def field_name(self, decl, name: str) -> str:
        return ir.type_control_name(decl) if decl is not None else name

    def new_type(self, name: str, typ: t.NewTypeT) -> None:
        entry = self.info.type_info.new_types[name]
        translated = self.translation(typ)
        if translated is not None:
            entry.translated_type.uri = translated[0]
            if translated[1]:
                entry.translated_type.sdn_bitwidth = translated[1]
            else:
                entry.translated_type.sdn_string.SetInParent()
        else:
            base = typ.base
            while isinstance(base, t.NewTypeT):
                base = base.base
            self.type_spec(base, entry.original_type)
        decl = self.types.get(typ.name)
        if decl is not None:
            self.annotate(entry, decl.annotations, frozenset({"p4runtime_translation"}))

    # ------------------------------------------------------------------
    # Tables

    def action_refs(self, table: ir.Table) -> list:
        """The table's action list as p4c's front end leaves it: NoAction added @defaultonly when the
        table has no default action and does not list it."""
        prop = property_of(table, "actions")
        refs = list(prop.value) if prop is not None else []
        if property_of(table, "default_action") is None and all(r.name != "NoAction" for r in refs):
            anno = ir.Annotation(table.loc, "defaultonly")
            refs.append(ir.ActionRef(table.loc, "NoAction", annotations=(anno,)))
        return refs

    def table_externs(self, table: ir.Table) -> list:
        if id(table) not in self.externs_of:
            self.externs_of[id(table)] = self.find_table_externs(table)
        return self.externs_of[id(table)]

    def find_table_externs(self, table: ir.Table) -> list:
        """(kind, name, declared instance or None, property) of the table's implementation, direct
        counter and direct meter."""
        found = []
        for prop_name, kinds in self.arch.table_externs.items():
            prop = property_of(table, prop_name)
            if prop is None:
                continue
            value = prop.value
            if isinstance(value, ir.ConstructorCall):
                extern = value.type_ref.base.name if isinstance(value.type_ref, ir.SpecializedType) else \
                    getattr(value.type_ref, "name", "")
                name = ir.name_annotation(prop)
                if self.arch.object_kinds.get(extern) not in kinds:
                    self.error(prop.loc, f"table {table.name}: {prop_name} must be an instance of "
                                         f"{' or '.join(self.arch.extern_types(kinds))}, not of {extern or 'this'}")
                elif name is None:
                    self.error(prop.loc, f"table {table.name}: the {prop_name} property's instance needs an @name")
                else:
                    found.append((self.kind(extern), name[1:] if name.startswith(".") else name, None, prop))
            elif isinstance(value, ir.PathExpression):
                decl = self.instance_by_name(value.name)
                if decl is not None and self.arch.object_kind(decl) in kinds:
                    found.append((self.kind(decl.type.name), None, decl, prop))
        return found

    def instance_by_name(self, name: str) -> Optional[ir.Instance]:
        for decl in self.program.declarations:
            if isinstance(decl, ir.Instance) and decl.name == name:
                return decl
            for local in getattr(decl, "locals", ()):
                if isinstance(local, ir.Instance) and local.name == name:
                    return local
        return None

    @staticmethod
    def extern_name(entry) -> str:
        _, name, decl, _ = entry
        return name if name is not None else decl.control_name or decl.name

    def table(self, table: ir.Table) -> None:
        name = table.control_name or table.name
        if _find(table.annotations, "hidden") is not None:
            return
        self.needs_type_info = True
        message = self.info.tables.add()
        self.preamble(message, "table", name, table.annotations)
        key = property_of(table, "key")
        elements = list(key.value) if key is not None else []
        for element, field_id in zip(elements, self.field_ids(elements)):
            if element.match_kind == "selector":
                continue
            match = message.match_fields.add(id=field_id, name=key_name(element))
            width = self.width(element.expr.type)
            if width:
                match.bitwidth = width
            if element.match_kind in MATCH_TYPES:
                match.match_type = MATCH_TYPES[element.match_kind]
            else:
                match.other_match_type = element.match_kind
            self.type_ref(match, element.expr.type)
            self.annotate(match, element.annotations)
            self.document(match, element.annotations)
        for ref in self.action_refs(table):
            action_ref = message.action_refs.add(id=self.ids.id_of(PREFIX["action"], self.ref_name(table, ref.name)))
            tableonly, defaultonly = _find(ref.annotations, "tableonly"), _find(ref.annotations, "defaultonly")
            if tableonly is not None and defaultonly is not None:
                self.error(ref.loc, f"{ref.name}: an action cannot be both @tableonly and @defaultonly")
            action_ref.scope = p4info_pb2.ActionRef.TABLE_ONLY if tableonly is not None else \
                p4info_pb2.ActionRef.DEFAULT_ONLY if defaultonly is not None else p4info_pb2.ActionRef.TABLE_AND_DEFAULT
            self.annotate(action_ref, ref.annotations)
        default = property_of(table, "default_action")
        default_ref = default.value if default is not None else ir.ActionRef(table.loc, "NoAction")
        default_id = self.ids.id_of(PREFIX["action"], self.ref_name(table, default_ref.name))
        if default is not None and default.is_const:
            message.const_default_action_id = default_id
        message.initial_default_action.action_id = default_id
        self.default_arguments(message.initial_default_action, table, default_ref)
        externs = self.table_externs(table)
        profile = self.implementation_name(table)
        if profile is not None:
            message.implementation_id = self.ids.id_of(PREFIX["action_profile"], profile)
        for kind in ("direct_counter", "direct_meter"):
            for entry in (e for e in externs if e[0] == kind):
                message.direct_resource_ids.append(self.ids.id_of(PREFIX[kind], self.extern_name(entry)))
        size = property_of(table, "size")
        value = self.constant(size.value) if size is not None else None
        message.size = value if isinstance(value, int) and not isinstance(value, bool) and value > 0 \
            else self.arch.default_table_size
        timeout = property_of(table, self.arch.idle_timeout_property[0])
        if timeout is not None and property_is(timeout, self.arch.idle_timeout_property[1], self.constant):
            message.idle_timeout_behavior = p4info_pb2.Table.NOTIFY_CONTROL
        entries = property_of(table, "entries")
        if entries is not None:
            message.is_const_table = entries.is_const
            message.has_initial_entries = bool(entries.value)
        for entry in externs:
            self.table_extern(entry, name)

    def ref_name(self, table: ir.Table, name: str) -> str:
        """The control-plane name of the action `name` a table names."""
        action = self.local_actions.get(name) or self.top_actions.get(name)
        return self.action_name(action) if action is not None else name

    def default_arguments(self, message, table: ir.Table, ref: ir.ActionRef) -> None:
        action = self.local_actions.get(ref.name) or self.top_actions.get(ref.name)
        if action is None:
            return
        params = [p for p in action.params if not p.direction]
        ids = self.field_ids(params)
        args = [a for a in ref.args if a.value is not None]
        by_name = {a.name: a for a in args if a.name}
        positional = [a for a in args if not a.name]
        directional = len([p for p in action.params if p.direction])
        for i, (param, param_id) in enumerate(zip(params, ids)):
            arg = by_name.get(param.name) or (positional[directional + i] if directional + i < len(positional) else None)
            value = param.default if arg is None else arg.value
            constant = self.constant(value) if value is not None else None
            if constant is None:
                if value is not None:
                    self.error(value.loc, f"table {table.name}: the default action's argument must be a constant")
                continue
            width = self.width(param.type) or 1
            message.arguments.add(param_id=param_id, value=_to_bytes(int(constant), width))

    def field_ids(self, elements: list) -> list[int]:
        """The ids of match fields, parameters, value-set fields or metadata (p4c's FieldIdAllocator):
        @id as given, the others 1, 2, ... in order past those taken."""
        given = [_int_item(_find(e.annotations, "id")) for e in elements]
        taken = {g for g in given if g is not None}
        ids, index = [], 1
        for value in given:
            if value is not None:
                ids.append(value)
                index += 1
                continue
            while index in taken:
                index += 1
            ids.append(index)
            taken.add(index)
        return ids

    def table_extern(self, entry, table_name: str) -> None:
        kind, name, decl, prop = entry
        if decl is not None and kind == "action_profile":
            return  # a declared profile is listed where it is declared
        call = prop.value
        if kind == "action_profile":
            extern = call.type_ref.name if isinstance(call.type_ref, ir.TypeName) else ""
            self.action_profile(name, self.arch.object_kinds.get(extern, ""), call.args, prop.annotations)
            return
        message = (self.info.direct_counters if kind == "direct_counter" else self.info.direct_meters).add()
        full = self.extern_name(entry)
        self.preamble(message, kind, full, decl.annotations if decl is not None else ())
        args = decl.args if decl is not None else call.args
        self.unit(message.spec, kind, args)
        message.direct_table_id = self.ids.id_of(PREFIX["table"], table_name)

    def implementation_name(self, table: ir.Table) -> Optional[str]:
        entry = next((e for e in self.table_externs(table) if e[0] == "action_profile"), None)
        return self.extern_name(entry) if entry is not None else None

    def unit(self, spec, kind: str, args: tuple) -> None:
        # v1model's CounterType.packets, PSA's PSA_CounterType_t.PACKETS, PNA's PNA_MeterType_t.BYTES, ...
        unit = next((a.value.member.lower() for a in args if isinstance(a.value, ir.Member) and
                     isinstance(a.value.type, t.EnumT) and a.value.type.name.endswith(("CounterType", "MeterType",
                                                                                         "CounterType_t", "MeterType_t"))),
                    None)
        if kind in ("counter", "direct_counter"):
            spec.unit = {"packets": p4info_pb2.CounterSpec.PACKETS, "bytes": p4info_pb2.CounterSpec.BYTES,
                         "packets_and_bytes": p4info_pb2.CounterSpec.BOTH}.get(unit, 0)
        else:
            spec.unit = {"packets": p4info_pb2.MeterSpec.PACKETS, "bytes": p4info_pb2.MeterSpec.BYTES}.get(unit, 0)

    # ------------------------------------------------------------------
    # Actions, externs, value sets, digests, controller headers

    def action(self, action: ir.Action, in_tables: bool) -> None:
        """An action; one that only the blocks call (no table) has no control-plane parameters."""
        name = self.action_name(action)
        if _find(action.annotations, "hidden") is not None or \
                any(a.preamble.name == name for a in self.info.actions):
            return
        message = self.info.actions.add()
        self.preamble(message, "action", name, action.annotations)
        params = [p for p in action.params if not p.direction] if in_tables else []
        self.needs_type_info |= bool(params)
        for param, param_id in zip(params, self.field_ids(params)):
            out = message.params.add(id=param_id, name=param_name(param))
            width = self.width(param.type)
            if width:
                out.bitwidth = width
            self.type_ref(out, param.type)
            if isinstance(param.type, t.EnumT) and param.type.underlying is None:
                out.type_name.name = self.named(param.type)
            self.annotate(out, param.annotations)
            self.document(out, param.annotations)

    def extern_instance(self, decl: ir.Instance) -> None:
        kind = self.kind(decl.type.name)
        name = decl.control_name or decl.name
        args = [a.value for a in decl.args]
        if kind == "action_profile":
            self.action_profile(name, self.arch.object_kinds[decl.type.name], decl.args, decl.annotations)
        elif kind in ("counter", "meter"):
            message = (self.info.counters if kind == "counter" else self.info.meters).add()
            self.preamble(message, kind, name, decl.annotations)
            self.unit(message.spec, kind, decl.args)
            size = self.constant(args[0]) if args else None
            message.size = size if isinstance(size, int) else 0
            self.index_type(message, decl)
        elif kind == "register":
            message = self.info.registers.add()
            self.preamble(message, kind, name, decl.annotations)
            if decl.type.type_args:
                self.type_spec(decl.type.type_args[0], message.type_spec)
            size = self.constant(args[0]) if args else None
            message.size = size if isinstance(size, int) else 0
            self.index_type(message, decl)
        elif kind == "digest":  # PSA's Digest<T>; v1model's digests are its digest() calls
            self.digest(name, decl.type.type_args[0], decl.annotations)

    def index_type(self, message, decl: ir.Instance) -> None:
        """index_type_name of a counter, meter or register whose index is of a `type` (PSA's
        Counter<W, S> with S a PortId_t), that type added to type_info, as p4c's."""
        param = self.arch.index_type_params.get(decl.type.name)
        if param is None or len(decl.type.type_args) <= param:
            return
        typ = decl.type.type_args[param]
        self.type_spec(typ)
        if isinstance(typ, t.NewTypeT):
            message.index_type_name.name = self.named(typ)

    def action_profile(self, name: str, extern: str, args: tuple, annotations: tuple) -> None:
        """An action profile or selector, with the tables it implements (sorted by name, as p4c's)."""
        if any(p.preamble.name == name for p in self.info.action_profiles):
            return
        message = self.info.action_profiles.add()
        self.preamble(message, "action_profile", name, annotations,
                      frozenset({"max_group_size", "selector_size_semantics", "max_member_weight"}))
        table_names = sorted(table.control_name or table.name for table in self.tables_applied
                             if self.implementation_name(table) == name)
        message.table_ids.extend(self.ids.id_of(PREFIX["table"], n) for n in dict.fromkeys(table_names))
        selector = extern == "action_selector"
        message.with_selector = selector
        size = self.constant(args[1 if selector else 0].value) if len(args) > (1 if selector else 0) else None
        message.size = size if isinstance(size, int) else 0
        if selector:
            group = _int_item(_find(annotations, "max_group_size"))
            if group is not None:
                message.max_group_size = group
            semantics = (_str_item(_find(annotations, "selector_size_semantics")) or "").lower()
            if semantics == "sum_of_weights":
                message.sum_of_weights.SetInParent()
            elif semantics == "sum_of_members":
                message.sum_of_members.SetInParent()
                weight = _int_item(_find(annotations, "max_member_weight"))
                if weight is not None:
                    message.sum_of_members.max_member_weight = weight

    def value_set(self, decl: ir.ValueSet) -> None:
        name = decl.control_name or decl.name
        message = self.info.value_sets.add()
        self.preamble(message, "value_set", name, decl.annotations)
        element = decl.type.element if decl.type is not None else None
        if isinstance(element, t.Bits):
            message.match.add(id=1, bitwidth=element.width, match_type=p4info_pb2.MatchField.EXACT)
        elif isinstance(element, t.EnumT) and element.underlying is not None:
            for i, (member, _) in enumerate(element.members, 1):
                message.match.add(id=i, name=member, bitwidth=element.underlying.width,
                                  match_type=p4info_pb2.MatchField.EXACT)
        elif isinstance(element, t.StructLike) and element.kind == "struct":
            decl_fields = self.types[element.name].fields if element.name in self.types else ()
            for field, field_decl, field_id in zip(element.fields, decl_fields, self.field_ids(list(decl_fields))):
                match = message.match.add(id=field_id, name=ir.type_control_name(field_decl))
                if isinstance(field.type, t.Bits):
                    match.bitwidth = field.type.width
                kind = _find(field_decl.annotations, "match")
                kind_name = kind.body.strip() if kind is not None and kind.body else "exact"
                if kind_name in MATCH_TYPES:
                    match.match_type = MATCH_TYPES[kind_name]
                else:
                    match.other_match_type = kind_name
                self.annotate(match, field_decl.annotations, frozenset({"match"}))
                self.document(match, field_decl.annotations)
        size = self.constant(decl.size)
        message.size = size if isinstance(size, int) else 0

    def digest(self, name: str, typ: t.Type, annotations: tuple = ()) -> None:
        if any(d.preamble.name == name for d in self.info.digests):
            return
        message = self.info.digests.add()
        self.preamble(message, "digest", name, annotations)
        self.type_spec(typ, message.type_spec)

    def controller_header(self, header: ir.Header) -> None:
        name = _str_item(_find(header.annotations, "controller_header")) or header.name
        message = self.info.controller_packet_metadata.add()
        message.preamble.id = self.ids.id_of(PREFIX["controller_header"], ir.type_control_name(header))
        message.preamble.name = message.preamble.alias = name
        self.annotate(message.preamble, header.annotations)
        self.document(message.preamble, header.annotations)
        fields = self.flattened(header, "")
        for (name, field, field_type), field_id in zip(fields, self.field_ids([f for _, f, _ in fields])):
            if _find(field.annotations, "hidden") is not None:
                continue
            self.needs_type_info = True
            metadata = message.metadata.add(id=field_id, name=name)
            width = self.width(field_type)
            if width:
                metadata.bitwidth = width
            self.type_ref(metadata, field_type)
            self.annotate(metadata, field.annotations)

    def flattened(self, decl, prefix: str) -> list:
        """(control-plane name, declaration, type) of each field of a header, those of a struct in it
        in its place, named `struct_field.field` (p4c's FlattenHeader)."""
        found = []
        for field in decl.fields:
            name = f"{prefix}{ir.type_control_name(field)}"
            inner = self.types.get(field.type.name) if isinstance(field.type, t.StructLike) else None
            if isinstance(inner, ir.Struct):
                found.extend(self.flattened(inner, f"{name}."))
            else:
                found.append((name, field, field.type))
        return found

    def pkg_info(self) -> None:
        main = main_instance(self.program)
        if main is None:
            return
        pkg = self.info.pkg_info
        pkg.arch = self.arch.p4info_arch
        for anno in main.annotations:
            for pair in anno.items if anno.name in KEY_VALUE_ANNOTATIONS else ():
                if not isinstance(pair, ir.KeyValue):  # @pkginfo["x"]: structured, of plain values
                    self.error(pair.loc, f"@{anno.name}: expected KEY = VALUE, KEY = VALUE, ...")
                    continue
                key, value = pair.key, pair.value
                if anno.name == "pkginfo" and isinstance(value, ir.StringLiteral) and \
                        key in ("name", "version", "organization", "contact", "url", "arch"):
                    setattr(pkg, key, value.value)
                elif anno.name == "platform_property" and isinstance(value, ir.IntLiteral) and \
                        key in pkg.platform_properties.DESCRIPTOR.fields_by_name and 0 <= value.value < 1 << 31:
                    setattr(pkg.platform_properties, key, value.value)
                else:
                    self.error(pair.loc, f"@{anno.name}: {key} is not one of its keys, or not of its type")
        self.annotate(pkg, main.annotations, frozenset(KEY_VALUE_ANNOTATIONS))
        self.document(pkg, main.annotations)

