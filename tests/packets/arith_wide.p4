/* arith_wide.p4 -- arithmetic on values wider than 64 bits (bit<128>).
 *
 * +, - and shifts carry and borrow across the 64-bit halves and wrap at
 * 128 bits; bitwise operators and comparisons see all 128 bits.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header wide_t {
    bit<128> a;
    bit<128> b;
    bit<128> sum;    // a + b
    bit<128> diff;   // a - b
    bit<128> shl;    // a << 4
    bit<128> shr;    // a >> 68
    bit<128> mix;    // (a & b) ^ ~b
    bit<8>   cmp;    // 1: a == b, 2: a < b
}

struct headers_t {
    ethernet_t ethernet;
    wide_t     wide;
}

struct metadata_t { }

parser WideParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.wide);
        transition accept;
    }
}

control WideVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control WideIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        hdr.wide.sum = hdr.wide.a + hdr.wide.b;
        hdr.wide.diff = hdr.wide.a - hdr.wide.b;
        hdr.wide.shl = hdr.wide.a << 4;
        hdr.wide.shr = hdr.wide.a >> 68;
        hdr.wide.mix = (hdr.wide.a & hdr.wide.b) ^ ~hdr.wide.b;
        bit<8> cmp = 0;
        if (hdr.wide.a == hdr.wide.b) {
            cmp = cmp | 1;
        }
        if (hdr.wide.a < hdr.wide.b) {
            cmp = cmp | 2;
        }
        hdr.wide.cmp = cmp;
    }
}

control WideEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control WideComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control WideDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.wide);
    }
}

V1Switch(WideParser(), WideVerifyChecksum(), WideIngress(), WideEgress(),
         WideComputeChecksum(), WideDeparser()) main;
