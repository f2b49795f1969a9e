/* wide_default_action.p4 -- a negative default-action argument for an int<100> action parameter.
 *
 * default_action = set(-1): the parameter is -1 within its 100 bits, so
 * v == -1 holds and f = 1.
 */

#include <core.p4>
#include <v1model.p4>
header h_t {
    bit<8> k;
    bit<8> f;
}
struct headers_t { h_t h; }
struct metadata_t { }

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    action set(int<100> v) {
        if (v == -1) { hdr.h.f = 1; } else { hdr.h.f = 2; }
    }
    table t {
        key = { hdr.h.k : exact; }
        actions = { set; }
        default_action = set(-1);
    }

    apply {
        standard_metadata.egress_spec = 1;
        t.apply();

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
