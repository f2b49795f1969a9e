"""Checking of table declarations: keys, action lists, default actions, entries."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Optional, Union

from p4odp import ir
from p4odp import types as t

if TYPE_CHECKING:
    from p4odp.frontend.typecheck import Context, TypeChecker

__all__ = ["check_table", "keyset_elements", "PRIORITIZED_MATCH_KINDS"]

# The match kinds whose entries may overlap with equal keys: their entries rank by priority.
PRIORITIZED_MATCH_KINDS = ("ternary", "range", "optional")


def check_table(tc: "TypeChecker", decl: ir.Table, ctx: "Context") -> ir.Table:
    return _Table(tc, decl, ctx).check()


class _Table:
    def __init__(self, tc: "TypeChecker", decl: ir.Table, ctx: "Context") -> None:
        self.tc = tc
        self.decl = decl
        self.ctx = ctx
        self.key_types: list = []
        self.match_kinds: list = []
        self.actions: dict[str, ir.ActionRef] = {}
        self.action_decls: dict[str, object] = {}

    def error(self, loc, message: str) -> None:
        self.tc.error(loc, message)

    def check(self) -> ir.Table:
        decl = self.decl
        by_name: dict[str, ir.TableProperty] = {}
        for prop in decl.properties:
            if prop.name in by_name:
                self.error(prop.loc, f"{decl.name}: property {prop.name} is specified twice")
            by_name[prop.name] = prop
        if "actions" not in by_name:
            self.error(decl.loc, f"table {decl.name}: the actions property is missing")
        if "entries" in by_name and "key" in by_name and \
                decl.properties.index(by_name["entries"]) < decl.properties.index(by_name["key"]):
            self.error(by_name["entries"].loc, f"table {decl.name}: entries must come after the key")
        if "default_action" in by_name and "actions" in by_name and \
                decl.properties.index(by_name["default_action"]) < decl.properties.index(by_name["actions"]):
            self.error(by_name["default_action"].loc, f"table {decl.name}: default_action must come after actions")
        order = ("key", "actions", "default_action", "entries")
        checked: dict[int, ir.TableProperty] = {}
        for name in order:
            if name in by_name:
                prop = by_name[name]
                checked[id(prop)] = getattr(self, f"p_{name}")(prop)
        for prop in decl.properties:
            if id(prop) not in checked:
                checked[id(prop)] = self.other(prop)
        if "default_action" not in by_name:
            self.implicit_default()
        if "entries" in by_name:
            checked[id(by_name["entries"])] = self.entry_priorities(checked[id(by_name["entries"])], checked, by_name)
            self.refuse_duplicate_keys(checked[id(by_name["entries"])].value)
        return replace(decl, properties=tuple(checked[id(p)] for p in decl.properties))

    def entry_priorities(self, prop: ir.TableProperty, checked: dict, by_name: dict) -> ir.TableProperty:
        """The entries of a table whose keys need priorities, each with its priority (P4_16's entry
        priorities, as p4c's front end assigns them): where none is written, from the entry before
        it by `priority_delta` (default 1) towards the losing end (`largest_priority_wins`, default
        true); where none at all is written, the first entry the winner.  Const entries take none."""
        entries = prop.value
        written = next((e for e in entries if e.priority is not None), None)
        if prop.is_const:
            if written is not None:
                self.error(written.priority.loc, f"table {self.decl.name}: const entries cannot have priorities")
            return prop
        if not entries or not any(k in PRIORITIZED_MATCH_KINDS for k in self.match_kinds):
            return prop
        largest_wins = self.property_value(checked, by_name, "largest_priority_wins", True)
        delta = self.property_value(checked, by_name, "priority_delta", 1)
        if not isinstance(largest_wins, bool) or isinstance(delta, bool) or not isinstance(delta, int) or delta <= 0:
            return prop  # reported by other()
        if written is not None and entries[0].priority is None:
            self.error(entries[0].loc, f"table {self.decl.name}: the first entry must have a priority "
                                       "when others have one")
            return prop
        if written is None:  # the first entry wins: priorities 1, 1 + delta, ... from the losing end
            order = range(len(entries) - 1, -1, -1) if largest_wins else range(len(entries))
            priorities = dict(zip(order, range(1, 1 + delta * len(entries), delta)))
        else:
            priorities, current = {}, 0
            for i, entry in enumerate(entries):
                if entry.priority is not None:
                    current = self.tc.const_value(entry.priority, self.ctx)
                    if not isinstance(current, int) or isinstance(current, bool) or current < 0:
                        return prop  # reported by p_entries()
                if current < 0:
                    self.error(entry.loc, f"table {self.decl.name}: this entry's priority, counted from the "
                                          f"one before by priority_delta, would be {current}")
                    return prop
                priorities[i] = current
                current += -delta if largest_wins else delta
        return replace(prop, value=tuple(
            e if e.priority is not None else
            replace(e, priority=self.tc.expr(ir.IntLiteral(e.loc, priorities[i]), self.ctx))
            for i, e in enumerate(entries)))

    def property_value(self, checked: dict, by_name: dict, name: str, default):
        """The constant value of table property `name` (checked by other()), else `default`."""
        if name not in by_name:
            return default
        value = self.tc.const_value(checked[id(by_name[name])].value, self.ctx)
        return default if value is None else value

    def p_key(self, prop: ir.TableProperty) -> ir.TableProperty:
        elements = []
        for element in prop.value:
            self.tc.annotations(element.annotations, self.ctx)
            expr = self.tc.expr(element.expr, self.ctx)
            typ = expr.type
            if ir.name_annotation(element) is None:
                name = self.key_text(expr)
                if name is None:
                    self.error(element.expr.loc, "a complex key expression needs a @name annotation")
                else:
                    anno = ir.Annotation(element.loc, "name", items=(ir.StringLiteral(element.loc, name),))
                    element = replace(element, annotations=(*element.annotations, anno))
            kind_symbol = self.ctx.scope.lookup_one(element.match_kind)
            if kind_symbol is None or kind_symbol.kind != "match_kind":
                self.error(element.match_kind_loc or element.loc,
                           f"{element.match_kind}: not a match kind")
            if not isinstance(typ, (t.Bits, t.Bool, t.EnumT, t.ErrorT, t.NewTypeT, t.Unknown, t.Varbit, t.InfInt)):
                self.error(element.expr.loc, f"a table key cannot have type {typ}")
            if isinstance(typ, t.InfInt):
                self.error(element.expr.loc, "a table key needs a width; cast the value")
            self.key_types.append(typ)
            self.match_kinds.append(element.match_kind)
            elements.append(replace(element, expr=expr))
        return replace(prop, value=tuple(elements))

    def key_text(self, expr: ir.Expression) -> Optional[str]:
        """The control-plane name p4c's front end gives a key without `@name` (TableKeyNames): the
        expression as written, `$valid$` for isValid(), a struct field's `@name` for its name (one
        starting with a dot for the whole path); None for an expression that has no natural one."""
        if isinstance(expr, ir.PathExpression):
            return expr.name
        if isinstance(expr, ir.Member):
            if expr.member == "isValid" and isinstance(expr.expr.type, t.StructLike) and \
                    expr.expr.type.kind in ("header", "header_union"):
                member = "$valid$"
            else:
                member = self.field_name(expr.expr.type, expr.member)
                if member.startswith("."):
                    return member[1:]
            base = self.key_text(expr.expr)
            return None if base is None else f"{base}.{member}"
        if isinstance(expr, ir.ArrayIndex):
            base, index = self.key_text(expr.expr), self.key_text(expr.index)
            return None if base is None or index is None else f"{base}[{index}]"
        if isinstance(expr, ir.Slice):
            base, high, low = self.key_text(expr.expr), self.key_text(expr.high), self.key_text(expr.low)
            return None if None in (base, high, low) else f"{base}[{high}:{low}]"
        if isinstance(expr, ir.IntLiteral):  # a value too wide for its `8w` cut to it, as p4c cuts it
            value = expr.value & ((1 << expr.width) - 1) if expr.width and not expr.signed else expr.value
            return {16: hex(value), 8: oct(value), 2: bin(value)}.get(expr.base, str(value))
        if isinstance(expr, ir.Binary) and expr.op is ir.BinaryOp.BAND:
            left, right = self.key_text(expr.left), self.key_text(expr.right)
            return None if left is None or right is None else f"{left} & {right}"
        if isinstance(expr, ir.MethodCall) and not expr.args:
            method = self.key_text(expr.method)
            return method if method is not None and method.endswith("$valid$") else None
        return None

    def field_name(self, typ: t.Type, field: str) -> str:
        """A struct or header field's control-plane name: its `@name`, else its name."""
        symbol = self.ctx.scope.lookup_one(typ.name) if isinstance(typ, t.StructLike) else None
        decl = getattr(symbol, "decl", None)
        found = next((f for f in getattr(decl, "fields", ()) if f.name == field), None)
        return (ir.name_annotation(found) if found is not None else None) or field

    def p_actions(self, prop: ir.TableProperty) -> ir.TableProperty:
        refs = []
        for ref in prop.value:
            self.tc.annotations(ref.annotations, self.ctx)
            sig = self.action_signature(ref)
            if ref.name in self.actions:
                self.error(ref.loc, f"{ref.name}: action listed twice")
            self.actions[ref.name] = ref
            self.action_decls[ref.name] = self.action_decl(ref)
            if sig is None:
                refs.append(ref)
                continue
            args = self.bind(ref, sig, complete=False)
            refs.append(replace(ref, args=args))
        return replace(prop, value=tuple(refs))

    def action_decl(self, ref: ir.ActionRef):
        scope = self.tc.global_scope if ref.is_global else self.ctx.scope
        symbol = scope.lookup_one(ref.name)
        return symbol.decl if symbol is not None else None

    def action_signature(self, ref: ir.ActionRef) -> Optional[t.Signature]:
        scope = self.tc.global_scope if ref.is_global else self.ctx.scope
        symbol = scope.lookup_one(ref.name)
        if symbol is None:
            self.error(ref.loc, f"{ref.name}: declaration not found")
            return None
        if symbol.kind != "action":
            self.error(ref.loc, f"{ref.name} is not an action")
            return None
        self.tc.used_actions.add(id(symbol.decl))
        return symbol.value

    def bind(self, ref: ir.ActionRef, sig: t.Signature, complete: bool) -> tuple:
        """Check the arguments given to `ref`; `complete` asks for every parameter."""
        args = list(ref.args)
        if len(args) > len(sig.params):
            self.error(ref.loc, f"{ref.name}: too many arguments")
            return ref.args
        typed = []
        for param, arg in zip(sig.params, args):
            if arg.value is None:
                typed.append(arg)
                continue
            value = self.tc.expr(arg.value, self.ctx, param.type)
            value = self.tc.coerce(value, param.type, arg.loc, f"{ref.name}: argument {param.name}")
            if param.direction in ("out", "inout"):
                from p4odp.frontend.expressions import is_lvalue

                if not is_lvalue(value, self.ctx):
                    self.error(arg.loc, f"{ref.name}: argument {param.name} must be something that can be assigned")
            typed.append(replace(arg, value=value))
        for param in sig.params[len(args):]:
            if param.direction:
                self.error(ref.loc, f"{ref.name}: parameter {param.name} must be bound")
            elif complete:
                self.error(ref.loc, f"{ref.name}: parameter {param.name} must be given a value")
        return tuple(typed)

    def p_default_action(self, prop: ir.TableProperty) -> ir.TableProperty:
        ref: ir.ActionRef = prop.value
        if not isinstance(ref, ir.ActionRef):
            self.error(prop.loc, "default_action must name an action")
            return prop
        sig = self.action_signature(ref)
        if sig is None:
            return prop
        if ref.name not in self.actions:
            self.error(ref.loc, f"{ref.name}: the default action is not in the table's action list")
            return prop
        if self.action_decls.get(ref.name) is not self.action_decl(ref):
            self.error(ref.loc, f"{ref.name}: the default action and the listed action are different actions")
        if any(a.name == "tableonly" for a in self.actions[ref.name].annotations):
            self.error(ref.loc, f"{ref.name}: an action marked @tableonly cannot be the default action")
        listed = self.actions.get(ref.name)
        if listed is not None and listed.args and not ref.args:
            ref = replace(ref, args=listed.args)
        args = self.bind(ref, sig, complete=True)
        if listed is not None:
            self.same_bound_args(listed, args)
        for param, arg in zip(sig.params, args):
            if not param.direction and arg.value is not None and not self.tc.is_constant(arg.value, self.ctx):
                self.error(arg.loc, f"{ref.name}: the argument for {param.name} must be a compile-time constant")
        return replace(prop, value=replace(ref, args=args))

    def same_bound_args(self, listed: ir.ActionRef, args: tuple) -> None:
        """Arguments bound in the action list must be repeated unchanged by the default action and
        by entries."""
        for bound, given in zip(listed.args, args):
            if bound.value is None or given.value is None:
                continue
            if _shape(self.tc, bound.value, self.ctx) != _shape(self.tc, given.value, self.ctx):
                self.error(given.loc, f"{listed.name}: the argument does not match the one in the actions list")

    def implicit_default(self) -> None:
        symbol = self.tc.global_scope.lookup_one("NoAction")
        if symbol is None or symbol.kind != "action":
            self.error(self.decl.loc, f"table {self.decl.name}: the action NoAction, the default default action, "
                                      "is not declared; did you include core.p4?")
        else:
            self.tc.used_actions.add(id(symbol.decl))

    def p_entries(self, prop: ir.TableProperty) -> ir.TableProperty:
        if not self.key_types and prop.value:
            self.error(prop.loc, f"table {self.decl.name}: entries need a table with a key")
            return prop
        entries = []
        needs_priority = any(k in PRIORITIZED_MATCH_KINDS for k in self.match_kinds)
        for entry in prop.value:
            self.tc.annotations(entry.annotations, self.ctx)
            keyset = self.tc.keyset(entry.keyset, self.key_types, self.ctx)
            if isinstance(entry.keyset, ir.ListExpression) and len(self.key_types) > 1 and \
                    len(entry.keyset.elements) != len(self.key_types):
                pass  # reported by keyset()
            self.check_entry_kinds(keyset)
            sig = self.action_signature(entry.action)
            action = entry.action
            if sig is not None:
                if action.name not in self.actions:
                    self.error(action.loc, f"{action.name}: not in the table's action list")
                elif any(a.name == "defaultonly" for a in self.actions[action.name].annotations):
                    self.error(action.loc, f"{action.name}: an action marked @defaultonly cannot be used in entries")
                action = replace(action, args=self.bind(action, sig, complete=True))
                if action.name in self.actions:
                    self.same_bound_args(self.actions[action.name], action.args)
                for arg in action.args:
                    if arg.value is not None and not self.tc.is_constant(arg.value, self.ctx):
                        self.error(arg.loc, "the action arguments of an entry must be compile-time constants")
            priority = entry.priority
            if priority is not None:
                if not needs_priority:
                    self.error(priority.loc, f"table {self.decl.name}: exact and lpm keys do not take priorities")
                priority = self.tc.expr(priority, self.ctx)
                value = self.tc.const_value(priority, self.ctx)
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    self.error(priority.loc, "an entry priority must be a non-negative constant")
            entries.append(replace(entry, keyset=keyset, action=action, priority=priority))
        return replace(prop, value=tuple(entries))

    def refuse_duplicate_keys(self, entries: tuple) -> None:
        """Two entries that match the same packets with the same priority: the switch could keep
        only one (it refuses the second when it starts), and p4c refuses them as its test back end
        does ("Duplicate entry keys").  Where keys rank by priority, an entry's is the one the
        control plane gets (entry_priority_source)."""
        prioritized = any(k in PRIORITIZED_MATCH_KINDS for k in self.match_kinds)
        seen: dict[tuple, ir.Entry] = {}
        for position, entry in enumerate(entries):
            matches = self.entry_matches(entry.keyset)
            if matches is None:
                continue
            priority = None
            if prioritized:
                source, value = entry_priority_source(entry, position)
                if source != "position":
                    value = self.tc.const_value(value, self.ctx)
                # an annotated priority and a place rank on one scale (the smaller wins)
                priority = (source == "written", value)
            first = seen.setdefault((matches, priority), entry)
            if first is not entry:
                self.error(entry.loc, f"table {self.decl.name}: this entry's key is that of an earlier entry")
                self.tc.diags.note(first.loc, "the earlier entry")

    def entry_matches(self, keyset: ir.Expression) -> Optional[tuple]:
        """What an entry's keyset matches, one item per key field, equal for keysets that match the
        same values (`5` and `5 &&& 0xff` of a bit<8> ternary key); None when a part is not a
        constant."""
        matches = []
        elements = keyset_elements(keyset, len(self.key_types))
        for element, kind, key_type in zip(elements, self.match_kinds, self.key_types):
            if isinstance(element, ir.DefaultExpression):
                matches.append(None)
                continue
            parts = (element.left, element.right) if isinstance(element, ir.Binary) and \
                element.op in (ir.BinaryOp.MASK, ir.BinaryOp.RANGE) else (element,)
            values = [self.tc.const_value(part, self.ctx) for part in parts]
            if not isinstance(key_type, (t.Bits, t.Bool)):  # an enum member, an error: itself
                values = [(part.member,) if v is None and isinstance(part, ir.Member) else v
                          for v, part in zip(values, parts)]
                if any(v is None for v in values):
                    return None
                matches.append(tuple(values))
                continue
            if not all(isinstance(v, int) for v in values):  # (a bool is an int)
                return None  # not a constant, or of another type (reported)
            ones = (1 << key_type.width) - 1 if isinstance(key_type, t.Bits) else 1
            values = [int(v) & ones for v in values]
            if kind == "range":
                matches.append((values[0], values[-1]))
            elif kind == "exact":
                if len(values) == 2:
                    return None  # a mask: table-layout refuses it
                matches.append(values[0])
            else:  # ternary, lpm, optional: value and mask
                mask = values[1] if len(values) == 2 else ones
                matches.append((values[0] & mask, mask))
        return tuple(matches)

    def check_entry_kinds(self, keyset: ir.Expression) -> None:
        elements = keyset_elements(keyset, len(self.key_types))
        for element, kind, key_type in zip(elements, self.match_kinds, self.key_types):
            is_mask = isinstance(element, ir.Binary) and element.op is ir.BinaryOp.MASK
            if isinstance(element, ir.Binary) and element.op is ir.BinaryOp.RANGE:
                if kind != "range":
                    self.error(element.loc, f"a {kind} key cannot take a range")
                for bound in (element.left, element.right):
                    if not self.tc.is_constant(bound, self.ctx):
                        self.error(bound.loc, "range bounds must be compile-time constants")
            if is_mask and kind == "optional":
                self.error(element.loc, "an optional key takes a value or '_', not a mask")
            if not isinstance(key_type, t.Bits):
                continue
            parts = (element.left, element.right) if isinstance(element, ir.Binary) else (element,)
            for part in parts:
                if isinstance(part, ir.IntLiteral) and part.width is None and not key_type.signed and \
                        not 0 <= part.value < 1 << key_type.width:
                    self.error(part.loc, f"{part.value} does not fit in the key's type {key_type}")
            if is_mask and kind == "lpm":
                mask = self.tc.const_value(element.right, self.ctx)
                if isinstance(mask, int) and not _is_prefix_mask(mask, key_type.width):
                    self.error(element.loc, "invalid mask for an lpm key: the ones must be a prefix")

    def other(self, prop: ir.TableProperty) -> ir.TableProperty:  # size, implementation, counters, ...
        value = prop.value
        if isinstance(value, tuple):
            self.error(prop.loc, f"{prop.name}: unexpected list")
            return prop
        typed = self.tc.expr(value, self.ctx)
        if prop.name == "largest_priority_wins" and not isinstance(self.tc.const_value(typed, self.ctx), bool):
            self.error(value.loc, f"table {self.decl.name}: largest_priority_wins must be a boolean constant")
        if prop.name == "priority_delta":
            delta = self.tc.const_value(typed, self.ctx)
            if not isinstance(delta, int) or isinstance(delta, bool) or delta <= 0:
                self.error(value.loc, f"table {self.decl.name}: priority_delta must be a positive integer constant")
        if prop.name == "size":
            size = self.tc.const_value(typed, self.ctx)
            if size is None and self.tc.is_constant(typed, self.ctx):
                size = 0  # a constructor parameter: known once the control is instantiated
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                self.error(value.loc, f"table {self.decl.name}: size must be a non-negative integer constant")
        return replace(prop, value=typed)


