/* arith_wide_div.p4 -- / and % on values wider than 64 bits (bit<96>).
 *
 * q = a / b and r = a % b, unsigned, over all 96 bits; a divisor of 0
 * gives 0 for both, as p4odp's / and % of narrower values (P4 leaves it
 * undefined).
 */

#include <core.p4>
#include <v1model.p4>

header div_t {
    bit<96> a;
    bit<96> b;
    bit<96> q;   // a / b
    bit<96> r;   // a % b
}

struct headers_t {
    div_t div;
}

struct metadata_t { }

parser DivParser(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.div);
        transition accept;
    }
}

control Nop(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DivIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.div.q = hdr.div.a / hdr.div.b;
        hdr.div.r = hdr.div.a % hdr.div.b;
    }
}

control DivEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}

control DivDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.div);
    }
}

V1Switch(DivParser(), Nop(), DivIngress(), DivEgress(), Nop(), DivDeparser()) main;
