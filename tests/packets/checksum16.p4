/* checksum16.p4 -- the deprecated Checksum16 extern: get(data) is the Internet checksum (the ones'
 * complement of the ones' complement sum of the 16-bit words) of the fields of data, as
 * update_checksum's csum16 computes it.
 */

#include <core.p4>
#include <v1model.p4>
header h_t { bit<16> a; bit<16> b; bit<8> c; bit<8> d; bit<16> sum; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Checksum16() ck;
    apply { sm.egress_spec = 1; hdr.h.sum = ck.get({ hdr.h.a, hdr.h.b, hdr.h.c, hdr.h.d }); }
}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