def keyset_elements(keyset: ir.Expression, n_keys: int) -> tuple:
    """An entry's keyset element for each of a table's `n_keys` key fields (`{ v }` is v for a
    table of one key too, as p4c's action-two-params has it)."""
    if isinstance(keyset, ir.ListExpression) and (n_keys > 1 or len(keyset.elements) == 1):
        return keyset.elements
    return (keyset,)


def entry_priority_source(entry: ir.Entry, position: int) -> tuple[str, Union[ir.Expression, int]]:
    """Where a prioritized entry's priority comes from: ("written", expr) for P4_16's
    `priority = N`, ("annotated", expr) for BMv2's `@priority(N)`, else ("position", its place
    counted from 1)."""
    if entry.priority is not None:
        return "written", entry.priority
    annotated = next((a.items[0] for a in entry.annotations if a.name == "priority" and a.items), None)
    if annotated is not None:
        return "annotated", annotated
    return "position", position + 1


def _is_prefix_mask(mask: int, width: int) -> bool:
    mask &= (1 << width) - 1
    inverted = ~mask & ((1 << width) - 1)
    return inverted & (inverted + 1) == 0


def _shape(tc, expr: ir.Expression, ctx):
    """What an argument stands for: its value when constant, else its text."""
    value = tc.const_value(expr, ctx)
    if value is not None:
        return value
    return _without_positions(ir.to_json(expr))


def _without_positions(tree):
    if isinstance(tree, dict):
        return {k: _without_positions(v) for k, v in tree.items() if k not in ("loc", "type")}
    if isinstance(tree, list):
        return [_without_positions(v) for v in tree]
    return tree
