/* select_call.p4 -- calls in a parser run once, in P4's order (the side-effect-ordering pass).
 *
 * bump(inout x) adds 1 to x and returns the new x.  The parser's local
 * first = seen + bump(seen) is initialized before the start state (seen
 * read before bump: 0 + 1, seen 1).  The start state selects on
 * (seen, bump(seen), lookahead<bit<8>>()): seen is read before bump changes
 * it, so the keys are (1, 2, the next byte) and the default state (path 3)
 * is never taken; the byte after the header chooses path 1 (0xAA) or 2.
 * The state taken writes path, first and seen (2) into the header.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header sel_t {
    bit<8> path;
    bit<8> first;
    bit<8> seen;
}

struct headers_t {
    ethernet_t ethernet;
    sel_t      sel;
}

struct metadata_t { }

bit<8> bump(inout bit<8> x) {
    x = x + 1;
    return x;
}

parser SelParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    bit<8> seen = 0;
    bit<8> first = seen + bump(seen);

    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.sel);
        transition select(seen, bump(seen), packet.lookahead<bit<8>>()) {
            (1, 2, 0xAA): one;
            (1, 2, _): two;
            default: wrong;
        }
    }
    state one {
        hdr.sel.path = 1;
        transition done;
    }
    state two {
        hdr.sel.path = 2;
        transition done;
    }
    state wrong {
        hdr.sel.path = 3;
        transition done;
    }
    state done {
        hdr.sel.first = first;
        hdr.sel.seen = seen;
        transition accept;
    }
}

control SelVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SelIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
    }
}

control SelEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control SelComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SelDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.sel);
    }
}

V1Switch(SelParser(), SelVerifyChecksum(), SelIngress(), SelEgress(),
         SelComputeChecksum(), SelDeparser()) main;
