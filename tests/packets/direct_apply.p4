/* direct_apply.p4 -- a control applied by its type name; a control as a constructor argument.
 *
 * Sub.apply(hdr.h.a) invokes Sub without a declared instance (P4_16
 * direct type invocation): it is as if `Sub() Sub; Sub.apply(...)` were
 * declared in the caller, so the table t inside is the control-plane
 * object DirIngress.Sub.t.  Its entries: set(x) writes a, add(d) adds d;
 * a miss runs NoAction (a unchanged).
 *
 * Twice(inout x)(Step s) takes a control of type Step as a constructor
 * argument and applies it twice.  twice = Twice(one), with one an AddOne
 * instance declared before it: b + 2.  quad = Twice(dbl), with dbl a
 * Double instance: c << 1 twice, c * 4 mod 256.  The same Twice type does
 * what its argument does.  (ctor_call_arg.p4 passes a constructor call,
 * Twice(Double()), instead of a declared instance.)
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vals_t {
    bit<8> a; // Sub.apply: the key of DirIngress.Sub.t
    bit<8> b; // twice: + 1 + 1
    bit<8> c; // quad: << 1 << 1
}

struct headers_t {
    ethernet_t ethernet;
    vals_t     vals;
}

struct metadata_t { }

control Sub(inout bit<8> v) {
    action set(bit<8> x) {
        v = x;
    }

    action add(bit<8> d) {
        v = v + d;
    }

    table t {
        key = {
            v : exact;
        }
        actions = {
            set;
            add;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        t.apply();
    }
}

control Step(inout bit<8> x);

control AddOne(inout bit<8> x) {
    apply {
        x = x + 1;
    }
}

control Double(inout bit<8> x) {
    apply {
        x = x << 1;
    }
}

control Twice(inout bit<8> x)(Step s) {
    apply {
        s.apply(x);
        s.apply(x);
    }
}

parser DirParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.vals);
        transition accept;
    }
}

control DirVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DirIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    AddOne() one;
    Twice(one) twice;
    Double() dbl;
    Twice(dbl) quad;

    apply {
        standard_metadata.egress_spec = 1;
        Sub.apply(hdr.vals.a);
        twice.apply(hdr.vals.b);
        quad.apply(hdr.vals.c);
    }
}

control DirEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control DirComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control DirDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vals);
    }
}

V1Switch(DirParser(), DirVerifyChecksum(), DirIngress(), DirEgress(),
         DirComputeChecksum(), DirDeparser()) main;
