/*
 * Every kind of entity P4Info lists, for tests/controlplane/test_p4info.py: tables of each match
 * kind with generated and given key names, action parameters of `type`s (one translated for
 * P4Runtime) and serializable enums, counters, meters and registers (direct ones too), an action
 * profile and selectors declared and in place, value sets, a digest, controller headers with a
 * struct inside, a sub-control, @id, @pkginfo and annotations of both kinds.
 */
#include <core.p4>
#include <v1model.p4>

@p4runtime_translation("p4.org/test/v1/PortId_t", 32)
type bit<9> PortId_t;
type bit<16> Tag_t;
enum bit<8> Reason_t { MISS = 1, LEARN = 2 }

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}
header ipv4_t {
    bit<8>  ttl;
    bit<32> src;
    bit<32> dst;
}
struct cpu_reason_t { Reason_t reason; bit<7> pad; }
@controller_header("packet_in")
header packet_in_t {
    PortId_t     ingress_port;
    cpu_reason_t why;
}
@controller_header("packet_out")
header packet_out_t {
    @id(7) bit<9> egress_port;
    bit<7> pad;
}
struct headers_t {
    packet_in_t  packet_in;
    ethernet_t   ethernet;
    ipv4_t       ipv4;
}
struct learn_t { bit<48> src; PortId_t port; }
struct ether_match_t {
    @match(ternary) bit<16> ether_type;
    bit<8> first_byte;
}
struct meta_t { learn_t learn; bit<16> hash; Tag_t tag; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) ipv4_types;
    value_set<ether_match_t>(8) tunnels;
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ipv4_types: ipv4;
            default: check;
        }
    }
    state check {
        transition select(hdr.ethernet.ether_type, pkt.lookahead<bit<8>>()) {
            tunnels: ipv4;
            default: accept;
        }
    }
    state ipv4 { pkt.extract(hdr.ipv4); transition accept; }
}

control Acl(inout headers_t hdr, inout standard_metadata_t sm) {
    counter(64, CounterType.packets) hits;
    action deny() { mark_to_drop(sm); hits.count(0); }
    table rules {
        key = { hdr.ipv4.src: ternary; hdr.ipv4.dst: range; hdr.ipv4.ttl: optional; }
        actions = { deny; NoAction; }
        const default_action = NoAction();
        size = 256;
    }
    apply { rules.apply(); }
}

control MyIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    direct_counter(CounterType.packets_and_bytes) routed;
    meter(32, MeterType.bytes) policer;
    register<bit<32>>(128) last_seen;
    action_selector(HashAlgorithm.crc16, 1024, 14) ecmp;
    Acl() acl;

    @brief("forward out of a port")
    action forward(PortId_t port, @name("tag_value") Tag_t tag) {
        sm.egress_spec = (bit<9>)port;
        meta.tag = tag;
    }
    action set_reason(Reason_t reason) { hdr.packet_in.why.reason = reason; }
    action learn() { digest(1, meta.learn); }
    action count_only(bit<8> cell) { last_seen.write((bit<32>)cell, 1); }
    @id(0x42) action to_cpu() { sm.egress_spec = 510; }
    action unused() { }

    @my_note("kept", 3) @id(5)
    table mac {
        key = {
            hdr.ethernet.dst: exact;
            hdr.ethernet.ether_type & 0xff00: exact;
            hdr.ipv4.isValid(): exact;
            meta.tag: exact @name("tag");
        }
        actions = { forward; @tableonly learn; @defaultonly to_cpu; set_reason; }
        default_action = to_cpu();
        counters = routed;
        support_timeout = true;
    }
    table routes {
        key = { hdr.ipv4.dst: lpm; meta.hash: selector; }
        actions = { forward; }
        implementation = ecmp;
        @name("routes_meter") meters = direct_meter<bit<2>>(MeterType.packets);
    }
    table fixed {
        key = { hdr.ipv4.ttl: exact; }
        actions = { forward; NoAction; }
        const entries = { 1: forward((PortId_t)1, (Tag_t)7); }
        default_action = forward((PortId_t)2, (Tag_t)0x10);
        @name("fixed_profile") implementation = action_profile(16);
    }
    table never_applied {
        key = { hdr.ethernet.src: exact; }
        actions = { unused; }
    }
    @MixedKV[label="text", ok=true, n=2*3]
    table dead {
        actions = { NoAction; }
    }
    apply {
        count_only(3);
        if (false) { dead.apply(); }
        mac.apply();
        routes.apply();
        fixed.apply();
        acl.apply(hdr, sm);
        bit<2> color;
        policer.execute_meter(0, color);
    }
}

control MyEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control NoChecksum(inout headers_t hdr, inout meta_t meta) { apply { } }
control MyDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.ethernet); pkt.emit(hdr.ipv4); }
}

@pkginfo(name = "p4info_entities", version = "1.0")
V1Switch(P(), NoChecksum(), MyIngress(), MyEgress(), NoChecksum(), MyDeparser()) main;
