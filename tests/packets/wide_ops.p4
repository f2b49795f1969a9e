/* wide_ops.p4 -- the other operations on values wider than 64 bits.
 *
 * Casts between narrow and wide values (zero- and sign-extending), the low
 * bits of a wide value, ++ building a wide value, slices of a wide value
 * (narrow and wide), assignment to a slice of a wide value, ?: choosing
 * between wide values, *, |+| and |-|, and int<128>'s arithmetic shift and
 * signed comparison.  arith_wide.p4 has +, -, shifts, bitwise operators and
 * unsigned comparisons.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header in_t {
    bit<128> a;
    bit<128> b;
    bit<32>  n;
    int<32>  sn;
}

header out_t {
    bit<128> cast_u;    // (bit<128>) n
    bit<128> cast_s;    // (bit<128>) (int<128>) sn: sign-extended
    bit<32>  low;       // (bit<32>) a
    bit<128> concat;    // a[63:0] ++ n ++ n
    bit<32>  slice;     // a[95:64]
    bit<72>  slice72;   // a[127:56]
    bit<128> set_slice; // b, with bits 100..37 replaced by a[63:0]
    bit<128> mux;       // n > 5 ? a : b
    bit<128> mul;       // a * b, wrapping
    bit<128> add_sat;   // a |+| b
    bit<128> sub_sat;   // a |-| b
    bit<128> sshr;      // (int<128>) a >> 4
    bit<8>   scmp;      // 1 when (int<128>) a < (int<128>) b
}

struct headers_t {
    ethernet_t ethernet;
    in_t       operands;
    out_t      results;
}

struct metadata_t { }

parser WideParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.operands);
        packet.extract(hdr.results);
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
        bit<128> a = hdr.operands.a;
        bit<128> b = hdr.operands.b;
        bit<32> n = hdr.operands.n;
        hdr.results.cast_u = (bit<128>) n;
        hdr.results.cast_s = (bit<128>) ((int<128>) hdr.operands.sn);
        hdr.results.low = (bit<32>) a;
        hdr.results.concat = a[63:0] ++ n ++ n;
        hdr.results.slice = a[95:64];
        hdr.results.slice72 = a[127:56];
        bit<128> s = b;
        s[100:37] = a[63:0];
        hdr.results.set_slice = s;
        hdr.results.mux = n > 5 ? a : b;
        hdr.results.mul = a * b;
        hdr.results.add_sat = a |+| b;
        hdr.results.sub_sat = a |-| b;
        hdr.results.sshr = (bit<128>) (((int<128>) a) >> 4);
        hdr.results.scmp = ((int<128>) a < (int<128>) b) ? 8w1 : 8w0;
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
        packet.emit(hdr.operands);
        packet.emit(hdr.results);
    }
}

V1Switch(WideParser(), WideVerifyChecksum(), WideIngress(), WideEgress(),
         WideComputeChecksum(), WideDeparser()) main;
