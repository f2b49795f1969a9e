/* struct_in_header.p4 -- headers with struct fields.
 *
 * A header field may be a struct of bit fields (P4_16 spec, header types;
 * p4c's FlattenHeaders): its fields lie in the packet in declaration
 * order, between the header's neighbouring fields, and nested structs are
 * laid out the same way, depth first.
 * - h_t { a; pair_t p { hi:4, lo:4 }; b:16 }: 4 bytes.  The parser selects
 *   on h.p.lo: 1 extracts n.
 * - n_t { tag; outer_t o { inner_t i { x; y }; pair_t q; z } }: 5 bytes.
 * Ingress:
 * - old := h.p (a struct copy); h.p.hi := old.lo, h.p.lo := old.hi;
 *   a + old.hi, b + old.lo (zero-extended);
 * - n: inner := n.o.i; n.o.i := { inner.y, inner.x } (a struct field
 *   assigned a struct expression: x and y swapped); n.o.q := old (a
 *   header's struct field assigned to another's nested one); z + 1;
 *   tag := 1 if n.o.i == inner (struct equality: x == y), else 0.
 * Port 2 when old.hi is 0xf, 3 on a parser error, else 1.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

struct pair_t {
    bit<4> hi;
    bit<4> lo;
}

header h_t {
    bit<8>  a;
    pair_t  p;
    bit<16> b;
}

struct inner_t {
    bit<8> x;
    bit<8> y;
}

struct outer_t {
    inner_t i;
    pair_t  q;
    bit<8>  z;
}

header n_t {
    bit<8>  tag;
    outer_t o;
}

struct headers_t {
    ethernet_t ethernet;
    h_t        h;
    n_t        n;
}

struct metadata_t { }

parser SihParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.h);
        transition select(hdr.h.p.lo) {
            1: parse_n;
            default: accept;
        }
    }

    state parse_n {
        packet.extract(hdr.n);
        transition accept;
    }
}

control SihVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SihIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply {
        pair_t old = hdr.h.p;
        hdr.h.p.hi = old.lo;
        hdr.h.p.lo = old.hi;
        hdr.h.a = hdr.h.a + (bit<8>)old.hi;
        hdr.h.b = hdr.h.b + (bit<16>)old.lo;
        if (hdr.n.isValid()) {
            inner_t inner = hdr.n.o.i;
            hdr.n.o.i = { inner.y, inner.x };
            hdr.n.o.q = old;
            hdr.n.o.z = hdr.n.o.z + 1;
            hdr.n.tag = (hdr.n.o.i == inner) ? 8w1 : 8w0;
        }
        if (standard_metadata.parser_error != error.NoError) {
            standard_metadata.egress_spec = 3;
        } else if (old.hi == 0xf) {
            standard_metadata.egress_spec = 2;
        } else {
            standard_metadata.egress_spec = 1;
        }
    }
}

control SihEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control SihComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SihDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.h);
        packet.emit(hdr.n);
    }
}

V1Switch(SihParser(), SihVerifyChecksum(), SihIngress(), SihEgress(),
         SihComputeChecksum(), SihDeparser()) main;
