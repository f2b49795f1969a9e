/* main_constructor_args.p4 -- blocks given to V1Switch with constructor
 * arguments (p4c's parser-unroll-t1-cond): the parser extracts the second
 * header only when its `both` is true, and ingress sends to its `port` and
 * writes its `mark`, a constructor parameter of a nested control too.
 */

#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; }
header g_t { bit<8> c; }
struct headers_t { h_t h; g_t g; }
struct metadata_t { }

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta,
         inout standard_metadata_t standard_metadata)(bool both) {
    state start {
        packet.extract(hdr.h);
        transition select(both) {
            true: second;
            false: accept;
        }
    }
    state second {
        packet.extract(hdr.g);
        transition accept;
    }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control Mark(inout headers_t hdr)(bit<8> value) {
    apply { hdr.h.b = value; }
}
control I(inout headers_t hdr, inout metadata_t meta,
          inout standard_metadata_t standard_metadata)(bit<9> port, bit<8> mark) {
    Mark(mark) m;
    apply {
        standard_metadata.egress_spec = port;
        m.apply(hdr);
        if (hdr.g.isValid()) {
            hdr.g.c = hdr.g.c + 1;
        }
    }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.h); packet.emit(hdr.g); } }
V1Switch(P(true), VC(), I(3, 0x5a), E(), CC(), D()) main;
