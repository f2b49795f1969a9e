/* counters: a counter array counted by ingress, read back by the STF test's
 * check_counter; entries added between packets apply only to later packets. */
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header tag_t { bit<8> key; bit<8> seen; }
struct headers { ethernet_t eth; tag_t tag; }
struct meta_t { }

parser Parse(packet_in pkt, out headers hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); pkt.extract(hdr.tag); transition accept; }
}
control Verify(inout headers hdr, inout meta_t meta) { apply { } }

control CountIngress(inout headers hdr, inout meta_t meta, inout standard_metadata_t sm) {
    counter(4, CounterType.packets_and_bytes) per_key;
    action forward(bit<9> port, bit<8> mark) { sm.egress_spec = port; hdr.tag.seen = mark; }
    action drop() { mark_to_drop(sm); }
    table route {
        key = { hdr.tag.key : exact; }
        actions = { forward; drop; }
        default_action = drop();
    }
    apply {
        per_key.count((bit<32>)hdr.tag.key);
        route.apply();
    }
}
control CountEgress(inout headers hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Compute(inout headers hdr, inout meta_t meta) { apply { } }
control Deparse(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.tag); } }

V1Switch(Parse(), Verify(), CountIngress(), CountEgress(), Compute(), Deparse()) main;
