// table-structures: each table's lookup structure (PassResult.table_structures).
#include <v1model.p4>

header h_t { bit<8> a; bit<32> dst; bit<128> dst6; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.a = v; }
    table keyless { actions = { set; } default_action = set(1); }
    table hashed { key = { hdr.h.a : exact; } actions = { set; NoAction; } size = 64; }
    table wildcard { key = { hdr.h.a : ternary; } actions = { set; NoAction; } }
    table lpm4 { key = { hdr.h.dst : lpm; } actions = { set; NoAction; } size = 1 << 16; }
    table lpm6 { key = { hdr.h.dst6 : lpm; } actions = { set; NoAction; } }
    table lpm_exact { key = { hdr.h.a : exact; hdr.h.dst : lpm; } actions = { set; NoAction; } }
    table consts { key = { hdr.h.a : ternary; } actions = { set; } const entries = { 1 &&& 3 : set(2); } }
    table wide_consts { key = { hdr.h.dst6 : exact; } actions = { set; } const entries = { 1 : set(2); } }
    apply {
        keyless.apply();
        hashed.apply();
        wildcard.apply();
        lpm4.apply();
        lpm6.apply();
        lpm_exact.apply();
        consts.apply();
        wide_consts.apply();
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
