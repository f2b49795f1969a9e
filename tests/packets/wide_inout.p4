/* wide_inout.p4 -- an inout bit<128> action parameter, copied back wide.
 *
 * bump(y) adds 1: 0xff becomes 0x100 across the byte boundary.
 */

#include <core.p4>
#include <v1model.p4>
header h_t {
    bit<128> a;
}
struct headers_t { h_t h; }
struct metadata_t { }
action bump(inout bit<128> y) { y = y + 1; }

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
        bump(hdr.h.a);

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
