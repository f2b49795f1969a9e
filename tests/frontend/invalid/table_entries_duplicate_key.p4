// Two const entries that match the same keys: 5 and 5 &&& 0xff on a bit<8> lpm field are one prefix.
// expect error@24:13: table t: this entry's key is that of an earlier entry

#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
}
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.h.b = v; }
    table t {
        key = { hdr.h.a : lpm; hdr.h.b : exact; }
        actions = { set; NoAction; }
        const entries = {
            (5, 1) : set(1);
            (5 &&& 0xff, 1) : set(2);
        }
    }
    apply { t.apply(); }
}
control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
