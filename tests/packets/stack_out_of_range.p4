/* stack_out_of_range.p4 -- a header stack indexed out of its range at run time.
 *
 * s[h.i].x = h.v writes element h.i; then h.v = s[h.i].x reads it back.
 * An index out of range writes no element and reads a header that is
 * not one of the stack's (what was written to it in this packet, else
 * zero); BMv2 stops on such an index, P4 leaves it undefined.
 */

#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> i;
    bit<8> v;
}

header e_t {
    bit<8> x;
}

struct headers_t {
    h_t    h;
    e_t[2] s;
}

struct metadata_t { }

parser StackParser(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.h);
        packet.extract(hdr.s.next);
        packet.extract(hdr.s.next);
        transition accept;
    }
}

control Nop(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control StackIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.s[hdr.h.i].x = hdr.h.v;
        hdr.h.v = hdr.s[hdr.h.i].x;
    }
}

control StackEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}

control StackDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.h);
        packet.emit(hdr.s);
    }
}

V1Switch(StackParser(), Nop(), StackIngress(), StackEgress(), Nop(), StackDeparser()) main;
