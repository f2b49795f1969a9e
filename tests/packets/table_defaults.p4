/* table_defaults.p4 -- default actions, constant and settable.
 *
 * Two tables on the same exact key.  `fixed` has a constant default action
 * with an argument; `settable` has a default action the control plane may
 * replace (here by the same action with another argument, or NoAction).
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header marks_t {
    bit<8> key;
    bit<8> a;
    bit<8> b;
}

struct headers_t {
    ethernet_t ethernet;
    marks_t    marks;
}

struct metadata_t { }

parser DefaultsParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.marks);
        transition accept;
    }
}

control DefaultsVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DefaultsIngress(inout headers_t hdr, inout metadata_t meta,
                        inout standard_metadata_t standard_metadata) {
    action set_a(bit<8> v) {
        hdr.marks.a = v;
    }

    action set_b(bit<8> v) {
        hdr.marks.b = v;
    }

    table fixed {
        key = {
            hdr.marks.key : exact;
        }
        actions = {
            set_a;
        }
        const default_action = set_a(0xc0);
    }

    table settable {
        key = {
            hdr.marks.key : exact;
        }
        actions = {
            set_b;
            NoAction;
        }
        default_action = set_b(0xd0);
    }

    apply {
        standard_metadata.egress_spec = 1;
        fixed.apply();
        settable.apply();
    }
}

control DefaultsEgress(inout headers_t hdr, inout metadata_t meta,
                       inout standard_metadata_t standard_metadata) {
    apply { }
}

control DefaultsComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DefaultsDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.marks);
    }
}

V1Switch(DefaultsParser(), DefaultsVerifyChecksum(), DefaultsIngress(), DefaultsEgress(),
         DefaultsComputeChecksum(), DefaultsDeparser()) main;
