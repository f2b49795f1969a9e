/* registers_types.p4 -- registers of wide values, structs and enums.
 *
 * Each packet names a cell (idx) and carries a 100-bit value, a two-field
 * struct and an enum value.  Ingress reads the three registers' cells into
 * the packet's `old_*` fields, then writes the packet's values into them.
 * A cell past the end (idx 2 or more) reads as zero and is not written.
 */

#include <core.p4>
#include <v1model.p4>

enum bit<8> Color { RED = 1, GREEN = 2, BLUE = 3 }

struct pair_t {
    bit<8>  a;
    bit<16> b;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header reg_t {
    bit<8>   idx;
    bit<100> wide;
    bit<4>   pad;
    bit<8>   pa;
    bit<16>  pb;
    Color    color;
    bit<100> old_wide;
    bit<4>   old_pad;
    bit<8>   old_pa;
    bit<16>  old_pb;
    Color    old_color;
}

struct headers_t {
    ethernet_t ethernet;
    reg_t      reg;
}

struct metadata_t { }

register<bit<100>>(2) wides;
register<pair_t>(2) pairs;
register<Color>(2) colors;

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
        bit<32> i = (bit<32>) hdr.reg.idx;
        wides.read(hdr.reg.old_wide, i);
        pair_t p;
        pairs.read(p, i);
        hdr.reg.old_pa = p.a;
        hdr.reg.old_pb = p.b;
        colors.read(hdr.reg.old_color, i);
        wides.write(i, hdr.reg.wide);
        pairs.write(i, { hdr.reg.pa, hdr.reg.pb });
        colors.write(i, hdr.reg.color);
    }
}

control RegEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
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
