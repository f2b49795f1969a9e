/* stack.p4 -- header stacks.
 *
 * After Ethernet (EtherType 0x88b5) come a command header and up to 4
 * labels, extracted into the stack with `next` until one has bos == 1.  The
 * parser records lastIndex and last.v; ingress applies the command (pop,
 * push, indexing, invalidating an element) and the deparser emits the
 * stack, valid elements only.  A fifth label overflows the stack:
 * error.StackOutOfBounds.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header cmd_t {
    bit<8> op;
    bit<8> depth;   // written by ingress: lastIndex after parsing
    bit<8> lastv;   // written by ingress: last.v after parsing
    bit<8> arg;     // op 5: the index to write; ingress writes 0xee here on a stack overflow
}

header label_t {
    bit<8> v;
    bit<8> bos;
}

struct headers_t {
    ethernet_t ethernet;
    cmd_t      cmd;
    label_t[4] labels;
}

struct metadata_t {
    bit<8> depth;
    bit<8> lastv;
}

parser StackParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_cmd;
            default: accept;
        }
    }

    state parse_cmd {
        packet.extract(hdr.cmd);
        transition parse_label;
    }

    state parse_label {
        packet.extract(hdr.labels.next);
        meta.depth = (bit<8>)hdr.labels.lastIndex;
        meta.lastv = hdr.labels.last.v;
        transition select(hdr.labels.last.bos) {
            1: accept;
            default: parse_label;
        }
    }
}

control StackVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control StackIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        hdr.cmd.depth = meta.depth;
        hdr.cmd.lastv = meta.lastv;
        if (standard_metadata.parser_error == error.StackOutOfBounds) {
            hdr.cmd.arg = 0xee;
        } else if (hdr.cmd.op == 1) {
            hdr.labels.pop_front(1);
        } else if (hdr.cmd.op == 2) {
            hdr.labels.push_front(1);
            hdr.labels[0].setValid();
            hdr.labels[0].v = 0xaa;
            hdr.labels[0].bos = 0;
        } else if (hdr.cmd.op == 3) {
            hdr.labels[1].v = 0x77;
            hdr.labels[2].setInvalid();
        } else if (hdr.cmd.op == 4) {
            // On a stack of 3: the last element is pushed out of the stack.
            hdr.labels.push_front(2);
            hdr.labels[0].setValid();
            hdr.labels[0].v = 0xa0;
            hdr.labels[0].bos = 0;
            hdr.labels[1].setValid();
            hdr.labels[1].v = 0xa1;
            hdr.labels[1].bos = 0;
        } else if (hdr.cmd.op == 5) {
            // An index computed at run time.
            hdr.labels[(bit<32>)hdr.cmd.arg].v = 0x55;
        } else if (hdr.cmd.op == 6) {
            // Pop everything: no label is emitted.
            hdr.labels.pop_front(4);
        }
    }
}

control StackEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control StackComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control StackDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.cmd);
        packet.emit(hdr.labels);
    }
}

V1Switch(StackParser(), StackVerifyChecksum(), StackIngress(), StackEgress(),
         StackComputeChecksum(), StackDeparser()) main;
