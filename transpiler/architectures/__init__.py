"""Architectures: what a P4 architecture means to the compiler, one object each.

An `Architecture` says which package `main` instantiates and the role of each
of its blocks, which parameters carry the headers and metadata between them,
its constants, the C storage and the C of its externs (a registry keyed by
extern type and method), and the Jinja2 template of its pipeline (the glue
between the blocks' functions and the runtime's traffic manager).  The C
generator, the pipeline template and the constants printed into datapath.c
all read it, so nothing of an architecture is written twice.

Architectures are plugins: the `p4odp.architectures` entry-point group names
`Architecture` objects (v1model registers there like any other), and the
`p4odp.externs` group names `Extern` objects that extend the architecture
whose name they carry.  Where an extern lives, for v1model's `register`:

    typed     frontend/include/v1model.p4        (its P4 declaration)
    named     transpiler/architectures/v1model.py (its Extern: methods and storage by name)
    emitted   transpiler/architectures/common_externs.py (array_storage, register_access: the C
              that v1model's register and PSA's Register share)
    executed  the C it emits, with the runtime's helpers in runtime/include/
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping, Optional

from p4odp import ir
from p4odp import types as t

if TYPE_CHECKING:
    from p4odp.transpiler.codegen.function import FunctionContext
    from p4odp.transpiler.codegen.program import Generator
    from p4odp.transpiler.codegen.scope import ExternInstance

__all__ = ["Handler", "Extern", "Architecture", "OBJECT_KINDS", "CORE_TABLE_PROPERTIES", "CORE", "architecture_of", "load_architectures", "broken_plugins",
           "ARCHITECTURE_GROUP", "EXTERN_GROUP"]

ARCHITECTURE_GROUP = "p4odp.architectures"
EXTERN_GROUP = "p4odp.externs"

# The C of one call: given the function being generated, the call and its arguments, it emits
# statements with `ctx.emit` and returns the C value of the call (None for a statement).
Handler = Callable[["FunctionContext", ir.MethodCall, list], Optional[str]]
# The C storage of one extern instance in `struct p4_state`, declared through `gen`.
Storage = Callable[["Generator", ir.Instance], "ExternInstance"]


@dataclass(frozen=True)
class Extern:
    """An extern type (or, with `function` set, an extern function) of an architecture.

    `methods` maps each method name to its handler; `storage` declares the state
    of an instance that keeps state across packets (registers, counters).  An
    extern function has one handler, under its own name."""

    name: str
    methods: Mapping[str, Handler]
    storage: Optional[Storage] = None
    function: bool = False
    architecture: str = ""  # for a plugin's extern: the architecture it extends
    # For an extern function whose handler sums a list of fields with csum16_sum (checksums.py):
    # given a call's arguments, that list (None: this call sums none).  unread-fields asks it, since
    # csum16_sum reads fields nothing writes of a deparse-in-place header from the packet's bytes.
    csum16_fields: Optional[Callable[[list], Optional[list]]] = None
    # False for an extern function that only writes its arguments (v1model's mark_to_drop): for
    # unread-fields, passing the architecture's metadata to it reads none of its fields.
    reads_arguments: bool = True
    # C that the handlers' code calls (static inline functions, #includes), put once into datapath.c,
    # before the blocks, in a program that uses the extern: how a plugin brings its extern's C.
    c_code: str = ""
    # An instance's state is shared by the workers and an action's accesses to it are one (BMv2 locks
    # the register arrays an action uses for the whole action): the generator gives each instance a
    # lock, which an action or @atomic block that calls its methods holds (codegen/atomic.py).
    atomic: bool = False
    # The C type of an instance's state that lasts one packet in one block (a checksum being computed,
    # PSA's InternetChecksum): a local of the function of the block that declares the instance, zero
    # when the block starts; "" for none.
    packet_state: str = ""


# What a control-plane object is, whatever an architecture calls its extern type: v1model's names.
OBJECT_KINDS = ("counter", "direct_counter", "meter", "direct_meter", "register", "action_profile",
                "action_selector", "digest")
# The table properties every architecture honours (core.p4's and the P4_16 spec's).
CORE_TABLE_PROPERTIES = ("key", "actions", "default_action", "size", "entries", "largest_priority_wins",
                         "priority_delta")


@dataclass(frozen=True)
class Architecture:
    """One P4 architecture: v1model, PSA, PNA, or a plugin's."""

    name: str
    package: str  # the type of `main`, e.g. V1Switch
    # The role of each parser and control of `main`, in order, those of the packages it is given
    # flattened in (_walk.block_arguments).
    blocks: tuple[str, ...]
    # Where the types that travel between the blocks are: role -> (block, parameter index).
    types: Mapping[str, tuple[str, int]]
    constants: Mapping[str, int]  # printed into datapath.c as #defines
    pipeline_template: str  # under templates/
    externs: Mapping[str, Extern] = field(default_factory=dict)
    metadata: str = ""  # the architecture's own metadata struct, e.g. standard_metadata_t
    # The fields of that struct whose value is a time (p4odp_time_us): in a program that reads one, the
    # workers read the clock once a burst.
    timed_fields: tuple[str, ...] = ()
    # Pairs of roles of `types` whose types the pipeline needs to be the same (PNA's pre control reads the
    # main parser's headers and metadata).
    same_types: tuple[tuple[str, str], ...] = ()
    # The roles of `types` that are structs of headers: each gets p4_<role>_reset and
    # p4_<role>_clear_invalid (Generator.header_state_functions).
    headers: tuple[str, ...] = ("headers",)
    # The copies ("clone", "resubmit", "recirculate") its pipeline may ask the traffic manager for
    # whatever the program calls (PSA's, asked by metadata); v1model's and PNA's are those its calls ask for.
    copies: tuple[str, ...] = ()
    include_files: tuple[str, ...] = ()  # the names programs include it by, e.g. "bmv2/psa.p4"
    p4info_arch: str = ""  # PkgInfo.arch of its programs' P4Info
    # The extern types whose instances are control-plane objects, each with its kind (OBJECT_KINDS).
    object_kinds: Mapping[str, str] = field(default_factory=dict)
    # The table properties that attach an instance to a table, each with the kinds it may name.
    table_externs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The table property, and the value of it, that give a table's entries idle timeouts.
    idle_timeout_property: tuple[str, str] = ("", "")
    # The table property that makes the datapath add the entries of a table (PNA's add_on_miss), and
    # the others that go with it; "" when it has none.
    learner_property: str = ""
    learner_properties: tuple[str, ...] = ()
    default_table_size: int = 1024  # of a table without `size`
    # Its hash algorithms, the members of its enum of them, as the runtime's (enum
    # p4odp_hash_algorithm): the C generator names an algorithm by these, never by its enum's order.
    hash_algorithms: Mapping[str, str] = field(default_factory=dict)
    # The type parameter of each of its counter, meter and register externs that is the type of their
    # index (PSA's S), for P4Info's index_type_name; an extern not here has a bit<32> index (v1model's).
    index_type_params: Mapping[str, int] = field(default_factory=dict)

    @property
    def table_properties(self) -> frozenset[str]:
        """The table properties it honours."""
        return frozenset((*CORE_TABLE_PROPERTIES, *self.table_externs, self.idle_timeout_property[0],
                          self.learner_property, *self.learner_properties)) - {""}

    def object_kind(self, decl) -> Optional[str]:
        """The control-plane kind (OBJECT_KINDS) of an extern instance, None when it is none."""
        if not (isinstance(decl, ir.Instance) and isinstance(decl.type, t.ExternT)):
            return None
        return self.object_kinds.get(decl.type.name)

    def table_property(self, kind: str) -> str:
        """The table property that attaches an instance of `kind` ("" when none does)."""
        return next((name for name, kinds in self.table_externs.items() if kind in kinds), "")

    def extern_types(self, kinds: tuple[str, ...]) -> list[str]:
        """The names of its extern types whose instances are control-plane objects of `kinds`."""
        return [name for name, kind in self.object_kinds.items() if kind in kinds]

    def extern(self, name: str) -> Optional[Extern]:
        """The extern type `name`, or None when the architecture does not define it."""
        found = self.externs.get(name)
        return found if found is not None and not found.function else None

    def extern_function(self, name: str) -> Optional[Extern]:
        """The extern function `name`, or None when the architecture does not define it."""
        found = self.externs.get(name)
        return found if found is not None and found.function else None

    def csum16_fields(self, function: str, args: list) -> Optional[list]:
        """The fields a call of the extern function `function` with `args` sums with csum16_sum,
        None when it sums none that way."""
        found = self.extern_function(function)
        return found.csum16_fields(args) if found is not None and found.csum16_fields is not None else None

    def reads_arguments(self, function: str) -> bool:
        """Whether a call of the extern function `function` may read its arguments."""
        found = self.extern_function(function)
        return found is None or found.reads_arguments

    def with_externs(self, *externs: Extern) -> "Architecture":
        """This architecture with `externs` added (or replacing those of the same name)."""
        return dataclasses.replace(self, externs={**self.externs, **{e.name: e for e in externs}})


