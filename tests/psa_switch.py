"""A PSA switch for one header, the PSA counterpart of one_header_switch.py: what the tests of PSA's
externs, its P4Runtime and its architecture object build."""

from __future__ import annotations

__all__ = ["psa_program"]


def psa_program(fields: str, ingress: str = "", ingress_locals: str = "", deparser: str = "",
                deparser_locals: str = "", parser: str = "", parser_locals: str = "", meta: str = "",
                globals: str = "", include: str = "bmv2/psa.p4") -> str:
    """A PSA switch for one header `h_t { fields }`: the ingress parser extracts it (then runs `parser`),
    ingress sends it to port 1 (then runs `ingress`), the ingress deparser runs `deparser` and emits
    it; egress leaves the packet as it is."""
    return f"""\
#include <core.p4>
#include <{include}>
{globals}
header h_t {{ {fields} }}
struct headers_t {{ h_t h; }}
struct meta_t {{ {meta} }}
struct empty_t {{ }}
parser IP(packet_in pkt, out headers_t hdr, inout meta_t meta, in psa_ingress_parser_input_metadata_t istd,
          in empty_t resubmit_meta, in empty_t recirculate_meta) {{
{parser_locals}
    state start {{ pkt.extract(hdr.h); {parser} transition accept; }}
}}
control Ing(inout headers_t hdr, inout meta_t meta, in psa_ingress_input_metadata_t istd,
            inout psa_ingress_output_metadata_t ostd) {{
{ingress_locals}
    apply {{
        send_to_port(ostd, (PortId_t)1);
{ingress}
    }}
}}
control IDep(packet_out pkt, out empty_t clone_i2e_meta, out empty_t resubmit_meta, out empty_t normal_meta,
             inout headers_t hdr, in meta_t meta, in psa_ingress_output_metadata_t istd) {{
{deparser_locals}
    apply {{
{deparser}
        pkt.emit(hdr.h);
    }}
}}
parser EP(packet_in pkt, out headers_t hdr, inout meta_t meta, in psa_egress_parser_input_metadata_t istd,
          in empty_t normal_meta, in empty_t clone_i2e_meta, in empty_t clone_e2e_meta) {{
    state start {{ transition accept; }}
}}
control Eg(inout headers_t hdr, inout meta_t meta, in psa_egress_input_metadata_t istd,
           inout psa_egress_output_metadata_t ostd) {{ apply {{ }} }}
control EDep(packet_out pkt, out empty_t clone_e2e_meta, out empty_t recirculate_meta, inout headers_t hdr,
             in meta_t meta, in psa_egress_output_metadata_t istd, in psa_egress_deparser_input_metadata_t edstd) {{
    apply {{ }}
}}
IngressPipeline(IP(), Ing(), IDep()) ip;
EgressPipeline(EP(), Eg(), EDep()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
"""
