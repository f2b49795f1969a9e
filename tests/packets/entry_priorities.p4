/* entry_priorities.p4 -- P4_16 entry priorities in a table's (non-const)
 * `entries`, as p4c's front end assigns them.
 *
 * `smallest` (largest_priority_wins = false, priority_delta = 10): the
 * entries without a priority count on from the one before: 10, 20, 30, 40,
 * then 40 written, then 50; the smallest wins.  `largest` (the default rule,
 * the larger wins, priority_delta = 5): 100, 95, then 200 written, then 195.
 * `unwritten` has no priority at all: the first entry wins, whatever rule.
 * Packets: Ethernet, then x and y (the keys) and three result bytes, one per
 * table.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header fields_t {
    bit<8> x;
    bit<8> y;
    bit<8> smallest;
    bit<8> largest;
    bit<8> unwritten;
}

struct headers_t {
    ethernet_t ethernet;
    fields_t   fields;
}

struct metadata_t { }

parser PrioParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.fields);
        transition accept;
    }
}

control PrioVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control PrioIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    action set_smallest(bit<8> r) { hdr.fields.smallest = r; }
    action set_largest(bit<8> r) { hdr.fields.largest = r; }
    action set_unwritten(bit<8> r) { hdr.fields.unwritten = r; }

    table smallest {
        key = {
            hdr.fields.x : ternary;
            hdr.fields.y : ternary;
        }
        actions = { set_smallest; NoAction; }
        largest_priority_wins = false;
        priority_delta = 10;
        entries = {
            priority=10: (0x01, 0x01 &&& 0x0f) : set_smallest(1);    // 10
                         (0x01, _) : set_smallest(2);                // 20
                         (_, 0x02) : set_smallest(3);                // 30
                         (0x03, 0x03 &&& 0x0f) : set_smallest(4);    // 40
            priority=40: (0x03 &&& 0x0f, 0x03) : set_smallest(5);    // 40 too: added after 4
                         (_, _) : set_smallest(6);                   // 50
        }
        default_action = NoAction();
    }

    table largest {
        key = {
            hdr.fields.x : ternary;
        }
        actions = { set_largest; NoAction; }
        priority_delta = 5;
        entries = {
            priority=100: 0x01 &&& 0x0f : set_largest(1);            // 100
                          0x11 : set_largest(2);                     // 95
            priority=200: 0x31 : set_largest(3);                     // 200
                          0x01 &&& 0x0f : set_largest(4);            // 195: beats the first
        }
        default_action = NoAction();
    }

    table unwritten {
        key = {
            hdr.fields.x : ternary;
        }
        actions = { set_unwritten; NoAction; }
        largest_priority_wins = false;
        entries = {
            0x01 &&& 0x0f : set_unwritten(1);
            _ : set_unwritten(2);
        }
        default_action = NoAction();
    }

    apply {
        smallest.apply();
        largest.apply();
        unwritten.apply();
        standard_metadata.egress_spec = 1;
    }
}

control PrioEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control PrioComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control PrioDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.fields);
    }
}

V1Switch(PrioParser(), PrioVerifyChecksum(), PrioIngress(), PrioEgress(),
         PrioComputeChecksum(), PrioDeparser()) main;
