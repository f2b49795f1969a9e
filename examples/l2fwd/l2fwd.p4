/* l2fwd.p4 -- an Ethernet switch for v1model.
 *
 * The control plane fills table `dmac` with one entry per known MAC
 * address: frames to a known address go out of its port, frames to an
 * unknown address (and broadcasts) are flooded through multicast group 1.
 * MAC learning: a frame whose source address table `smac` does not know
 * sends a digest (source address, ingress port) to the control plane, which
 * adds the address to both tables (controller.py does, through P4Runtime).
 *
 * commands.txt (simple_switch_CLI syntax) sets up three hosts,
 * 00:00:00:00:00:0N on port N for N = 1..3, and makes group 1 one node
 * (replication id 0) holding ports 1, 2 and 3.  A flooded frame is sent
 * back out of its ingress port too; prune that copy in egress if needed.
 */

#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_addr_t;

header ethernet_t {
    mac_addr_t dstAddr;
    mac_addr_t srcAddr;
    bit<16>    etherType;
}

// Every header the program knows about.
struct headers_t {
    ethernet_t ethernet;
}

// No user metadata is needed, but v1model asks for a struct.
struct metadata_t {
}

// What the control plane learns of a source address it does not know.
struct mac_learn_digest_t {
    mac_addr_t srcAddr;
    bit<9>     ingress_port;
}

/* Parser: Ethernet is all we look at; the rest of the frame is payload and
 * goes out unchanged. */
parser L2Parser(packet_in packet,
                out headers_t hdr,
                inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition accept;
    }
}

// Ethernet has no checksum to verify.
control L2VerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control L2Ingress(inout headers_t hdr,
                  inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {

    // Send the frame out of one port.
    action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    // Send a copy to every port of multicast group 1 (which the control
    // plane sets up with mc_mgrp_create / mc_node_create).
    action flood() {
        standard_metadata.mcast_grp = 1;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    // Tell the control plane where an unknown source address is.
    action learn() {
        digest<mac_learn_digest_t>(1, { hdr.ethernet.srcAddr, standard_metadata.ingress_port });
    }

    // Source MAC address -> nothing, for an address the control plane knows.
    table smac {
        key = {
            hdr.ethernet.srcAddr : exact;
        }
        actions = {
            learn;
            NoAction;
        }
        size = 1024;
        default_action = learn();
    }

    // Destination MAC address -> what to do with the frame.
    table dmac {
        key = {
            hdr.ethernet.dstAddr : exact;
        }
        actions = {
            forward;
            flood;
            drop;
        }
        size = 1024;
        default_action = flood();
    }

    apply {
        smac.apply();
        dmac.apply();
    }
}

// Nothing happens in egress: each copy leaves as it is.
control L2Egress(inout headers_t hdr,
                 inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

// Nothing to recompute: the frame is not modified.
control L2ComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

// Put the Ethernet header back in front of the payload.
control L2Deparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
    }
}

V1Switch(L2Parser(),
         L2VerifyChecksum(),
         L2Ingress(),
         L2Egress(),
         L2ComputeChecksum(),
         L2Deparser()) main;
