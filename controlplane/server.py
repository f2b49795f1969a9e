"""`p4odp runtime`: a P4Runtime v1 server (gRPC) for a running switch, which it reaches
through the switch's control channel.

The switch runs the program it was built from, so the server starts with that program's
pipeline in place (its P4Info, which the switch serves).  A controller's
SetForwardingPipelineConfig whose p4_device_config is a program's datapath.so (p4odp compile
--datapath) swaps that program in, without a lost packet (VERIFY_AND_COMMIT: its state fresh;
RECONCILE_AND_COMMIT: what controllers wrote is written again into it, or nothing changes);
one without is accepted when its P4Info describes the program the switch runs.  Where another
client swaps a program in (`p4odp swap`), the server serves that one from its swap on, as it
would at its start: its P4Info, read from the switch, and none of the old program's entries.
Arbitration follows the specification (section "Client Arbitration and Controller
Replication"): per role, the controller with the highest election id ever seen is primary,
and only the primary writes.
"""

from __future__ import annotations

import importlib.metadata
import queue
import tempfile
import threading
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Optional

import grpc
from google.rpc import code_pb2, status_pb2

from p4odp.controlplane.channel import ChannelError, CommandError
from p4odp.controlplane.device import Device, P4RuntimeError
from p4odp.controlplane.packets import PacketOutError
from p4odp.controlplane.pipeline import same_program
from p4odp.controlplane.protos import p4runtime_pb2, p4runtime_pb2_grpc

__all__ = ["P4RuntimeServer", "RunningServer", "serve"]

Code = grpc.StatusCode
PipelineRequest = p4runtime_pb2.SetForwardingPipelineConfigRequest
ConfigResponseType = p4runtime_pb2.GetForwardingPipelineConfigRequest
READ_BATCH = 1000  # entities per ReadResponse
OUTBOX_LIMIT = 10000  # stream messages waiting for a controller beyond which digest lists are dropped
MAX_RPCS = 64  # at once (each StreamChannel holds one of them as long as it is open)
STOP_GRACE_S = 1  # for the RPCs under way when the server stops


@dataclass(eq=False)
class _Controller:
    """A client's StreamChannel: its role and election id once it sent them, and the messages
    waiting for it."""
    role: str = ""
    election_id: Optional[tuple] = None  # (high, low); None: unset, never primary
    arbitrated: bool = False  # it sent its first MasterArbitrationUpdate
    closed: bool = False  # its stream has ended: an arbitration update that comes late is ignored
    outbox: queue.Queue = field(default_factory=queue.Queue)