# The rules of core.p4 alone, for the passes of a program whose `main` is of no installed
# architecture (the C generator then refuses it).
CORE = Architecture("core", "", (), {}, {}, "")


@functools.cache
def _registry() -> tuple[dict[str, Architecture], dict[str, str]]:
    """(every installed architecture by package name, with the plugins' externs added; why each
    plugin that failed to load did, by entry name)."""
    from importlib.metadata import entry_points

    by_name: dict[str, Architecture] = {}
    broken: dict[str, str] = {}
    for entry in entry_points(group=ARCHITECTURE_GROUP):
        arch, why = _load(entry, Architecture)
        if arch is None:
            broken[entry.name] = why
        else:
            by_name[arch.name] = arch
    for entry in entry_points(group=EXTERN_GROUP):
        extern, why = _load(entry, Extern)
        if extern is None:
            broken[entry.name] = why
        elif extern.architecture not in by_name:
            broken[entry.name] = f"it extends the unknown architecture '{extern.architecture}'"
        else:
            by_name[extern.architecture] = by_name[extern.architecture].with_externs(extern)
    return {arch.package: arch for arch in by_name.values()}, broken


def load_architectures() -> dict[str, Architecture]:
    """Every installed architecture by package name (V1Switch, ...), with the plugins' externs added;
    a plugin that fails to load is left out (`broken_plugins` says why)."""
    return _registry()[0]


def broken_plugins() -> list[str]:
    """What is wrong with each architecture or extern plugin that failed to load."""
    return [f"plugin {name}: {why}" for name, why in sorted(_registry()[1].items())]


def _load(entry, kind: type):
    """(the entry's object, "") or (None, why it is not a `kind`)."""
    try:
        value = entry.load()
    except Exception as err:  # noqa: BLE001 - a third-party plugin may fail in any way
        return None, f"{entry.value} cannot be loaded: {type(err).__name__}: {err}"
    if not isinstance(value, kind):
        return None, f"{entry.value} is a {type(value).__name__}, not an {kind.__name__}"  # Architecture, Extern
    return value, ""


def architecture_of(main: ir.Instance) -> Optional[Architecture]:
    """The architecture whose package `main` instantiates, None when no installed one does."""
    ref = main.type_ref
    name = ref.base.name if isinstance(ref, ir.SpecializedType) else getattr(ref, "name", None)
    return load_architectures().get(name)
