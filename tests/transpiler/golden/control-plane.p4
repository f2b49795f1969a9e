// control-plane: the objects a controller sees, listed once, as P4Info lists them.
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
@controller_header("packet_in") header packet_in_t { bit<16> port; }
struct headers_t { packet_in_t packet_in; h_t h; }
struct meta_t { }
struct learn_t { bit<8> a; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<8>>(4) kinds;
    value_set<bit<8>>(4) unused_kinds;
    state start { pkt.extract(hdr.h); transition select(hdr.h.a) { kinds: accept; default: reject; } }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    counter(8, CounterType.packets) hits;
    // Called only by another action: inlined there, not an action of its own; its digest is the caller's.
    action note() { digest(1, { hdr.h.b }); }
    action learn() { digest<learn_t>(1, { hdr.h.a }); note(); }
    action count(bit<32> cell) { hits.count(cell); }
    table seen { key = { hdr.h.a : exact; } actions = { learn; count; } }
    table after_exit { key = { hdr.h.b : exact; } actions = { count; } }
    table never_applied { actions = { count; } }
    apply {
        seen.apply();
        learn();
        if (hdr.h.a == 0) {
            exit;
            after_exit.apply();  // listed all the same, as p4c lists it: the switch keeps it
        }
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
