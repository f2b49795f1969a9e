/* multicast.p4 -- multicast replication with egress_rid.
 *
 * Ingress sets standard_metadata.mcast_grp from the packet (op 1) or sends
 * to port 1 (op 0).  The switch makes one copy per (node, port) of the
 * group; egress sees each copy's egress_port and egress_rid (the node's
 * replication id) and writes them into it; a copy made by multicast has
 * instance_type REPLICATION (5), which egress marks in the EtherType.  mark_to_drop() in ingress
 * also cancels multicast (op 2); in egress it drops one copy (op 3 drops
 * the copies of rid 7).  A group the control plane never created sends
 * nothing.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header mc_t {
    bit<8>  op;
    bit<16> grp;
    bit<16> rid;    // written by egress
    bit<16> port;   // written by egress
}

struct headers_t {
    ethernet_t ethernet;
    mc_t       mc;
}

struct metadata_t { }

parser McParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.mc);
        transition accept;
    }
}

control McVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control McIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        if (hdr.mc.op == 0) {
            standard_metadata.egress_spec = 1;
        } else {
            standard_metadata.mcast_grp = hdr.mc.grp;
            if (hdr.mc.op == 2) {
                mark_to_drop(standard_metadata);
            }
        }
    }
}

control McEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        hdr.mc.rid = standard_metadata.egress_rid;
        hdr.mc.port = (bit<16>)standard_metadata.egress_port;
        if (standard_metadata.instance_type == 5) {  // BMV2_V1MODEL_INSTANCE_TYPE_REPLICATION
            hdr.ethernet.etherType = 0x0805;
        }
        if (hdr.mc.op == 3 && standard_metadata.egress_rid == 7) {
            mark_to_drop(standard_metadata);
        }
    }
}

control McComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control McDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.mc);
    }
}

V1Switch(McParser(), McVerifyChecksum(), McIngress(), McEgress(),
         McComputeChecksum(), McDeparser()) main;
