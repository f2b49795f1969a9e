/* bits.p4 -- shifts, concatenation, slices and casts.
 *
 * Ingress computes from the input header (a, b, c unsigned; s signed; n a
 * shift amount) into the output header.  Shifting bit<W> left or right by W
 * or more gives 0; >> on int<W> is arithmetic (it copies the sign bit).
 * Casts truncate, zero-extend bit<W> and sign-extend int<W>.
 * (indexed_slice.p4 has the a[L +: W] slices.)
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header in_t {
    bit<8>  a;
    bit<8>  b;
    bit<16> c;
    int<8>  s;
    bit<8>  n;
}

header out_t {
    bit<8>  shl3;      // a << 3
    bit<8>  shr3;      // a >> 3
    int<8>  sshr2;     // s >> 2
    bit<8>  shlv;      // a << n
    bit<8>  shrv;      // a >> n
    int<8>  sshrv;     // s >> n
    bit<16> cat;       // a ++ b
    bit<24> cat3;      // a ++ c
    bit<8>  slice;     // c[11:4]
    bit<4>  hi;        // a[7:4]
    bit<4>  trunc;     // (bit<4>)a
    bit<16> zext;      // (bit<16>)a
    bit<16> sext;      // (bit<16>)(int<16>)s
    bit<16> sextb;     // (bit<16>)(int<16>)(int<8>)b
    bit<16> lval;      // c with [15:12] := 0xf and [3:0] := a[3:0]
    bit<8>  boolbits;  // bit 0: a > b, bit 1: s < 0 (bool -> bit<1> casts)
    bit<32> shl_wide;  // (bit<32>)a << 24
}

struct headers_t {
    ethernet_t ethernet;
    in_t       inp;
    out_t      outp;
}

struct metadata_t { }

parser BitsParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.inp);
        packet.extract(hdr.outp);
        transition accept;
    }
}

control BitsVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control BitsIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        hdr.outp.shl3 = hdr.inp.a << 3;
        hdr.outp.shr3 = hdr.inp.a >> 3;
        hdr.outp.sshr2 = hdr.inp.s >> 2;
        hdr.outp.shlv = hdr.inp.a << hdr.inp.n;
        hdr.outp.shrv = hdr.inp.a >> hdr.inp.n;
        hdr.outp.sshrv = hdr.inp.s >> hdr.inp.n;
        hdr.outp.cat = hdr.inp.a ++ hdr.inp.b;
        hdr.outp.cat3 = hdr.inp.a ++ hdr.inp.c;
        hdr.outp.slice = hdr.inp.c[11:4];
        hdr.outp.hi = hdr.inp.a[7:4];
        hdr.outp.trunc = (bit<4>)hdr.inp.a;
        hdr.outp.zext = (bit<16>)hdr.inp.a;
        hdr.outp.sext = (bit<16>)(int<16>)hdr.inp.s;
        hdr.outp.sextb = (bit<16>)(int<16>)(int<8>)hdr.inp.b;
        bit<16> t = hdr.inp.c;
        t[15:12] = 0xf;
        t[3:0] = hdr.inp.a[3:0];
        hdr.outp.lval = t;
        hdr.outp.boolbits = (bit<8>)(bit<1>)(hdr.inp.a > hdr.inp.b)
                          | ((bit<8>)(bit<1>)(hdr.inp.s < 0) << 1);
        hdr.outp.shl_wide = (bit<32>)hdr.inp.a << 24;
    }
}

control BitsEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control BitsComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control BitsDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.inp);
        packet.emit(hdr.outp);
    }
}

V1Switch(BitsParser(), BitsVerifyChecksum(), BitsIngress(), BitsEgress(),
         BitsComputeChecksum(), BitsDeparser()) main;
