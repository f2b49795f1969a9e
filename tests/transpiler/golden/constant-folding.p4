// constant-folding: constants replaced by their values, constant expressions folded,
// `if (true)` / `if (false)` and `&&` / `||` / `?:` with a literal simplified.
#include <v1model.p4>

const bit<8> BASE = 8w10;
const bit<8> STEP = BASE * 2 + 1;
const bool DEBUG = false;

header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        hdr.h.a = STEP + (bit<8>)(16w0x1ff >> 4);
        if (DEBUG) {
            hdr.h.b = 1;
        } else {
            hdr.h.b = DEBUG ? 8w1 : BASE;
        }
        if (!DEBUG && hdr.h.isValid()) {
            sm.egress_spec = 1;
        }
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
