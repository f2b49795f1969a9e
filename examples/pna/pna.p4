/* pna.p4 -- an Ethernet forwarder with an access list, for PNA (the
 * Portable NIC Architecture).
 *
 * PNA has one main pipeline: a parser, the main control and a deparser.
 * A packet leaves by the port that the last send_to_port() named, or is
 * dropped by drop_packet() (and when neither is called: PNA drops by
 * default).
 *
 * - table `l2_fwd`: destination MAC address -> `forward(port)`
 *   (send_to_port) or `drop()` (drop_packet), the default;
 * - table `acl`: the IPv4 5-tuple, ternary, with priorities -> `deny(rule)`
 *   (drop_packet, after l2_fwd: the last call wins) or `permit()`, the
 *   default.  Each rule's denied packets are counted in the Counter
 *   `denied`, at the rule's number.
 *
 * commands.txt (simple_switch_CLI syntax) sets up three hosts,
 * 00:00:00:00:00:0N on port N for N = 1..3, and two rules: no TCP to port
 * 23 (telnet) from anywhere, nothing from 10.66.0.0/16.
 */

#include <core.p4>
#include <pna.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<8>  PROTO_TCP = 6;
const bit<8>  PROTO_UDP = 17;

// The cells of counter `denied`: rules 0 to 255.
#define RULES 256

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

// The transport ports the access list sees: 0 for other protocols.
struct metadata_t {
    bit<16> srcPort;
    bit<16> dstPort;
}

parser MainParserImpl(packet_in packet,
                      out headers_t hdr,
                      inout metadata_t meta,
                      in pna_main_parser_input_metadata_t istd) {
    state start {
        meta.srcPort = 0;
        meta.dstPort = 0;
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

// Nothing happens before the main pipeline (no IPsec, no flow table).
control PreControlImpl(in headers_t hdr,
                       inout metadata_t meta,
                       in pna_pre_input_metadata_t istd,
                       inout pna_pre_output_metadata_t ostd) {
    apply { }
}

control MainControlImpl(inout headers_t hdr,
                        inout metadata_t meta,
                        in pna_main_input_metadata_t istd,
                        inout pna_main_output_metadata_t ostd) {

    // Packets denied, by the number of the rule that denied them.
    Counter<bit<32>, bit<8>>(RULES, PNA_CounterType_t.PACKETS) denied;

    action forward(PortId_t port) {
        send_to_port(port);
    }

    action drop() {
        drop_packet();
    }

    // Destination MAC address -> the port of that host.
    table l2_fwd {
        key = {
            hdr.ethernet.dstAddr : exact;
        }
        actions = {
            forward;
            drop;
        }
        size = 1024;
        default_action = drop();
    }

    action deny(bit<8> rule) {
        drop_packet();
        denied.count(rule);
    }

    action permit() {
    }

    // The access list: the first matching rule (the highest priority) decides.
    table acl {
        key = {
            hdr.ipv4.srcAddr  : ternary;
            hdr.ipv4.dstAddr  : ternary;
            hdr.ipv4.protocol : ternary;
            meta.srcPort      : ternary;
            meta.dstPort      : ternary;
        }
        actions = {
            deny;
            permit;
        }
        size = 256;
        default_action = permit();
    }

    apply {
        l2_fwd.apply();
        if (hdr.ipv4.isValid()) {
            acl.apply();
        }
    }
}

control MainDeparserImpl(packet_out packet,
                         in headers_t hdr,
                         in metadata_t meta,
                         in pna_main_output_metadata_t ostd) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.l4);
    }
}

PNA_NIC(MainParserImpl(), PreControlImpl(), MainControlImpl(), MainDeparserImpl()) main;
