// inlining: the control Sub and the parser Opt become part of where they are applied.
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; h_t opt; }
struct meta_t { }

parser Opt(packet_in pkt, out h_t o) {
    state start {
        pkt.extract(o);
        transition accept;
    }
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Opt() opt;
    state start {
        pkt.extract(hdr.h);
        opt.apply(pkt, hdr.opt);
        transition accept;
    }
}

control Sub(inout bit<8> v)(bit<8> amount) {
    action add() { v = v + amount; }
    table t { key = { v : exact; } actions = { add; NoAction; } }
    apply {
        if (v == 0) {
            return;
        }
        t.apply();
    }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    Sub(8w3) sub;
    apply { sub.apply(hdr.h.a); }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
