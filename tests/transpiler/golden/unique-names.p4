// unique-names: every declaration but top-level ones and parameters of actions and functions
// gets a name no other has (`x#2`); references follow; key texts kept as @name.
#include <v1model.p4>

const bit<8> x = 1;

header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; }
struct meta_t { bit<8> tmp; }

bit<8> twice(in bit<8> x) {
    bit<8> tmp = x + x;       // a local beside the parameter x: the parameter keeps its name
    return tmp;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        bit<8> tmp = 2;           // local to this state
        pkt.extract(hdr.h);
        meta.tmp = tmp;
        transition accept;
    }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    bit<8> tmp = 3;
    action set(bit<8> x) { hdr.h.b = x; }          // x: the parameter, not the constant
    action use_global() { hdr.h.b = .x; }
    table t {
        key = { tmp: exact; }                      // renamed: the key keeps the name "tmp"
        actions = { set; use_global; }
    }
    apply {
        {
            bit<8> tmp = 4;                        // shadows the control's tmp
            hdr.h.a = tmp + twice(x);
        }
        t.apply();
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.a = v; }          // the same name as Ing's set: renamed
    table t { key = { hdr.h.a: exact; } actions = { set; } }
    apply { t.apply(); }
}
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
