/* advance.p4 -- packet.advance skips bits of the packet.
 *
 * After Ethernet (EtherType 0x88b5) the parser skips 4 bytes, then
 * extracts a 2-byte header.  The skipped bytes belong to no header, so the
 * deparser does not emit them: the packet leaves 4 bytes shorter.  An
 * advance past the end of the packet fails with error.PacketTooShort; the
 * bytes of a successful advance are gone even when a later extract fails
 * (as on BMv2: everything the parser consumed is replaced by the deparser's
 * output).
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header value_t {
    bit<16> v;
}

struct headers_t {
    ethernet_t ethernet;
    value_t    value;
}

struct metadata_t { }

parser SkipParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: skip;
            default: accept;
        }
    }

    state skip {
        packet.advance(32);
        packet.extract(hdr.value);
        transition accept;
    }
}

control SkipVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SkipIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.NoError) {
            standard_metadata.egress_spec = 1;
        } else {
            standard_metadata.egress_spec = 2;
        }
        if (hdr.value.isValid()) {
            hdr.value.v = hdr.value.v + 1;
        }
    }
}

control SkipEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control SkipComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SkipDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.value);
    }
}

V1Switch(SkipParser(), SkipVerifyChecksum(), SkipIngress(), SkipEgress(),
         SkipComputeChecksum(), SkipDeparser()) main;
