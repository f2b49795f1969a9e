/* subcontrol_args.p4 -- control instances with constructor arguments.
 *
 * AddK(k) adds its constructor argument k: ingress holds two instances
 * with different constants, and Twice holds a third, applied two times.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vals_t {
    bit<8> x;
    bit<8> y;
}

struct headers_t {
    ethernet_t ethernet;
    vals_t     vals;
}

struct metadata_t { }

control AddK(inout bit<8> v)(bit<8> k) {
    apply {
        v = v + k;
    }
}

control Twice(inout bit<8> v) {
    AddK(3) add3;

    apply {
        add3.apply(v);
        add3.apply(v);
    }
}

parser ArgsParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.vals);
        transition accept;
    }
}

control ArgsVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ArgsIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    AddK(10) add10;
    AddK(0xf0) add_f0;
    Twice() twice;

    apply {
        standard_metadata.egress_spec = 1;
        add10.apply(hdr.vals.x);
        add_f0.apply(hdr.vals.x);
        twice.apply(hdr.vals.y);
    }
}

control ArgsEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control ArgsComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ArgsDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vals);
    }
}

V1Switch(ArgsParser(), ArgsVerifyChecksum(), ArgsIngress(), ArgsEgress(),
         ArgsComputeChecksum(), ArgsDeparser()) main;
