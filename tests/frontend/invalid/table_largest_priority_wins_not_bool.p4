// largest_priority_wins must be a boolean.
// expect error@37:33: largest_priority_wins must be a boolean constant
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> x;
    bit<8> y;
}

struct headers_t {
    h_t h;
}

struct metadata_t { }

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}

control Nop(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control Ing(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    action set(bit<8> v) {
        hdr.h.y = v;
    }
    table t {
        key = {
            hdr.h.x : ternary;
        }
        actions = { set; NoAction; }
        largest_priority_wins = 1;
        entries = {
            0x01 : set(1);
        }
    }
    apply {
        t.apply();
    }
}

control Eg(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}

control Dep(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.h);
    }
}

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
