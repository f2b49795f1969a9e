// packet-alignment: a parser whose extracts, skips and advances all move by whole bytes reads
// every header at a whole byte (a varbit's size is checked to be whole bytes); a deparser that
// emits a header with a varbit field does not write every header at a whole byte.
#include <v1model.p4>

header h_t { bit<4> a; bit<4> b; bit<8> len; }
header opt_t { bit<8> kind; varbit<32> data; }
struct headers_t { h_t h; opt_t opt; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.advance(16);
        pkt.extract(hdr.opt, (bit<32>)hdr.h.len);
        transition accept;
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { sm.egress_spec = 1; } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); pkt.emit(hdr.opt); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
