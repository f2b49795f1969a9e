/* const_entries.p4 -- tables whose entries are in the program.
 *
 * `by_code` has an exact key and constant entries; `by_pair` has a ternary
 * tuple key with masks (&&&) and don't-care (_) entries, tried in program
 * order: the first matching entry wins.  Misses run the default actions.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header fields_t {
    bit<8> code;
    bit<8> x;
    bit<8> y;
    bit<8> result;
}

struct headers_t {
    ethernet_t ethernet;
    fields_t   fields;
}

struct metadata_t { }

parser ConstParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.fields);
        transition accept;
    }
}

control ConstVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ConstIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    action send(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    action set_result(bit<8> r) {
        hdr.fields.result = r;
    }

    table by_code {
        key = {
            hdr.fields.code : exact;
        }
        actions = {
            send;
            drop;
        }
        const entries = {
            1 : send(1);
            2 : send(2);
            0xff : send(3);
            4 : drop();
        }
        default_action = send(4);
    }

    table by_pair {
        key = {
            hdr.fields.x : ternary;
            hdr.fields.y : ternary;
        }
        actions = {
            set_result;
            NoAction;
        }
        const entries = {
            (0x10 &&& 0xf0, _) : set_result(1);
            (_, 0x05) : set_result(2);
            (0x22, 0x05 &&& 0x0f) : set_result(3);
            (0xaa, 0xbb) : set_result(4);
        }
        default_action = NoAction();
    }

    apply {
        by_code.apply();
        by_pair.apply();
    }
}

control ConstEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control ConstComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ConstDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.fields);
    }
}

V1Switch(ConstParser(), ConstVerifyChecksum(), ConstIngress(), ConstEgress(),
         ConstComputeChecksum(), ConstDeparser()) main;
