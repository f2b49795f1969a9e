/* std_metadata.p4 -- standard_metadata as simple_switch fills it.
 *
 * Ingress records ingress_port and packet_length (the bytes received) in
 * the packet.  Op 0: ingress leaves egress_spec alone, so the packet leaves
 * by port 0.  Op 1: sent back out of its ingress port.  Op 2: egress_spec
 * 511, simple_switch's drop port.  Egress records egress_port, and
 * egress_spec as egress sees it: simple_switch sets it to its drop port + 1
 * before egress, which a 9-bit field holds as 0, whatever ingress chose.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header meta_t {
    bit<8>  op;
    bit<16> in_port;
    bit<32> length;
    bit<16> out_port;
    bit<16> egress_spec;
}

struct headers_t {
    ethernet_t ethernet;
    meta_t     info;
}

struct metadata_t { }

parser StdParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.info);
        transition accept;
    }
}

control StdVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control StdIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply {
        hdr.info.in_port = (bit<16>)standard_metadata.ingress_port;
        hdr.info.length = standard_metadata.packet_length;
        if (hdr.info.op == 1) {
            standard_metadata.egress_spec = standard_metadata.ingress_port;
        } else if (hdr.info.op == 2) {
            standard_metadata.egress_spec = 511;
        }
    }
}

control StdEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        hdr.info.out_port = (bit<16>)standard_metadata.egress_port;
        hdr.info.egress_spec = (bit<16>)standard_metadata.egress_spec;
    }
}

control StdComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control StdDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.info);
    }
}

V1Switch(StdParser(), StdVerifyChecksum(), StdIngress(), StdEgress(),
         StdComputeChecksum(), StdDeparser()) main;
