// type-lowering: the C representation of each scalar type (PassResult.c_types).
#include <v1model.p4>

enum Color { RED, GREEN }
enum bit<4> Kind { DATA = 1, PROBE = 2 }
type bit<12> vid_t;
error { Bad }

header h_t { bit<1> flag; bit<7> small; bit<16> port; bit<48> mac; bit<128> addr; }
struct headers_t { h_t h; }
struct meta_t { int<8> delta; bool seen; Color color; Kind kind; vid_t vid; bit<33> wide; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        verify(hdr.h.flag == 1, error.Bad);
        transition accept;
    }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        meta.seen = meta.delta < 0;
        meta.wide = (bit<33>)hdr.h.port;
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
