/* checksum_algorithms.p4 -- verify_checksum and update_checksum with every
 * algorithm but csum16 (checksum.p4 has that one): BMv2's hash of the fields
 * packed bit after bit (as hash() packs them), cut to the checksum field.
 *
 * Verify: crc16 of {a, b} against crc16, and crc32 of {a, b} and the payload
 * (the bytes after the headers) against pcrc; a mismatch sends the packet to
 * port 2, else port 1.  Update: every checksum field recomputed, so that the
 * packet leaves with them right; x8 is xor16 cut to 8 bits, id the identity of
 * {a, b, c} (its first 8 bytes).
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header sums_t {
    bit<16> a;
    bit<16> b;
    bit<40> c;
    bit<16> crc16;
    bit<32> crc32;
    bit<8>  x8;
    bit<64> id;
    bit<32> pcrc;
}

struct headers_t {
    ethernet_t ethernet;
    sums_t     sums;
}

struct metadata_t { }

parser AlgoParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.sums);
        transition accept;
    }
}

control AlgoVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(true, { hdr.sums.a, hdr.sums.b }, hdr.sums.crc16, HashAlgorithm.crc16);
        verify_checksum_with_payload(true, { hdr.sums.a, hdr.sums.b }, hdr.sums.pcrc, HashAlgorithm.crc32);
    }
}

control AlgoIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = standard_metadata.checksum_error == 1 ? 9w2 : 9w1;
    }
}

control AlgoEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control AlgoComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(true, { hdr.sums.a, hdr.sums.b }, hdr.sums.crc16, HashAlgorithm.crc16);
        update_checksum(true, { hdr.sums.a, hdr.sums.b, hdr.sums.c }, hdr.sums.crc32, HashAlgorithm.crc32);
        update_checksum(true, { hdr.sums.a, hdr.sums.b, hdr.sums.c }, hdr.sums.x8, HashAlgorithm.xor16);
        update_checksum(true, { hdr.sums.a, hdr.sums.b, hdr.sums.c }, hdr.sums.id, HashAlgorithm.identity);
        update_checksum_with_payload(true, { hdr.sums.a, hdr.sums.b }, hdr.sums.pcrc, HashAlgorithm.crc32);
    }
}

control AlgoDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.sums);
    }
}

V1Switch(AlgoParser(), AlgoVerifyChecksum(), AlgoIngress(), AlgoEgress(),
         AlgoComputeChecksum(), AlgoDeparser()) main;
