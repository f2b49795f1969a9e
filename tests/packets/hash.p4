/* hash.p4 -- v1model hash(): BMv2's algorithms on fields packed bit after bit.
 *
 * Ingress hashes the data header into the results header.  The data of a
 * hash is its fields concatenated bit after bit, the last byte padded with
 * zeros; the result is base + h % max.  crc16 is CRC-16/ARC, crc32 the
 * IEEE 802.3 CRC, csum16 the ones' complement sum of 16-bit words, xor16
 * their xor, identity the first 8 bytes of the data (as BMv2's identity).
 * f (60 bits at bit 5) spans 9 bytes; identity over 13 bytes and the
 * modulo of a 64-bit hash need 64-bit arithmetic on 32-bit targets too.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header data_t {
    bit<8>  a;
    bit<16> b;
    bit<32> c;
    bit<48> d;
    bit<5>  e;
    bit<60> f;
    bit<7>  g;
}

header results_t {
    bit<16> crc16;
    bit<32> crc32;
    bit<16> csum16;
    bit<16> xor16;
    bit<64> ident;      // identity of {a, b, c, d}: its first 8 bytes
    bit<64> ident_efg;  // identity of {e, f, g}: 72 bits, the first 64
    bit<16> crc32_mod;  // 7 + crc32 % 1000
    bit<32> crc16_efg;  // crc16 of {e, f, g}, plus a base of 2^20
    bit<64> ident_mod;  // identity of {a, b, c, d} % (2^64 - 59), a prime
}

struct headers_t {
    ethernet_t ethernet;
    data_t     data;
    results_t  res;
}

struct metadata_t { }

parser HashParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.data);
        packet.extract(hdr.res);
        transition accept;
    }
}

control HashVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control HashIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        hash(hdr.res.crc16, HashAlgorithm.crc16, 16w0,
             { hdr.data.a, hdr.data.b, hdr.data.c, hdr.data.d }, 32w65536);
        hash(hdr.res.crc32, HashAlgorithm.crc32, 32w0,
             { hdr.data.a, hdr.data.b, hdr.data.c, hdr.data.d }, 64w0x100000000);
        hash(hdr.res.csum16, HashAlgorithm.csum16, 16w0,
             { hdr.data.a, hdr.data.b, hdr.data.c, hdr.data.d }, 32w65536);
        hash(hdr.res.xor16, HashAlgorithm.xor16, 16w0,
             { hdr.data.a, hdr.data.b, hdr.data.c, hdr.data.d }, 32w65536);
        hash(hdr.res.ident, HashAlgorithm.identity, 64w0,
             { hdr.data.a, hdr.data.b, hdr.data.c, hdr.data.d }, 64w0xffffffffffffffff);
        hash(hdr.res.ident_efg, HashAlgorithm.identity, 64w0,
             { hdr.data.e, hdr.data.f, hdr.data.g }, 64w0xffffffffffffffff);
        hash(hdr.res.crc32_mod, HashAlgorithm.crc32, 16w7,
             { hdr.data.a, hdr.data.b, hdr.data.c, hdr.data.d }, 32w1000);
        hash(hdr.res.crc16_efg, HashAlgorithm.crc16, 32w0x100000,
             { hdr.data.e, hdr.data.f, hdr.data.g }, 32w65536);
        hash(hdr.res.ident_mod, HashAlgorithm.identity, 64w0,
             { hdr.data.a, hdr.data.b, hdr.data.c, hdr.data.d }, 64w0xffffffffffffffc5);
    }
}

control HashEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control HashComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control HashDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.data);
        packet.emit(hdr.res);
    }
}

V1Switch(HashParser(), HashVerifyChecksum(), HashIngress(), HashEgress(),
         HashComputeChecksum(), HashDeparser()) main;
