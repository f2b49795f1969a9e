// deparse-in-place: the parser reads Ethernet, then IPv4 on some paths (through a state that
// reads nothing, so IPv4 is at bit 112 on all of them), the deparser emits both in that order,
// and ingress only writes a field (the source MAC; it reads others, checks validity): the
// deparser writes that one field in the packet.
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header ipv4_t { bit<8> vihl; bit<8> tos; bit<16> len; bit<32> rest; }
struct headers_t { ethernet_t eth; ipv4_t ip; }
struct meta_t { bit<16> type; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) { 0x0800: ip; 0x8100: vlan_skip; default: accept; }
    }
    state vlan_skip { transition ip; }
    state ip {
        pkt.extract(hdr.ip);
        transition accept;
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        meta.type = hdr.eth.type;
        hdr.eth.src = hdr.eth.dst;
        if (hdr.ip.isValid()) { sm.egress_spec = (bit<9>)hdr.ip.tos; } else { sm.egress_spec = 1; }
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.ip); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
