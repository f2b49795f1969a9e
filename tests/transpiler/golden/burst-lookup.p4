// burst-lookup: the tables whose key is whole bytes of headers the parser always reads at the
// same whole byte (PassResult.burst_lookups): Ethernet at bit 0, IPv4 at bit 112, a tag at bit 144
// after 32 bits skipped; the inner header is at bit 112 on one path and 144 on another, a nibble
// field is no whole byte, metadata is no packet byte, a ternary table is a tuple space, a table of
// 256 entries stays in the caches.
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header ipv4_t { bit<4> version; bit<4> ihl; bit<8> tos; bit<16> len; bit<64> rest; bit<32> src; bit<32> dst; }
header inner_t { bit<16> id; }
header tag_t { bit<16> id; }
struct headers_t { ethernet_t eth; ipv4_t ip; tag_t tag; inner_t inner; }
struct meta_t { bit<16> m; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) { 0x0800: ip; 0x8100: tagged; 0x88b5: inner; default: accept; }
    }
    state ip { pkt.extract(hdr.ip); transition accept; }
    state tagged { pkt.advance(32); pkt.extract(hdr.tag); transition inner; }
    state inner { pkt.extract(hdr.inner); transition accept; }
}

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action to(bit<9> port) { sm.egress_spec = port; }
    table macs { key = { hdr.eth.dst : exact; } actions = { to; NoAction; } size = 1 << 16; }
    table routes { key = { hdr.ip.dst : lpm; } actions = { to; NoAction; } size = 1 << 16; }
    table pairs { key = { hdr.ip.src : exact; hdr.ip.tos : exact; } actions = { to; NoAction; } size = 1 << 16; }
    table tag { key = { hdr.tag.id : exact; } actions = { to; NoAction; } size = 1 << 16; }
    table inner { key = { hdr.inner.id : exact; } actions = { to; NoAction; } size = 1 << 16; }
    table nibble { key = { hdr.ip.ihl : exact; } actions = { to; NoAction; } size = 1 << 16; }
    table meta_key { key = { meta.m : exact; } actions = { to; NoAction; } size = 1 << 16; }
    table small { key = { hdr.eth.src : exact; } actions = { to; NoAction; } size = 256; }
    table wildcard { key = { hdr.eth.dst : ternary; } actions = { to; NoAction; } size = 1 << 16; }
    apply {
        macs.apply();
        routes.apply();
        pairs.apply();
        tag.apply();
        inner.apply();
        nibble.apply();
        meta_key.apply();
        small.apply();
        wildcard.apply();
    }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
