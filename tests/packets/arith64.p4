/* arith64.p4 -- 64-bit and 40-bit arithmetic that 32-bit targets do in pairs of registers.
 *
 * Ingress computes from the operands header (sa, sb int<64>; ta, tb int<40>;
 * u bit<64>; n a shift amount) into the results header: signed saturating
 * + and - at 64 bits (where the sum itself overflows int64_t) and at 40,
 * shifts by amounts around 32 and 64, a 64-bit product and signed
 * comparisons.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header operands_t {
    int<64> sa;
    int<64> sb;
    int<40> ta;
    int<40> tb;
    bit<64> u;
    bit<8>  n;
}

header results_t {
    int<64> s_sat_add;
    int<64> s_sat_sub;
    int<64> s_add;      // wraps
    int<40> t_sat_add;
    int<40> t_sat_sub;
    bit<64> shl;        // u << n
    bit<64> shr;        // u >> n
    int<64> sshr;       // sa >> n, arithmetic
    bit<64> mul;        // u * u
    bit<8>  cmp;        // 1: sa < sb, 2: ta < tb, 4: u > (bit<64>)sa
}

struct headers_t {
    ethernet_t ethernet;
    operands_t ops;
    results_t  res;
}

struct metadata_t { }

parser Arith64Parser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.ops);
        packet.extract(hdr.res);
        transition accept;
    }
}

control Arith64VerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control Arith64Ingress(inout headers_t hdr, inout metadata_t meta,
                       inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        hdr.res.s_sat_add = hdr.ops.sa |+| hdr.ops.sb;
        hdr.res.s_sat_sub = hdr.ops.sa |-| hdr.ops.sb;
        hdr.res.s_add = hdr.ops.sa + hdr.ops.sb;
        hdr.res.t_sat_add = hdr.ops.ta |+| hdr.ops.tb;
        hdr.res.t_sat_sub = hdr.ops.ta |-| hdr.ops.tb;
        hdr.res.shl = hdr.ops.u << hdr.ops.n;
        hdr.res.shr = hdr.ops.u >> hdr.ops.n;
        hdr.res.sshr = hdr.ops.sa >> hdr.ops.n;
        hdr.res.mul = hdr.ops.u * hdr.ops.u;
        bit<8> cmp = 0;
        if (hdr.ops.sa < hdr.ops.sb) {
            cmp = cmp | 1;
        }
        if (hdr.ops.ta < hdr.ops.tb) {
            cmp = cmp | 2;
        }
        if (hdr.ops.u > (bit<64>)hdr.ops.sa) {
            cmp = cmp | 4;
        }
        hdr.res.cmp = cmp;
    }
}

control Arith64Egress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply { }
}

control Arith64ComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control Arith64Deparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ops);
        packet.emit(hdr.res);
    }
}

V1Switch(Arith64Parser(), Arith64VerifyChecksum(), Arith64Ingress(), Arith64Egress(),
         Arith64ComputeChecksum(), Arith64Deparser()) main;
