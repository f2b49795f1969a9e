/* inline_subcontrol.p4 -- sub-controls: what their apply does, as an inliner must keep it.
 *
 * - Early returns in the middle of its apply: the rest of its body is
 *   skipped, its inout argument is still written back, and the caller goes
 *   on after the apply.
 * - One Bump instance is applied in an if branch and in a switch case on a
 *   table's action_run.
 * - Level1 holds Level2, which holds Level3: three levels of instances, each
 *   marking its argument before and after the one it holds.
 * - Sum has a control-local variable whose initializer reads a parameter:
 *   it is initialized at every apply, from that apply's argument.
 * - Arguments are copied in at the call and out at the end, left to right:
 *   with the same field for two inout parameters the rightmost one's value
 *   is what the field ends with (Twin); an in parameter keeps the value of
 *   the call even when the inout one with the same argument changes (InAlias).
 * - Level3 exits when op is 4: the whole of ingress stops there (no marks
 *   after it, at any level; the last statement of ingress does not run);
 *   what was written to the arguments is still copied out; egress runs.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header sc_t {
    bit<8> op;
    bit<8> key;  // the key of the table pick
    bit<8> r;    // Early: 1 before its return, 2 after
    bit<8> rr;   // ingress, after Early: r + 0x10
    bit<8> b;    // Bump (+1) in the if branch and in the switch case; go_a adds 0x10
    bit<8> x1;   // Sum with p1
    bit<8> p1;
    bit<8> x2;   // Sum with p2
    bit<8> p2;
    bit<8> a;    // Twin(a, a)
    bit<8> c;    // InAlias(c, c)
    bit<8> n;    // the three levels' marks
    bit<8> z;    // ingress's last statement: 0xdd
    bit<8> g;    // egress: 0xee
}

struct headers_t {
    ethernet_t ethernet;
    sc_t       sc;
}

struct metadata_t { }

control Early(inout bit<8> v, in bit<8> op) {
    apply {
        v = 1;
        if (op == 1) {
            return;
        }
        v = 2;
    }
}

control Bump(inout bit<8> v) {
    apply {
        v = v + 1;
    }
}

// Marks 0x01 before its exit, 0x02 after it.
control Level3(inout bit<8> v, in bit<8> op) {
    apply {
        v = v | 0x01;
        if (op == 4) {
            exit;
        }
        v = v | 0x02;
    }
}

// Marks 0x10 before Level3, 0x20 after it.
control Level2(inout bit<8> v, in bit<8> op) {
    Level3() level3;

    apply {
        v = v | 0x10;
        level3.apply(v, op);
        v = v | 0x20;
    }
}

// Marks 0x40 before Level2, 0x80 after it.
control Level1(inout bit<8> v, in bit<8> op) {
    Level2() level2;

    apply {
        v = v | 0x40;
        level2.apply(v, op);
        v = v | 0x80;
    }
}

// v := p + v.  acc starts from p at each apply (the second apply would give
// p1 + x1 + x2 if acc kept its value from the first).
control Sum(inout bit<8> v, in bit<8> p) {
    bit<8> acc = p;

    apply {
        acc = acc + v;
        v = acc;
    }
}

// Twin(a, a): x and y are both copies of a; x := a + 1, y := a + 0x10; copied out x, then y:
// a ends as a + 0x10 (a + 0x11 if the two parameters were the same location).
control Twin(inout bit<8> x, inout bit<8> y) {
    apply {
        x = x + 1;
        y = y + 0x10;
    }
}

// InAlias(c, c): orig keeps c's value at the call: v := c + 1 + c (not 2c + 2).
control InAlias(inout bit<8> v, in bit<8> orig) {
    apply {
        v = v + 1;
        v = v + orig;
    }
}

parser ScParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.sc);
        transition accept;
    }
}

control ScVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ScIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    Early() early;
    Bump() bump;
    Sum() sum;
    Twin() twin;
    InAlias() in_alias;
    Level1() level1;

    action go_a() {
        hdr.sc.b = hdr.sc.b + 0x10;
    }

    action go_b() {
    }

    table pick {
        key = {
            hdr.sc.key : exact;
        }
        actions = {
            go_a;
            go_b;
            NoAction;
        }
        const entries = {
            1 : go_a();
            2 : go_b();
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;
        early.apply(hdr.sc.r, hdr.sc.op);
        hdr.sc.rr = hdr.sc.r + 0x10;
        if (hdr.sc.op == 2) {
            bump.apply(hdr.sc.b);
        }
        switch (pick.apply().action_run) {
            go_a: {
                bump.apply(hdr.sc.b);
            }
        }
        sum.apply(hdr.sc.x1, hdr.sc.p1);
        sum.apply(hdr.sc.x2, hdr.sc.p2);
        twin.apply(hdr.sc.a, hdr.sc.a);
        in_alias.apply(hdr.sc.c, hdr.sc.c);
        level1.apply(hdr.sc.n, hdr.sc.op);
        hdr.sc.z = 0xdd;
    }
}

control ScEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply {
        hdr.sc.g = 0xee;
    }
}

control ScComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ScDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.sc);
    }
}

V1Switch(ScParser(), ScVerifyChecksum(), ScIngress(), ScEgress(),
         ScComputeChecksum(), ScDeparser()) main;
