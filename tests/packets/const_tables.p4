/* const_tables.p4 -- tables matched by the generated C: const entries of
 * every match kind, and keyless tables.
 *
 * `routes` (lpm) lists its prefixes shortest first: the longest that matches
 * wins all the same.  `pairs` (two exact fields) misses into a default the
 * control plane may replace.  `signed_t` matches an int<8>.  `ranked`
 * (range and optional) has BMv2's @priority annotations: the smaller wins,
 * whatever the order (const entries take no P4_16 `priority=`).  `fixed` and `settable` have no key: their default actions run,
 * the second one replaceable.  `flags` records hit, miss and action_run.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header fields_t {
    bit<32> dst;
    bit<8>  a;
    bit<16> b;
    int<8>  s;
    bit<16> r;
    bit<8>  out1;
    bit<8>  out2;
    bit<8>  out3;
    bit<8>  out4;
    bit<8>  out5;
    bit<8>  out6;
    bit<8>  flags;
}

struct headers_t {
    ethernet_t ethernet;
    fields_t   f;
}

struct metadata_t { }

parser ConstParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.f);
        transition accept;
    }
}

control ConstVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ConstIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    action mark1(bit<8> v) { hdr.f.out1 = v; }
    action mark2(bit<8> v) { hdr.f.out2 = v; }
    action mark3(bit<8> v) { hdr.f.out3 = v; }
    action mark4(bit<8> v) { hdr.f.out4 = v; }
    action mark5(bit<8> v) { hdr.f.out5 = v; }
    action mark6(bit<8> v) { hdr.f.out6 = v; }

    table routes {
        key = { hdr.f.dst : lpm; }
        actions = { mark1; }
        const entries = {
            0x0a000000 &&& 0xff000000 : mark1(1);
            0x0a010000 &&& 0xffff0000 : mark1(2);
            0x0a010100 &&& 0xffffff00 : mark1(3);
            0x0a010101 : mark1(4);
        }
        const default_action = mark1(0xee);
    }

    table pairs {
        key = { hdr.f.a : exact; hdr.f.b : exact; }
        actions = { mark2; }
        const entries = {
            (1, 0x0203) : mark2(5);
            (1, 0x0204) : mark2(6);
            (2, 0x0203) : mark2(7);
        }
        default_action = mark2(0xd0);
    }

    table signed_t {
        key = { hdr.f.s : exact; }
        actions = { mark3; }
        const entries = {
            -1 : mark3(8);
            5 : mark3(9);
        }
        const default_action = mark3(0);
    }

    table ranked {
        key = { hdr.f.r : range; hdr.f.a : optional; }
        actions = { mark4; NoAction; }
        const entries = {
            @priority(5) (0x0000 .. 0x00ff, _) : mark4(0x10);
            @priority(1) (0x0080 .. 0x0100, 1) : mark4(0x11);
            @priority(3) (_, 2) : mark4(0x12);
        }
        default_action = NoAction();
    }

    table fixed {
        actions = { mark5; }
        const default_action = mark5(0x55);
    }

    table settable {
        actions = { mark6; }
        default_action = mark6(0x66);
    }

    apply {
        standard_metadata.egress_spec = 1;
        routes.apply();
        if (!pairs.apply().hit) {
            hdr.f.flags = hdr.f.flags | 1;
        }
        switch (signed_t.apply().action_run) {
            mark3: { hdr.f.flags = hdr.f.flags | 4; }
        }
        if (ranked.apply().hit) {
            hdr.f.flags = hdr.f.flags | 2;
        }
        fixed.apply();
        settable.apply();
    }
}

control ConstEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control ConstComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ConstDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.f);
    }
}

V1Switch(ConstParser(), ConstVerifyChecksum(), ConstIngress(), ConstEgress(),
         ConstComputeChecksum(), ConstDeparser()) main;
