/* verify.p4 -- verify() in a parser, with errors the program declares.
 *
 * After Ethernet (EtherType 0x88b5): a 2-byte version header, checked by
 * two verify() calls, then a 2-byte body.  A failed verify() ends parsing
 * with its error in standard_metadata.parser_error; what was extracted
 * before it stays valid, the rest of the packet stays as payload.
 */

#include <core.p4>
#include <v1model.p4>

error {
    BadVersion,
    BadLength
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header version_t {
    bit<8> version;
    bit<8> len;
}

header body_t {
    bit<16> v;
}

struct headers_t {
    ethernet_t ethernet;
    version_t  version;
    body_t     body;
}

struct metadata_t { }

parser CheckParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_version;
            default: accept;
        }
    }

    state parse_version {
        packet.extract(hdr.version);
        verify(hdr.version.version == 4, error.BadVersion);
        verify(hdr.version.len <= 8, error.BadLength);
        packet.extract(hdr.body);
        transition accept;
    }
}

control CheckVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CheckIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.NoError) {
            standard_metadata.egress_spec = 1;
        } else if (standard_metadata.parser_error == error.BadVersion) {
            standard_metadata.egress_spec = 2;
        } else if (standard_metadata.parser_error == error.BadLength) {
            standard_metadata.egress_spec = 3;
        } else {
            mark_to_drop(standard_metadata);
        }
        if (hdr.version.isValid() && standard_metadata.parser_error != error.NoError) {
            hdr.version.len = 0xee;
        }
        if (hdr.body.isValid()) {
            hdr.body.v = hdr.body.v + 1;
        }
    }
}

control CheckEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control CheckComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CheckDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.version);
        packet.emit(hdr.body);
    }
}

V1Switch(CheckParser(), CheckVerifyChecksum(), CheckIngress(), CheckEgress(),
         CheckComputeChecksum(), CheckDeparser()) main;
