/* parser_bounds.p4 -- packets shorter than the headers the parser extracts.
 *
 * Ethernet, then a 4-byte tag when the EtherType is 0x88b5.  A packet that
 * ends inside a header does not stop the switch: as on BMv2's simple_switch,
 * ingress runs with standard_metadata.parser_error == error.PacketTooShort,
 * the header that did not fit stays invalid, and its bytes stay in the
 * payload (nothing is read past the end of the packet).
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header tag_t {
    bit<16> id;
    bit<16> value;
}

struct headers_t {
    ethernet_t ethernet;
    tag_t      tag;
}

struct metadata_t { }

parser BoundsParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_tag;
            default: accept;
        }
    }

    state parse_tag {
        packet.extract(hdr.tag);
        transition accept;
    }
}

control BoundsVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control BoundsIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.PacketTooShort) {
            // Port 2; mark whichever headers did get extracted.
            standard_metadata.egress_spec = 2;
            if (hdr.ethernet.isValid()) {
                hdr.ethernet.srcAddr = 0xeeeeeeeeeeee;
                if (!hdr.tag.isValid()) {
                    hdr.ethernet.etherType = 0x0bad;
                }
            }
        } else if (standard_metadata.parser_error == error.NoError) {
            standard_metadata.egress_spec = 1;
            if (hdr.tag.isValid()) {
                hdr.tag.value = hdr.tag.value + 1;
            }
        } else {
            mark_to_drop(standard_metadata);
        }
    }
}

control BoundsEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply { }
}

control BoundsComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control BoundsDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.tag);
    }
}

V1Switch(BoundsParser(), BoundsVerifyChecksum(), BoundsIngress(), BoundsEgress(),
         BoundsComputeChecksum(), BoundsDeparser()) main;
