/* subcontrols.p4 -- control instances inside a control.
 *
 * Tagger holds a table; ingress has two instances of it, each with a table
 * of its own (its entries are added by full name).  Twice holds an
 * instance of AddThree and applies it two times; ingress applies its own
 * AddThree instance once more.  Arguments are passed copy-in/copy-out, as
 * to functions.  (subcontrol_args.p4 has controls with constructor
 * arguments.)
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header sub_t {
    bit<8> ka;
    bit<8> kb;
    bit<8> tag_a;
    bit<8> tag_b;
    bit<8> x;
    bit<8> y;
}

struct headers_t {
    ethernet_t ethernet;
    sub_t      sub;
}

struct metadata_t { }

control Tagger(inout bit<8> tag, in bit<8> k) {
    action set_tag(bit<8> v) {
        tag = v;
    }

    table tags {
        key = {
            k : exact;
        }
        actions = {
            set_tag;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        tags.apply();
    }
}

control AddThree(inout bit<8> v) {
    apply {
        v = v + 3;
    }
}

control Twice(inout bit<8> v) {
    AddThree() add3;

    apply {
        add3.apply(v);
        add3.apply(v);
    }
}

parser SubParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.sub);
        transition accept;
    }
}

control SubVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SubIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    Tagger() first;
    Tagger() second;
    AddThree() add3;
    Twice() twice;

    apply {
        standard_metadata.egress_spec = 1;
        first.apply(hdr.sub.tag_a, hdr.sub.ka);
        second.apply(hdr.sub.tag_b, hdr.sub.kb);
        add3.apply(hdr.sub.x);
        twice.apply(hdr.sub.y);
    }
}

control SubEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control SubComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SubDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.sub);
    }
}

V1Switch(SubParser(), SubVerifyChecksum(), SubIngress(), SubEgress(),
         SubComputeChecksum(), SubDeparser()) main;