class _Arbiter:
    """Who is primary, per role, among the controllers with a stream open."""

    def __init__(self, device_id: int) -> None:
        self.device_id = device_id
        self.lock = threading.Lock()
        self.controllers: list[_Controller] = []
        self.highest: dict[str, tuple] = {}  # role -> the highest election id ever seen
        self.primary: dict[str, _Controller] = {}

    def update(self, controller: _Controller, update) -> None:
        """Take a MasterArbitrationUpdate of `controller`; P4RuntimeError ends its stream."""
        role = update.role.name if update.HasField("role") else ""
        election_id = (update.election_id.high, update.election_id.low) if update.HasField("election_id") else None
        with self.lock:
            if controller.closed:
                return
            if update.device_id != self.device_id:
                code = Code.FAILED_PRECONDITION if controller.arbitrated else Code.NOT_FOUND
                raise P4RuntimeError(code, f"this server is device {self.device_id}, not {update.device_id}")
            if controller.arbitrated and role != controller.role:
                raise P4RuntimeError(Code.FAILED_PRECONDITION, "a stream keeps its role: open another to change it")
            if election_id is not None and any(other is not controller and other.role == role
                                               and other.election_id == election_id for other in self.controllers):
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"election id {election_id} is another controller's")
            if not controller.arbitrated:
                controller.role, controller.arbitrated = role, True
                self.controllers.append(controller)
            controller.election_id = election_id
            highest = self.highest.get(role)
            was_primary = self.primary.get(role) is controller
            if election_id is not None and (highest is None or election_id >= highest):
                self.highest[role] = election_id
                self.primary[role] = controller
                self._notify(role)
            elif was_primary:  # it demoted itself: no primary until one comes with the highest id
                del self.primary[role]
                self._notify(role)
            else:
                self._notify(role, only=controller)

    def leave(self, controller: _Controller) -> None:
        with self.lock:
            controller.closed = True
            if not controller.arbitrated:
                return
            self.controllers.remove(controller)
            controller.arbitrated = False
            if self.primary.get(controller.role) is controller:
                del self.primary[controller.role]
                self._notify(controller.role)

    def is_primary(self, role: str, election_id: Optional[tuple]) -> bool:
        with self.lock:
            primary = self.primary.get(role)
            return primary is not None and election_id is not None and primary.election_id == election_id

    def deliver(self, message) -> bool:
        """Send a digest list to the default role's primary, a packet-in to every role's (no role
        config here keeps them from it); False when none took it: there is none, or it has not
        taken the last OUTBOX_LIMIT messages (the message is dropped, as the specification allows
        for both)."""
        with self.lock:
            primaries = self.primary.values() if message.HasField("packet") else [self.primary.get("")]
            taken = False
            for primary in primaries:
                if primary is not None and primary.outbox.qsize() < OUTBOX_LIMIT:
                    primary.outbox.put(message)
                    taken = True
            return taken

    def _notify(self, role: str, only: Optional[_Controller] = None) -> None:
        """Tell the role's controllers (or `only` one) who is primary (the lock is held)."""
        primary = self.primary.get(role)
        highest = self.highest.get(role)
        for controller in [only] if only is not None else [c for c in self.controllers if c.role == role]:
            message = p4runtime_pb2.StreamMessageResponse()
            arbitration = message.arbitration
            arbitration.device_id = self.device_id
            if role:
                arbitration.role.name = role
            if highest is not None:
                arbitration.election_id.high, arbitration.election_id.low = highest
            if primary is controller:
                arbitration.status.CopyFrom(status_pb2.Status(code=code_pb2.OK, message="primary"))
            elif primary is not None:
                arbitration.status.CopyFrom(status_pb2.Status(code=code_pb2.ALREADY_EXISTS, message="backup"))
            else:
                arbitration.status.CopyFrom(status_pb2.Status(code=code_pb2.NOT_FOUND, message="no primary"))
            controller.outbox.put(message)


