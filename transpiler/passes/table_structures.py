"""table-structures: choose the lookup structure of each table.

The choice is recorded in `PassResult.table_structures`, a side table from
the table's control-plane name to one of the structure names below; the IR
is returned unchanged (no annotation is added).  The C generator passes it
to the runtime, which builds the table so.  The names are those of the
control plane: `Table.control_name` (p4c's `@name`-honouring name; after
the inlining pass, `Outer.instance.table` for the tables of a control
instantiated inside another).

| structure  | chosen when                                                          |
| ---------- | -------------------------------------------------------------------- |
| `empty`    | the table has no key: every lookup yields the default action        |
| `tss`      | any key is `ternary`, `range` or `optional`: tuple-space search     |
|            | with priorities (also for match kinds this pass does not know)     |
| `dir-24-8` | the only key is one `lpm` field of at most 32 bits                  |
| `tss-lpm`  | one `lpm` field with `exact` ones, or wider than 32 bits: one tuple |
|            | per prefix length                                                  |
| `cuckoo`   | every key is `exact`: a cuckoo hash                                 |

The rules are tried in this order.  `selector` keys (v1model's action
selectors) choose a member, not an entry, and are left out of the choice.
The verbose report gives each table's choice, its keys and its `size`.
"""

from __future__ import annotations

from p4odp import ir
from p4odp import types as t
from p4odp.frontend.const_eval import evaluate
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["TableStructures", "choose_structure", "table_size", "top_level_constants", "STRUCTURES", "DEFAULT_SIZE"]

STRUCTURES = ("empty", "tss", "dir-24-8", "tss-lpm", "cuckoo")
MAX_DIR_24_8_WIDTH = 32
DEFAULT_SIZE = 1024  # simple_switch's default for tables without `size`
_WILDCARD_KINDS = ("ternary", "range", "optional")
_IGNORED_KINDS = ("selector",)


class TableStructures:
    name = "table-structures"

    def __call__(self, program: ir.Program, ctx: PassContext) -> ir.Program:
        constants = top_level_constants(program)
        reported = set()  # a table inlined into another control is the same source table
        for decl in program.declarations:
            if not isinstance(decl, ir.Control):
                continue
            for table in decl.locals:
                if not isinstance(table, ir.Table):
                    continue
                name = table.control_name or table.name
                lpm = [k for k in _keys(table) if k.match_kind == "lpm"]
                if len(lpm) > 1 and lpm[1].loc not in reported:
                    reported.add(lpm[1].loc)
                    ctx.diags.error(lpm[1].loc, f"table {name}: a second lpm key; a table matches one prefix at "
                                                f"most (as on BMv2)")
                structure, why = choose_structure(table)
                ctx.result.table_structures[name] = structure
                ctx.report(f"table {name}: {structure} ({why}, size {table_size(table, constants)})", table.loc)
        return program


def choose_structure(table: ir.Table) -> tuple[str, str]:
    """The lookup structure for `table` and a few words saying why."""
    keys = _keys(table)
    if not keys:
        return "empty", "no key"
    kinds = [k.match_kind for k in keys]
    described = ", ".join(f"{k.match_kind} {_width_text(k.expr.type)}" for k in keys)
    if any(k not in ("exact", "lpm") for k in kinds):
        return "tss", described
    lpm = [k for k in keys if k.match_kind == "lpm"]
    if not lpm:
        return "cuckoo", described
    if len(lpm) == 1 and len(keys) == 1:
        width = t.bit_width(lpm[0].expr.type)
        if width is not None and width <= MAX_DIR_24_8_WIDTH:
            return "dir-24-8", described
        return "tss-lpm", described
    if len(lpm) == 1:
        return "tss-lpm", described
    return "tss", described  # several lpm fields (an error the pass reports): only a wildcard search fits


def _keys(table: ir.Table) -> list:
    """The key elements that select an entry (not an action selector's)."""
    props = {p.name: p for p in table.properties}
    return [k for k in (props["key"].value if "key" in props else ()) if k.match_kind not in _IGNORED_KINDS]


def _width_text(typ) -> str:
    width = t.bit_width(typ)
    return f"{width} bits" if width is not None else str(typ)


def table_size(table: ir.Table, constants: dict) -> int:
    """The table's `size` (`constants`: `top_level_constants`); simple_switch's default without one."""
    for prop in table.properties:
        if prop.name == "size" and isinstance(prop.value, ir.Expression):
            value = evaluate(prop.value, constants.get)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
    return DEFAULT_SIZE


def top_level_constants(program: ir.Program) -> dict:
    """The values of the top-level constants, for a `size` given by name (if constant-folding was skipped)."""
    values: dict = {}
    for decl in program.declarations:
        if isinstance(decl, ir.Constant):
            value = evaluate(decl.value, values.get)
            if value is not None:
                values[decl.name] = value
    return values
