/* newtype_of_newtype_field.p4 -- header fields whose types are `type`s of
 * `type`s (of a typedef), as p4c's issue1739 declares IPv4 addresses.
 *
 * Both are extracted and emitted with their widths; the 32-bit one is copied
 * into the other field through casts, the 16-bit one incremented.
 */

#include <core.p4>
#include <v1model.p4>
typedef bit<32> addr_uint_t;
type addr_uint_t addr_t;
type addr_t addr2_t;
type bit<16> port_t;
type port_t port2_t;
header h_t {
    addr2_t a;
    bit<32> b;
    port2_t p;
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
        hdr.h.b = (bit<32>)(addr_t)hdr.h.a;
        hdr.h.p = (port2_t)(port_t)((bit<16>)(port_t)hdr.h.p + 1);
    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
