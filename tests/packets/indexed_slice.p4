/* indexed_slice.p4 -- indexed slices a[L +: W].
 *
 * a[L +: W] is the W bits of a from bit L up, a[L + W - 1 : L]; W is a
 * constant, L may be computed at run time.  As an l-value it replaces just
 * those bits.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header slices_t {
    bit<16> c;
    bit<8>  m;        // a slice base, at run time
    bit<8>  fixed;    // c[5 +: 8], that is c[12:5]
    bit<8>  moving;   // c[m +: 8]
    bit<16> written;  // c with c[4 +: 8] := 0x5a
}

struct headers_t {
    ethernet_t ethernet;
    slices_t   slices;
}

struct metadata_t { }

parser SliceParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.slices);
        transition accept;
    }
}

control SliceVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SliceIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        hdr.slices.fixed = hdr.slices.c[5 +: 8];
        hdr.slices.moving = hdr.slices.c[hdr.slices.m +: 8];
        bit<16> t = hdr.slices.c;
        t[4 +: 8] = 0x5a;
        hdr.slices.written = t;
    }
}

control SliceEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control SliceComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SliceDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.slices);
    }
}

V1Switch(SliceParser(), SliceVerifyChecksum(), SliceIngress(), SliceEgress(),
         SliceComputeChecksum(), SliceDeparser()) main;
