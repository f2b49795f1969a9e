/* wide_newtype_field.p4 -- a header field whose type is a `type` over bit<128>.
 *
 * It is extracted and emitted as 128 bits, and b = (bit<128>) a copies it whole.
 */

#include <core.p4>
#include <v1model.p4>
type bit<128> addr_t;
header h_t {
    addr_t a;
    bit<128> b;
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

    apply {
        standard_metadata.egress_spec = 1;
        hdr.h.b = (bit<128>)hdr.h.a;

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
