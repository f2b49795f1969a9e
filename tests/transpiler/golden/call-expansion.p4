// call-expansion: every call of an action or function becomes the callee's body, parameters copied
// in and out, `return` and `exit` as flags; a table's action bound to arguments is specialized, and
// the actions tables run keep only the parameters the control plane supplies.
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; h_t[2] s; }
struct meta_t { bit<8> port; }

bit<8> max(in bit<8> x, in bit<8> y) {
    if (x > y) { return x; }
    return y;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    bit<8> i = 0;
    action bump(inout bit<8> v, bit<8> by) {
        i = i + 1;  // changes the index of an argument: the place is the one at the call
        v = v + by;
        if (v == 0) { exit; }
    }
    action set_port(bit<8> port) { sm.egress_spec = (bit<9>)max(port, meta.port); }
    action count(inout bit<8> c) { c = c + 1; }
    table t {
        key = { hdr.h.a: exact; }
        actions = { set_port; count(hdr.h.b); NoAction; }
        default_action = count(hdr.h.b);
    }
    apply {
        bit<8> m = max(hdr.h.a, hdr.h.b);
        bump(hdr.s[i].a, m);
        switch (t.apply().action_run) {
            count: { hdr.h.a = 1; }
            default: { }
        }
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
