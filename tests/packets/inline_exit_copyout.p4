/* inline_exit_copyout.p4 -- exit inside an inlined control whose argument is copied in and out.
 *
 * Sub sets x = 0x11, exits when op == 1, else sets x = 0x22.  It is applied to
 * a and then to b, so x is a copy.  The spec copies out before an exit leaves:
 * op 0 gives a = b = 0x22 and c = 0xff; op 1 gives a = 0x11, and nothing after
 * the first apply runs (b and c unchanged).
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
control Sub(inout bit<8> x, in bit<8> op) {
    apply {
        x = 0x11;
        if (op == 1) { exit; }
        x = 0x22;
    }
}

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    Sub() s;

    apply {
        standard_metadata.egress_spec = 1;
        s.apply(hdr.h.a, hdr.h.c);
        s.apply(hdr.h.b, hdr.h.c);
        hdr.h.c = 0xff;

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
