/* ecmp.p4 -- an IPv4 router with equal-cost multipath for v1model.
 *
 * Table `ipv4_lpm` routes on the destination address (longest prefix
 * match).  Its entries do not hold actions: they point into the action
 * selector `ecmp_selector`, at a member (one next hop) or at a group of
 * members (several next hops of equal cost).  For a group the selector
 * picks one member by a hash (crc16) of the packet's 5-tuple: the
 * addresses, the protocol and the TCP or UDP ports.  The packets of a flow
 * all take the same next hop, and flows spread over the group's members.
 *
 * A member runs `set_nhop(dstAddr, port)` (rewrite the MACs, decrement the
 * TTL, send to `port`) or `drop()`.  Packets that are not IPv4, have a bad
 * header checksum, a TTL that would expire or no route are dropped.
 *
 * commands.txt (simple_switch_CLI syntax) makes three members, next hops on
 * ports 1, 2 and 3, a group of all three for 10.0.0.0/8 and the member on
 * port 1 alone for 192.168.1.0/24.
 */

#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  PROTO_TCP = 6;
const bit<8>  PROTO_UDP = 17;

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;

header ethernet_t {
    mac_addr_t dstAddr;
    mac_addr_t srcAddr;
    bit<16>    etherType;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<8>      diffserv;
    bit<16>     totalLen;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     fragOffset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdrChecksum;
    ipv4_addr_t srcAddr;
    ipv4_addr_t dstAddr;
}

// The ports of TCP and UDP, which both start with them.
header l4_ports_t {
    bit<16> srcPort;
    bit<16> dstPort;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    l4_ports_t l4;
}

// The transport ports hashed: those of TCP and UDP, 0 for other protocols.
struct metadata_t {
    bit<16> srcPort;
    bit<16> dstPort;
}

parser EcmpParser(packet_in packet,
                  out headers_t hdr,
                  inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.fragOffset, hdr.ipv4.protocol) {
            (0, PROTO_TCP): parse_l4;
            (0, PROTO_UDP): parse_l4;
            default: accept;
        }
    }

    state parse_l4 {
        packet.extract(hdr.l4);
        meta.srcPort = hdr.l4.srcPort;
        meta.dstPort = hdr.l4.dstPort;
        transition accept;
    }
}

control EcmpVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

control EcmpIngress(inout headers_t hdr,
                    inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {

    // Up to 64 members (next hops), each hash 16 bits wide.
    action_selector(HashAlgorithm.crc16, 32w64, 32w16) ecmp_selector;

    action drop() {
        mark_to_drop(standard_metadata);
    }

    // Send to the next hop `dstAddr` through `port`.
    action set_nhop(mac_addr_t dstAddr, bit<9> port) {
        hdr.ethernet.srcAddr = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = dstAddr;
        standard_metadata.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    // Destination prefix -> a member or a group of the selector; the
    // selector keys are the fields its hash picks a group's member by.
    table ipv4_lpm {
        key = {
            hdr.ipv4.dstAddr  : lpm;
            hdr.ipv4.srcAddr  : selector;
            hdr.ipv4.dstAddr  : selector;
            hdr.ipv4.protocol : selector;
            meta.srcPort      : selector;
            meta.dstPort      : selector;
        }
        actions = {
            set_nhop;
            drop;
        }
        size = 1024;
        implementation = ecmp_selector;
    }

    apply {
        if (!hdr.ipv4.isValid() || standard_metadata.checksum_error == 1 || hdr.ipv4.ttl <= 1) {
            drop();
        } else if (!ipv4_lpm.apply().hit) {
            drop();  // no route
        }
    }
}

control EcmpEgress(inout headers_t hdr,
                   inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control EcmpComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

control EcmpDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.l4);
    }
}

V1Switch(EcmpParser(),
         EcmpVerifyChecksum(),
         EcmpIngress(),
         EcmpEgress(),
         EcmpComputeChecksum(),
         EcmpDeparser()) main;
