"""The architecture include files of `frontend/include/`: psa.p4 and pna.p4 with their bmv2/ and
dpdk/ names.

Small programs for each architecture go through `p4odp check` as a user runs it; the target
variants are told apart by the declarations only one of them has; including two names of one
architecture declares it once; P4Info's type translations are those of p4c's files; and a type
error in a PSA program is reported at its file:line:col.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from p4odp import ir
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program

# A PSA switch: ingress forwards by destination MAC, egress does nothing.  {includes} are the
# #include lines, {ingress} the ingress control's apply block.
PSA = """\
{includes}

header ethernet_t {{ bit<48> dst; bit<48> src; bit<16> type; }}
struct headers_t {{ ethernet_t ethernet; }}
struct meta_t {{ bit<16> flow; }}
struct empty_t {{ }}

parser IngressParserImpl(packet_in pkt, out headers_t hdr, inout meta_t meta,
                         in psa_ingress_parser_input_metadata_t istd,
                         in empty_t resubmit_meta, in empty_t recirculate_meta) {{
    state start {{ pkt.extract(hdr.ethernet); transition accept; }}
}}

control IngressImpl(inout headers_t hdr, inout meta_t meta,
                    in psa_ingress_input_metadata_t istd,
                    inout psa_ingress_output_metadata_t ostd) {{
    Counter<bit<32>, bit<8>>(256, PSA_CounterType_t.PACKETS_AND_BYTES) by_type;
    Meter<bit<8>>(256, PSA_MeterType_t.BYTES) policer;
    Register<bit<32>, bit<8>>(256) seen;
    Hash<bit<16>>(PSA_HashAlgorithm_t.CRC16) flow_hash;
    action forward(PortId_t port) {{ send_to_port(ostd, port); }}
    action flood(MulticastGroup_t group) {{ multicast(ostd, group); }}
    action drop() {{ ingress_drop(ostd); }}
    table dmac {{
        key = {{ hdr.ethernet.dst: exact; istd.ingress_port: optional; }}
        actions = {{ forward; flood; drop; }}
        default_action = drop();
        psa_idle_timeout = PSA_IdleTimeout_t.NOTIFY_CONTROL;
    }}
    apply {{
{ingress}
    }}
}}

control IngressDeparserImpl(packet_out pkt, out empty_t clone_i2e_meta, out empty_t resubmit_meta,
                            out meta_t normal_meta, inout headers_t hdr, in meta_t meta,
                            in psa_ingress_output_metadata_t istd) {{
    apply {{
        if (psa_normal(istd)) {{ normal_meta = meta; }}
        pkt.emit(hdr.ethernet);
    }}
}}

parser EgressParserImpl(packet_in pkt, out headers_t hdr, inout meta_t meta,
                        in psa_egress_parser_input_metadata_t istd, in meta_t normal_meta,
                        in empty_t clone_i2e_meta, in empty_t clone_e2e_meta) {{
    state start {{ pkt.extract(hdr.ethernet); transition accept; }}
}}

control EgressImpl(inout headers_t hdr, inout meta_t meta, in psa_egress_input_metadata_t istd,
                   inout psa_egress_output_metadata_t ostd) {{
    apply {{
        if (istd.egress_port == PSA_PORT_CPU) {{ egress_drop(ostd); }}
    }}
}}

control EgressDeparserImpl(packet_out pkt, out empty_t clone_e2e_meta, out empty_t recirculate_meta,
                           inout headers_t hdr, in meta_t meta, in psa_egress_output_metadata_t istd,
                           in psa_egress_deparser_input_metadata_t edstd) {{
    apply {{ pkt.emit(hdr.ethernet); }}
}}

