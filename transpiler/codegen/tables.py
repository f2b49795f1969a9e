"""Tables: an application as a lookup and a switch over its actions, and the control-plane
description of the table (keys, actions, default action, const entries)."""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t

from p4odp.transpiler.codegen.scope import Unsupported
from p4odp.transpiler.ctypes_map import c_ident
from p4odp.transpiler.key_names import key_name
from p4odp.transpiler.model import CActionParam, CKeyField, CTable

__all__ = ["Tables"]

MATCH_KINDS = {"exact": "P4ODP_MATCH_EXACT", "lpm": "P4ODP_MATCH_LPM", "ternary": "P4ODP_MATCH_TERNARY",
               "range": "P4ODP_MATCH_RANGE", "optional": "P4ODP_MATCH_OPTIONAL"}
# The table-structures pass's names of the runtime's lookup structures.
TABLE_KINDS = {"auto": "P4ODP_TABLE_AUTO", "empty": "P4ODP_TABLE_EMPTY", "cuckoo": "P4ODP_TABLE_CUCKOO",
               "dir-24-8": "P4ODP_TABLE_DIR24", "tss-lpm": "P4ODP_TABLE_TSS_LPM", "tss": "P4ODP_TABLE_TSS"}

# The properties a table is built from; any other is refused, unless it is a constant `false`
# (e.g. `support_timeout = false`), which asks for nothing.
HONOURED_PROPERTIES = ("key", "actions", "default_action", "size", "entries")


