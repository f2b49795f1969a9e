// dead-code: unreachable statements and parser states, unused tables, actions, functions,
// value sets and variables removed (but the tables and value sets the control plane sees).
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; }
struct meta_t { }

bit<8> never_called(in bit<8> x) { return x + 1; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<8>>(4) never_selected;
    state start { pkt.extract(hdr.h); transition accept; }
    state orphan { transition accept; }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    bit<8> unused;
    action set(bit<8> v) { hdr.h.a = v; }
    action only_in_unused_table() { hdr.h.b = 0; }
    table used { key = { hdr.h.a : exact; } actions = { set; NoAction; } }
    table never_applied { actions = { only_in_unused_table; } }
    table after_exit { actions = { set; } }
    apply {
        used.apply();
        if (hdr.h.a == 0) {
            exit;
            after_exit.apply();  // kept: P4Info lists it, as p4c's does
        }
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
