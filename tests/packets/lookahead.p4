/* lookahead.p4 -- packet.lookahead of a bit<N> and of a header.
 *
 * After Ethernet (EtherType 0x88b5) the parser peeks at the next byte with
 * lookahead<bit<8>>() to choose a state.  Kind 1: extract the 4-byte pair
 * header.  Kind 2: first read the pair with lookahead<pair_t>() into a local
 * header, then extract it: lookahead does not move the parser, so both see
 * the same bytes.  Kind 3: lookahead<bit<12>>(), a width that is not a
 * whole number of bytes.  A lookahead past the end of the packet fails with
 * error.PacketTooShort, like extract.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header pair_t {
    bit<8>  kind;
    bit<8>  a;
    bit<16> b;
}

struct headers_t {
    ethernet_t ethernet;
    pair_t     pair;
}

struct metadata_t {
    bit<8>  peek_a;
    bit<16> peek_b;
}

parser PeekParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: probe;
            default: accept;
        }
    }

    state probe {
        transition select(packet.lookahead<bit<8>>()) {
            1: parse_pair;
            2: peek_pair;
            3: peek_bits;
            default: accept;
        }
    }

    state parse_pair {
        packet.extract(hdr.pair);
        transition accept;
    }

    state peek_pair {
        pair_t peeked = packet.lookahead<pair_t>();
        meta.peek_a = peeked.a;
        meta.peek_b = peeked.b;
        packet.extract(hdr.pair);
        transition accept;
    }

    state peek_bits {
        bit<12> bits = packet.lookahead<bit<12>>();
        meta.peek_b = (bit<16>)bits;
        packet.extract(hdr.pair);
        transition accept;
    }
}

control PeekVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control PeekIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.PacketTooShort) {
            standard_metadata.egress_spec = 2;
        } else {
            standard_metadata.egress_spec = 1;
        }
        if (hdr.pair.isValid()) {
            if (hdr.pair.kind == 2) {
                // The values the lookahead saw, each plus one.
                hdr.pair.a = meta.peek_a + 1;
                hdr.pair.b = meta.peek_b + 1;
            } else if (hdr.pair.kind == 3) {
                hdr.pair.b = meta.peek_b;
            } else {
                hdr.pair.a = 0xaa;
            }
        }
    }
}

control PeekEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control PeekComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control PeekDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.pair);
    }
}

V1Switch(PeekParser(), PeekVerifyChecksum(), PeekIngress(), PeekEgress(),
         PeekComputeChecksum(), PeekDeparser()) main;
