/* ctor_arg_names.p4 -- constructor arguments that name the caller's constants.
 *
 * Add(AMT) is given the caller's local constant AMT (7) while Add has a
 * local of the same name (0x40): the argument means the caller's, so a + 7.
 */

#include <core.p4>
#include <v1model.p4>
header h_t {
    bit<8> a;
    bit<8> b;
}
struct headers_t { h_t h; }
struct metadata_t { }
control Add(inout bit<8> v)(bit<8> amount) {
    bit<8> AMT = 0x40;
    apply { v = v + amount; AMT = AMT + 1; }
}

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    const bit<8> AMT = 7;
    Add(AMT) s;

    apply {
        standard_metadata.egress_spec = 1;
        s.apply(hdr.h.a);

    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
