// side-effect-ordering: calls with effects become statements of their own, in P4's order:
// operands saved before a later call, `&&` / `?:` as if statements, arguments, indexes, select
// and table keys computed first.
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; h_t[2] s; }
struct meta_t { }

bit<8> bump(inout bit<8> x) { x = x + 1; return x; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.a, pkt.lookahead<bit<8>>()) { (0, 0): accept; default: more; }
    }
    state more { pkt.extract(hdr.s.next); transition accept; }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    bit<8> n = 0;
    action set(bit<8> v) { hdr.h.b = v; }
    table t {
        key = { bump(n): exact @name("count"); }
        actions = { set; NoAction; }
    }
    apply {
        hdr.h.a = hdr.h.b + bump(hdr.h.b);
        if (hdr.h.a == 0 && bump(n) == 1) {
            hdr.h.b = hdr.h.a > 1 ? bump(n) : n;
        }
        hdr.s[bump(n) & 1].a += 1;
        set(bump(n));
        if (t.apply().hit || n == 2) {
            sm.egress_spec = 1;
        }
        hdr.h.b = bump(n);
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
