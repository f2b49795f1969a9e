// unread-fields: ingress reads the destination MAC and the IPv4 TOS, the parser selects on the
// EtherType, and the in-place deparser stores the source MAC, which ingress writes on some
// packets only (so the parser must load it for the others).  Nothing reads the other IPv4
// fields: the parser does not load them.
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header ipv4_t { bit<8> vihl; bit<8> tos; bit<16> len; bit<32> rest; }
struct headers_t { ethernet_t eth; ipv4_t ip; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) { 0x0800: ip; default: accept; }
    }
    state ip {
        pkt.extract(hdr.ip);
        transition accept;
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.eth.dst == 0) { hdr.eth.src = 1; }
        if (hdr.ip.isValid()) { sm.egress_spec = (bit<9>)hdr.ip.tos; }
    }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.ip); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
