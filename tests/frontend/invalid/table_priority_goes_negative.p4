// Entry priorities counted down by priority_delta from 12 reach -8 at the third entry.
// expect error@41:26: this entry's priority, counted from the one before by priority_delta, would be -8
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
        priority_delta = 10;
        entries = {
            priority=12: 0x01 : set(1);
                         0x02 : set(2);
                         0x03 : set(3);
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
