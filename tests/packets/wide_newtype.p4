/* wide_newtype.p4 -- a `type` over bit<128> used as a local variable.
 *
 * x = (addr_t) a; b = (bit<128>) x: all 128 bits survive, b == a.
 */

#include <core.p4>
#include <v1model.p4>
header h_t {
    bit<128> a;
    bit<128> b;
}
struct headers_t { h_t h; }
struct metadata_t { }
type bit<128> addr_t;

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {

    apply {
        standard_metadata.egress_spec = 1;
        addr_t x = (addr_t)hdr.h.a;
        hdr.h.b = (bit<128>)x;

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
