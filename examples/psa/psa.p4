/* psa.p4 -- an IPv4 router for PSA (the Portable Switch Architecture).
 *
 * The l3fwd router written for PSA's pipelines: the ingress parser
 * extracts Ethernet and IPv4 and checks the IPv4 header checksum with an
 * InternetChecksum extern; ingress routes with table `ipv4_lpm`
 * (`forward(dstAddr, port)`: rewrite the MACs, decrement the TTL,
 * send_to_port; `drop()`, the default: ingress_drop); the ingress deparser
 * computes the checksum again.  Two Counter externs count, per port, the
 * packets and bytes received (`rx_port`, in ingress) and those sent
 * (`tx_port`, in egress).  Packets that are not IPv4, have a bad checksum
 * or a TTL that would expire are dropped (and counted as received).
 *
 * commands.txt (simple_switch_CLI syntax) installs a few routes.
 */

#include <core.p4>
#include <psa.p4>

const bit<16> ETHERTYPE_IPV4 = 0x0800;

// The counters' cells: one per port, ports 0 to 63.
#define PORT_CELLS 64

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
    bool bad_checksum;
}

// Nothing goes from one block to the next besides the headers and metadata.
struct empty_t {
}

parser IngressParserImpl(packet_in packet,
                         out headers_t hdr,
                         inout metadata_t meta,
                         in psa_ingress_parser_input_metadata_t istd,
                         in empty_t resubmit_meta,
                         in empty_t recirculate_meta) {
    InternetChecksum() ck;

    state start {
        meta.bad_checksum = false;
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        ck.clear();
        ck.add({ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
                 hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
                 hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr });
        meta.bad_checksum = ck.get() != hdr.ipv4.hdrChecksum;
        transition accept;
    }
}

control IngressImpl(inout headers_t hdr,
                    inout metadata_t meta,
                    in psa_ingress_input_metadata_t istd,
                    inout psa_ingress_output_metadata_t ostd) {

    // Packets and bytes received, by ingress port.
    Counter<bit<32>, bit<32>>(PORT_CELLS, PSA_CounterType_t.PACKETS_AND_BYTES) rx_port;

    action drop() {
        ingress_drop(ostd);
    }

    // Route to the next hop `dstAddr` through `port`.
    action forward(mac_addr_t dstAddr, PortId_t port) {
        hdr.ethernet.srcAddr = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = dstAddr;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        send_to_port(ostd, port);
    }

    table ipv4_lpm {
        key = {
            hdr.ipv4.dstAddr : lpm;
        }
        actions = {
            forward;
            drop;
        }
        size = 1024;
        default_action = drop();
    }

    apply {
        rx_port.count((bit<32>)(PortIdUint_t)istd.ingress_port);
        if (!hdr.ipv4.isValid() || meta.bad_checksum || hdr.ipv4.ttl <= 1) {
            drop();
        } else {
            ipv4_lpm.apply();
        }
    }
}

// The TTL changed: the checksum is computed again before the headers go out.
control IngressDeparserImpl(packet_out packet,
                            out empty_t clone_i2e_meta,
                            out empty_t resubmit_meta,
                            out empty_t normal_meta,
                            inout headers_t hdr,
                            in metadata_t meta,
                            in psa_ingress_output_metadata_t istd) {
    InternetChecksum() ck;

    apply {
        if (hdr.ipv4.isValid()) {
            ck.clear();
            ck.add({ hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
                     hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
                     hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr });
            hdr.ipv4.hdrChecksum = ck.get();
        }
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

// Egress looks at no header: the packet leaves as ingress deparsed it.
parser EgressParserImpl(packet_in packet,
                        out headers_t hdr,
                        inout metadata_t meta,
                        in psa_egress_parser_input_metadata_t istd,
                        in empty_t normal_meta,
                        in empty_t clone_i2e_meta,
                        in empty_t clone_e2e_meta) {
    state start {
        transition accept;
    }
}

control EgressImpl(inout headers_t hdr,
                   inout metadata_t meta,
                   in psa_egress_input_metadata_t istd,
                   inout psa_egress_output_metadata_t ostd) {

    // Packets and bytes sent, by egress port.
    Counter<bit<32>, bit<32>>(PORT_CELLS, PSA_CounterType_t.PACKETS_AND_BYTES) tx_port;

    apply {
        tx_port.count((bit<32>)(PortIdUint_t)istd.egress_port);
    }
}

control EgressDeparserImpl(packet_out packet,
                           out empty_t clone_e2e_meta,
                           out empty_t recirculate_meta,
                           inout headers_t hdr,
                           in metadata_t meta,
                           in psa_egress_output_metadata_t istd,
                           in psa_egress_deparser_input_metadata_t edstd) {
    apply { }
}

IngressPipeline(IngressParserImpl(), IngressImpl(), IngressDeparserImpl()) ip;
EgressPipeline(EgressParserImpl(), EgressImpl(), EgressDeparserImpl()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