class P4RuntimeServer(p4runtime_pb2_grpc.P4RuntimeServicer):
    def __init__(self, switch: str, device_id: int = 0) -> None:
        self.switch = switch
        self.device_id = device_id
        self.arbiter = _Arbiter(device_id)
        self.lock = threading.Lock()  # one request at a time on the switch's channel (_switch)
        self.device = Device(switch, device_id, self.arbiter.deliver, on_unexpected_swap=self._adopt_swapped_program)
        self.config = p4runtime_pb2.ForwardingPipelineConfig(p4info=self.device.p4info)
        self.saved: Optional[p4runtime_pb2.ForwardingPipelineConfig] = None  # by VERIFY_AND_SAVE

    # --- unary RPCs ------------------------------------------------------------------------

    def Capabilities(self, request, context):
        return p4runtime_pb2.CapabilitiesResponse(p4runtime_api_version=importlib.metadata.version("p4runtime"))

    def Write(self, request, context):
        self._check_device(request.device_id, context)
        self._check_primary(request, context)
        with self._switch(context):
            results = self.device.write(request.updates, request.atomicity)
        if any(results):
            _abort_with_errors(context, results)
        return p4runtime_pb2.WriteResponse()

    def Read(self, request, context):
        self._check_device(request.device_id, context)
        errors: list[Optional[P4RuntimeError]] = []
        response = p4runtime_pb2.ReadResponse()
        for entity in request.entities:
            try:
                with self._switch(context):
                    found = list(self.device.read(entity))
            except P4RuntimeError as err:
                errors.append(err)
                continue
            errors.append(None)
            for item in found:
                response.entities.append(item)
                if len(response.entities) == READ_BATCH:
                    yield response
                    response = p4runtime_pb2.ReadResponse()
        if response.entities:
            yield response
        if any(errors):
            _abort_with_errors(context, errors)

    def SetForwardingPipelineConfig(self, request, context):
        self._check_device(request.device_id, context)
        self._check_primary(request, context)
        action = request.action
        if action == PipelineRequest.COMMIT:
            if request.HasField("config"):
                context.abort(Code.INVALID_ARGUMENT, "COMMIT takes no config: it commits the one saved")
            if self.saved is None:
                context.abort(Code.NOT_FOUND, "no config was saved (VERIFY_AND_SAVE) to commit")
            # What was written since the save is in place: the saved config is the running program's.
            self.config, self.saved = self.saved, None
            return p4runtime_pb2.SetForwardingPipelineConfigResponse()
        if action not in (PipelineRequest.VERIFY, PipelineRequest.VERIFY_AND_SAVE, PipelineRequest.VERIFY_AND_COMMIT,
                          PipelineRequest.RECONCILE_AND_COMMIT):
            context.abort(Code.INVALID_ARGUMENT, "the action is not set" if action == PipelineRequest.UNSPECIFIED
                          else f"unknown action {action}")
        if not request.HasField("config") or not request.config.HasField("p4info"):
            context.abort(Code.INVALID_ARGUMENT, "the request has no config with a P4Info")
        config = request.config
        with self._switch(context):
            try:
                if not self._names_program(config):
                    self._same_program(config, reset=action == PipelineRequest.VERIFY_AND_COMMIT)
                elif action == PipelineRequest.VERIFY_AND_SAVE:
                    raise P4RuntimeError(Code.UNIMPLEMENTED, "VERIFY_AND_SAVE of a program's datapath.so: the "
                                                             "writes until COMMIT would go to the program running; "
                                                             "use VERIFY_AND_COMMIT or RECONCILE_AND_COMMIT")
                else:
                    self._other_program(config, action)
            except P4RuntimeError as err:
                context.abort(err.code, err.message)
        if action == PipelineRequest.VERIFY_AND_SAVE:
            self.saved = config
        elif action != PipelineRequest.VERIFY:
            self.config, self.saved = config, None
        return p4runtime_pb2.SetForwardingPipelineConfigResponse()

    # A config's p4_device_config: the program's datapath.so (p4odp compile --datapath), which the
    # switch loads in place of the program it runs; anything else (empty, a BMv2 JSON a controller
    # written for simple_switch_grpc sends) names no program, and the P4Info must then be that of
    # the program the switch runs.
    @staticmethod
    def _names_program(config) -> bool:
        return config.p4_device_config.startswith(b"\x7fELF")

    def _same_program(self, config, reset: bool) -> None:
        """A config of the program running; with `reset`, its forwarding state starts afresh."""
        if not same_program(config.p4info, self.device.p4info):
            raise P4RuntimeError(Code.INVALID_ARGUMENT, f"this switch runs {self.device.program}, whose P4Info "
                                                        "differs from the one given; for another program, give its "
                                                        "datapath.so (p4odp compile --datapath) as p4_device_config")
        if reset:
            self.device.reset()

    def _other_program(self, config, action: int) -> None:
        """The program of `config`'s datapath.so, loaded beside the running one (its P4Info must
        be the config's) and, but for VERIFY, swapped in without a lost packet: with
        RECONCILE_AND_COMMIT, after what controllers wrote is written into it (all of it, or
        nothing changes); with VERIFY_AND_COMMIT, its state fresh, no multicast group or clone
        session."""
        running = self.device
        with tempfile.NamedTemporaryFile(prefix="p4odp-pipeline-", suffix=".so") as library:
            library.write(config.p4_device_config)
            library.flush()
            try:  # the switch copies the file as it loads it
                loaded = Device(self.switch, self.device_id, self.arbiter.deliver, load=library.name,
                                events=running.events)
            except CommandError as err:
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"the switch cannot load the p4_device_config: {err}") \
                    from None
        try:
            if not same_program(config.p4info, loaded.p4info):
                raise P4RuntimeError(Code.INVALID_ARGUMENT, f"the p4_device_config is {loaded.program}, not the "
                                                            "program the P4Info describes")
            if action == PipelineRequest.VERIFY:
                loaded.discard()
                return
            if action == PipelineRequest.RECONCILE_AND_COMMIT:
                refused = next((err for err in loaded.write(running.forwarding_state()) if err), None)
                if refused is not None:
                    raise P4RuntimeError(Code.FAILED_PRECONDITION, "the new program cannot keep the forwarding "
                                                                   f"state: {refused.message}")
            loaded.swap_in(running)
        except CommandError as err:
            loaded.discard()
            raise P4RuntimeError(Code.INTERNAL, f"the switch refused the swap: {err}") from None
        except BaseException:
            loaded.discard()
            raise
        self.device = loaded
        if action == PipelineRequest.VERIFY_AND_COMMIT:  # the running program kept its replication to the end
            loaded.reset_replication()

    def _adopt_swapped_program(self) -> list:
        """Another client swapped a program in: serve it from now on, as at this server's start
        (SwitchEvents' thread calls this at the swap's event).  The new program's event listeners."""
        new = Device(self.switch, self.device_id, self.arbiter.deliver, events=self.device.events)
        with self.lock:
            old, self.device = self.device, new
            old.channel.close()
            self.config, self.saved = p4runtime_pb2.ForwardingPipelineConfig(p4info=new.p4info), None
        return new.listeners

    def GetForwardingPipelineConfig(self, request, context):
        self._check_device(request.device_id, context)
        config = p4runtime_pb2.ForwardingPipelineConfig()
        kind = request.response_type
        if kind in (ConfigResponseType.ALL, ConfigResponseType.P4INFO_AND_COOKIE):
            config.p4info.CopyFrom(self.config.p4info)
        if kind in (ConfigResponseType.ALL, ConfigResponseType.DEVICE_CONFIG_AND_COOKIE):
            config.p4_device_config = self.config.p4_device_config
        if self.config.HasField("cookie"):
            config.cookie.CopyFrom(self.config.cookie)
        return p4runtime_pb2.GetForwardingPipelineConfigResponse(config=config)

    @contextmanager
    def _switch(self, context):
        """The switch's channel, to this request alone; a switch gone ends the request UNAVAILABLE."""
        with self.lock:
            try:
                yield
            except ChannelError as err:
                context.abort(Code.UNAVAILABLE, f"the switch is gone: {err}")

    def _check_device(self, device_id: int, context) -> None:
        if device_id != self.device_id:
            context.abort(Code.NOT_FOUND, f"this server is device {self.device_id}, not {device_id}")

    def _check_primary(self, request, context) -> None:
        role = request.role
        election_id = (request.election_id.high, request.election_id.low) if request.HasField("election_id") else None
        if not self.arbiter.is_primary(role, election_id):
            context.abort(Code.PERMISSION_DENIED, "not the primary controller: open a StreamChannel and send "
                                                  "the highest election id")

    # --- the stream ------------------------------------------------------------------------

    def StreamChannel(self, request_iterator, context):
        """Each client's stream: its requests are taken as they come (by a thread of their own),
        and what is addressed to the client (its outbox) is sent."""
        controller = _Controller()

        def take_requests() -> None:
            try:
                for request in request_iterator:
                    failure = self._stream_request(controller, request)
                    if failure is not None:
                        controller.outbox.put(failure)
                        return
            except grpc.RpcError:  # the client went away
                pass
            controller.outbox.put(_STREAM_ENDED)
        context.add_callback(lambda: controller.outbox.put(_STREAM_ENDED))
        threading.Thread(target=take_requests, daemon=True).start()
        try:
            while True:
                item = controller.outbox.get()
                if item is _STREAM_ENDED:
                    return
                if isinstance(item, P4RuntimeError):
                    context.abort(item.code, item.message)
                yield item
        finally:
            self.arbiter.leave(controller)

    def _stream_request(self, controller: _Controller, request) -> Optional[P4RuntimeError]:
        """Take one StreamMessageRequest; the error that ends the stream, if any."""
        kind = request.WhichOneof("update")
        if kind == "arbitration":
            try:
                self.arbiter.update(controller, request.arbitration)
            except P4RuntimeError as err:
                return err
            return None
        if not controller.arbitrated:  # as the reference server: nothing is taken before arbitration
            return None
        if kind == "digest_ack":
            self.device.digests.acknowledge(request.digest_ack.digest_id, request.digest_ack.list_id)
        elif kind == "packet":
            self._packet_out(controller, request.packet)
        else:
            controller.outbox.put(_stream_error(Code.UNIMPLEMENTED, f"{kind or 'an empty message'}: not supported "
                                                                    "on this stream"))
        return None

    def _packet_out(self, controller: _Controller, packet) -> None:
        """Send `packet` in through the switch's CPU port; a StreamError to the controller when it
        cannot go (the packet is dropped)."""
        try:
            if not self.arbiter.is_primary(controller.role, controller.election_id):
                raise PacketOutError(Code.PERMISSION_DENIED, "not the primary controller: a packet-out is dropped")
            whole = self.device.packets.out_bytes(packet)
            with self.lock:
                self.device.packet_out(whole)
            return
        except PacketOutError as err:
            code, why = err.code, err.message
        except ChannelError as err:
            code, why = Code.UNAVAILABLE, f"the switch is gone: {err}"
        error = _stream_error(code, f"packet-out dropped: {why}")
        error.error.packet_out.packet_out.CopyFrom(packet)
        controller.outbox.put(error)


