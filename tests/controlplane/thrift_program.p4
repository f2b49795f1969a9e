/*
 * A program for tests/controlplane/test_thrift.py, which drives it with BMv2's simple_switch_CLI
 * through `p4odp thrift`: tables of every match kind, idle timeouts, a direct counter and a direct
 * meter, an action profile and a selector, counters, a meter, registers of bit<W> and int<W> cells
 * and a parser value set whose members are counted.
 */
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  kind;
    bit<8>  b;
    bit<16> c;
    bit<8>  d;
    bit<32> addr;
    bit<16> proto;
}
struct headers_t { h_t h; }
struct meta_t { bit<1> known; bit<2> color; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) protos;
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.proto) {
            protos: known;
            default: accept;
        }
    }
    state known { meta.known = 1; transition accept; }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    counter(8, CounterType.packets_and_bytes) seen;
    counter(2, CounterType.packets) protocols;
    meter(4, MeterType.packets) limiter;
    register<bit<16>>(4) last;
    register<int<8>>(2) signed_cells;
    direct_counter(CounterType.packets_and_bytes) per_route;
    direct_meter<bit<2>>(MeterType.bytes) route_meter;
    action_profile(16) ports;
    action_selector(HashAlgorithm.crc16, 16, 8) ecmp;

    action count(bit<32> cell) { seen.count(cell); }
    action route(bit<32> cell) { seen.count(cell); per_route.count(); route_meter.read(meta.color); }
    action no_route() { per_route.count(); route_meter.read(meta.color); }
    action send(bit<9> port) { sm.egress_spec = port; }
    action flood(bit<16> group) { sm.mcast_grp = group; }

    table classify {
        key = { hdr.h.kind: exact; hdr.h.b: ternary; hdr.h.c: range; hdr.h.d: optional; }
        actions = { count; NoAction; }
        default_action = NoAction();
        support_timeout = true;
    }
    table routes {
        key = { hdr.h.addr: lpm; }
        actions = { route; no_route; }
        default_action = no_route();
        counters = per_route;
        meters = route_meter;
        size = 1024;
    }
    table by_kind {
        key = { hdr.h.kind: exact; }
        actions = { send; flood; }
        implementation = ports;
    }
    table by_addr {
        key = { hdr.h.addr: exact; hdr.h.c: selector; }
        actions = { send; }
        implementation = ecmp;
    }
    apply {
        classify.apply();
        routes.apply();
        by_kind.apply();
        by_addr.apply();
        last.write(0, hdr.h.c);
        limiter.execute_meter(0, meta.color);
        protocols.count((bit<32>)meta.known);
    }
}

control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control Dep(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
