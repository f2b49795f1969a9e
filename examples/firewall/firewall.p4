/* firewall.p4 -- a stateful IPv4 firewall for v1model.
 *
 * The firewall routes IPv4 as l3fwd does (table `ipv4_lpm`: rewrite the
 * MACs, decrement the TTL, send to a port) and keeps the outside out:
 *
 * - table `zones` says which ports face the inside network (`inside()`);
 *   every other port faces the outside;
 * - a packet that comes in from the inside and leaves to the outside opens
 *   its connection: its 5-tuple (addresses, protocol, TCP or UDP ports) is
 *   hashed twice, and each hash sets one bit of a register array (a Bloom
 *   filter: `seen_a`, `seen_b`);
 * - a packet that comes in from the outside is let in only if it belongs
 *   to a connection opened from the inside: its 5-tuple, source and
 *   destination swapped, must find both bits set.  Everything else from
 *   the outside is dropped.
 *
 * Connections are never forgotten (a register_reset forgets them all), and
 * a Bloom filter may let in a packet it never saw: with two hashes of
 * 4096 bits, a few hundred connections keep that rare.  Traffic from inside
 * to inside is routed and not remembered.
 *
 * commands.txt (simple_switch_CLI syntax): port 1 is inside (10.0.1.0/24),
 * ports 2 and 3 are outside.
 */

#include <core.p4>
#include <v1model.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  PROTO_TCP = 6;
const bit<8>  PROTO_UDP = 17;

// Cells of each Bloom filter array, and the width of an index into them.
#define FILTER_CELLS 4096
typedef bit<12> filter_index_t;

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

// The connection a packet belongs to, seen from the inside: the inside
// host's address and port, the outside host's address and port.
struct metadata_t {
    bit<1>      from_inside;
    bit<1>      to_inside;
    ipv4_addr_t inside_addr;
    ipv4_addr_t outside_addr;
    bit<16>     inside_port;
    bit<16>     outside_port;
}

/* Parser: Ethernet, IPv4, then the ports of TCP and UDP (left invalid for
 * other protocols, and for fragments after the first). */
parser FwParser(packet_in packet,
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
        transition accept;
    }
}

control FwVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
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

control FwIngress(inout headers_t hdr,
                  inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

    // The two bit arrays of the Bloom filter of open connections.
    register<bit<1>>(FILTER_CELLS) seen_a;
    register<bit<1>>(FILTER_CELLS) seen_b;

    action drop() {
        mark_to_drop(standard_metadata);
    }

    // Route to the next hop `dstAddr` through `port`, as l3fwd does.
    action ipv4_forward(mac_addr_t dstAddr, bit<9> port) {
        hdr.ethernet.srcAddr = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = dstAddr;
        standard_metadata.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    table ipv4_lpm {
        key = {
            hdr.ipv4.dstAddr : lpm;
        }
        actions = {
            ipv4_forward;
            drop;
        }
        size = 1024;
        default_action = drop();
    }

    // A port that faces the inside network.
    action inside() {
        meta.from_inside = 1;
    }

    // Ingress port -> its side; a port without an entry is outside.
    table zones {
        key = {
            standard_metadata.ingress_port : exact;
        }
        actions = {
            inside;
            NoAction;
        }
        size = 64;
        default_action = NoAction();
    }

    action egress_inside() {
        meta.to_inside = 1;
    }

    // The same, for the port the route chose.
    table egress_zones {
        key = {
            standard_metadata.egress_spec : exact;
        }
        actions = {
            egress_inside;
            NoAction;
        }
        size = 64;
        default_action = NoAction();
    }

    apply {
        if (!hdr.ipv4.isValid() || standard_metadata.checksum_error == 1 || hdr.ipv4.ttl <= 1) {
            drop();
            return;
        }
        ipv4_lpm.apply();
        if (standard_metadata.egress_spec == 511) {
            return;  // no route
        }
        zones.apply();
        egress_zones.apply();
        if (meta.from_inside == 1 && meta.to_inside == 1) {
            return;  // inside to inside: not the firewall's business
        }

        // The connection as seen from the inside.
        if (meta.from_inside == 1) {
            meta.inside_addr = hdr.ipv4.srcAddr;
            meta.outside_addr = hdr.ipv4.dstAddr;
            if (hdr.l4.isValid()) {
                meta.inside_port = hdr.l4.srcPort;
                meta.outside_port = hdr.l4.dstPort;
            }
        } else {
            meta.inside_addr = hdr.ipv4.dstAddr;
            meta.outside_addr = hdr.ipv4.srcAddr;
            if (hdr.l4.isValid()) {
                meta.inside_port = hdr.l4.dstPort;
                meta.outside_port = hdr.l4.srcPort;
            }
        }
        filter_index_t index_a;
        filter_index_t index_b;
        hash(index_a, HashAlgorithm.crc16, (filter_index_t)0,
             { meta.inside_addr, meta.outside_addr, hdr.ipv4.protocol, meta.inside_port, meta.outside_port },
             (bit<32>)FILTER_CELLS);
        hash(index_b, HashAlgorithm.crc32, (filter_index_t)0,
             { meta.inside_addr, meta.outside_addr, hdr.ipv4.protocol, meta.inside_port, meta.outside_port },
             (bit<32>)FILTER_CELLS);

        if (meta.from_inside == 1) {
            // Inside to outside: open the connection.
            seen_a.write((bit<32>)index_a, 1);
            seen_b.write((bit<32>)index_b, 1);
        } else {
            // From the outside (to either side): only replies get through.
            bit<1> a;
            bit<1> b;
            seen_a.read(a, (bit<32>)index_a);
            seen_b.read(b, (bit<32>)index_b);
            if (a == 0 || b == 0 || meta.to_inside == 0) {
                drop();
            }
        }
    }
}

control FwEgress(inout headers_t hdr,
                 inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

// The TTL changed: compute the IPv4 header checksum again.
control FwComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
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

control FwDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.l4);
    }
}

V1Switch(FwParser(),
         FwVerifyChecksum(),
         FwIngress(),
         FwEgress(),
         FwComputeChecksum(),
         FwDeparser()) main;
