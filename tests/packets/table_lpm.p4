/* table_lpm.p4 -- longest-prefix match.
 *
 * The key is a 32-bit destination address.  When several prefixes match,
 * the longest wins, whatever the order the entries were added in; a /0
 * entry matches everything and so acts as a default route.  A miss drops.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header route_t {
    bit<32> dst;
    bit<8>  len;    // written by the matching entry: its prefix length
}

struct headers_t {
    ethernet_t ethernet;
    route_t    route;
}

struct metadata_t { }

parser LpmParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.route);
        transition accept;
    }
}

control LpmVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control LpmIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    action route(bit<9> port, bit<8> len) {
        standard_metadata.egress_spec = port;
        hdr.route.len = len;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table routes {
        key = {
            hdr.route.dst : lpm;
        }
        actions = {
            route;
            drop;
        }
        default_action = drop();
    }

    apply {
        routes.apply();
    }
}

control LpmEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control LpmComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control LpmDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.route);
    }
}

V1Switch(LpmParser(), LpmVerifyChecksum(), LpmIngress(), LpmEgress(),
         LpmComputeChecksum(), LpmDeparser()) main;
