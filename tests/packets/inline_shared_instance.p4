/* inline_shared_instance.p4 -- an instance applied directly and also passed to another control as a constructor argument.
 *
 * one.apply(a) adds 1 to a; twice (Twice(one)) applies one twice to b.  The
 * applies through `twice` must use b, not the a of the direct apply: a + 1, b + 2.
 */

#include <core.p4>
#include <v1model.p4>
header h_t {
    bit<8> a;
    bit<8> b;
}
struct headers_t { h_t h; }
struct metadata_t { }
control Step(inout bit<8> v);
control AddOne(inout bit<8> v) { apply { v = v + 1; } }
control Twice(inout bit<8> x)(Step s) {
    apply { s.apply(x); s.apply(x); }
}

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    AddOne() one;
    Twice(one) twice;

    apply {
        standard_metadata.egress_spec = 1;
        one.apply(hdr.h.a);
        twice.apply(hdr.h.b);

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