class Tables:
    """Table applications and the tables' metadata for the control plane."""

    def apply_table(self, table_expr: ir.Expression) -> dict:
        """Generate a table application; the C names of its results."""
        table = self.resolve(table_expr) if isinstance(table_expr, ir.PathExpression) else None
        if not isinstance(table, ir.Table):
            raise Unsupported(table_expr.loc, "this table reference")
        info = self.table_info(table)
        hit, run = self.temp("hit"), self.temp("run")
        self.prelude.append(f"\tbool {hit} = 0;")
        self.prelude.append(f"\tuint32_t {run} = 0;")
        self.emit(f"/* table {info['name']} */")
        self.emit("{")
        self.indent += 1
        key_len = info["key_len"]
        if key_len:
            self.emit(f"uint8_t key[{key_len}] = {{0}};")
            for expr, offset, _ in info["key_exprs"]:
                self.store_value("key", offset, expr)
        else:
            self.emit("const uint8_t *key = NULL;")
        self.emit(f"const struct p4odp_table_entry *entry = p4_table_lookup(pc, {info['index']}, key, &{hit});")
        self.emit(f"{run} = entry->action_id;")
        self.emit(f"switch ({run}) {{")
        for action, bound, action_id in info["actions"]:
            self.emit(f"case {action_id}: {{")
            self.indent += 1
            self.inline_action(action, bound, "entry->data")
            self.indent -= 1
            self.emit("\tbreak;")
            self.emit("}")
        self.emit("default:")
        self.emit("\tbreak;")
        self.emit("}")
        self.indent -= 1
        self.emit("}")
        return {"hit": hit, "action_run": run, "actions": {a.name: i for a, _, i in info["actions"]}}

    def table_info(self, table: ir.Table) -> dict:
        cache = self.gen.table_infos
        key = id(table)
        if key in cache:
            return cache[key]
        props = {p.name: p for p in table.properties}
        for prop in table.properties:
            if prop.name not in HONOURED_PROPERTIES and not _is_false(prop):
                raise Unsupported(prop.loc, f"the table property {prop.name}")
        keys, key_exprs, offset = [], [], 0
        for element in props["key"].value if "key" in props else ():
            width = t.bit_width(element.expr.type)
            if width is None:
                raise Unsupported(element.loc, f"table keys of type {element.expr.type}")
            nbytes = (width + 7) // 8
            name = key_name(element)
            keys.append(CKeyField(name, width, MATCH_KINDS.get(element.match_kind, "")))
            if not keys[-1].match_kind:
                raise Unsupported(element.loc, f"the match kind {element.match_kind}")
            key_exprs.append((element.expr, offset * 8 + nbytes * 8 - width, width))
            offset += nbytes
        actions = []
        data_len = 0
        for ref in props["actions"].value if "actions" in props else ():
            action = self.resolve(ref)
            if not isinstance(action, ir.Action):
                raise Unsupported(ref.loc, f"the action {ref.name}")
            cp_params = []
            layout = 0
            for p in action.params[len(ref.args):]:
                width = t.bit_width(p.type)
                if width is None:
                    raise Unsupported(p.loc, "action parameters that are not bit<W>, int<W> or bool")
                cp_params.append(CActionParam(p.name, width))
                layout += (width + 7) // 8
            data_len = max(data_len, layout)
            action_id = self.gen.action_id(action, action.control_name or action.name, cp_params)
            actions.append((action, ref.args, action_id))
        index = len(self.gen.tables)
        default_id, default_data, default_const = 0, [], False
        if "default_action" in props:
            ref = props["default_action"].value
            default_const = props["default_action"].is_const
            for action, bound, action_id in actions:
                if action.name == ref.name:
                    default_id = action_id
                    params = action.params[len(bound):]
                    for p, arg in zip(params, ref.args[len(bound):]):
                        width = t.bit_width(p.type)
                        value = self.gen.const_int(arg.value) or 0
                        default_data += list((value % (1 << width)).to_bytes((width + 7) // 8, "big"))
        else:
            for action, bound, action_id in actions:
                if action.name == "NoAction":
                    default_id = action_id
            if not default_id:
                noaction = self.bindings.lookup("NoAction", is_global=True)
                if isinstance(noaction, ir.Action):
                    default_id = self.gen.action_id(noaction, "NoAction", [])
                    actions.append((noaction, (), default_id))
        size = self.gen.const_int(props["size"].value) if "size" in props else 1024
        entries = []
        if "entries" in props:
            entries = [self.entry_command(e, i, keys) for i, e in enumerate(props["entries"].value)]
        name = table.control_name or table.name
        structure = TABLE_KINDS[self.gen.table_structures.get(name, "auto")]
        self.gen.tables.append(CTable(index, f"tbl_{c_ident(name)}", name, keys, [a[2] for a in actions],
                                      size or 1024, default_id, default_data, default_const, data_len, entries,
                                      structure))
        info = {"index": index, "name": name, "key_len": offset, "key_exprs": key_exprs, "actions": actions}
        cache[key] = info
        return info

    def entry_command(self, entry: ir.Entry, position: int, keys: list) -> str:
        """A const entry, written as `table_add` arguments (simple_switch_CLI: the smaller priority wins).

        `priority = N` (P4_16): the larger N wins.  `@priority(N)` (BMv2's
        annotation): the smaller N wins.  No priority: the earlier entry wins.
        """
        elements = entry.keyset.elements if isinstance(entry.keyset, ir.ListExpression) and len(keys) > 1 \
            else (entry.keyset,)
        parts = []
        for element, key in zip(elements, keys):
            parts.append(self.entry_key(element, key))
        action_args = [str(self.gen.const_int(a.value) or 0) for a in entry.action.args]
        action = self.resolve(entry.action)
        text = f"{action.control_name or action.name} {' '.join(parts)} => {' '.join(action_args)}"
        if not any(k.match_kind in ("P4ODP_MATCH_TERNARY", "P4ODP_MATCH_RANGE", "P4ODP_MATCH_OPTIONAL")
                   for k in keys):
            return text
        annotated = next((a for a in entry.annotations if a.name == "priority" and a.items), None)
        if entry.priority is not None:
            priority = (1 << 24) - 1 - (self.gen.const_int(entry.priority) or 0)
        elif annotated is not None:
            priority = self.gen.const_int(annotated.items[0]) or 0
        else:
            priority = position + 1
        return f"{text} {max(priority, 0)}"

    def entry_key(self, element: ir.Expression, key: CKeyField) -> str:
        if isinstance(element, (ir.DefaultExpression, ir.DontCare)):
            if key.match_kind == "P4ODP_MATCH_LPM":
                return "0/0"
            if key.match_kind == "P4ODP_MATCH_RANGE":
                return f"0->{(1 << key.width) - 1}"
            return "0&&&0"
        if isinstance(element, ir.Binary) and element.op is ir.BinaryOp.MASK:
            value, mask = self.gen.const_int(element.left), self.gen.const_int(element.right)
            if key.match_kind == "P4ODP_MATCH_LPM":
                return f"{value}/{bin(mask).count('1')}"
            return f"{value}&&&{mask}"
        if isinstance(element, ir.Binary) and element.op is ir.BinaryOp.RANGE:
            return f"{self.gen.const_int(element.left)}->{self.gen.const_int(element.right)}"
        value = self.gen.const_int(element)
        if value is None:
            raise Unsupported(element.loc, "this entry key")
        if key.match_kind == "P4ODP_MATCH_LPM":
            return f"{value}/{key.width}"
        if key.match_kind == "P4ODP_MATCH_TERNARY":
            return f"{value}&&&{(1 << key.width) - 1}"
        if key.match_kind == "P4ODP_MATCH_RANGE":
            return f"{value}->{value}"
        return str(value)


def _is_false(prop: ir.TableProperty) -> bool:
    return isinstance(prop.value, ir.BoolLiteral) and not prop.value.value
