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
| `empty`    | the table has no key: every lookup yields the default action, which |
|            | the generated C runs without asking the runtime when it is const    |
| `code`     | `const entries`, keys of at most 64 bits each, and few entries      |
|            | (below): the generated C matches the key against the entries (a    |
|            | `switch` for exact keys of at most 64 bits together, else the       |
|            | entries in the order they win); the runtime keeps them only for the |
|            | control plane's reads, and gives the default when it may change     |
| `tss`      | any key is `ternary`, `range` or `optional`: tuple-space search     |
|            | with priorities (also for match kinds this pass does not know)     |
| `dir-24-8` | the only key is one `lpm` field of at most 32 bits                  |
| `trie`     | the only key is one `lpm` field wider than 32 bits: a multibit trie |
| `tss-lpm`  | one `lpm` field with `exact` ones: one tuple per prefix length      |
| `cuckoo`   | every key is `exact`: a cuckoo hash                                 |

The rules are tried in this order.  `const entries` are compiled to code
when there are at most `MAX_CODE_SWITCH` of them and the table's keys are
all `exact`, 64 bits together at most, or at most `MAX_CODE_CHAIN` (tried
one after the other, so that beyond them a lookup structure is faster).
`selector` keys (v1model's action selectors) choose a member, not an
entry, and are left out of the choice.  A table with a direct counter keeps
its const entries in a lookup structure: the counter's cells are those of
the runtime's entries.  The verbose report gives each
table's choice, its keys and its `size`.
"""

from __future__ import annotations

from typing import Optional

from p4odp import ir
from p4odp import types as t
from p4odp.frontend.const_eval import evaluate
from p4odp.transpiler.architectures import CORE
from p4odp.transpiler.passes.manager import PassContext

__all__ = ["TableStructures", "choose_structure", "code_switch", "table_size", "top_level_constants", "STRUCTURES",
           "MAX_CODE_CHAIN", "MAX_CODE_SWITCH", "MAX_CODE_KEY_WIDTH"]

STRUCTURES = ("empty", "code", "tss", "dir-24-8", "trie", "tss-lpm", "cuckoo")
MAX_DIR_24_8_WIDTH = 32
MAX_CODE_CHAIN = 32  # const entries tried in order: a tuple-space lookup costs more below this
MAX_CODE_SWITCH = 1024  # const entries of exact keys, as `case`s of one C switch
MAX_CODE_KEY_WIDTH = 64  # the generated C compares each key field as one uint64_t
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
                size = table_size(table, constants) or (ctx.result.architecture or CORE).default_table_size
                ctx.report(f"table {name}: {structure} ({why}, size {size})", table.loc)
        return program


def choose_structure(table: ir.Table) -> tuple[str, str]:
    """The lookup structure for `table` and a few words saying why."""
    keys = _keys(table)
    if not keys:
        return "empty", "no key"
    kinds = [k.match_kind for k in keys]
    described = ", ".join(f"{k.match_kind} {_width_text(k.expr.type)}" for k in keys)
    entries = _const_entries(table)
    if entries is not None and _compilable(table, keys, len(entries)):
        return "code", f"{len(entries)} const entr{'y' if len(entries) == 1 else 'ies'}; {described}"
    if any(k not in ("exact", "lpm") for k in kinds):
        return "tss", described
    lpm = [k for k in keys if k.match_kind == "lpm"]
    if not lpm:
        return "cuckoo", described
    if len(lpm) == 1 and len(keys) == 1:
        width = t.bit_width(lpm[0].expr.type)
        if width is not None and width <= MAX_DIR_24_8_WIDTH:
            return "dir-24-8", described
        return "trie", described
    if len(lpm) == 1:
        return "tss-lpm", described
    return "tss", described  # several lpm fields (an error the pass reports): only a wildcard search fits


def _const_entries(table: ir.Table):
    """The table's `const entries`, or None when it has none (its entries, if any, may change)."""
    prop = next((p for p in table.properties if p.name == "entries"), None)
    return prop.value if prop is not None and prop.is_const else None


def _compilable(table: ir.Table, keys: list, n_entries: int) -> bool:
    """Can the generated C match these const entries itself?"""
    if any(k.match_kind in _IGNORED_KINDS for k in _all_keys(table)):
        return False  # an action selector's members are the control plane's
    if any(p.name in ("counters", "meters") for p in table.properties):
        return False  # a direct counter or meter acts on the hits of the runtime's entries
    widths = [t.bit_width(k.expr.type) for k in keys]
    if any(w is None or w > MAX_CODE_KEY_WIDTH for w in widths) or \
            any(k.match_kind not in ("exact", "lpm", "ternary", "range", "optional") for k in keys):
        return False
    if code_switch([(k.match_kind, w) for k, w in zip(keys, widths)]):
        return n_entries <= MAX_CODE_SWITCH
    return n_entries <= MAX_CODE_CHAIN


def code_switch(keys: list) -> bool:
    """Are const entries with these keys ((match kind, width) pairs) matched by one C switch, their
    exact fields side by side in a uint64_t?"""
    return all(kind == "exact" for kind, _ in keys) and sum(width for _, width in keys) <= MAX_CODE_KEY_WIDTH


def _all_keys(table: ir.Table) -> tuple:
    props = {p.name: p for p in table.properties}
    return props["key"].value if "key" in props else ()


def _keys(table: ir.Table) -> list:
    """The key elements that select an entry (not an action selector's)."""
    return [k for k in _all_keys(table) if k.match_kind not in _IGNORED_KINDS]


def _width_text(typ) -> str:
    width = t.bit_width(typ)
    return f"{width} bits" if width is not None else str(typ)


def table_size(table: ir.Table, constants: dict) -> Optional[int]:
    """The table's `size` (`constants`: `top_level_constants`); None without one (the architecture's
    default size, Architecture.default_table_size)."""
    for prop in table.properties:
        if prop.name == "size" and isinstance(prop.value, ir.Expression):
            value = evaluate(prop.value, constants.get)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
    return None


def top_level_constants(program: ir.Program) -> dict:
    """The values of the top-level constants, for a `size` given by name (if constant-folding was skipped)."""
    values: dict = {}
    for decl in program.declarations:
        if isinstance(decl, ir.Constant):
            value = evaluate(decl.value, values.get)
            if value is not None:
                values[decl.name] = value
    return values