_STREAM_ENDED = object()


def _stream_error(code: grpc.StatusCode, message: str) -> p4runtime_pb2.StreamMessageResponse:
    error = p4runtime_pb2.StreamMessageResponse()
    error.error.canonical_code = code.value[0]
    error.error.message = message
    return error


def _abort_with_errors(context, errors: list[Optional[P4RuntimeError]]) -> None:
    """End the call with UNKNOWN and one p4.v1.Error per update or entity, as the
    specification's batch error reporting has it."""
    failed = sum(1 for err in errors if err is not None)
    first = next(err for err in errors if err is not None)
    message = f"{failed} of {len(errors)} failed; the first: {first.message}"
    status = status_pb2.Status(code=code_pb2.UNKNOWN, message=message)
    for err in errors:
        detail = p4runtime_pb2.Error(canonical_code=code_pb2.OK) if err is None else \
            p4runtime_pb2.Error(canonical_code=err.code.value[0], message=err.message)
        status.details.add().Pack(detail)
    context.set_trailing_metadata((("grpc-status-details-bin", status.SerializeToString()),))
    context.abort(Code.UNKNOWN, message)


@dataclass
class RunningServer:
    """A started server: the port it listens at; stop() ends it and its channel to the switch."""
    grpc_server: grpc.Server
    servicer: P4RuntimeServer
    port: int

    def stop(self) -> None:
        # A bounded wait: grpcio (1.85) may never end a stream whose request it could not
        # deserialize when its client leaves at once, and an unbounded one would last forever.
        self.grpc_server.stop(grace=STOP_GRACE_S).wait(STOP_GRACE_S + 2)
        self.servicer.device.events.stop()  # first: until it stops, its thread may replace the device
        self.servicer.device.close()


def serve(switch: str, address: str, device_id: int = 0) -> RunningServer:
    """A started server of the switch at `switch` (a control channel address) listening at
    `address` (HOST:PORT; port 0: any free port); ChannelError when the switch cannot be
    reached, OSError when the address cannot be listened at."""
    servicer = P4RuntimeServer(switch, device_id)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=MAX_RPCS), maximum_concurrent_rpcs=MAX_RPCS)
    p4runtime_pb2_grpc.add_P4RuntimeServicer_to_server(servicer, server)
    port = server.add_insecure_port(address)
    if port == 0:
        servicer.device.close()
        raise OSError(f"cannot listen at {address}")
    server.start()
    return RunningServer(server, servicer, port)
