/* l3fwd.p4 -- an IPv4 router for v1model.
 *
 * Each IPv4 packet is looked up by destination address in table `ipv4_lpm`
 * (longest prefix match).  A route gives the next hop's MAC address and
 * the output port; the router rewrites the Ethernet addresses, decrements
 * the TTL and recomputes the header checksum.  Packets that are not IPv4,
 * that have a bad header checksum, whose TTL would expire, or that match
 * no route are dropped.
 *
 * IPv4 options are not parsed: the checksum is computed over the 20-byte
 * base header only, so packets with options fail verification and are
 * dropped.
 *
 * commands.txt (simple_switch_CLI syntax) installs a few routes.
 */

#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;

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

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct metadata_t {
}

/* Parser: Ethernet, then IPv4 when the EtherType says so.  Anything else
 * is accepted with only Ethernet valid (and dropped by ingress). */
parser L3Parser(packet_in packet,
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
        transition accept;
    }
}

/* Check the IPv4 header checksum (the ones' complement sum of the header's
 * 16-bit words).  On a mismatch standard_metadata.checksum_error is 1 when
 * ingress starts. */
control L3VerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version,
              hdr.ipv4.ihl,
              hdr.ipv4.diffserv,
              hdr.ipv4.totalLen,
              hdr.ipv4.identification,
              hdr.ipv4.flags,
              hdr.ipv4.fragOffset,
              hdr.ipv4.ttl,
              hdr.ipv4.protocol,
              hdr.ipv4.srcAddr,
              hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

control L3Ingress(inout headers_t hdr,
                  inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

    action drop() {
        mark_to_drop(standard_metadata);
    }

    // Route to the next hop `dstAddr` through `port`.  The router sends
    // from the MAC address the packet was addressed to.
    action ipv4_forward(bit<48> dstAddr, bit<9> port) {
        hdr.ethernet.srcAddr = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = dstAddr;
        standard_metadata.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    // The routing table: destination prefix -> next hop and port.
    table ipv4_lpm {
        key = {
            hdr.ipv4.dstAddr : lpm;
        }
        actions = {
            ipv4_forward;
            drop;
            NoAction;
        }
        size = 1024;
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid() || standard_metadata.checksum_error == 1) {
            drop();
        } else if (hdr.ipv4.ttl <= 1) {
            // The TTL would reach 0 here: the packet has expired.
            drop();
        } else {
            ipv4_lpm.apply();
        }
    }
}

control L3Egress(inout headers_t hdr,
                 inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

/* The TTL changed, so the IPv4 checksum must be computed again (over the
 * same fields as in L3VerifyChecksum). */
control L3ComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version,
              hdr.ipv4.ihl,
              hdr.ipv4.diffserv,
              hdr.ipv4.totalLen,
              hdr.ipv4.identification,
              hdr.ipv4.flags,
              hdr.ipv4.fragOffset,
              hdr.ipv4.ttl,
              hdr.ipv4.protocol,
              hdr.ipv4.srcAddr,
              hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

// Emit the headers in wire order; emit() skips invalid ones.
control L3Deparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(L3Parser(),
         L3VerifyChecksum(),
         L3Ingress(),
         L3Egress(),
         L3ComputeChecksum(),
         L3Deparser()) main;
