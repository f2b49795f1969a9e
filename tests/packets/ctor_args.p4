/* ctor_args.p4 -- constructor parameters of controls and parsers.
 *
 * A constructor argument is a compile-time value of the instance: each
 * instance of a control or parser has its own.
 * - Add(amount) adds its amount: two instances with different amounts.
 * - Outer(n) holds an Add(n): the inner instance gets the outer one's
 *   constructor argument.
 * - Pick(flag): a bool argument chooses a branch.
 * - Setter(dflt): the argument of the table's const default_action; two
 *   instances, each with its own table (entries added by full name) and
 *   its own default.
 * - Maybe(want) is a parser: the argument is a select case; two instances.
 * (subcontrol_args.p4 has more instances of an Add-like control.)
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vals_t {
    bit<8> kind; // Maybe: 1 extracts a, 2 extracts b
    bit<8> x;    // add3, then add10
    bit<8> y;    // outer5: Add(5) twice
    bit<8> z;    // up: Pick(true)
    bit<8> w;    // down: Pick(false)
    bit<8> k;    // the key of both Setter tables
    bit<8> t1;   // s1: Setter(0x11)
    bit<8> t2;   // s2: Setter(0x22)
}

header opt_t {
    bit<16> data;
}

struct headers_t {
    ethernet_t ethernet;
    vals_t     vals;
    opt_t      a;
    opt_t      b;
}

struct metadata_t { }

control Add(inout bit<8> v)(bit<8> amount) {
    apply {
        v = v + amount;
    }
}

control Outer(inout bit<8> v)(bit<8> n) {
    Add(n) inner;

    apply {
        inner.apply(v);
        inner.apply(v);
    }
}

// flag: v + 1; !flag: v - 1.
control Pick(inout bit<8> v)(bool flag) {
    apply {
        if (flag) {
            v = v + 1;
        } else {
            v = v - 1;
        }
    }
}

control Setter(inout bit<8> v, in bit<8> k)(bit<8> dflt) {
    action set(bit<8> x) {
        v = x;
    }

    table t {
        key = {
            k : exact;
        }
        actions = {
            set;
        }
        const default_action = set(dflt);
    }

    apply {
        t.apply();
    }
}

// Extracts o when kind is want; otherwise o is invalid.
parser Maybe(packet_in packet, out opt_t o, in bit<8> kind)(bit<8> want) {
    state start {
        transition select(kind) {
            want: get;
            default: accept;
        }
    }

    state get {
        packet.extract(o);
        transition accept;
    }
}

parser CtorParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    Maybe(8w1) maybe_a;
    Maybe(8w2) maybe_b;

    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.vals);
        maybe_a.apply(packet, hdr.a, hdr.vals.kind);
        maybe_b.apply(packet, hdr.b, hdr.vals.kind);
        transition accept;
    }
}

control CtorVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CtorIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    Add(8w3) add3;
    Add(8w10) add10;
    Outer(8w5) outer5;
    Pick(true) up;
    Pick(false) down;
    Setter(8w0x11) s1;
    Setter(8w0x22) s2;

    apply {
        add3.apply(hdr.vals.x);
        add10.apply(hdr.vals.x);
        outer5.apply(hdr.vals.y);
        up.apply(hdr.vals.z);
        down.apply(hdr.vals.w);
        s1.apply(hdr.vals.t1, hdr.vals.k);
        s2.apply(hdr.vals.t2, hdr.vals.k);
        // Port 2: a was extracted (a + 1); port 3: b (b + 2); else port 1.
        standard_metadata.egress_spec = 1;
        if (hdr.a.isValid()) {
            standard_metadata.egress_spec = 2;
            hdr.a.data = hdr.a.data + 1;
        }
        if (hdr.b.isValid()) {
            standard_metadata.egress_spec = 3;
            hdr.b.data = hdr.b.data + 2;
        }
    }
}

control CtorEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control CtorComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CtorDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vals);
        packet.emit(hdr.a);
        packet.emit(hdr.b);
    }
}

V1Switch(CtorParser(), CtorVerifyChecksum(), CtorIngress(), CtorEgress(),
         CtorComputeChecksum(), CtorDeparser()) main;
