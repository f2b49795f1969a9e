/* call_expansion.p4 -- calls of actions and functions, expanded where they are made (the call-expansion pass).
 *
 * Arguments are copied in at the call and out at the end, even when the callee exits:
 * - mix(lo = x, hi = y) and mix(..., salt = 3): named arguments in any order, a defaulted
 *   parameter (salt = 0x0f) left out or given;
 * - bit<8> low = lowest_set(bits, scanned): a function as an initializer, whose return inside a
 *   for loop leaves the loop and the function (scanned counts the iterations; the 0x80 after
 *   the loop is added only when no bit is set);
 * - put(cells[i].v, x): an out argument whose index the action changes (i + 1); the cell
 *   written is cells[i] as it was at the call;
 * - table t lists count(hdr.h.cnt): bound to an inout argument, its default action
 *   count(hdr.h.cnt, 1) too; switch (t.apply().action_run) follows it (sw 1, set: 2, else 3).
 *   count exits when cnt wraps to 0: cnt is written back, nothing after the apply runs;
 * - set(bit<9> port) calls note(), which writes the control's own `port` (loc = 0x77), not
 *   set's parameter (the egress port, from the entry);
 * - stamp(e, op): e is a copy (the direct write of 0x99 is overwritten by the copy-out); with
 *   op 1 it exits after e + 1, copied out before the exit, and `after` is never written.
 */

#include <core.p4>
#include <v1model.p4>

header ce_t {
    bit<8> op;
    bit<8> x;
    bit<8> y;
    bit<8> m1;       // mix(lo = x, hi = y)
    bit<8> m2;       // mix(hi = y, lo = x, salt = 3)
    bit<8> bits;
    bit<8> scanned;  // lowest_set's iterations, + 0x80 when no bit is set
    bit<8> low;      // lowest_set(bits): the lowest set bit, 0xff if none
    bit<8> i;        // put: the index, incremented
    bit<8> cnt;      // count's inout argument
    bit<8> sw;       // the switch case run
    bit<8> loc;      // the control's port after the table
    bit<8> e;        // stamp's inout argument
    bit<8> after;    // 0xaa when stamp did not exit
}

header cell_t {
    bit<8> v;
}

struct headers_t {
    ce_t      ce;
    cell_t[4] cells;
}

struct metadata_t { }

bit<8> mix(in bit<8> hi, in bit<8> lo, in bit<8> salt = 0x0f) {
    return (hi & 0xf0) | (lo & salt);
}

bit<8> lowest_set(in bit<8> v, inout bit<8> scanned) {
    for (bit<8> n = 0; n < 8; n = n + 1) {
        scanned = scanned + 1;
        if (((v >> n) & 1) == 1) {
            return n;
        }
    }
    scanned = scanned + 0x80;
    return 0xff;
}

parser CeParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ce);
        packet.extract(hdr.cells.next);
        packet.extract(hdr.cells.next);
        packet.extract(hdr.cells.next);
        packet.extract(hdr.cells.next);
        transition accept;
    }
}

control CeVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CeIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    bit<8> port = 0;

    action put(out bit<8> cell, in bit<8> x) {
        hdr.ce.i = hdr.ce.i + 1;
        cell = x;
    }

    action count(inout bit<8> c, bit<8> by) {
        c = c + by;
        if (c == 0) {
            exit;
        }
    }

    action note() {
        port = 0x77;
    }

    action set(bit<9> port) {
        note();
        standard_metadata.egress_spec = port;
    }

    action stamp(inout bit<8> x, in bit<8> op) {
        hdr.ce.e = 0x99;
        x = x + 1;
        if (op == 1) {
            exit;
        }
        x = x + 1;
    }

    table t {
        key = { hdr.ce.op : exact; }
        actions = { count(hdr.ce.cnt); set; NoAction; }
        default_action = count(hdr.ce.cnt, 1);
    }

    apply {
        standard_metadata.egress_spec = 1;
        hdr.ce.m1 = mix(lo = hdr.ce.x, hi = hdr.ce.y);
        hdr.ce.m2 = mix(hi = hdr.ce.y, lo = hdr.ce.x, salt = 3);
        bit<8> low = lowest_set(hdr.ce.bits, hdr.ce.scanned);
        hdr.ce.low = low;
        put(hdr.cells[hdr.ce.i].v, hdr.ce.x);
        switch (t.apply().action_run) {
            count: { hdr.ce.sw = 1; }
            set: { hdr.ce.sw = 2; }
            default: { hdr.ce.sw = 3; }
        }
        hdr.ce.loc = port;
        stamp(hdr.ce.e, hdr.ce.op);
        hdr.ce.after = 0xaa;
    }
}

control CeEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control CeComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control CeDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ce);
        packet.emit(hdr.cells);
    }
}

V1Switch(CeParser(), CeVerifyChecksum(), CeIngress(), CeEgress(),
         CeComputeChecksum(), CeDeparser()) main;
