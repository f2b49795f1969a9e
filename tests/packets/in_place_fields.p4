/* in_place_fields.p4 -- fields written in the packet itself (the
 * deparse-in-place pass): the program writes only some fields, and the
 * deparser writes those where the parser read them.
 *
 * Ethernet, an optional VLAN tag, then a tag header when the EtherType (after
 * the VLAN tag, if any) is 0x88b5.  Ingress writes the source MAC and a VLAN
 * tag's priority (3 bits inside a byte), then sends to the tag's id, or to
 * multicast group 1 when the tag's flags are 1, or to port 3 without a tag.
 * Egress writes the low 16 bits of the destination MAC with the copy's
 * egress_rid: every replica must get its own bytes.  The tag header is read
 * (at bit 112 or 144) and never written.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vlan_t {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vid;
    bit<16> etherType;
}

header tag_t {
    bit<4>  ver;
    bit<4>  flags;
    bit<8>  ttl;
    bit<16> id;
}

struct headers_t {
    ethernet_t ethernet;
    vlan_t     vlan;
    tag_t      tag;
}

struct metadata_t { }

parser IpParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x8100: vlan;
            0x88b5: tag;
            default: accept;
        }
    }
    state vlan {
        packet.extract(hdr.vlan);
        transition select(hdr.vlan.etherType) {
            0x88b5: tag;
            default: accept;
        }
    }
    state tag {
        packet.extract(hdr.tag);
        transition accept;
    }
}

control IpVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control IpIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        hdr.ethernet.srcAddr = 0xaa;
        if (hdr.vlan.isValid()) {
            hdr.vlan.pcp = 5;
        }
        if (hdr.tag.isValid() && hdr.tag.flags == 1) {
            standard_metadata.mcast_grp = 1;
        } else if (hdr.tag.isValid()) {
            standard_metadata.egress_spec = (bit<9>)hdr.tag.id;
        } else {
            standard_metadata.egress_spec = 3;
        }
    }
}

control IpEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        hdr.ethernet.dstAddr[15:0] = (bit<16>)standard_metadata.egress_rid;
    }
}

control IpComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control IpDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vlan);
        packet.emit(hdr.tag);
    }
}

V1Switch(IpParser(), IpVerifyChecksum(), IpIngress(), IpEgress(), IpComputeChecksum(), IpDeparser()) main;
