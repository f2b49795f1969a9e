"""The program-level walk: from `main` to its architecture's blocks, with the C structs of the
types, the constants and the extern instances' storage; the tables and actions as the
table-layout pass laid them out."""

from __future__ import annotations

import itertools
from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc, Unsupported
from p4odp.frontend.preprocess import architecture_include_dir
from p4odp.transpiler.codegen._types import tuple_struct, type_name, value_set_widths
from p4odp.transpiler.codegen.function import FunctionContext
from p4odp.transpiler.codegen.header_state import header_state
from p4odp.transpiler.architectures import Architecture, architecture_of
from p4odp.transpiler.codegen.scope import Binding, Bindings, ExternInstance
from p4odp.transpiler.ctypes_map import CType, bits_of, c_ident, stack_name, struct_name
from p4odp.transpiler.codegen.tables import burst_state, c_action, c_profile, c_table, learnt
from p4odp.transpiler.model import (CCounter, CDigest, CFunction, CLearner, CMeter, CProgram, CRegister, CStruct,
                                    CValueSet)
from p4odp.transpiler.passes.manager import PassResult
from p4odp.transpiler.passes._walk import block_arguments, error_names, main_instance
from p4odp.transpiler.passes.unique_names import NameTable

__all__ = ["Generator"]


class Generator:
    """The C model of one program; a `FunctionContext` generates each block's function."""

    def __init__(self, result: PassResult, source: str, line_directives: bool) -> None:
        self.program = program = result.program
        self.control_plane = result.control_plane
        self.c_types = result.c_types
        self.byte_aligned = result.byte_aligned
        self.deparse_in_place = result.deparse_in_place
        self.in_place_headers = result.in_place_headers
        self.burst_lookups = result.burst_lookups
        self.unread_fields = result.unread_fields
        self.metadata_read = result.metadata_read
        self.times_read = result.times_read
        self.table_layouts = result.table_layouts
        # The tables whose entries the datapath adds, by learner number (p4odp_program.learners).
        self.learners = [CLearner(layout.index, layout.size, layout.key_bytes, layout.data_bytes, learnt(layout))
                         for layout in sorted(result.table_layouts.values(), key=lambda layout: layout.index)
                         if layout.learner]
        self.action_profiles = result.action_profiles
        self.actions = result.actions
        self.line_directives = line_directives
        self.source = source
        self.bindings = Bindings(NameTable(program))
        self.structs: dict[str, CStruct] = {}
        self.functions: list[CFunction] = []
        self.state: list[str] = []
        self.worker_state: list[str] = []
        self.counters: list[CCounter] = []
        self.registers: list[CRegister] = []
        self.meters: list[CMeter] = []
        self.value_sets: list[CValueSet] = []
        self.crcs: list[tuple] = []  # (name, width) of each custom-CRC calculation (crc_calculation)
        self.digests: list[CDigest] = []  # (digest_index)
        self.errors: list[str] = error_names(program)  # by code
        self.tmp = itertools.count()
        # csum16_sum's runs of packet bytes, by their index in pc->csum_runs (checksums.py).
        self.csum_runs: list[tuple] = []
        # The lists of fields that clones, resubmits and recirculations keep, by number (the
        # pipeline's p4_preserve): members of struct p4odp_packet_state; number 0 keeps none.
        self.field_lists: list[tuple] = [()]
        self.copies: set[str] = set()  # those of "clone", "resubmit", "recirculate" the program asks for
        self.truncates = False  # it calls truncate()
        self.state_types: dict[str, t.Type] = {}  # the types of the architecture's `types`, by role
        self.extern_code: list[str] = []  # the c_code of the externs the program uses, in order of use
        # The locks of the instances of atomic externs (registers), members of `struct p4_state`, in the
        # one order every action and @atomic block takes them in (atomic.py).
        self.locks: list[str] = []
        self.architecture: Architecture

    # ------------------------------------------------------------------
    # Program

    def run(self) -> CProgram:
        main = main_instance(self.program)
        if main is None:
            raise Unsupported(self.program.loc, "a program without a 'main' instance")
        arch = architecture_of(main)
        if arch is None:
            raise Unsupported(main.loc, f"the package {type_name(main.type_ref)} (no installed architecture "
                                        f"defines it)")
        self.architecture = arch
        self.copies.update(arch.copies)
        for decl in self.program.declarations:
            if isinstance(decl, ir.Constant):
                self.bindings.names[decl.name] = Binding(self.const_c(decl.value), decl.value.type,
                                                         self.const_int(decl.value))
            elif isinstance(decl, ir.Instance) and (instance := self.extern_instance(decl)) is not None:
                self.bindings.names[decl.name] = instance  # shared by every block that uses it
        args = block_arguments(self.program)
        if len(args) != len(arch.blocks):
            raise Unsupported(main.loc, f"{arch.package} needs its {len(arch.blocks)} parsers and controls")
        blocks = {role: self.block_decl(arg) for role, arg in zip(arch.blocks, args)}
        self.state_types = {name: blocks[block].params[index].type for name, (block, index) in arch.types.items()}
        for role, other in arch.same_types:
            if self.state_types[role] != self.state_types[other]:
                raise Unsupported(main.loc, f"{arch.package} with its {role.replace('_', ' ')} of type "
                                            f"{self.state_types[role]}, not {self.state_types[other]} as its "
                                            f"{other.replace('_', ' ')}")
        functions = {role: self.gen_block(role, decl) for role, decl in blocks.items()}
        pipeline = {role: info["function"] for role, info in functions.items()}
        pipeline.update({name: functions[block]["types"][index] for name, (block, index) in arch.types.items()})
        for role in arch.headers:
            block, index = arch.types[role]
            pipeline.update(self.header_state_functions(functions[block]["params"][index], pipeline[role], role))
        tables = [c_table(layout, self.action_profiles, self.burst_lookups.get(name, ()))
                  for name, layout in sorted(self.table_layouts.items(), key=lambda item: item[1].index)]
        self.worker_state += [f"uint64_t {table.last_hit}[{table.size}]" for table in tables if table.last_hit]
        self.worker_state += [f"uint64_t {learner.member}[{learner.size} * P4ODP_LEARNT_BYTES({learner.key_bytes}, "
                              f"{learner.data_bytes}) / 8]" for learner in self.learners]
        for name in self.burst_lookups:
            layout = self.table_layouts[name]
            keys, entries = burst_state(layout)
            key_type = ("uint64_t {}[P4ODP_BURST]" if layout.key_bytes <= 8
                        else f"uint8_t {{}}[P4ODP_BURST][{layout.key_bytes}]")
            self.worker_state += [key_type.format(keys), f"const struct p4odp_table_entry *{entries}[P4ODP_BURST]"]
        actions = [c_action(action) for action in sorted(self.actions.values(), key=lambda a: a.id)]
        return CProgram(self.source, list(self.structs.values()), self.functions, tables, actions, self.errors,
                        self.state, self.worker_state, self.counters, self.registers, pipeline, arch.pipeline_template, dict(arch.constants),
                        self.line_directives, self.deparse_in_place is not None,
                        None if self.metadata_read is None else tuple(sorted(self.metadata_read)),
                        self.meters, self.value_sets, self.field_lists if len(self.field_lists) > 1 else [],
                        tuple(sorted(self.copies)),
                        [c_profile(p) for p in sorted(self.action_profiles.values(), key=lambda p: p.index)],
                        self.extern_code, self.crcs, self.digests, self.learners,
                        # learnt entries expire: their hits are timed too
                        timestamps=bool(self.learners) or self.times_read, truncates=self.truncates)

    def header_state_functions(self, typ: t.Type, c_type: str, role: str) -> dict:
        """`p4_<role>_reset` and `p4_<role>_clear_invalid` of the headers of `role` (header_state.py);
        their names by role."""
        reset, clear = header_state(typ, "(*hdr)")
        names = {f"{role}_{what}": f"p4_{role}_{what}" for what in ("reset", "clear_invalid")}
        for (role, name), body, comment in zip(names.items(), (reset, clear), (
                "every header invalid, before the parser", "zeros in every header the parser left invalid")):
            self.functions.append(CFunction(f"static inline void {name}({c_type} *hdr)",
                                            ["\t" + line for line in body], comment))
        return names

    def block_decl(self, arg: ir.Argument):
        value = arg.value
        if isinstance(value, ir.ConstructorCall) and isinstance(value.type_ref, ir.TypeName):
            decl = self.bindings.lookup(value.type_ref.name, is_global=True)
            if isinstance(decl, (ir.Parser, ir.Control)):
                if value.args or decl.ctor_params:
                    raise Unsupported(value.loc, f"constructor parameters of {self.architecture.package} blocks")
                return decl
        raise Unsupported(arg.loc, f"{self.architecture.package} arguments other than parser and control instances")

    # ------------------------------------------------------------------
    # Types

    def type_c(self, typ: t.Type, loc: Loc) -> str:
        """Declare the C struct behind `typ` if needed; return its C type name."""
        if isinstance(typ, t.TupleT):
            typ = tuple_struct(typ)
        if isinstance(typ, t.StructLike):
            name = struct_name(typ)
            if name not in self.structs:
                self.structs[name] = None  # type: ignore[assignment]  # guards recursion
                members = []
                if typ.kind == "header":
                    members.append("uint8_t _valid")
                for f in typ.fields:
                    self.type_c(f.type, loc)
                    members.append(self.member_decl(f.type, c_ident(f.name), loc))
                if typ.kind == "header_union" and not members:
                    members.append("uint8_t _unused")
                if not members:
                    members.append("uint8_t _empty")
                del self.structs[name]
                self.structs[name] = CStruct(name, typ.name, members)
            return f"struct {name}"
        if isinstance(typ, t.Stack):
            element = self.type_c(typ.element, loc)
            name = stack_name(typ)
            if name not in self.structs:
                # e[size] is no element of the stack: what an index out of range reads (an invalid
                # header, zero) and writes (to no effect on the stack), as a C index needs a place.
                self.structs[name] = CStruct(name, str(typ), [f"{element} e[{typ.size + 1}]", "uint32_t _next"])
            return f"struct {name}"
        if isinstance(typ, t.Varbit):
            nbytes = max((typ.width + 7) // 8, 1)
            name = f"p4odp_varbit_{nbytes}"
            if name not in self.structs:
                self.structs[name] = CStruct(name, f"varbit<{typ.width}>", ["uint32_t len", f"uint8_t b[{nbytes}]"])
            return f"struct {name}"
        return self.scalar_c(typ, loc).decl

    def scalar_c(self, typ: t.Type, loc: Loc) -> CType:
        lowered = self.c_types.get(typ)
        if lowered is None:
            why = "" if self.c_types else " (the type-lowering pass did not run)"
            raise Unsupported(loc, f"values of type {typ}{why}")
        return lowered

    def member_decl(self, typ: t.Type, name: str, loc: Loc) -> str:
        decl = self.type_c(typ, loc)
        array = self.scalar_c(typ, loc).array if bits_of(typ) is not None else ""
        return f"{decl} {name}{array}"

    # ------------------------------------------------------------------
    # Blocks

    def gen_block(self, role: str, decl) -> dict:
        fn = f"p4_{role}"
        ctx = FunctionContext(self, decl, role)
        params = []
        for p in decl.params:
            typ = p.type
            if isinstance(typ, t.ExternT):
                self.bindings.names[p.name] = Binding("pc", typ)
                continue
            c = self.type_c(typ, p.loc)
            c_name = c_ident(p.name.split("#")[0])  # unique-names' suffix: unique within the C function anyway
            params.append(f"{c} *{c_name}")
            self.bindings.names[p.name] = Binding(f"(*{c_name})", typ)
        for local in decl.locals:
            ctx.local_decl(local)
        if isinstance(decl, ir.Parser):
            body = ctx.parser_body(decl)
            ret = "int"
        else:
            body = ctx.control_body(decl)
            ret = "void"
        signature = f"static inline {ret} {fn}(struct p4odp_pctx *pc{''.join(', ' + p for p in params)})"
        self.functions.append(CFunction(signature, ctx.prelude + body, f"{role}: {decl.name} ({decl.loc})"))
        return {"function": fn, "params": [p.type for p in decl.params],
                "types": [self.type_c(p.type, p.loc) if not isinstance(p.type, t.ExternT)
                          else None for p in decl.params]}

    # ------------------------------------------------------------------
    # Constants

    def const_int(self, expr: Optional[ir.Expression]) -> Optional[int]:
        from p4odp.frontend.const_eval import evaluate

        if expr is None:
            return None

        def lookup(name: str):
            binding = self.bindings.names.get(name)
            return binding.const if isinstance(binding, Binding) else None

        value = evaluate(expr, lookup)
        return int(value) if value is not None else None

    def const_c(self, expr: ir.Expression) -> str:
        value = self.const_int(expr)
        return f"UINT64_C({value})" if value is not None and value >= 0 else str(value)

    def extern_instance(self, decl: ir.Instance) -> Optional[ExternInstance]:
        """The storage of a register, counter or meter instance (in `struct p4_state` or
        `struct p4_worker_state`), as the architecture stores instances of its extern type, with a
        lock when the extern is atomic; None when it stores none."""
        extern = self.architecture.extern(decl.type.name) if isinstance(decl.type, t.ExternT) else None
        if extern is None or extern.storage is None:
            return None
        instance = extern.storage(self, decl)
        if extern.atomic and instance.member:
            # Its lock, beside the locks before it: the order in which a region takes them (atomic.py).
            instance.lock = f"{instance.member}_lock"
            self.state.append(f"uint8_t {instance.lock}")
            self.locks.append(instance.lock)
            for register in self.registers:  # the control plane's accesses take it too
                if register.member == instance.member:
                    register.lock = instance.lock
        return instance

    def value_set(self, decl: ir.ValueSet) -> ExternInstance:
        """A parser value set's members in `struct p4_state` (the control plane fills them, the workers
        read them): values of a bit<W> or serializable enum, or of a struct of them (one per select
        key) packed one after the other as BMv2 takes them, matched whole, each a `used` byte and
        then the value in network order."""
        element = decl.type.element if decl.type is not None else None
        width = sum(value_set_widths(element))
        if not width:
            raise Unsupported(decl.element_type.loc, f"value sets of {element} (bit<W> or serializable enum "
                                                     f"values or structs of them)")
        size = self.const_int(decl.size) or 0
        member = c_ident(f"value_set_{decl.control_name or decl.name}")
        self.state.append(f"struct {{ uint8_t used; uint8_t value[{(width + 7) // 8}]; }} {member}[{max(size, 1)}]")
        self.value_sets.append(CValueSet(decl.control_name or decl.name, size, member, width, t.is_signed(element)))
        return ExternInstance(decl.name, "value_set", member, size, element)

    def field_list(self, members: tuple) -> int:
        """The number of the field list of `members` (members of struct p4odp_packet_state)."""
        if members not in self.field_lists:
            self.field_lists.append(members)
        return self.field_lists.index(members)

    def annotated_field_list(self, index: int) -> int:
        """The number of the field list of the metadata fields annotated `@field_list(index)`, in
        nested structs too (v1model's *_preserving_field_list)."""
        structs = {d.name: d for d in self.program.declarations if isinstance(d, ir.Struct)}

        def annotated(typ: t.Type, path: str):
            decl = structs.get(typ.name) if isinstance(typ, t.StructLike) and typ.kind == "struct" else None
            for field in decl.fields if decl is not None else ():
                member, field_type = f"{path}.{c_ident(field.name)}", typ.field(field.name).type
                lists = [self.const_int(item) for anno in field.annotations if anno.name == "field_list"
                         for item in anno.items]
                if index in lists:
                    yield member
                else:
                    yield from annotated(field_type, member)

        return self.field_list(tuple(annotated(self.state_types.get("meta"), "meta")))

    def no_extern_hint(self, name: str) -> str:
        """What to add to a refusal of extern `name` when the program declares it itself (as p4c's
        extern-funcs-bmv2 does), not the architecture's include file: how one can be provided."""
        loc = getattr(self.bindings.lookup(name, is_global=True), "loc", None)  # None: no declaration of the program
        if loc is None or str(loc.file).startswith(architecture_include_dir()):
            return ""
        return (f" ({self.architecture.name} has no extern {name}: a target plugin can provide its C; "
                "see 'To add an extern' in the README)")

    def crc_calculation(self, width: int) -> int:
        """The index of a new calculation by a custom CRC of `width` bits (a hash() call or a checksum),
        named as p4c's BMv2 back end names its calculations, for set_crc16_parameters and
        set_crc32_parameters: "calc", then "calc_0", "calc_1", ..., past the program's own names."""
        blocks = [d for d in self.program.declarations if isinstance(d, (ir.Control, ir.Parser))]
        taken = {getattr(d, "name", None) for d in [*self.program.declarations, *(d for b in blocks for d in b.locals)]}
        names = ("calc" if i < 0 else f"calc_{i}" for i in itertools.count(-1))
        used = {name for name, _ in self.crcs}
        self.crcs.append((next(n for n in names if n not in taken and n not in used), width))
        return len(self.crcs) - 1

    def digest_index(self, name: str, fields: list) -> int:
        """The number of the digest `name` whose messages hold `fields` ((bits, member names or None)
        each); one number for every call of the same digest."""
        for index, digest in enumerate(self.digests):
            if digest.name == name:
                return index
        self.digests.append(CDigest(name, fields))
        return len(self.digests) - 1

    def error_code(self, name: str) -> int:
        return self.errors.index(name)
