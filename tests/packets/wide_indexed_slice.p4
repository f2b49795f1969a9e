/* wide_indexed_slice.p4 -- assignment to an indexed slice (+:) of a bit<128> value.
 *
 * w = a, then w[k +: 8] = 0xab writes bits k..k+7 of w, and r = a[k +: 8]
 * reads them from a.  Bits past the end (k > 120) are neither written nor
 * read (r = 0), as with narrow values.
 */

#include <core.p4>
#include <v1model.p4>
header h_t {
    bit<128> a;
    bit<8>   k;
    bit<8>   r;
    bit<128> w;
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
        hdr.h.w = hdr.h.a;
        hdr.h.w[hdr.h.k +: 8] = 0xab;
        hdr.h.r = hdr.h.a[hdr.h.k +: 8];

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
