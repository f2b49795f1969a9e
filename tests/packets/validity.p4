/* validity.p4 -- setValid(), setInvalid(), isValid() and what the deparser emits.
 *
 * After Ethernet come up to two 2-byte headers, a (EtherType 0x88b5) and b
 * (when a.v is 0xbbbb).  Ingress adds and removes headers; the deparser
 * emits only the valid ones, so the packet grows and shrinks.
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

parser ValidParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
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

control ValidVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ValidIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        if (!hdr.a.isValid()) {
            // Add a: 2 bytes more.
            hdr.a.setValid();
            hdr.a.v = 0x0a0a;
            hdr.ethernet.etherType = 0x88b5;
        } else if (hdr.b.isValid()) {
            // Remove b: 2 bytes less.
            hdr.b.setInvalid();
            standard_metadata.egress_spec = 2;
        } else if (hdr.a.v == 0xdead) {
            // Remove a; a field written in an invalid header is not emitted either.
            hdr.a.setInvalid();
            hdr.b.v = 0x1111;
            hdr.ethernet.etherType = 0x0800;
            standard_metadata.egress_spec = 3;
        } else {
            // setValid() on a valid header keeps its fields; add b after a.
            hdr.a.setValid();
            hdr.b.setValid();
            hdr.b.v = hdr.a.v + 1;
            standard_metadata.egress_spec = 4;
        }
    }
}

control ValidEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        // Egress sees the validity ingress left.
        if (hdr.b.isValid() && hdr.b.v == 0xffff) {
            hdr.b.setInvalid();
        }
    }
}

control ValidComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ValidDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.a);
        packet.emit(hdr.b);
    }
}

V1Switch(ValidParser(), ValidVerifyChecksum(), ValidIngress(), ValidEgress(),
         ValidComputeChecksum(), ValidDeparser()) main;
