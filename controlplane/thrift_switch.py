"""The switch as BMv2's Thrift services see it (`p4odp thrift`): the program it runs, its objects by
the names BMv2's clients give them with the switch's indexes (wire.py), the BMv2 JSON that
describes it (bmv2_json.py), and a program loaded to be swapped in (bm_load_new_config,
bm_swap_configs).

The switch is reached as the P4Runtime server reaches it: a Device (device.py) per program, over a
control-channel connection of its own, whose P4Info the switch serves.  One call at a time goes to
the switch (`lock`); a program another client swaps in (`p4odp swap`) is served from its swap on,
as at the start.  `guarded` wraps a handler so that the Thrift processors get only the exceptions
the service declares, or a TApplicationException that says what went wrong.
"""

from __future__ import annotations

import inspect
import os
import sys
import threading
import traceback
from dataclasses import dataclass
from typing import Callable, Optional

from thrift.Thrift import TApplicationException, TException

from p4odp.controlplane.bmv2_json import bmv2_json, register_width, value_set_width
from p4odp.controlplane.channel import ChannelError, CommandError
from p4odp.controlplane.device import Device, P4RuntimeError
from p4odp.controlplane.events import SwitchEvents
from p4odp.controlplane.protos import p4info_pb2
from p4odp.controlplane.wire import Key

__all__ = ["ThriftSwitch", "Program", "Table", "Action", "Profile", "Cells", "find", "guarded", "say"]

ActionScope = p4info_pb2.ActionRef


def say(text: str) -> None:
    """A line on the server's standard error: why it refused what a Thrift exception's code alone
    cannot tell."""
    sys.stderr.write(f"p4odp thrift: {text}\n")


def find(objects: dict, name: str):
    """The object called `name`, or the only one whose name ends in `.name` (as simple_switch_CLI
    and `p4odp cli` take names); None."""
    found = objects.get(name)
    if found is not None:
        return found
    matches = [item for full, item in objects.items() if full.endswith("." + name)]
    return matches[0] if len(matches) == 1 else None


@dataclass(frozen=True)
class Action:
    name: str
    switch_id: int
    widths: tuple[int, ...]  # its parameters'


@dataclass(frozen=True)
class Profile:
    name: str
    index: int
    with_selector: bool
    actions: dict  # name -> Action: those its members may run


@dataclass(frozen=True)
class Table:
    name: str
    index: int
    keys: tuple[Key, ...]
    needs_priority: bool  # a ternary, range or optional field
    entry_actions: dict  # name -> Action: those an entry may run
    default_actions: dict  # name -> Action: those the default entry may run
    profile: Optional[Profile]
    counter: Optional[int]  # the switch's index of its direct counter
    meter: Optional[int]  # and of its direct meter
    const_default: bool
    idle_timeout: bool  # support_timeout: its entries may have a TTL


@dataclass(frozen=True)
class Cells:
    """A counter, meter, register or value set: the switch's index, its cells' number and width."""
    index: int
    size: int
    width: int = 0
    signed: bool = False


class Program:
    """A program the switch runs or has loaded: its Device, the JSON that describes it (`config`)
    and its objects by their P4Info names."""

    def __init__(self, device: Device, config: Optional[str] = None) -> None:
        self.device = device
        self.wire = switch = device.wire
        info, pipeline = device.p4info, device.pipeline
        self.config = config if config is not None else bmv2_json(info)
        actions = {a.preamble.id: Action(a.preamble.name, switch.actions[a.preamble.name],
                                         tuple(p.bitwidth for p in a.params)) for a in info.actions}
        self.actions = {a.switch_id: a for a in actions.values()}  # the switch's action id -> Action

        def runnable(table_ids, scope_not: int) -> dict:
            """The actions of the tables of `table_ids` (P4Info ids) but those of scope `scope_not`."""
            return {actions[a].name: actions[a] for t in table_ids if t in pipeline.tables
                    for a, scope in pipeline.tables[t].actions.items() if scope != scope_not}

        def direct(kind: str, resources: dict, resource_id: int) -> Optional[int]:
            return getattr(switch, kind)[resources[resource_id].preamble.name] if resource_id else None

        self.profiles = {p.preamble.name: Profile(p.preamble.name, switch.profiles[p.preamble.name], p.with_selector,
                                                  runnable(p.table_ids, ActionScope.DEFAULT_ONLY))
                         for p in info.action_profiles}
        profiles = {p.preamble.id: self.profiles[p.preamble.name] for p in info.action_profiles}
        self.tables = {t.name: Table(
            t.name, switch.tables[t.name], t.keys,
            t.needs_priority, runnable([table_id], ActionScope.DEFAULT_ONLY),
            runnable([table_id], ActionScope.TABLE_ONLY), profiles.get(t.profile_id),
            direct("counters", pipeline.direct_counters, t.direct_counter_id),
            direct("meters", pipeline.direct_meters, t.direct_meter_id), bool(t.message.const_default_action_id),
            t.idle_timeout)
            for table_id, t in pipeline.tables.items()}
        self.counters = {c.preamble.name: Cells(switch.counters[c.preamble.name], c.size) for c in info.counters}
        self.meters = {m.preamble.name: Cells(switch.meters[m.preamble.name], m.size) for m in info.meters}
        self.registers = {
            r.preamble.name: Cells(switch.registers[r.preamble.name], r.size, register_width(r),
                                   r.type_spec.bitstring.WhichOneof("type_spec") == "int")
            for r in info.registers if register_width(r)}
        self.value_sets = {v.preamble.name: Cells(switch.value_sets[v.preamble.name], v.size, value_set_width(v))
                           for v in info.value_sets}


