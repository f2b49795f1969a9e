/* big_table.p4 -- tables declared too big for the caches, whose keys are bytes
 * of the packet: the traffic manager builds their keys from the received
 * bytes for a whole burst and looks them up before the burst runs (the
 * burst-lookup pass).  The lookups' results must not depend on it: hits,
 * misses, a key whose header the packet does not have (the burst looks up
 * other bytes, the pipeline does not look up), a frame shorter than the key.
 *
 * Ingress: an IPv4 packet is routed by `routes` (lpm on the destination),
 * anything else switched by `macs` (exact on the destination MAC); a miss in
 * either drops it.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header ipv4_t {
    bit<8>  versionIhl;
    bit<8>  tos;
    bit<16> totalLen;
    bit<64> middle;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct metadata_t { }

parser BtParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800: ipv4;
            default: accept;
        }
    }
    state ipv4 {
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control BtVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control BtIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action to(bit<9> port) {
        standard_metadata.egress_spec = port;
    }
    action drop() {
        mark_to_drop(standard_metadata);
    }
    table routes {
        key = { hdr.ipv4.dstAddr : lpm; }
        actions = { to; drop; }
        default_action = drop();
        size = 1 << 20;
    }
    table macs {
        key = { hdr.ethernet.dstAddr : exact; }
        actions = { to; drop; }
        default_action = drop();
        size = 1 << 16;
    }
    apply {
        if (hdr.ipv4.isValid()) {
            routes.apply();
        } else {
            macs.apply();
        }
    }
}

control BtEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control BtComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control BtDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(BtParser(), BtVerifyChecksum(), BtIngress(), BtEgress(), BtComputeChecksum(), BtDeparser()) main;
