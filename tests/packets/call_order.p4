/* call_order.p4 -- each call runs once, where P4 runs it (the side-effect-ordering pass).
 *
 * bump(inout x) adds 1 to x and returns the new x.  Each statement below has
 * a call whose effect a naive C translation would repeat, skip or misplace:
 * - cells[bump(i) & 3].v += 16: the index is evaluated once (i + 1), and
 *   the cell read is the cell written;
 * - twice(bump(n)): the inner call first, its result passed on;
 * - n + (bump(n) + n): the first n is read before bump, the second after;
 * - if (bump(k) == 2): the condition's call runs once, before the branch;
 * - table t's key is bump(j): computed at each apply, so two applies look
 *   up j + 1 and j + 2 (an entry for 4 sets bit 0 of hits, 5 bit 1); the
 *   first apply's hit sets bit 4, the second's miss bit 5;
 * - for (c = c_in; bump(c) < 4; ): the condition runs before each
 *   iteration; loops counts the iterations;
 * - for (d = 0; d < 6; d = d + bump(u)): the update runs after each;
 *   steps counts the iterations;
 * - the control's local early = e + bump(e) is initialized before apply,
 *   e read before bump.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header co_t {
    bit<8> i;
    bit<8> n;
    bit<8> nest;   // twice(bump(n))
    bit<8> sum;    // n + (bump(n) + n)
    bit<8> k;
    bit<8> flag;   // 1 when bump(k) == 2, else 2
    bit<8> j;      // the key of t is bump(j)
    bit<8> hits;
    bit<8> c;
    bit<8> loops;
    bit<8> u;
    bit<8> steps;
    bit<8> e;
    bit<8> early;  // e + bump(e), before apply
}

header cell_t {
    bit<8> v;
}

struct headers_t {
    ethernet_t ethernet;
    co_t       co;
    cell_t[4]  cells;
}

struct metadata_t { }

bit<8> bump(inout bit<8> x) {
    x = x + 1;
    return x;
}

bit<8> twice(in bit<8> v) {
    return v + v;
}

parser CoParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.co);
        packet.extract(hdr.cells.next);
        packet.extract(hdr.cells.next);
        packet.extract(hdr.cells.next);
        packet.extract(hdr.cells.next);
        transition accept;
    }
}

control CoVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CoIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    bit<8> early = hdr.co.e + bump(hdr.co.e);

    action set_hit(bit<8> bit_) {
        hdr.co.hits = hdr.co.hits | bit_;
    }

    table t {
        key = { bump(hdr.co.j): exact @name("j"); }
        actions = { set_hit; NoAction; }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;
        hdr.cells[bump(hdr.co.i) & 3].v += 16;
        hdr.co.nest = twice(bump(hdr.co.n));
        hdr.co.sum = hdr.co.n + (bump(hdr.co.n) + hdr.co.n);
        if (bump(hdr.co.k) == 2) {
            hdr.co.flag = 1;
        } else {
            hdr.co.flag = 2;
        }
        if (t.apply().hit) {
            hdr.co.hits = hdr.co.hits | 0x10;
        }
        if (!t.apply().hit) {
            hdr.co.hits = hdr.co.hits | 0x20;
        }
        for (bit<8> c = hdr.co.c; bump(c) < 4; ) {
            hdr.co.loops = hdr.co.loops + 1;
        }
        for (bit<8> d = 0; d < 6; d = d + bump(hdr.co.u)) {
            hdr.co.steps = hdr.co.steps + 1;
        }
        hdr.co.early = early;
    }
}

control CoEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control CoComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CoDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.co);
        packet.emit(hdr.cells);
    }
}

V1Switch(CoParser(), CoVerifyChecksum(), CoIngress(), CoEgress(),
         CoComputeChecksum(), CoDeparser()) main;
