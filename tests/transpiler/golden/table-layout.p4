// table-layout: each table's key bytes, actions with ids and data layout, default action, size
// and const entries (PassResult.table_layouts, PassResult.actions).
#include <v1model.p4>

const bit<16> SIZE = 100;

header h_t { bit<4> a; bit<12> b; bit<32> dst; bit<48> mac; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action fwd(bit<9> port, bit<48> mac) { sm.egress_spec = port; hdr.h.mac = mac; }
    action tag(bit<4> which, bit<12> value) { hdr.h.b = value; hdr.h.a = which; }
    table by_key {
        key = { hdr.h.a : exact; hdr.h.b : ternary @name("b_field"); hdr.h.isValid() : exact; }
        actions = { fwd; tag(1); }                       // tag's first parameter is bound here
        default_action = fwd(3, 0x0000000000ff);
        size = SIZE;
        const entries = {
            (1, 0x010 &&& 0xff0, true) : tag(1, 7);
            (2, _, true) : fwd(4, 1);
        }
    }
    table by_prefix { key = { hdr.h.dst : lpm; } actions = { fwd; } }   // NoAction is added as default
    apply {
        by_key.apply();
        by_prefix.apply();
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
