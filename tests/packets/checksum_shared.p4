/* checksum_shared.p4 -- the sum of the packet bytes an IPv4 header's checksums share.
 *
 * verify_checksum and update_checksum sum the same header bytes (all but TTL,
 * protocol and the checksum itself, which the program does not write): the
 * update adds again the sum the verify made of them, when the verify ran.
 * Here the verify runs only for packets from 00:00:00:00:00:01, so the update
 * must sum the bytes itself for the others; a broadcast goes to multicast
 * group 1 and every copy's update starts from the same kept sum, with the TTL
 * of its own copy (port 3's egress takes one more from it).  Ingress: a bad
 * checksum to port 2 with its TTL kept; the others with their TTL - 1.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct metadata_t { }

parser CsumParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control SharedVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        if (hdr.ethernet.srcAddr == 1) {
            verify_checksum(hdr.ipv4.isValid(),
                { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
                  hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset,
                  hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
                hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
        }
    }
}

control SharedIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.checksum_error == 1) {
            standard_metadata.egress_spec = 2;
        } else {
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            if (hdr.ethernet.dstAddr == 0xffffffffffff) {
                standard_metadata.mcast_grp = 1;
            } else {
                standard_metadata.egress_spec = 1;
            }
        }
    }
}

control SharedEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.egress_port == 3) {
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        }
    }
}

control SharedComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control SharedDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(CsumParser(), SharedVerifyChecksum(), SharedIngress(), SharedEgress(),
         SharedComputeChecksum(), SharedDeparser()) main;
