// test_exhaustion.py's switch: what port 0 receives with op 1 goes to multicast group 1; every
// other packet goes where table `keys`, of 1024 entries at most, sends its key (a miss drops),
// with op 2 cloned at ingress to mirror session 1, with op 3 at egress to session 2.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> op; bit<16> key; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action to(bit<9> port) { sm.egress_spec = port; }
    action drop_it() { mark_to_drop(sm); }
    table keys {
        key = { hdr.h.key : exact; }
        actions = { to; drop_it; }
        default_action = drop_it();
        size = 1024;
    }
    apply {
        if (sm.ingress_port == 0 && hdr.h.op == 1) {
            sm.mcast_grp = 1;
        } else {
            keys.apply();
            if (hdr.h.op == 2) { clone(CloneType.I2E, 1); }
        }
    }
}

control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 3 && sm.instance_type == 0) { clone(CloneType.E2E, 2); }
    }
}
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
