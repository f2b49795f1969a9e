/* arith.p4 -- bit<W> and int<W> arithmetic: wrap-around and saturation.
 *
 * Ingress computes from the operands header (a, b unsigned; sa, sb signed;
 * c, d 32-bit; e 64-bit) into the results header.  Unsigned and signed
 * +, -, * and negation wrap modulo 2^W; |+| and |-| saturate at the type's
 * bounds (0 and 2^W - 1 unsigned, -2^(W-1) and 2^(W-1) - 1 signed);
 * comparisons of int<W> are signed.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header operands_t {
    bit<8>  a;
    bit<8>  b;
    int<8>  sa;
    int<8>  sb;
    bit<32> c;
    bit<32> d;
    bit<64> e;
}

header results_t {
    bit<8>  add;
    bit<8>  sub;
    bit<8>  mul;
    bit<8>  neg;
    bit<8>  sat_add;
    bit<8>  sat_sub;
    int<8>  s_add;
    int<8>  s_sub;
    int<8>  s_sat_add;
    int<8>  s_sat_sub;
    int<8>  s_neg;
    bit<16> wide;      // (bit<16>)a * (bit<16>)b: no wrap at 8 bits
    bit<8>  cmp;       // 1: a < b, 2: sa < sb, 4: sa >= 0, 8: (bit<8>)sa > a
    bit<32> add32;
    bit<32> sub32;
    bit<64> inc64;
    bit<64> sat64;     // e |+| 1
}

struct headers_t {
    ethernet_t ethernet;
    operands_t ops;
    results_t  res;
}

struct metadata_t { }

parser ArithParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.ops);
        packet.extract(hdr.res);
        transition accept;
    }
}

control ArithVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ArithIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        hdr.res.add = hdr.ops.a + hdr.ops.b;
        hdr.res.sub = hdr.ops.a - hdr.ops.b;
        hdr.res.mul = hdr.ops.a * hdr.ops.b;
        hdr.res.neg = -hdr.ops.a;
        hdr.res.sat_add = hdr.ops.a |+| hdr.ops.b;
        hdr.res.sat_sub = hdr.ops.a |-| hdr.ops.b;
        hdr.res.s_add = hdr.ops.sa + hdr.ops.sb;
        hdr.res.s_sub = hdr.ops.sa - hdr.ops.sb;
        hdr.res.s_sat_add = hdr.ops.sa |+| hdr.ops.sb;
        hdr.res.s_sat_sub = hdr.ops.sa |-| hdr.ops.sb;
        hdr.res.s_neg = -hdr.ops.sa;
        hdr.res.wide = (bit<16>)hdr.ops.a * (bit<16>)hdr.ops.b;
        bit<8> cmp = 0;
        if (hdr.ops.a < hdr.ops.b) {
            cmp = cmp | 1;
        }
        if (hdr.ops.sa < hdr.ops.sb) {
            cmp = cmp | 2;
        }
        if (hdr.ops.sa >= 0) {
            cmp = cmp | 4;
        }
        if ((bit<8>)hdr.ops.sa > hdr.ops.a) {
            cmp = cmp | 8;
        }
        hdr.res.cmp = cmp;
        hdr.res.add32 = hdr.ops.c + hdr.ops.d;
        hdr.res.sub32 = hdr.ops.c - hdr.ops.d;
        hdr.res.inc64 = hdr.ops.e + 1;
        hdr.res.sat64 = hdr.ops.e |+| 1;
    }
}

control ArithEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control ArithComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ArithDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ops);
        packet.emit(hdr.res);
    }
}

V1Switch(ArithParser(), ArithVerifyChecksum(), ArithIngress(), ArithEgress(),
         ArithComputeChecksum(), ArithDeparser()) main;
