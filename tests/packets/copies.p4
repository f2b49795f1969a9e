/* copies.p4 -- clone, resubmit and recirculate, with the field lists they keep.
 *
 * The op header says what to do (op) and how often (arg); ingress and
 * egress write into it what they see: the instance_type in ingress (ing)
 * and egress (egr), ingress_port (port), packet_length in ingress (length),
 * egress_rid (rid), and the metadata fields a pass began with (count, kept,
 * deep; a clone's egress writes what the clone kept).  Each ingress then
 * counts: count + 1, kept + 0x10, deep + 1.  Field list 1 keeps count and
 * kept, list 2 kept and inner.deep; `lost` is in none.
 *
 *   op 1  ingress clone to session 5 (port 2), list 1
 *   op 2  resubmit while count < arg, list 1
 *   op 3  recirculate while count < arg, list 1
 *   op 4  resubmit forever, op 5 recirculate forever: the switch gives up
 *   op 6  egress clone to session 6 (port 3), list 2
 *   op 7  egress clone to session 6, nothing kept, and the packet dropped
 *   op 8  ingress clone to session 7 (multicast group 1), list 1
 *   op 9  ingress clone to session 9, which is deleted
 *   op 10 resubmit({count, inner.deep}) while count < arg (the older form)
 *   op 11 every egress clones to session 6: a chain the switch cuts
 *   op 12 ingress clone to session 8 (port 1, where the packet goes too)
 *   op 13 clone3(I2E, 5, {kept}) (the older form)
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header op_t {
    bit<8>  op;
    bit<8>  arg;
    bit<8>  ing;
    bit<8>  egr;
    bit<16> port;
    bit<8>  count;
    bit<8>  kept;
    bit<8>  deep;
    bit<16> rid;
    bit<16> length;
}

struct headers_t {
    ethernet_t ethernet;
    op_t       op;
}

struct inner_t {
    @field_list(2) bit<8> deep;
}

struct meta_t {
    @field_list(1) bit<8> count;
    @field_list(1, 2) bit<8> kept;
    bit<8>  lost;
    inner_t inner;
}

parser ParserImpl(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.op);
        transition accept;
    }
}

control VerifyImpl(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IngressImpl(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        hdr.op.ing = (bit<8>)sm.instance_type;
        hdr.op.port = (bit<16>)sm.ingress_port;
        hdr.op.length = (bit<16>)sm.packet_length;
        hdr.op.count = meta.count;
        hdr.op.kept = meta.kept;
        hdr.op.deep = meta.inner.deep;
        meta.count = meta.count + 1;
        meta.kept = meta.kept + 0x10;
        meta.inner.deep = meta.inner.deep + 1;
        meta.lost = 0xbb;
        sm.egress_spec = 1;
        if (hdr.op.op == 1) {
            clone_preserving_field_list(CloneType.I2E, 5, 1);
        } else if (hdr.op.op == 2 && meta.count < hdr.op.arg) {
            resubmit_preserving_field_list(1);
        } else if (hdr.op.op == 4) {
            resubmit_preserving_field_list(1);
        } else if (hdr.op.op == 8) {
            clone_preserving_field_list(CloneType.I2E, 7, 1);
        } else if (hdr.op.op == 9) {
            clone(CloneType.I2E, 9);
        } else if (hdr.op.op == 10 && meta.count < hdr.op.arg) {
            resubmit({ meta.count, meta.inner.deep });
        } else if (hdr.op.op == 12) {
            clone(CloneType.I2E, 8);
        } else if (hdr.op.op == 13) {
            clone3(CloneType.I2E, 5, { meta.kept });
        }
    }
}

control EgressImpl(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        hdr.op.egr = (bit<8>)sm.instance_type;
        hdr.op.rid = (bit<16>)sm.egress_rid;
        if (sm.instance_type == 1 || sm.instance_type == 2) {
            hdr.op.count = meta.count;
            hdr.op.kept = meta.kept;
            hdr.op.deep = meta.inner.deep;
        }
        if (hdr.op.op == 3 && meta.count < hdr.op.arg) {
            recirculate_preserving_field_list(1);
        } else if (hdr.op.op == 5) {
            recirculate_preserving_field_list(1);
        } else if (hdr.op.op == 6 && sm.instance_type == 0) {
            clone_preserving_field_list(CloneType.E2E, 6, 2);
        } else if (hdr.op.op == 7 && sm.instance_type == 0) {
            clone(CloneType.E2E, 6);
            mark_to_drop(sm);
        } else if (hdr.op.op == 11) {
            clone(CloneType.E2E, 6);
        }
    }
}

control ComputeImpl(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DeparserImpl(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.op);
    }
}

V1Switch(ParserImpl(), VerifyImpl(), IngressImpl(), EgressImpl(), ComputeImpl(), DeparserImpl()) main;
