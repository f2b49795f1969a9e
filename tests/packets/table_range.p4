/* table_range.p4 -- range matches, with entries given by `const entries`.
 *
 * The key is a 16-bit value; entries are ranges lo .. hi, both ends
 * included.  Constant entries are tried in program order: where two ranges
 * overlap, the one written first wins.  A miss drops.  A second table has
 * a tuple key (an exact field and a range) to check both parts must match.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header val_t {
    bit<16> v;
    bit<8>  kind;
    bit<8>  tag;
}

struct headers_t {
    ethernet_t ethernet;
    val_t      val;
}

struct metadata_t { }

parser RangeParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.val);
        transition accept;
    }
}

control RangeVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control RangeIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    action send(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    action set_tag(bit<8> tag) {
        hdr.val.tag = tag;
    }

    table bands {
        key = {
            hdr.val.v : range;
        }
        actions = {
            send;
            drop;
        }
        const entries = {
            0x0800 .. 0x08ff : send(3);   // inside the next-but-one range: first, so it wins
            0x0000 .. 0x00ff : send(1);
            0x0100 .. 0x0fff : send(2);
            0x1000 .. 0x1000 : send(4);   // a single value
            0xff00 .. 0xffff : send(5);   // up to the largest value
        }
        default_action = drop();
    }

    table kinds {
        key = {
            hdr.val.kind : exact;
            hdr.val.v    : range;
        }
        actions = {
            set_tag;
            NoAction;
        }
        const entries = {
            (1, 0x0000 .. 0x7fff) : set_tag(0x11);
            (2, 0x0000 .. 0x7fff) : set_tag(0x21);
            (2, 0x8000 .. 0xffff) : set_tag(0x22);
        }
        default_action = NoAction();
    }

    apply {
        bands.apply();
        kinds.apply();
    }
}

control RangeEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control RangeComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control RangeDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.val);
    }
}

V1Switch(RangeParser(), RangeVerifyChecksum(), RangeIngress(), RangeEgress(),
         RangeComputeChecksum(), RangeDeparser()) main;
