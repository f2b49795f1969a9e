"""Tables: an application as a lookup and a switch over its actions, as the table-layout pass laid
the table out, and the control-plane description of the table."""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t

from p4odp.diagnostics import InternalError, Unsupported
from p4odp.transpiler.codegen.scope import Binding
from p4odp.transpiler.ctypes_map import c_ident
from p4odp.transpiler.model import CActionParam, CAction, CKeyField, CTable
from p4odp.transpiler.passes.table_layout import ActionLayout, TableLayout

__all__ = ["Tables", "c_table", "c_action"]

# The runtime's names of the match kinds and of the table-structures pass's lookup structures.
MATCH_KINDS = {"exact": "P4ODP_MATCH_EXACT", "lpm": "P4ODP_MATCH_LPM", "ternary": "P4ODP_MATCH_TERNARY",
               "range": "P4ODP_MATCH_RANGE", "optional": "P4ODP_MATCH_OPTIONAL"}
TABLE_KINDS = {"auto": "P4ODP_TABLE_AUTO", "empty": "P4ODP_TABLE_EMPTY", "cuckoo": "P4ODP_TABLE_CUCKOO",
               "dir-24-8": "P4ODP_TABLE_DIR24", "tss-lpm": "P4ODP_TABLE_TSS_LPM", "tss": "P4ODP_TABLE_TSS"}


def c_table(layout: TableLayout) -> CTable:
    return CTable(layout.index, f"tbl_{c_ident(layout.name)}", layout.name,
                  [CKeyField(k.name, k.width, MATCH_KINDS[k.match_kind]) for k in layout.keys],
                  [a.id for a in layout.actions], layout.size, layout.default_action, list(layout.default_data),
                  layout.default_const, layout.data_bytes, list(layout.entries), TABLE_KINDS[layout.structure])


def c_action(action: ActionLayout) -> CAction:
    return CAction(action.id, action.name, [CActionParam(f.name, f.width) for f in action.data])


class Tables:
    """Table applications."""

    def apply_table(self, table_expr: ir.Expression) -> dict:
        """Generate a table application; the C names of its results."""
        table = self.resolve(table_expr) if isinstance(table_expr, ir.PathExpression) else None
        if not isinstance(table, ir.Table):
            raise Unsupported(table_expr.loc, "this table reference")
        layout = self.gen.table_layouts.get(table.name)
        if layout is None:
            raise InternalError(f"table {table.name} applied but not laid out by the table-layout pass ({table.loc})")
        hit, run = self.temp("hit"), self.temp("run")
        self.prelude.append(f"\tbool {hit} = 0;")
        self.prelude.append(f"\tuint32_t {run} = 0;")
        self.emit(f"/* table {layout.name} */")
        self.emit("{")
        self.indent += 1
        if layout.key_bytes:
            self.emit(f"uint8_t key[{layout.key_bytes}] = {{0}};")
            for key in layout.keys:
                self.store_value("key", key.bit_offset, key.expr)
        else:
            self.emit("const uint8_t *key = NULL;")
        self.emit(f"const struct p4odp_table_entry *entry = p4_table_lookup(pc, {layout.index}, key, &{hit});")
        self.emit(f"{run} = entry->action_id;")
        self.emit(f"switch ({run}) {{")
        for action in layout.actions:
            self.emit(f"case {action.id}: {{")
            self.indent += 1
            self.action_case(self.bindings.lookup(action.action), "entry->data")
            self.indent -= 1
            self.emit("\tbreak;")
            self.emit("}")
        self.emit("default:")
        self.emit("\tbreak;")
        self.emit("}")
        self.indent -= 1
        self.emit("}")
        return {"hit": hit, "action_run": run, "actions": {a.action: a.id for a in layout.actions}}

    def action_case(self, action: ir.Action, data: str) -> None:
        """An action a table runs: its parameters loaded from the action data at the C pointer `data`
        (laid out as the table-layout pass says), then its body."""
        self.emit(f"/* action {action.control_name or action.name} */")
        for param, field in zip(action.params, self.gen.actions[action.name].data):
            name, typ = f"p_{c_ident(param.name)}_{next(self.gen.tmp)}", param.type
            self.emit(self.gen.member_decl(typ, name, param.loc) + ";")
            if field.width > 64:
                self.emit(f"memcpy({name}, {data} + {field.byte_offset}, sizeof {name});")
            else:
                pad = (field.width + 7) // 8 * 8 - field.width
                load = f"p4odp_load_bits({data}, {field.byte_offset * 8 + pad}, {field.width})"
                self.emit(f"{name} = {self.wrap(load, typ) if isinstance(typ, t.Bits) and typ.signed else load};")
            self.bindings.names[param.name] = Binding(name, typ)
        self.block(action.body)
