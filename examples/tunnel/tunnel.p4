/* tunnel.p4 -- an IPv4-in-IPv4 tunnel endpoint for v1model.
 *
 * The router joins a local network to remote ones through IP-in-IP
 * tunnels (RFC 2003: an outer IPv4 header, protocol 4, in front of the
 * packet).  Table `ipv4_lpm` routes on the destination address of the
 * (inner) packet:
 *
 * - `ipv4_forward(dstAddr, port)`: an ordinary route, as l3fwd's;
 * - `encap_forward(tunnelSrc, tunnelDst, dstAddr, port)`: a route into a
 *   tunnel: the outer header is made valid (from tunnelSrc to tunnelDst,
 *   TTL 64), then the packet is sent to the next hop;
 * - `drop()`, the default.
 *
 * A packet that comes out of a tunnel (IPv4, protocol 4) is looked up in
 * table `tunnel_term` by its outer destination: `decap()`, for an address
 * of this router, makes the outer header invalid, and the inner packet is
 * routed as any other; without an entry the packet is dropped.
 *
 * The TTL of the routed (inner) packet is decremented; both headers'
 * checksums are verified on the way in and computed again on the way out.
 *
 * commands.txt (simple_switch_CLI syntax): the local network 10.0.1.0/24
 * on port 1; 10.0.2.0/24 through a tunnel from 192.0.2.1 to 198.51.100.2,
 * whose underlay is port 2; this router's tunnel address 192.0.2.1.
 */

#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  PROTO_IPV4 = 4;  // IP in IP

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
    ipv4_t     outer;  // the tunnel's header, valid for a tunnelled packet
    ipv4_t     ipv4;   // the packet routed
}

struct metadata_t {
}

/* Parser: Ethernet, then IPv4; an IPv4 header of protocol 4 is a tunnel's
 * outer header, with the packet's own IPv4 header after it. */
parser TunParser(packet_in packet,
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
        transition select(packet.lookahead<ipv4_t>().protocol) {
            PROTO_IPV4: parse_outer;
            default: parse_inner;
        }
    }

    state parse_outer {
        packet.extract(hdr.outer);
        transition parse_inner;
    }

    state parse_inner {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control TunVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(
            hdr.outer.isValid(),
            { hdr.outer.version, hdr.outer.ihl, hdr.outer.diffserv, hdr.outer.totalLen,
              hdr.outer.identification, hdr.outer.flags, hdr.outer.fragOffset, hdr.outer.ttl,
              hdr.outer.protocol, hdr.outer.srcAddr, hdr.outer.dstAddr },
            hdr.outer.hdrChecksum,
            HashAlgorithm.csum16);
        verify_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

control TunIngress(inout headers_t hdr,
                   inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {

    action drop() {
        mark_to_drop(standard_metadata);
    }

    // The end of a tunnel: take the outer header off.
    action decap() {
        hdr.outer.setInvalid();
    }

    // Outer destination -> decap() for this router's tunnel addresses.
    table tunnel_term {
        key = {
            hdr.outer.dstAddr : exact;
        }
        actions = {
            decap;
            drop;
        }
        size = 64;
        default_action = drop();
    }

    action ipv4_forward(mac_addr_t dstAddr, bit<9> port) {
        hdr.ethernet.srcAddr = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = dstAddr;
        standard_metadata.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    // Into the tunnel from tunnelSrc to tunnelDst, through next hop
    // dstAddr on port.
    action encap_forward(ipv4_addr_t tunnelSrc, ipv4_addr_t tunnelDst, mac_addr_t dstAddr, bit<9> port) {
        ipv4_forward(dstAddr, port);
        hdr.outer.setValid();
        hdr.outer.version = 4;
        hdr.outer.ihl = 5;
        hdr.outer.diffserv = hdr.ipv4.diffserv;
        hdr.outer.totalLen = hdr.ipv4.totalLen + 20;
        hdr.outer.identification = 0;
        hdr.outer.flags = 2;  // don't fragment
        hdr.outer.fragOffset = 0;
        hdr.outer.ttl = 64;
        hdr.outer.protocol = PROTO_IPV4;
        hdr.outer.srcAddr = tunnelSrc;
        hdr.outer.dstAddr = tunnelDst;
    }

    // The routing table, on the destination of the packet itself.
    table ipv4_lpm {
        key = {
            hdr.ipv4.dstAddr : lpm;
        }
        actions = {
            ipv4_forward;
            encap_forward;
            drop;
        }
        size = 1024;
        default_action = drop();
    }

    apply {
        if (!hdr.ipv4.isValid() || standard_metadata.checksum_error == 1) {
            drop();
            return;
        }
        if (hdr.outer.isValid()) {
            tunnel_term.apply();
            if (hdr.outer.isValid()) {
                return;  // not ours: dropped
            }
        }
        if (hdr.ipv4.ttl <= 1) {
            drop();
        } else {
            ipv4_lpm.apply();
        }
    }
}

control TunEgress(inout headers_t hdr,
                  inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

// Both checksums, the outer one only when the packet leaves in a tunnel.
control TunComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(
            hdr.outer.isValid(),
            { hdr.outer.version, hdr.outer.ihl, hdr.outer.diffserv, hdr.outer.totalLen,
              hdr.outer.identification, hdr.outer.flags, hdr.outer.fragOffset, hdr.outer.ttl,
              hdr.outer.protocol, hdr.outer.srcAddr, hdr.outer.dstAddr },
            hdr.outer.hdrChecksum,
            HashAlgorithm.csum16);
        update_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

// An invalid outer header is not emitted: the packet leaves as it is.
control TunDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.outer);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(TunParser(),
         TunVerifyChecksum(),
         TunIngress(),
         TunEgress(),
         TunComputeChecksum(),
         TunDeparser()) main;
