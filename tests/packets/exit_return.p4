/* exit_return.p4 -- exit and return in actions and controls.
 *
 * `return` leaves the action or control it is in; the caller goes on.
 * `exit` leaves the whole ingress control, from wherever it is (an action
 * called directly, a table's action); egress still runs, and an exit in
 * egress still lets the deparser run.  Each step of ingress writes a mark
 * into the packet, so the output shows which steps ran.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header steps_t {
    bit<8> op;
    bit<8> a;   // maybe_exit: 1 before the exit, 2 after
    bit<8> b;   // maybe_return: 1 before the return, 2 after
    bit<8> c;   // Sub: 1 before its return, 2 after
    bit<8> d;   // ingress, after everything but the final return check
    bit<8> e;   // egress: 0xee before its exit, 0xef after
}

struct headers_t {
    ethernet_t ethernet;
    steps_t    steps;
}

struct metadata_t { }

parser ExitParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.steps);
        transition accept;
    }
}

control ExitVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control Sub(inout steps_t steps) {
    apply {
        steps.c = 1;
        if (steps.op == 3) {
            return;
        }
        steps.c = 2;
    }
}

control ExitIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    Sub() sub;

    action maybe_exit() {
        hdr.steps.a = 1;
        if (hdr.steps.op == 1) {
            exit;
        }
        hdr.steps.a = 2;
    }

    action maybe_return() {
        hdr.steps.b = 1;
        if (hdr.steps.op == 2) {
            return;
        }
        hdr.steps.b = 2;
    }

    action stop() {
        exit;
    }

    table stopper {
        key = {
            hdr.steps.op : exact;
        }
        actions = {
            stop;
            NoAction;
        }
        const entries = {
            6 : stop();
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;
        maybe_exit();
        maybe_return();
        sub.apply(hdr.steps);
        stopper.apply();
        if (hdr.steps.op == 4) {
            return;
        }
        hdr.steps.d = 0xdd;
    }
}

control ExitEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply {
        hdr.steps.e = 0xee;
        if (hdr.steps.op == 5) {
            exit;
        }
        hdr.steps.e = 0xef;
    }
}

control ExitComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ExitDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.steps);
    }
}

V1Switch(ExitParser(), ExitVerifyChecksum(), ExitIngress(), ExitEgress(),
         ExitComputeChecksum(), ExitDeparser()) main;
