/* tuples.p4 -- tuple values: list initializers, indexing, assignment, equality, arguments.
 *
 * t : tuple<bit<8>, bit<16>> = { a, w } (a list expression of the header
 * fields); u is declared without a value, then u = t copies the tuple.
 * - r0 := t[0] (a), eq1 := t == u (1: equal element by element);
 * - t[1] = 5 writes one element of t only: r1 := t[1] = 5, uw := u[1] = w;
 *   eq2 := t == u, now 1 only when w is 5;
 * - mix(in tuple<bit<8>, bit<16>> p) returns p[0] (zero-extended) + p[1]:
 *   m1 := mix(t) = a + 5, m2 := mix(u) = a + w (16-bit wrap), m3 :=
 *   mix({ a, 0x100 }) = a + 0x100, a list expression as the argument.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header tup_t {
    bit<8>  a;
    bit<16> w;
    bit<8>  r0;
    bit<16> r1;
    bit<16> uw;
    bit<8>  eq1;
    bit<8>  eq2;
    bit<16> m1;
    bit<16> m2;
    bit<16> m3;
}

struct headers_t {
    ethernet_t ethernet;
    tup_t      tup;
}

struct metadata_t { }

bit<16> mix(in tuple<bit<8>, bit<16>> p) {
    return (bit<16>)p[0] + p[1];
}

parser TupParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.tup);
        transition accept;
    }
}

control TupVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control TupIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        tuple<bit<8>, bit<16>> t = { hdr.tup.a, hdr.tup.w };
        tuple<bit<8>, bit<16>> u;
        u = t;
        hdr.tup.r0 = t[0];
        hdr.tup.eq1 = (t == u) ? 8w1 : 8w0;
        t[1] = 5;
        hdr.tup.r1 = t[1];
        hdr.tup.uw = u[1];
        hdr.tup.eq2 = (t == u) ? 8w1 : 8w0;
        hdr.tup.m1 = mix(t);
        hdr.tup.m2 = mix(u);
        hdr.tup.m3 = mix({ hdr.tup.a, 16w0x100 });
    }
}

control TupEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control TupComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control TupDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.tup);
    }
}

V1Switch(TupParser(), TupVerifyChecksum(), TupIngress(), TupEgress(),
         TupComputeChecksum(), TupDeparser()) main;
