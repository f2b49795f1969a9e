#!/usr/bin/env python3
"""How fast is the front end on a large program?

Generates a valid v1model P4_16 program of well over 1,000 lines (headers,
structs, a parser with many states, controls with many actions and tables,
if and switch statements, expressions of every kind), then times
`p4odp check` on it end to end (a fresh process each run, best of 5) and
the front end in this process (`p4odp.frontend.load_program`, best of 5).

Exit 0 when the end-to-end check takes under the target (1 s), 1 when it
takes longer or does not accept the program.  `--keep FILE` saves the
program.  The generator is deterministic: every run times the same text.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

TARGET_SECONDS = 1.0

_TOPICS = ["tun", "svc", "flow", "pol", "qos", "lb", "acl", "nat", "mir", "tel", "sec", "rt",
           "geo", "vrf", "ecmp", "meter", "span", "int", "frag", "shape"]
_FIELDS = ["id", "flags", "len", "seq", "port", "cls", "mark", "tag", "hops", "zone", "epoch",
           "prio", "key", "hint", "ver", "kind", "cookie", "lane", "slot", "color"]
_VERBS = ["set", "mark", "rewrite", "push", "steer", "count", "fold", "mix", "stamp", "clamp"]
_WIDTHS = [8, 16, 32, 4, 12, 24, 48]


class Generator:
    """Writes one program; tracks the bit widths of what it can read and write."""

    def __init__(self, seed: int = 2024, custom_headers: int = 14, tables: int = 28) -> None:
        self.rng = random.Random(seed)
        self.custom_headers = custom_headers
        self.tables = tables
        self.lines: list[str] = []
        self.readable: dict[int, list[str]] = {}  # width -> expressions of type bit<width>
        self.writable: dict[int, list[str]] = {}  # width -> l-values of type bit<width>
        self.header_paths: list[str] = []  # `hdr.x`, for isValid()
        self.meta_fields: list[tuple[str, int]] = []

    # -- output helpers ------------------------------------------------------

    def emit(self, text: str = "") -> None:
        self.lines.extend(text.split("\n"))

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def literal(self, width: int) -> str:
        value = self.rng.randrange(1 << min(width, 16))
        return f"{width}w{value:#x}" if self.rng.random() < 0.5 else f"{width}w{value}"

    def add_field(self, path: str, width: int, writable: bool) -> None:
        self.readable.setdefault(width, []).append(path)
        if writable:
            self.writable.setdefault(width, []).append(path)

    # -- expressions ---------------------------------------------------------

    def leaf(self, width: int) -> str:
        same = self.readable.get(width)
        roll = self.rng.random()
        if same and roll < 0.6:
            return self.pick(same)
        if roll < 0.8:
            wider = [w for w in self.readable if w > width]
            if wider:
                source_width = self.pick(wider)
                low = self.rng.randrange(source_width - width + 1)
                return f"{self.pick(self.readable[source_width])}[{low + width - 1}:{low}]"
        if roll < 0.9:
            other = self.pick(sorted(self.readable))
            return f"(bit<{width}>){self.pick(self.readable[other])}"
        return self.literal(width)

    def expr(self, width: int, depth: int = 2) -> str:
        if depth <= 0:
            return self.leaf(width)
        kind = self.rng.randrange(9)
        a = self.expr(width, depth - 1)
        if kind <= 2:
            op = self.pick(["+", "-", "&", "|", "^", "*", "|+|", "|-|"])
            return f"({a} {op} {self.expr(width, depth - 1)})"
        if kind == 3:
            return f"({a} {self.pick(['<<', '>>'])} {self.rng.randrange(1, max(2, width))})"
        if kind == 4:
            return f"(~{a})"
        if kind == 5 and width >= 2:
            left = self.rng.randrange(1, width)
            return f"({self.expr(left, depth - 1)} ++ {self.expr(width - left, depth - 1)})"
        if kind == 6:
            return f"({self.cond(depth - 1)} ? {a} : {self.expr(width, depth - 1)})"
        if kind == 7:
            return f"({a} {self.pick(['+', '^', '&'])} {self.rng.randrange(1, 1 << min(width, 8))})"
        return a

    def cond(self, depth: int = 1) -> str:
        kind = self.rng.randrange(7 if depth > 0 else 4)
        if kind == 0:
            return f"{self.pick(self.header_paths)}.isValid()"
        if kind <= 2:
            width = self.pick(sorted(self.readable))
            op = self.pick(["==", "!=", "<", "<=", ">", ">="])
            return f"({self.leaf(width)} {op} {self.expr(width, 0)})"
        if kind == 3:
            return self.pick(["meta.seen", "(meta.mode == Mode.FAST)", "(meta.delta < 8s3)",
                              "(hdr.ipv4.protocol == IP_PROTO_TCP)"])
        if kind == 4:
            return f"!{self.cond(depth - 1)}"
        return f"({self.cond(depth - 1)} {self.pick(['&&', '||'])} {self.cond(depth - 1)})"

    def assignment(self, indent: str) -> str:
        width = self.pick(sorted(self.writable))
        target = self.pick(self.writable[width])
        if self.rng.random() < 0.15 and width >= 8:
            high = self.rng.randrange(3, width)
            return f"{indent}{target}[{high}:{high - 3}] = {self.expr(4, 1)};"
        return f"{indent}{target} = {self.expr(width)};"

    # -- declarations --------------------------------------------------------

    def program(self) -> str:
        self.preamble()
        self.header_types()
        self.structs()
        self.functions()
        self.parser()
        self.verify_checksum()
        self.stage_controls()
        self.ingress()
        self.egress()
        self.compute_checksum()
        self.deparser()
        self.emit("V1Switch(BenchParser(), BenchVerify(), BenchIngress(), BenchEgress(),\n"
                  "         BenchCompute(), BenchDeparser()) main;")
        return "\n".join(self.lines) + "\n"

    def preamble(self) -> None:
        self.emit("/* Generated by bench/frontend_speed.py: a large v1model program that\n"
                  " * exercises every part of the P4_16 front end.  Do not edit. */\n")
        self.emit("#include <core.p4>\n#include <v1model.p4>\n")
        self.emit("const bit<16> ETHERTYPE_IPV4 = 16w0x0800;\n"
                  "const bit<16> ETHERTYPE_VLAN = 16w0x8100;\n"
                  "const bit<8>  IP_PROTO_TCP = 6;\n"
                  "const bit<8>  IP_PROTO_UDP = 17;\n"
                  "const bit<32> TABLE_SIZE = 1024 * 4;\n"
                  "const bit<32> BUCKETS = (1 << 10) / 8 + 100 % 7;\n"
                  "const int<8>  BIAS = -8s3;\n")
        self.emit("typedef bit<48> mac_t;\ntypedef bit<32> ip4_t;\ntype bit<16> flow_tag_t;\n")
        self.emit("error { BadVersion, BadHeaderLength, UnknownTunnel }\n")
        self.emit("enum Mode { SLOW, FAST, BYPASS }\n")
        self.emit("enum bit<8> Kind {\n    DATA = 1,\n    PROBE = 2,\n    REPORT = 8w0x10\n}\n")
        self.emit("match_kind { bench_custom }\n")

    def header_types(self) -> None:
        self.emit("header ethernet_t {\n    mac_t dst;\n    mac_t src;\n    bit<16> etherType;\n}\n")
        self.emit("header vlan_t {\n    bit<3> pcp;\n    bit<1> cfi;\n    bit<12> vid;\n"
                  "    bit<16> etherType;\n}\n")
        self.emit("header ipv4_t {\n    bit<4> version;\n    bit<4> ihl;\n    bit<8> diffserv;\n"
                  "    bit<16> totalLen;\n    bit<16> identification;\n    bit<3> flags;\n"
                  "    bit<13> fragOffset;\n    bit<8> ttl;\n    bit<8> protocol;\n"
                  "    bit<16> hdrChecksum;\n    ip4_t srcAddr;\n    ip4_t dstAddr;\n}\n")
        self.emit("header tcp_t {\n    bit<16> srcPort;\n    bit<16> dstPort;\n    bit<32> seqNo;\n"
                  "    bit<32> ackNo;\n    bit<4> dataOffset;\n    bit<4> res;\n    bit<8> flags;\n"
                  "    bit<16> window;\n    bit<16> checksum;\n    bit<16> urgentPtr;\n}\n")
        self.emit("header udp_t {\n    bit<16> srcPort;\n    bit<16> dstPort;\n    bit<16> length;\n"
                  "    bit<16> checksum;\n}\n")
        for path, width in [("hdr.ethernet.etherType", 16), ("hdr.ipv4.ttl", 8),
                            ("hdr.ipv4.diffserv", 8), ("hdr.ipv4.srcAddr", 32),
                            ("hdr.ipv4.dstAddr", 32), ("hdr.ipv4.identification", 16),
                            ("hdr.tcp.srcPort", 16), ("hdr.tcp.dstPort", 16),
                            ("hdr.tcp.seqNo", 32), ("hdr.tcp.flags", 8), ("hdr.udp.dstPort", 16),
                            ("hdr.ethernet.dst", 48), ("hdr.vlan[0].vid", 12)]:
            self.add_field(path, width, writable=True)
        self.add_field("hdr.ipv4.protocol", 8, writable=False)
        self.header_paths += ["hdr.ethernet", "hdr.ipv4", "hdr.tcp", "hdr.udp", "hdr.vlan[0]"]
        self.custom = []
        for index in range(self.custom_headers):
            name = f"{_TOPICS[index % len(_TOPICS)]}{index}"
            fields = []
            for position in range(self.rng.randrange(4, 8)):
                fields.append((f"{self.pick(_FIELDS)}_{position}", self.pick(_WIDTHS)))
            total = sum(width for _, width in fields)
            fields.append(("next_kind", 8))
            if (total + 8) % 8:
                fields.append(("pad", 8 - (total + 8) % 8))
            self.custom.append((name, fields))
            self.emit(f"/* {name}: a made-up shim header, chained by next_kind. */")
            self.emit(f"header {name}_h {{")
            for field, width in fields:
                self.emit(f"    bit<{width}> {field};")
            self.emit("}\n")
            self.header_paths.append(f"hdr.{name}")
            for field, width in fields:
                self.add_field(f"hdr.{name}.{field}", width, writable=field != "next_kind")

    def structs(self) -> None:
        self.emit("struct flow_key_t {\n    ip4_t src;\n    ip4_t dst;\n    bit<16> sport;\n"
                  "    bit<16> dport;\n}\n")
        self.emit("struct digest_t {\n    mac_t src;\n    bit<9> port;\n}\n")
        self.emit("struct headers_t {\n    ethernet_t ethernet;\n    vlan_t[2] vlan;\n"
                  "    ipv4_t ipv4;\n    tcp_t tcp;\n    udp_t udp;")
        for name, _ in self.custom:
            self.emit(f"    {name}_h {name};")
        self.emit("}\n")
        self.emit("struct metadata_t {")
        self.emit("    flow_key_t flow;\n    bool seen;\n    Mode mode;\n    int<8> delta;\n"
                  "    flow_tag_t tag;\n    bit<16> hash16;\n    bit<32> counter_index;\n"
                  "    bit<8> rnd;\n    bit<2> color;")
        for index in range(40):
            width = self.pick(_WIDTHS)
            field = f"{self.pick(_TOPICS)}_{self.pick(_FIELDS)}_{index}"
            self.meta_fields.append((field, width))
            self.emit(f"    bit<{width}> {field};")
        self.emit("}\n")
        for field, width in self.meta_fields:
            self.add_field(f"meta.{field}", width, writable=True)
        for path, width in [("meta.flow.src", 32), ("meta.flow.dst", 32), ("meta.flow.sport", 16),
                            ("meta.flow.dport", 16), ("meta.hash16", 16), ("meta.rnd", 8)]:
            self.add_field(path, width, writable=True)

    def functions(self) -> None:
        self.emit("bit<16> max16(in bit<16> a, in bit<16> b) {\n"
                  "    return a > b ? a : b;\n}\n")
        self.emit("bit<32> mix32(in bit<32> x, in bit<8> salt) {\n"
                  "    bit<32> y = x ^ (x >> 16);\n"
                  "    y = y * 32w0x45d9f3b;\n"
                  "    return y ^ ((bit<32>)salt << 24);\n}\n")

    def parser(self) -> None:
        self.emit("parser BenchParser(packet_in packet, out headers_t hdr, inout metadata_t meta,\n"
                  "                   inout standard_metadata_t standard_metadata) {")
        self.emit("    value_set<bit<16>>(4) tunnel_types;\n")
        self.emit("    state start {\n        meta.seen = false;\n        meta.mode = Mode.SLOW;\n"
                  "        transition parse_ethernet;\n    }\n")
        first = self.custom[0][0]
        self.emit("    state parse_ethernet {\n        packet.extract(hdr.ethernet);\n"
                  "        transition select(hdr.ethernet.etherType) {\n"
                  "            ETHERTYPE_VLAN &&& 16w0xefff: parse_vlan;\n"
                  "            ETHERTYPE_IPV4: parse_ipv4;\n"
                  f"            tunnel_types: parse_{first};\n"
                  f"            16w0x8800 .. 16w0x88ff: parse_{first};\n"
                  "            default: accept;\n        }\n    }\n")
        self.emit("    state parse_vlan {\n        packet.extract(hdr.vlan.next);\n"
                  "        transition select(hdr.vlan.last.etherType) {\n"
                  "            ETHERTYPE_VLAN: parse_vlan;\n"
                  "            ETHERTYPE_IPV4: parse_ipv4;\n            default: accept;\n"
                  "        }\n    }\n")
        self.emit("    state parse_ipv4 {\n        packet.extract(hdr.ipv4);\n"
                  "        verify(hdr.ipv4.version == 4w4, error.BadVersion);\n"
                  "        verify(hdr.ipv4.ihl >= 4w5, error.BadHeaderLength);\n"
                  "        meta.flow.src = hdr.ipv4.srcAddr;\n        meta.flow.dst = hdr.ipv4.dstAddr;\n"
                  "        transition select(hdr.ipv4.protocol, hdr.ipv4.fragOffset) {\n"
                  "            (IP_PROTO_TCP, 0): parse_tcp;\n"
                  "            (IP_PROTO_UDP, 0): parse_udp;\n"
                  f"            (8w253, _): parse_{first};\n"
                  "            default: accept;\n        }\n    }\n")
        self.emit("    state parse_tcp {\n        packet.extract(hdr.tcp);\n"
                  "        meta.flow.sport = hdr.tcp.srcPort;\n        meta.flow.dport = hdr.tcp.dstPort;\n"
                  "        transition accept;\n    }\n")
        self.emit("    state parse_udp {\n        packet.extract(hdr.udp);\n"
                  "        meta.flow.sport = hdr.udp.srcPort;\n        meta.flow.dport = hdr.udp.dstPort;\n"
                  "        transition select(packet.lookahead<bit<8>>()) {\n"
                  f"            8w0 .. 8w0x3f: parse_{first};\n"
                  "            default: accept;\n        }\n    }\n")
        for index, (name, fields) in enumerate(self.custom):
            later = [n for n, _ in self.custom[index + 1:]]
            self.emit(f"    state parse_{name} {{")
            self.emit(f"        packet.extract(hdr.{name});")
            if self.rng.random() < 0.5:
                field, width = self.pick([f for f in fields if f[0] not in ("pad", "next_kind")])
                target = self.pick(self.writable[width]) if width in self.writable else None
                if target and target.startswith("meta."):
                    self.emit(f"        {target} = hdr.{name}.{field};")
            self.emit(f"        transition select(hdr.{name}.next_kind) {{")
            for value, successor in enumerate(later[:3], start=1):
                self.emit(f"            {value * 16 + index}: parse_{successor};")
            if index % 4 == 3:
                self.emit("            8w0xf0 &&& 8w0xf0: reject;")
            self.emit("            default: accept;\n        }\n    }\n")
        self.emit("}\n")

    def verify_checksum(self) -> None:
        self.emit("control BenchVerify(inout headers_t hdr, inout metadata_t meta) {\n"
                  "    apply {\n        verify_checksum(hdr.ipv4.isValid(),\n"
                  "            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,\n"
                  "              hdr.ipv4.totalLen, hdr.ipv4.identification, hdr.ipv4.flags,\n"
                  "              hdr.ipv4.fragOffset, hdr.ipv4.ttl, hdr.ipv4.protocol,\n"
                  "              hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },\n"
                  "            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);\n    }\n}\n")

    def action(self, name: str, params: list[tuple[str, int]], statements: int,
               extra: list[str] = ()) -> None:
        signature = ", ".join(f"bit<{w}> {p}" for p, w in params)
        self.emit(f"    action {name}({signature}) {{")
        for param, width in params:
            self.add_field(param, width, writable=False)
        for _ in range(statements):
            self.emit(self.assignment("        "))
        for line in extra:
            self.emit(f"        {line}")
        for param, width in params:
            self.readable[width].remove(param)
            if not self.readable[width]:
                del self.readable[width]
        self.emit("    }\n")

    def table(self, name: str, actions: list[str], default: str) -> None:
        self.emit(f"    table {name} {{")
        self.emit("        key = {")
        kinds = ["exact", "ternary", "range", "optional"]
        used_lpm = False
        for _ in range(self.rng.randrange(1, 4)):
            width = self.pick(sorted(self.readable))
            field = self.pick(self.readable[width])
            kind = self.pick(kinds + ([] if used_lpm else ["lpm"]))
            used_lpm = used_lpm or kind == "lpm"
            self.emit(f"            {field}: {kind};")
        self.emit("        }\n        actions = {")
        for action in actions:
            self.emit(f"            {action};")
        self.emit("            @defaultonly NoAction;\n        }")
        self.emit(f"        size = {self.pick([64, 256, 1024, 4096])};")
        self.emit(f"        default_action = {default};\n    }}\n")

    def stage_controls(self) -> None:
        """Small controls that Ingress instantiates: a control calling controls."""
        for stage in range(3):
            self.emit(f"control Stage{stage}(inout headers_t hdr, inout metadata_t meta,\n"
                      f"                inout standard_metadata_t standard_metadata) {{")
            self.emit(f"    bit<32> scratch_{stage} = 0;\n")
            names = []
            for index in range(3):
                name = f"{self.pick(_VERBS)}_s{stage}_{index}"
                names.append(name)
                self.action(name, [("v", 16)], 2, [f"scratch_{stage} = scratch_{stage} + 1;"])
            self.table(f"stage{stage}_tbl", names, "NoAction()")
            self.emit("    apply {")
            self.emit(f"        if ({self.cond(2)}) {{\n            stage{stage}_tbl.apply();\n"
                      "        }")
            self.emit(self.assignment("        "))
            self.emit("    }\n}\n")

    def ingress(self) -> None:
        self.emit("control BenchIngress(inout headers_t hdr, inout metadata_t meta,\n"
                  "                     inout standard_metadata_t standard_metadata) {")
        self.emit("    register<bit<32>>(BUCKETS) flow_bytes;\n"
                  "    counter(TABLE_SIZE, CounterType.packets_and_bytes) flow_packets;\n"
                  "    direct_counter(CounterType.packets) fwd_hits;\n"
                  "    meter(32w64, MeterType.bytes) policer;\n"
                  "    Stage0() stage0;\n    Stage1() stage1;\n    Stage2() stage2;\n")
        self.emit("    action drop() {\n        mark_to_drop(standard_metadata);\n    }\n")
        self.emit("    action forward(bit<9> port, mac_t next_hop) {\n"
                  "        standard_metadata.egress_spec = port;\n"
                  "        hdr.ethernet.src = hdr.ethernet.dst;\n"
                  "        hdr.ethernet.dst = next_hop;\n"
                  "        hdr.ipv4.ttl = hdr.ipv4.ttl |-| 1;\n"
                  "        fwd_hits.count();\n    }\n")
        self.emit("    action to_cpu() {\n        standard_metadata.egress_spec = 9w510;\n"
                  "        digest<digest_t>(1, { hdr.ethernet.src, standard_metadata.ingress_port });\n"
                  "        clone(CloneType.I2E, 32w250);\n        exit;\n    }\n")
        self.emit("    table ipv4_fwd {\n        key = {\n            hdr.ipv4.dstAddr: lpm;\n"
                  "        }\n        actions = {\n            forward;\n            drop;\n"
                  "            to_cpu;\n        }\n        counters = fwd_hits;\n"
                  "        size = TABLE_SIZE;\n        default_action = drop();\n    }\n")
        self.emit("    action classify(Kind kind) {\n"
                  "        meta.mode = kind == Kind.PROBE ? Mode.FAST : Mode.BYPASS;\n    }\n")
        self.emit("    table kinds {\n        key = {\n            hdr.ipv4.diffserv: exact;\n"
                  "        }\n        actions = {\n            classify;\n            NoAction;\n"
                  "        }\n        const entries = {\n"
                  "            8w0x2e: classify(Kind.PROBE);\n"
                  "            8w0x0a: classify(Kind.REPORT);\n"
                  "            0: NoAction();\n        }\n"
                  "        default_action = NoAction();\n    }\n")
        self.ingress_tables = []
        for index in range(self.tables):
            topic = _TOPICS[index % len(_TOPICS)]
            actions = []
            for variant in range(self.rng.randrange(2, 4)):
                name = f"{self.pick(_VERBS)}_{topic}_{index}_{variant}"
                params = [(f"arg{p}", self.pick(_WIDTHS)) for p in range(self.rng.randrange(0, 3))]
                extra = []
                if variant == 1 and index % 3 == 0:
                    extra = ["flow_packets.count(meta.counter_index);"]
                if variant == 1 and index % 5 == 1:
                    extra = ["policer.execute_meter(32w7, meta.color);"]
                self.action(name, params, self.rng.randrange(1, 5), extra)
                actions.append((name, params))
            default_name, default_params = actions[0]
            default_args = ", ".join(self.literal(w) for _, w in default_params)
            table = f"{topic}_tbl_{index}"
            self.table(table, [a for a, _ in actions], f"{default_name}({default_args})")
            self.ingress_tables.append((table, [a for a, _ in actions]))
        self.emit("    apply {")
        self.emit("        bit<32> byte_count;\n"
                  "        flow_key_t flow = { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, 16w0, 16w0 };\n")
        self.emit("        hash(meta.hash16, HashAlgorithm.crc16, 16w0,\n"
                  "             { meta.flow.src, meta.flow.dst, meta.flow.sport, meta.flow.dport },\n"
                  "             16w1024);")
        self.emit("        meta.counter_index = (bit<32>)meta.hash16;\n"
                  "        flow_bytes.read(byte_count, meta.counter_index);\n"
                  "        flow_bytes.write(meta.counter_index, byte_count + standard_metadata.packet_length);\n"
                  "        random(meta.rnd, 8w0, 8w255);\n"
                  "        meta.tag = (flow_tag_t)max16(meta.hash16, flow.sport);\n"
                  "        meta.flow.src = mix32(meta.flow.src, meta.rnd);\n"
                  "        meta.delta = (int<8>)meta.rnd + BIAS;\n"
                  "        log_msg(\"hash={} ttl={}\", { meta.hash16, hdr.ipv4.ttl });\n")
        self.emit("        kinds.apply();\n        stage0.apply(hdr, meta, standard_metadata);\n")
        for position, (table, actions) in enumerate(self.ingress_tables):
            style = position % 4
            if style == 0:
                self.emit(f"        switch ({table}.apply().action_run) {{")
                self.emit(f"            {actions[0]}: {{")
                self.emit(self.assignment("                "))
                self.emit("            }")
                if len(actions) > 2:
                    self.emit(f"            {actions[1]}:\n            {actions[2]}: {{")
                else:
                    self.emit(f"            {actions[1]}: {{")
                self.emit(self.assignment("                "))
                self.emit("            }\n            default: {\n"
                          "                meta.seen = true;\n            }\n        }")
            elif style == 1:
                self.emit(f"        if ({self.cond(2)}) {{")
                self.emit(f"            {table}.apply();")
                self.emit(self.assignment("            "))
                self.emit(f"        }} else if ({self.cond(1)}) {{")
                self.emit(self.assignment("            "))
                self.emit("        } else {")
                self.emit(self.assignment("            "))
                self.emit("        }")
            elif style == 2:
                self.emit(f"        if ({table}.apply().hit) {{")
                self.emit(self.assignment("            "))
                self.emit("        }")
            else:
                width = self.pick([8, 16])
                self.emit(f"        if (!{table}.apply().miss) {{")
                self.emit(f"            bit<{width}> t{position} = {self.expr(width)};")
                self.emit(f"            switch (t{position}) {{")
                self.emit(f"                {width}w1: {{ meta.seen = true; }}")
                self.emit(f"                {width}w2:\n                {width}w3: {{")
                self.emit(self.assignment("                    "))
                self.emit("                }\n                default: { }\n            }")
                self.emit("        }")
            if position % 10 == 4:
                self.emit(f"        stage{1 + position // 10 % 2}.apply(hdr, meta, standard_metadata);")
        self.emit("        if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1) {\n"
                  "            ipv4_fwd.apply();\n        } else {\n            drop();\n"
                  "            return;\n        }")
        self.emit("        if (meta.color == V1MODEL_METER_COLOR_RED) {\n            drop();\n        }")
        self.emit("    }\n}\n")

    def egress(self) -> None:
        self.emit("control BenchEgress(inout headers_t hdr, inout metadata_t meta,\n"
                  "                    inout standard_metadata_t standard_metadata) {")
        names = []
        for index in range(6):
            name = f"{self.pick(_VERBS)}_egress_{index}"
            names.append(name)
            self.action(name, [("value", 8)], self.rng.randrange(1, 4))
        self.table("egress_rewrite", names, f"{names[0]}(8w0)")
        self.emit("    apply {")
        self.emit("        if (standard_metadata.instance_type != 0) {\n"
                  "            hdr.ipv4.diffserv = hdr.ipv4.diffserv | 8w0x04;\n        }")
        self.emit("        egress_rewrite.apply();")
        for _ in range(12):
            self.emit(f"        if ({self.cond(2)}) {{")
            self.emit(self.assignment("            "))
            self.emit("        }")
        self.emit("        if (hdr.vlan[0].isValid() && hdr.vlan[1].isValid()) {\n"
                  "            hdr.vlan[1].setInvalid();\n        }")
        self.emit("        if (!hdr.udp.isValid()) {\n            hdr.udp.setValid();\n"
                  "            hdr.udp.length = 16w8;\n        }")
        self.emit("    }\n}\n")

    def compute_checksum(self) -> None:
        self.emit("control BenchCompute(inout headers_t hdr, inout metadata_t meta) {\n"
                  "    apply {\n        update_checksum(hdr.ipv4.isValid(),\n"
                  "            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,\n"
                  "              hdr.ipv4.totalLen, hdr.ipv4.identification, hdr.ipv4.flags,\n"
                  "              hdr.ipv4.fragOffset, hdr.ipv4.ttl, hdr.ipv4.protocol,\n"
                  "              hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },\n"
                  "            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);\n    }\n}\n")

    def deparser(self) -> None:
        self.emit("control BenchDeparser(packet_out packet, in headers_t hdr) {\n    apply {")
        for name in ["ethernet", "vlan", "ipv4", "tcp", "udp"] + [n for n, _ in self.custom]:
            self.emit(f"        packet.emit(hdr.{name});")
        self.emit("    }\n}\n")


def generate(path: str) -> int:
    """Write the benchmark program to `path`; its number of lines."""
    text = Generator().program()
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    return text.count("\n")


def time_check(path: str, runs: int) -> tuple[float, subprocess.CompletedProcess]:
    """Best wall-clock time of `p4odp check path` in a new process, and the last run."""
    command = [sys.executable, "-P", "-m", "p4odp.cli", "check", path]
    best, run = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best, run


def time_in_process(path: str, runs: int) -> tuple[float, float]:
    """Best times of parsing only and of the whole front end, in this process."""
    from p4odp.diagnostics import CompileError, Diagnostics
    from p4odp.frontend import FrontendOptions, load_program, parse_file

    def best_of(function) -> float:
        best = float("inf")
        for _ in range(runs):
            start = time.perf_counter()
            try:
                function(path, FrontendOptions(), Diagnostics())
            except CompileError:
                pass
            best = min(best, time.perf_counter() - start)
        return best

    return best_of(parse_file), best_of(load_program)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs to take the best of (default 5)")
    parser.add_argument("--keep", metavar="FILE", help="also save the generated program to FILE")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="p4odp-bench-") as folder:
        path = os.path.join(folder, "bench.p4")
        lines = generate(path)
        if args.keep:
            generate(args.keep)
        seconds, run = time_check(path, args.runs)
        parse_seconds, frontend_seconds = time_in_process(path, args.runs)
    print(f"program: {lines} lines (generated, plus core.p4 and v1model.p4)")
    print(f"p4odp check, end to end: {seconds:.3f} s (best of {args.runs})")
    print(f"front end in process: {frontend_seconds:.3f} s, of which parsing {parse_seconds:.3f} s")
    if run.returncode != 0:
        sys.stdout.write(run.stdout + run.stderr)
        print(f"FAIL: p4odp check exited {run.returncode}: the program was not accepted")
        return 1
    if seconds >= TARGET_SECONDS:
        print(f"FAIL: over the {TARGET_SECONDS:g} s target")
        return 1
    print(f"OK: under the {TARGET_SECONDS:g} s target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
