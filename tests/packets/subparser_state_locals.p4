/* subparser_state_locals.p4 -- a sub-parser applied after a declaration in the same state.
 *
 * The state declares tmp = a, applies SubP (b + 1), then uses tmp: c = a,
 * and the select on tmp still sees it.
 */

#include <core.p4>
#include <v1model.p4>
header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
}
struct headers_t { h_t h; }
struct metadata_t { }
parser SubP(packet_in pk, inout bit<8> v) {
    state start { v = v + 1; transition accept; }
}

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    SubP() sp;
    state start {
        packet.extract(hdr.h);
        bit<8> tmp = hdr.h.a;
        sp.apply(packet, hdr.h.b);
        hdr.h.c = tmp;
        transition select(tmp) { 1: reject; default: accept; }
    }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {

    apply {
        standard_metadata.egress_spec = 1;

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
