/* eval_order.p4 -- operands are evaluated left to right, and only the ones needed.
 *
 * f(inout v) sets its argument to 1 and returns 1, a side effect on a
 * variable that an earlier operand of the same expression reads.  The
 * P4_16 spec evaluates operands and arguments left to right (p4c's
 * SideEffectOrdering copies an operand into a temporary before a later
 * call can change it), so with v = a:
 * - x + f(x): the old x plus 1 (x itself becomes 1); f(v) + v reads v
 *   after f: 1 + 1 = 2;
 * - v == f(v): a == 1 (not always true);
 * - v ++ f(v): a ++ 8w1;
 * - g(v, f(v)) with g(p, q) = p - q: a - 1 (not 0).
 * mark() and tag() set a bit in a marker when called:
 * - a == 0 && mark(m, 1): the right side is called only when a == 0;
 * - a != 0 || mark(m, 2): the right side is called only when a == 0;
 * - a[7:7] == 1 ? tag(m, 4) : tag(m, 8): only the chosen branch is
 *   evaluated, so m gets 4 or 8, never both.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header eo_t {
    bit<8>  a;     // the input value
    bit<8>  x;     // input of x + f(x); becomes 1
    bit<8>  add;   // x + f(x)
    bit<8>  add2;  // f(v) + v
    bit<8>  eq;    // v == f(v) ? 1 : 0
    bit<16> cat;   // v ++ f(v)
    bit<8>  arg;   // g(v, f(v))
    bit<8>  and_;  // a == 0 && mark(m, 1) ? 1 : 0
    bit<8>  or_;   // a != 0 || mark(m, 2) ? 1 : 0
    bit<8>  cond;  // a[7:7] == 1 ? tag(m, 4) : tag(m, 8)
    bit<8>  calls; // m: the marks and tags called
}

struct headers_t {
    ethernet_t ethernet;
    eo_t       eo;
}

struct metadata_t { }

bit<8> f(inout bit<8> v) {
    v = 1;
    return 1;
}

bit<8> g(in bit<8> p, in bit<8> q) {
    return p - q;
}

bool mark(inout bit<8> m, in bit<8> b) {
    m = m | b;
    return true;
}

bit<8> tag(inout bit<8> m, in bit<8> b) {
    m = m | b;
    return b;
}

parser EoParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.eo);
        transition accept;
    }
}

control EoVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control EoIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        bit<8> v;
        bit<8> m = 0;

        hdr.eo.add = hdr.eo.x + f(hdr.eo.x);
        v = hdr.eo.a;
        hdr.eo.add2 = f(v) + v;
        v = hdr.eo.a;
        hdr.eo.eq = (v == f(v)) ? 8w1 : 8w0;
        v = hdr.eo.a;
        hdr.eo.cat = v ++ f(v);
        v = hdr.eo.a;
        hdr.eo.arg = g(v, f(v));

        hdr.eo.and_ = (hdr.eo.a == 0 && mark(m, 1)) ? 8w1 : 8w0;
        hdr.eo.or_ = (hdr.eo.a != 0 || mark(m, 2)) ? 8w1 : 8w0;
        hdr.eo.cond = hdr.eo.a[7:7] == 1 ? tag(m, 4) : tag(m, 8);
        hdr.eo.calls = m;
    }
}

control EoEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control EoComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control EoDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.eo);
    }
}

V1Switch(EoParser(), EoVerifyChecksum(), EoIngress(), EoEgress(),
         EoComputeChecksum(), EoDeparser()) main;
