/* ctor_call_arg.p4 -- a constructor call as a control's constructor argument.
 *
 * Twice(inout x)(Step s) applies s twice.  Its argument here is not a
 * declared instance but a nameless one made by a constructor call in the
 * argument list, Twice(AddOne()) and Twice(Double()), as V1Switch(...)
 * main takes its controls (P4_16 spec, instantiations; p4c accepts
 * `c(Y(32w16)) cinst;`).  Each call makes its own instance.
 * b + 1 + 1; c << 1 << 1 (c * 4 mod 256).
 * (direct_apply.p4 passes declared instances instead.)
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vals_t {
    bit<8> b; // Twice(AddOne())
    bit<8> c; // Twice(Double())
}

struct headers_t {
    ethernet_t ethernet;
    vals_t     vals;
}

struct metadata_t { }

control Step(inout bit<8> x);

control AddOne(inout bit<8> x) {
    apply {
        x = x + 1;
    }
}

control Double(inout bit<8> x) {
    apply {
        x = x << 1;
    }
}

control Twice(inout bit<8> x)(Step s) {
    apply {
        s.apply(x);
        s.apply(x);
    }
}

parser CallArgParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.vals);
        transition accept;
    }
}

control CallArgVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CallArgIngress(inout headers_t hdr, inout metadata_t meta,
                       inout standard_metadata_t standard_metadata) {
    Twice(AddOne()) twice;
    Twice(Double()) quad;

    apply {
        standard_metadata.egress_spec = 1;
        twice.apply(hdr.vals.b);
        quad.apply(hdr.vals.c);
    }
}

control CallArgEgress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply { }
}

control CallArgComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CallArgDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vals);
    }
}

V1Switch(CallArgParser(), CallArgVerifyChecksum(), CallArgIngress(), CallArgEgress(),
         CallArgComputeChecksum(), CallArgDeparser()) main;