IngressPipeline(IngressParserImpl(), IngressImpl(), IngressDeparserImpl()) ip;
EgressPipeline(EgressParserImpl(), EgressImpl(), EgressDeparserImpl()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
"""

PSA_INGRESS = """\
        by_type.count(hdr.ethernet.type[7:0]);
        PSA_MeterColor_t color = policer.execute(hdr.ethernet.type[7:0]);
        seen.write(0, seen.read(0) + 1);
        meta.flow = flow_hash.get_hash({hdr.ethernet.src, hdr.ethernet.dst});
        if (color == PSA_MeterColor_t.RED) { drop(); } else { dmac.apply(); }"""

# A PNA NIC: the main control forwards by destination MAC and counts by ether type.  {decls} go
# first in the main control, {main} is its apply block.
PNA = """\
{includes}

header ethernet_t {{ bit<48> dst; bit<48> src; bit<16> type; }}
struct headers_t {{ ethernet_t ethernet; }}
struct meta_t {{ bit<32> len; }}
struct empty_t {{ }}

control PreControlImpl(in headers_t hdr, inout meta_t meta, in pna_pre_input_metadata_t istd,
                       inout pna_pre_output_metadata_t ostd) {{
    apply {{ }}
}}

parser MainParserImpl(packet_in pkt, out headers_t hdr, inout meta_t meta,
                      in pna_main_parser_input_metadata_t istd) {{
    state start {{ pkt.extract(hdr.ethernet); transition accept; }}
}}

control MainControlImpl(inout headers_t hdr, inout meta_t meta, in pna_main_input_metadata_t istd,
                        inout pna_main_output_metadata_t ostd) {{
{decls}
    Counter<bit<32>, bit<8>>(256, PNA_CounterType_t.PACKETS) by_type;
    action forward(PortId_t port) {{ send_to_port(port); }}
    action drop() {{ drop_packet(); }}
    table dmac {{
        key = {{
            SelectByDirection(istd.direction, hdr.ethernet.dst, hdr.ethernet.src): exact @name("addr");
        }}
        actions = {{ forward; drop; }}
        default_action = drop();
    }}
    apply {{
{main}
    }}
}}

control MainDeparserImpl(packet_out pkt, in headers_t hdr, in meta_t meta,
                         in pna_main_output_metadata_t ostd) {{
    apply {{ pkt.emit(hdr.ethernet); }}
}}

PNA_NIC(MainParserImpl(), PreControlImpl(), MainControlImpl(), MainDeparserImpl()) main;
"""

PNA_MAIN = """\
        by_type.count(hdr.ethernet.type[7:0]);
        dmac.apply();"""

DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$", re.MULTILINE)


def includes(*names: str) -> str:
    return "\n".join(["#include <core.p4>", *(f"#include <{name}>" for name in names)])


def check(path: Path) -> subprocess.CompletedProcess:
    """`python3 -m p4odp.cli check PATH`, with no Python traceback whatever happens."""
    env = {k: v for k, v in os.environ.items() if k != "P4ODP_TRACEBACK"}
    result = subprocess.run([sys.executable, "-m", "p4odp.cli", "check", str(path)], env=env,
                            capture_output=True, text=True, errors="replace", timeout=120)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def write(tmp_path: Path, text: str, name: str = "prog.p4") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def assert_checks(tmp_path: Path, text: str) -> None:
    result = check(write(tmp_path, text))
    assert result.returncode == 0, result.stderr


def assert_error(tmp_path: Path, text: str, message: str) -> None:
    result = check(write(tmp_path, text))
    assert result.returncode == 1
    assert any(message in e["message"] for e in DIAGNOSTIC.finditer(result.stderr)), result.stderr


# ----------------------------------------------------------------------------
# PSA


@pytest.mark.parametrize("name", ["psa.p4", "bmv2/psa.p4", "dpdk/psa.p4"])
def test_psa_switch_checks(tmp_path, name):
    assert_checks(tmp_path, PSA.format(includes=includes(name), ingress=PSA_INGRESS))


def test_bmv2_psa_is_included_by_its_quoted_name(tmp_path):
    text = PSA.format(includes='#include <core.p4>\n#include "bmv2/psa.p4"', ingress=PSA_INGRESS)
    assert_checks(tmp_path, text)


def test_dpdk_psa_adds_overloads_with_the_packet_length(tmp_path):
    ingress = PSA_INGRESS + """
        by_type.count(hdr.ethernet.type[7:0], 64);
        color = policer.dpdk_execute(hdr.ethernet.type[7:0], PSA_MeterColor_t.GREEN, 64);"""
    assert_checks(tmp_path, PSA.format(includes=includes("dpdk/psa.p4"), ingress=ingress))
    assert_error(tmp_path, PSA.format(includes=includes("bmv2/psa.p4"), ingress=ingress),
                 "count: no overload takes 2 argument(s)")


def test_two_psa_names_declare_psa_once(tmp_path):
    text = PSA.format(includes=includes("bmv2/psa.p4", "psa.p4", "dpdk/psa.p4"), ingress=PSA_INGRESS)
    assert_checks(tmp_path, text)


def test_psa_type_error_is_reported_at_its_position(tmp_path):
    # PortId_t is a new type: a plain integer must be cast to it.
    ingress = PSA_INGRESS + "\n        ostd.egress_port = 4;"
    text = PSA.format(includes=includes("psa.p4"), ingress=ingress)
    path = write(tmp_path, text)
    result = check(path)
    assert result.returncode == 1
    errors = [e.groupdict() for e in DIAGNOSTIC.finditer(result.stderr)]
    line = text.splitlines().index("        ostd.egress_port = 4;") + 1
    col = len("        ostd.egress_port = ") + 1
    assert errors == [{"file": str(path), "line": str(line), "col": str(col),
                       "message": "assignment: cannot convert int to PortId_t"}]


# ----------------------------------------------------------------------------
# PNA


@pytest.mark.parametrize("name", ["pna.p4", "dpdk/pna.p4"])
def test_pna_nic_checks(tmp_path, name):
    assert_checks(tmp_path, PNA.format(includes=includes(name), decls="", main=PNA_MAIN))


def test_pna_counter_increment_is_optional(tmp_path):
    main = PNA_MAIN + "\n        by_type.count(0, 4);"
    assert_checks(tmp_path, PNA.format(includes=includes("pna.p4"), decls="", main=main))


def test_dpdk_pna_has_the_ipsec_accelerator(tmp_path):
    main = PNA_MAIN + """
        ipsec_status status;
        if (!ipsec.from_ipsec(status)) { ipsec.set_sa_index<bit<32>>(1); ipsec.enable(); }"""
    dpdk = PNA.format(includes=includes("dpdk/pna.p4"), decls="    ipsec_accelerator() ipsec;", main=main)
    assert_checks(tmp_path, dpdk)
    assert_error(tmp_path, dpdk.replace("dpdk/pna.p4", "pna.p4"),
                 "ipsec_accelerator: declaration not found")


# ----------------------------------------------------------------------------
# What P4Info depends on


@pytest.mark.parametrize("name, prefix", [("psa.p4", "p4.org/psa/v1/"), ("pna.p4", "p4.org/pna/v1/")])
def test_port_type_is_translated_for_p4runtime(tmp_path, name, prefix):
    path = write(tmp_path, f"#include <{name}>\n")
    diags = Diagnostics()
    program = load_program(str(path), FrontendOptions(), diags)
    assert program is not None, [d.message for d in diags.items]
    port = next(d for d in program.declarations if isinstance(d, ir.NewType) and d.name == "PortId_t")
    translation = next(a for a in port.annotations if a.name == "p4runtime_translation")
    assert translation.body.replace(" ", "") == f'"{prefix}PortId_t",32'
