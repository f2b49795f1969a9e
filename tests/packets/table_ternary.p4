/* table_ternary.p4 -- ternary matches with priorities.
 *
 * The key is (a, b) of a header after Ethernet, both ternary.  Entries
 * overlap; among those that match, the one with the highest priority wins
 * (in STF the larger priority number), whatever the order they were added
 * in.  A miss drops.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header pair_t {
    bit<16> a;
    bit<8>  b;
}

struct headers_t {
    ethernet_t ethernet;
    pair_t     pair;
}

struct metadata_t { }

parser TernaryParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.pair);
        transition accept;
    }
}

control TernaryVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control TernaryIngress(inout headers_t hdr, inout metadata_t meta,
                       inout standard_metadata_t standard_metadata) {
    action send(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table classify {
        key = {
            hdr.pair.a : ternary;
            hdr.pair.b : ternary;
        }
        actions = {
            send;
            drop;
        }
        default_action = drop();
    }

    apply {
        classify.apply();
    }
}

control TernaryEgress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply { }
}

control TernaryComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control TernaryDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.pair);
    }
}

V1Switch(TernaryParser(), TernaryVerifyChecksum(), TernaryIngress(), TernaryEgress(),
         TernaryComputeChecksum(), TernaryDeparser()) main;
