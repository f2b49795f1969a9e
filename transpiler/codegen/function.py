"""The generator of one C function: the mixins of the other modules, with the state they share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from p4odp import ir
from p4odp import types as t
from p4odp.diagnostics import Loc, Unsupported
from p4odp.transpiler.codegen._types import type_name
from p4odp.transpiler.codegen.atomic import Atomic
from p4odp.transpiler.codegen.calls import Calls
from p4odp.transpiler.codegen.expressions import Expressions
from p4odp.transpiler.codegen.packets import Packets
from p4odp.transpiler.codegen.scope import Binding, ExternInstance
from p4odp.transpiler.codegen.statements import Statements
from p4odp.transpiler.codegen.tables import Tables
from p4odp.transpiler.codegen.wide import WideValues
from p4odp.transpiler.ctypes_map import c_ident

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.program import Generator

__all__ = ["FunctionContext"]


class FunctionContext(Statements, Expressions, WideValues, Calls, Packets, Tables, Atomic):
    """Generates the body of one C function (a parser, a control) and the actions its tables run.

    Each concern is a mixin of its own module: statements, expressions, values wider than 64
    bits, calls, packets (parsing and deparsing), tables and atomic regions."""

    def __init__(self, gen: Generator, decl, role: str = "") -> None:
        self.gen = gen
        self.decl = decl
        self.role = role  # the block's role in its architecture's package (Architecture.blocks)
        self.bindings = gen.bindings
        self.prelude: list[str] = []
        self.lines: list[str] = []
        self.indent = 1
        self.state_labels: dict[str, str] = {}  # parser state name -> C label
        # (continue label, break label, how many locks were held at its start) of the enclosing loops
        self.loops: list[tuple[str, str, int]] = []
        self.held: list[str] = []  # the locks the enclosing atomic region holds (atomic.py)
        self.in_parser = isinstance(decl, ir.Parser)
        self.byte_aligned = decl.name in gen.byte_aligned  # every header at a whole byte: packet-alignment

    def emit(self, line: str) -> None:
        self.lines.append("\t" * self.indent + line)

    def resolve(self, ref):
        """What a `PathExpression` or `ActionRef` names: a `Binding`, an `ExternInstance` or a
        declaration."""
        return self.bindings.lookup(ref.name, ref.is_global)

    def temp(self, prefix: str = "t") -> str:
        return f"{prefix}{next(self.gen.tmp)}"

    def loc_line(self, loc: Loc) -> None:
        self.emit(f"/* {loc.file}:{loc.line} */")

    # ------------------------------------------------------------------
    # Declarations inside blocks

    def local_decl(self, decl) -> None:
        if isinstance(decl, ir.Variable):
            typ = decl.type
            name = f"v_{c_ident(decl.name)}_{next(self.gen.tmp)}"
            self.prelude.append("\t" + self.gen.member_decl(typ, name, decl.loc) + ";")
            self.prelude.append(f"\tmemset(&{name}, 0, sizeof {name});")
            self.bindings.names[decl.name] = Binding(name, typ)
            if decl.init is not None:
                self.assign(Binding(name, typ), decl.init, decl.loc)
        elif isinstance(decl, ir.Constant):
            self.bindings.names[decl.name] = Binding(self.gen.const_c(decl.value), decl.value.type,
                                                     self.gen.const_int(decl.value))
        elif isinstance(decl, (ir.Action, ir.Table)):
            pass  # they mean their declaration (`NameTable`)
        elif isinstance(decl, ir.Instance):
            if isinstance(self.bindings.lookup(type_name(decl.type_ref), is_global=True), (ir.Parser, ir.Control)):
                raise Unsupported(decl.loc, "parser and control instances without the inlining pass")
            instance = self.packet_state(decl) or self.gen.extern_instance(decl)
            if instance is None:
                raise Unsupported(decl.loc, f"instances of {type_name(decl.type_ref)} inside blocks"
                                            f"{self.gen.no_extern_hint(type_name(decl.type_ref))}")
            self.bindings.names[decl.name] = instance
        elif isinstance(decl, ir.ValueSet):
            self.bindings.names[decl.name] = self.gen.value_set(decl)
        else:
            raise Unsupported(decl.loc, "this declaration")

    def packet_state(self, decl: ir.Instance) -> Optional[ExternInstance]:
        """An instance of an extern whose state lasts one packet in this block (Extern.packet_state): a
        local of this function, zero when the block starts; None for an instance of any other extern."""
        extern = self.gen.architecture.extern(decl.type.name) if isinstance(decl.type, t.ExternT) else None
        if extern is None or not extern.packet_state:
            return None
        name = f"{c_ident(decl.name)}_{next(self.gen.tmp)}"
        self.prelude.append(f"\t{extern.packet_state} {name};")
        self.prelude.append(f"\tmemset(&{name}, 0, sizeof {name});")
        return ExternInstance(decl.name, decl.type.name, name, 0)
