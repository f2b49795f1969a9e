/* inline_names.p4 -- the control-plane names of what a control instance holds.
 *
 * Ingress holds three instances of Tag, each with a table t of its own.  A
 * table of an instance is named after the control holding the instance,
 * the instance, then the table: NamesIngress.left.t, NamesIngress.right.t.
 * The third instance has @name("renamed"): its table is
 * NamesIngress.renamed.t (p4c prefixes the instance's @name, then the
 * enclosing control's name).  Entries and default actions are set by those
 * full names, each for its own instance only.  Tag's action bump is both
 * called from Tag's apply and listed in the table.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header names_t {
    bit<8> k_left;
    bit<8> k_right;
    bit<8> k_third;
    bit<8> tag_left;
    bit<8> tag_right;
    bit<8> tag_third;
}

struct headers_t {
    ethernet_t ethernet;
    names_t    names;
}

struct metadata_t { }

// k 0xff: bump once before the lookup (and once more if the entry for 0xff is bump()).
control Tag(inout bit<8> tag, in bit<8> k) {
    action set(bit<8> v) {
        tag = v;
    }

    action bump() {
        tag = tag + 1;
    }

    table t {
        key = {
            k : exact;
        }
        actions = {
            set;
            bump;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        if (k == 0xff) {
            bump();
        }
        t.apply();
    }
}

parser NamesParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.names);
        transition accept;
    }
}

control NamesVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control NamesIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    Tag() left;
    Tag() right;
    @name("renamed") Tag() third;

    apply {
        standard_metadata.egress_spec = 1;
        left.apply(hdr.names.tag_left, hdr.names.k_left);
        right.apply(hdr.names.tag_right, hdr.names.k_right);
        third.apply(hdr.names.tag_third, hdr.names.k_third);
    }
}

control NamesEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control NamesComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control NamesDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.names);
    }
}

V1Switch(NamesParser(), NamesVerifyChecksum(), NamesIngress(), NamesEgress(),
         NamesComputeChecksum(), NamesDeparser()) main;
