/* registers_global.p4 -- a register declared at the top level, shared by ingress and egress.
 *
 * Each packet names a cell (idx) and a value.  Ingress adds the value to
 * the cell; egress reads the same cell (after ingress wrote it) into `seen`.
 * A second top-level register, written only by egress, counts the packets
 * that went through egress; its count before this packet goes into `count`.
 * Both keep their values from packet to packet.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header reg_t {
    bit<8>  idx;
    bit<16> val;
    bit<16> seen;
    bit<32> count;
}

struct headers_t {
    ethernet_t ethernet;
    reg_t      reg;
}

struct metadata_t { }

register<bit<16>>(4) cells;
register<bit<32>>(1) packets;

parser RegParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.reg);
        transition accept;
    }
}

control RegVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control RegIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        bit<16> cell;
        cells.read(cell, (bit<32>) hdr.reg.idx);
        cells.write((bit<32>) hdr.reg.idx, cell + hdr.reg.val);
    }
}

control RegEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        cells.read(hdr.reg.seen, (bit<32>) hdr.reg.idx);
        bit<32> n;
        packets.read(n, 0);
        hdr.reg.count = n;
        packets.write(0, n + 1);
    }
}

control RegComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control RegDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.reg);
    }
}

V1Switch(RegParser(), RegVerifyChecksum(), RegIngress(), RegEgress(), RegComputeChecksum(),
         RegDeparser()) main;
