/* checksum_fields.p4 -- csum16 over fields whose 16-bit words hold parts of
 * several fields, and over data that ends inside a word.
 *
 * The header h holds fields of 3, 7, 5, 1, 12, 9 and 3 bits (40 bits), a byte
 * z, a signed 6-bit s with 2 bits of padding, and two checksums.
 * update_checksum writes c1 over { a .. g, z } (48 bits: three words, most of
 * them made of parts of fields), c2 over { a .. g } (40 bits: the last word
 * padded with zeros) and c3 over { s, p, b, e } (a signed field).  The
 * expected checksums in the STF file were computed by RFC 1071 over the
 * fields written into bytes.
 */

#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<3>  a;
    bit<7>  b;
    bit<5>  c;
    bit<1>  d;
    bit<12> e;
    bit<9>  f;
    bit<3>  g;
    bit<8>  z;
    int<6>  s;
    bit<2>  p;
    bit<16> c1;
    bit<16> c2;
    bit<16> c3;
}

struct headers_t {
    h_t h;
}

struct metadata_t { }

parser CfParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}

control CfVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CfIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
    }
}

control CfEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control CfComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(true, { hdr.h.a, hdr.h.b, hdr.h.c, hdr.h.d, hdr.h.e, hdr.h.f, hdr.h.g, hdr.h.z },
                        hdr.h.c1, HashAlgorithm.csum16);
        update_checksum(true, { hdr.h.a, hdr.h.b, hdr.h.c, hdr.h.d, hdr.h.e, hdr.h.f, hdr.h.g },
                        hdr.h.c2, HashAlgorithm.csum16);
        update_checksum(true, { hdr.h.s, hdr.h.p, hdr.h.b, hdr.h.e }, hdr.h.c3, HashAlgorithm.csum16);
    }
}

control CfDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.h);
    }
}

V1Switch(CfParser(), CfVerifyChecksum(), CfIngress(), CfEgress(), CfComputeChecksum(), CfDeparser()) main;
