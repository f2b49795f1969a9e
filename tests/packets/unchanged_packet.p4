/* unchanged_packet.p4 -- a program that never writes a header: its packets
 * leave as they came (the unchanged-packet pass; no deparsing).
 *
 * The parser reads Ethernet, then a tag header when the EtherType is 0x88b5.
 * Ingress picks the output from the tag's port field (unicast), or floods to
 * multicast group 1 when there is no tag, or drops a tag whose op is 0xff.
 * Everything after the headers (the payload) and the headers themselves
 * must come out byte for byte, also for the replicas of a multicast group
 * (new packets), for a frame cut short inside the tag (a parser error:
 * only Ethernet was read) and for a frame that is only a header.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header tag_t {
    bit<8>  op;
    bit<8>  port;
    bit<16> flow;
}

struct headers_t {
    ethernet_t ethernet;
    tag_t      tag;
}

struct metadata_t { }

parser UpParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: tag;
            default: accept;
        }
    }
    state tag {
        packet.extract(hdr.tag);
        transition accept;
    }
}

control UpVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control UpIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        if (!hdr.tag.isValid()) {
            standard_metadata.mcast_grp = 1;
        } else if (hdr.tag.op == 0xff) {
            mark_to_drop(standard_metadata);
        } else {
            standard_metadata.egress_spec = (bit<9>)hdr.tag.port;
        }
    }
}

control UpEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control UpComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control UpDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.tag);
    }
}

V1Switch(UpParser(), UpVerifyChecksum(), UpIngress(), UpEgress(), UpComputeChecksum(), UpDeparser()) main;
