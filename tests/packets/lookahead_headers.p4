/* lookahead_headers.p4 -- lookahead of a struct that holds headers.
 *
 * The parser looks at the packet's first 3 bytes as a pair_t (header a_t,
 * then header b_t) without consuming them: both headers of the copy are
 * valid and hold those bytes.  It writes b.y's low byte and whether b is
 * valid into the header `peek`, then extracts a and b for real.  A packet
 * too short for the pair stops the parser at the lookahead (PacketTooShort)
 * and leaves as it came.
 */

#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8> x;
}

header b_t {
    bit<16> y;
}

struct pair_t {
    a_t a;
    b_t b;
}

header peek_t {
    bit<8> y_low;
    bit<8> b_valid;
}

struct headers_t {
    a_t    a;
    b_t    b;
    peek_t peek;
}

struct metadata_t { }

parser LookParser(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    state start {
        pair_t pair = packet.lookahead<pair_t>();
        hdr.peek.setValid();
        hdr.peek.y_low = (bit<8>)pair.b.y;
        hdr.peek.b_valid = pair.b.isValid() ? 8w1 : 8w0;
        packet.extract(hdr.a);
        packet.extract(hdr.b);
        transition accept;
    }
}

control Nop(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control LookIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
    }
}

control LookEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}

control LookDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.a);
        packet.emit(hdr.b);
        packet.emit(hdr.peek);
    }
}

V1Switch(LookParser(), Nop(), LookIngress(), LookEgress(), Nop(), LookDeparser()) main;
