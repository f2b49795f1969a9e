/* absent_headers.p4 -- a header the packet does not have reads as zeros,
 * whatever the packets before it had.
 *
 * Each packet starts with every header invalid; the fields of the headers the
 * parser did not extract are zero (a single header, and the elements of a
 * stack).  Ingress makes h valid when it is missing and sets only h.a, and
 * copies into h.b the second element of the stack w, which only packets with
 * h.a == 2 have: every other packet must show zeros there, not the values an
 * earlier packet left in the same worker's state.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header h_t {
    bit<8>  a;
    bit<16> b;
    bit<32> c;
}

header word_t {
    bit<16> v;
}

struct headers_t {
    ethernet_t ethernet;
    h_t        h;
    word_t[2]  w;
}

struct metadata_t { }

parser AbsentParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_h;
            default: accept;
        }
    }

    state parse_h {
        packet.extract(hdr.h);
        transition select(hdr.h.a) {
            2: parse_w;
            default: accept;
        }
    }

    state parse_w {
        packet.extract(hdr.w.next);
        packet.extract(hdr.w.next);
        transition accept;
    }
}

control AbsentVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control AbsentIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        if (!hdr.h.isValid()) {
            hdr.h.setValid();
            hdr.h.a = 0x77;
            hdr.ethernet.etherType = 0x88b5;
            standard_metadata.egress_spec = 2;
        }
        if (!hdr.w[1].isValid()) {
            hdr.h.b = hdr.w[1].v;
        }
    }
}

control AbsentEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply { }
}

control AbsentComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control AbsentDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.h);
        packet.emit(hdr.w);
    }
}

V1Switch(AbsentParser(), AbsentVerifyChecksum(), AbsentIngress(), AbsentEgress(),
         AbsentComputeChecksum(), AbsentDeparser()) main;
