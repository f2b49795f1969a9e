/* select.p4 -- select expressions: exact values, masks, ranges, tuples, _ and default.
 *
 * After Ethernet (EtherType 0x88b5) comes a header (a, b, path).  The
 * parser chooses its states with select on a (single key) then on (a, b)
 * (a tuple); each state sets meta.path, and ingress writes it into the
 * packet.  The cases of a select are tried in order; the first that
 * matches wins.  A select that has no default and matches no case ends
 * parsing with error.NoMatch: ingress sends those packets to port 2.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header sel_t {
    bit<8> a;
    bit<8> b;
    bit<8> path;
}

struct headers_t {
    ethernet_t ethernet;
    sel_t      sel;
}

struct metadata_t {
    bit<8> path;
}

parser SelectParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_sel;
            default: accept;
        }
    }

    state parse_sel {
        packet.extract(hdr.sel);
        transition select(hdr.sel.a) {
            0x01: exact_one;
            0x05: exact_one;          // a later case for another value, same state
            0x10 &&& 0xf0: masked;    // 0x10 .. 0x1f
            0x20 .. 0x2f: ranged;
            0x25: never;              // inside the range above, which comes first
            default: by_pair;
        }
    }

    state exact_one { meta.path = 1; transition accept; }
    state masked {
        meta.path = 2;
        transition select(hdr.sel.b) {
            0x00 .. 0x0f: accept;   // no default: other values are error.NoMatch
        }
    }

    state ranged    { meta.path = 3; transition accept; }
    state never     { meta.path = 0xff; transition accept; }

    state by_pair {
        meta.path = 4;
        transition select(hdr.sel.a, hdr.sel.b) {
            (0x30, 0x01): pair_both;
            (0x30, _): pair_first;
            (_, 0x02): pair_second;
            (0x40 &&& 0xc0, 0x80 .. 0x8f): pair_mixed;
            default: accept;
        }
    }

    state pair_both   { meta.path = 5; transition accept; }
    state pair_first  { meta.path = 6; transition accept; }
    state pair_second { meta.path = 7; transition accept; }
    state pair_mixed  { meta.path = 8; transition accept; }
}

control SelectVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SelectIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.NoMatch) {
            standard_metadata.egress_spec = 2;
        } else {
            standard_metadata.egress_spec = 1;
        }
        if (hdr.sel.isValid()) {
            hdr.sel.path = meta.path;
        }
    }
}

control SelectEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply { }
}

control SelectComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SelectDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.sel);
    }
}

V1Switch(SelectParser(), SelectVerifyChecksum(), SelectIngress(), SelectEgress(),
         SelectComputeChecksum(), SelectDeparser()) main;
