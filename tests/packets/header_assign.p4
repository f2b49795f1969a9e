/* header_assign.p4 -- assigning whole headers copies their validity.
 *
 * After Ethernet come up to two 2-byte headers, a (EtherType 0x88b5) and
 * b (when a.v is 0xbbbb).  `b = a` makes b a valid copy of a valid a, and
 * an invalid b when a is invalid; `a = b` likewise.  Copies are values:
 * changing the copy leaves the original alone.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header word_t {
    bit<16> v;
}

struct headers_t {
    ethernet_t ethernet;
    word_t     a;
    word_t     b;
}

struct metadata_t { }

parser AssignParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_a;
            default: accept;
        }
    }

    state parse_a {
        packet.extract(hdr.a);
        transition select(hdr.a.v) {
            0xbbbb: parse_b;
            default: accept;
        }
    }

    state parse_b {
        packet.extract(hdr.b);
        transition accept;
    }
}

control AssignVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control AssignIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        if (hdr.b.isValid()) {
            // a := b (both valid), then b := an invalid header: b disappears.
            word_t none;
            none.setInvalid();
            hdr.a = hdr.b;
            hdr.b = none;
        } else if (hdr.a.isValid()) {
            // b := a: a valid copy, changed afterwards without touching a.
            hdr.b = hdr.a;
            hdr.b.v = hdr.b.v + 1;
        } else {
            // a and b both invalid: copying keeps them so.
            hdr.a = hdr.b;
        }
    }
}

control AssignEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply { }
}

control AssignComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control AssignDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.a);
        packet.emit(hdr.b);
    }
}

V1Switch(AssignParser(), AssignVerifyChecksum(), AssignIngress(), AssignEgress(),
         AssignComputeChecksum(), AssignDeparser()) main;
