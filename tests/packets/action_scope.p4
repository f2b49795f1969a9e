/* action_scope.p4 -- an action sees the names of the control that declares it, not of its call site.
 *
 * rd() reads the control's t (0x10) even when called inside a block that
 * declares its own t (0x77): c = 0x10, b = 0x77.
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

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    bit<8> t = 0x10;
    action rd() { hdr.h.c = t; }

    apply {
        standard_metadata.egress_spec = 1;
        {
            bit<8> t = 0x77;
            rd();
            hdr.h.b = t;
        }

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
