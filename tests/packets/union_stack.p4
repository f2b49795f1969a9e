/* union_stack.p4 -- a header stack of header unions.
 *
 * After Ethernet (EtherType 0x88b5) comes a base header: count, the number
 * of stack elements that follow; kinds, one bit per element (bit i for
 * element i: 0 a 1-byte member, 1 a 2-byte member); op; mask, written by
 * ingress.  The parser extracts each element with
 * packet.extract(hdr.u.next.byte) or hdr.u.next.short: every extract into
 * a member of hdr.u.next advances the stack's nextIndex (P4_16 spec,
 * extract; BMv2's extract_union_stack pushes the union stack), so the
 * second element lands in u[1] whatever member the first was.  A third
 * element overflows U[2]: error.StackOutOfBounds, the first two stay valid
 * and the third stays in the payload.
 *
 * Ingress:
 * - writes into whichever member of each element is valid: byte + 1,
 *   short + 0x0100;
 * - op bit 0: u[1].short.setValid() makes u[1].byte invalid (the members
 *   of a union are exclusive), short.data := 0xbeef (a member made valid
 *   has unspecified fields until written);
 * - op bit 1, after bit 0: hdr.u[0] = hdr.u[1] copies the whole union,
 *   the validity of each member included: u[0] gets u[1]'s valid member,
 *   its other member becomes invalid, and u[0] becomes invalid when u[1]
 *   is;
 * - mask: bit 0 u[0].byte valid, bit 1 u[0].short, bit 2 u[1].byte,
 *   bit 3 u[1].short, bit 4 u[0] (the union) valid, bit 5 u[1] valid.
 * Port 1, 2 on StackOutOfBounds, 3 on PacketTooShort.  Emitting the stack
 * emits each element's valid member, in order.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header base_t {
    bit<8> count;
    bit<8> kinds;
    bit<8> op;
    bit<8> mask;
}

header byte_h {
    bit<8> data;
}

header short_h {
    bit<16> data;
}

header_union U {
    byte_h  byte;
    short_h short;
}

struct headers_t {
    ethernet_t ethernet;
    base_t     base;
    U[2]       u;
}

struct metadata_t {
    bit<8> left;   // elements still to extract
    bit<8> kinds;  // shifted right once per element
}

parser UStackParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_base;
            default: accept;
        }
    }

    state parse_base {
        packet.extract(hdr.base);
        meta.left = hdr.base.count;
        meta.kinds = hdr.base.kinds;
        transition select(hdr.base.count) {
            0: accept;
            default: parse_u;
        }
    }

    state parse_u {
        transition select(meta.kinds[0:0]) {
            0: parse_byte;
            1: parse_short;
        }
    }

    state parse_byte {
        packet.extract(hdr.u.next.byte);
        transition next_u;
    }

    state parse_short {
        packet.extract(hdr.u.next.short);
        transition next_u;
    }

    state next_u {
        meta.left = meta.left - 1;
        meta.kinds = meta.kinds >> 1;
        transition select(meta.left) {
            0: accept;
            default: parse_u;
        }
    }
}

control UStackVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control UStackIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.StackOutOfBounds) {
            standard_metadata.egress_spec = 2;
        } else if (standard_metadata.parser_error == error.PacketTooShort) {
            standard_metadata.egress_spec = 3;
        } else {
            standard_metadata.egress_spec = 1;
        }
        if (!hdr.base.isValid()) {
            exit;
        }
        if (hdr.u[0].byte.isValid()) {
            hdr.u[0].byte.data = hdr.u[0].byte.data + 1;
        }
        if (hdr.u[0].short.isValid()) {
            hdr.u[0].short.data = hdr.u[0].short.data + 0x0100;
        }
        if (hdr.u[1].byte.isValid()) {
            hdr.u[1].byte.data = hdr.u[1].byte.data + 1;
        }
        if (hdr.u[1].short.isValid()) {
            hdr.u[1].short.data = hdr.u[1].short.data + 0x0100;
        }
        if (hdr.base.op[0:0] == 1) {
            hdr.u[1].short.setValid();
            hdr.u[1].short.data = 0xbeef;
        }
        if (hdr.base.op[1:1] == 1) {
            hdr.u[0] = hdr.u[1];
        }
        hdr.base.mask = 0;
        if (hdr.u[0].byte.isValid()) {
            hdr.base.mask = hdr.base.mask | 0x01;
        }
        if (hdr.u[0].short.isValid()) {
            hdr.base.mask = hdr.base.mask | 0x02;
        }
        if (hdr.u[1].byte.isValid()) {
            hdr.base.mask = hdr.base.mask | 0x04;
        }
        if (hdr.u[1].short.isValid()) {
            hdr.base.mask = hdr.base.mask | 0x08;
        }
        if (hdr.u[0].isValid()) {
            hdr.base.mask = hdr.base.mask | 0x10;
        }
        if (hdr.u[1].isValid()) {
            hdr.base.mask = hdr.base.mask | 0x20;
        }
    }
}

control UStackEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply { }
}

control UStackComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control UStackDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.base);
        packet.emit(hdr.u);
    }
}

V1Switch(UStackParser(), UStackVerifyChecksum(), UStackIngress(), UStackEgress(),
         UStackComputeChecksum(), UStackDeparser()) main;