def _nobody(message) -> bool:
    """Where a Device's digest lists and packet-ins would go: no controller takes them here."""
    return False


class ThriftSwitch:
    """The switch at a control-channel address, served to BMv2's Thrift clients."""

    def __init__(self, address: str) -> None:
        """ChannelError or CommandError when the switch cannot be reached."""
        self.address = address
        self.lock = threading.Lock()  # one call at a time on the switch's channels
        # The switch's swaps, to follow another client's; no events of other kinds are wanted.
        self.events = SwitchEvents(address, [], self._adopt_swapped_program)
        try:
            self.program = Program(Device(address, 0, _nobody, events=self.events))
        except BaseException:
            self.events.stop()
            raise
        self.loaded: Optional[Program] = None  # by bm_load_new_config, until bm_swap_configs

    def load(self, datapath: str, config: str) -> Program:
        """The program of `datapath` loaded beside the one running, described by `config`; it
        goes to `loaded`.  CommandError when the switch cannot load it."""
        self.loaded = Program(Device(self.address, 0, _nobody, load=datapath, events=self.events), config)
        return self.loaded

    def discard(self) -> None:
        """Drop the program loaded."""
        loaded, self.loaded = self.loaded, None
        loaded.device.discard()

    def swap(self) -> None:
        """The program loaded forwards from now on, in place of the one running.  CommandError
        when the switch refuses (the loaded program is then dropped)."""
        loaded, self.loaded = self.loaded, None
        self.events.expect_swap([])  # before swap_configs: its event cannot come first
        try:
            loaded.device.wire.text_command("swap_configs")
        except BaseException:
            self.events.withdraw_swap()
            loaded.device.discard()
            raise
        self.events.settle()
        old, self.program = self.program, loaded
        old.device.channel.close()

    def reset(self) -> None:
        """Every table, profile, counter, meter, register, value set, multicast group and clone
        session back to what the program starts with (BMv2's reset_state)."""
        try:
            self.program.device.reset()
        except P4RuntimeError as err:
            raise TApplicationException(TApplicationException.INTERNAL_ERROR, err.message) from None

    def _adopt_swapped_program(self) -> list:
        """Another client swapped a program in: serve it from now on (the events' thread calls this
        at the swap's event); no event listeners."""
        device = Device(self.address, 0, _nobody, events=self.events)
        with self.lock:
            old, self.program = self.program, Program(device)
            old.device.channel.close()
        return []

    def close(self) -> None:
        self.events.stop()  # first: until it stops, its thread may replace the program
        with self.lock:
            if self.loaded is not None:
                self.discard()
            self.program.device.channel.close()


def guarded(switch: ThriftSwitch, handler, service) -> object:
    """`handler` as the processor of Thrift module `service` (its Iface and *_result classes) calls
    it: every method of the service's Iface (which the handler must have) runs under the switch's
    lock, in context 0 alone, and raises only the exceptions the method declares or a
    TApplicationException that says why: the switch gone, or an error of p4odp's (said on
    standard error too, as a bug to report)."""
    methods = {}
    for name, declared in inspect.getmembers(service.Iface, inspect.isfunction):
        method = getattr(handler, name, None)
        if method is None:
            raise TypeError(f"{type(handler).__name__} lacks {name} of {service.__name__}")
        result_spec = getattr(service, f"{name}_result").thrift_spec
        raised = tuple(field[3][0] for field in result_spec[1:] if field and field[2] == "ouch")
        takes_context = list(inspect.signature(declared).parameters)[1:2] == ["cxt_id"]
        methods[name] = _guard(switch, name, method, raised, takes_context)
    return type(f"Guarded{type(handler).__name__}", (), methods)()


def _guard(switch: ThriftSwitch, name: str, method: Callable, raised: tuple, takes_context: bool) -> Callable:
    def call(self, *args):
        if takes_context and args[0] != 0:
            raise TApplicationException(TApplicationException.UNKNOWN,
                                        f"this switch has one context, 0 (not {args[0]})")
        try:
            with switch.lock:
                return method(*args)
        except (TApplicationException, *raised):
            raise
        except (ChannelError, CommandError) as err:
            raise TApplicationException(TApplicationException.INTERNAL_ERROR, f"the switch: {err}") from None
        except (TException, Exception) as err:  # a bug of p4odp's
            say(f"internal error in {name}: {err!r} (please report it to p4odp's developers)")
            if os.environ.get("P4ODP_TRACEBACK"):
                traceback.print_exc()
            raise TApplicationException(TApplicationException.INTERNAL_ERROR,
                                        f"p4odp: internal error in {name}: {err!r}") from None
    return call
