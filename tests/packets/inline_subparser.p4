/* inline_subparser.p4 -- sub-parsers: what their apply does, as an inliner must keep it.
 *
 * Tlv has an out header and an inout counter, a parser-local variable that
 * starts again from its initializer at every apply, a variable declared in
 * a state, and a select of its own.  The top parser applies the same Tlv
 * instance from two of its states: on one path once, on another twice, the
 * second apply reading the counter the first one wrote back.  Pair holds a
 * Tlv of its own (a sub-parser inside a sub-parser); its local has the
 * name of Tlv's, and Tlv, Pair and the top parser each have a state
 * `done`: each keeps its own.
 *
 * Guard rejects: a failed verify() gives its error, a select with no match
 * error.NoMatch.  A reject in a sub-parser ends the whole parse at once
 * (nothing after the apply runs); as always in v1model the packet still
 * goes to ingress, which picks the port from standard_metadata.parser_error.
 * Guard extracts nothing, so the output does not depend on whether a
 * rejected sub-parser's out arguments are written back (copy-out happens
 * only when it accepts).
 *
 * Opt shows that an out header argument is invalid when the sub-parser
 * does not extract it, even when it was valid before the apply; the bytes
 * an invalidated header was extracted from are gone from the packet.
 */

#include <core.p4>
#include <v1model.p4>

error {
    TooBig
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header res_t {
    bit<8> count; // the counter: its start value, then what ingress reads back
    bit<8> flags; // 0x80: the top parser's done state ran; 1, 2, 4: t1, t2, opt valid
}

header tlv_t {
    bit<8> kind;
    bit<8> val;
    bit<8> mark;  // written by Tlv: how many steps it counted
}

header opt_t {
    bit<16> data;
}

struct headers_t {
    ethernet_t ethernet;
    res_t      res;
    tlv_t      t1;
    tlv_t      t2;
    opt_t      opt;
}

struct metadata_t {
    bit<8> count;
}

// kind 1: count += val; kind 2: count += 2 * val; any other kind: count unchanged.
// mark := the steps taken: 1 for the extract, 1 more for kind 1, 2 more for kind 2.
parser Tlv(packet_in packet, out tlv_t t, inout bit<8> count) {
    bit<8> steps = 0; // 0 again at every apply

    state start {
        packet.extract(t);
        steps = steps + 1;
        bit<8> k = t.kind;
        transition select(k) {
            1: add;
            2: twice;
            default: done;
        }
    }

    state add {
        count = count + t.val;
        steps = steps + 1;
        transition done;
    }

    state twice {
        count = count + t.val + t.val;
        steps = steps + 2;
        transition done;
    }

    state done {
        t.mark = steps;
        transition accept;
    }
}

// One Tlv into a; a second one into b unless a's kind is 0 (then b, never written, is invalid).
// a.mark gets 0x40, Pair's own steps, or'ed in.
parser Pair(packet_in packet, out tlv_t a, out tlv_t b, inout bit<8> count) {
    Tlv() tlv;
    bit<8> steps = 0x40;

    state start {
        tlv.apply(packet, a, count);
        transition select(a.kind) {
            0: done;
            default: second;
        }
    }

    state second {
        tlv.apply(packet, b, count);
        transition done;
    }

    state done {
        a.mark = a.mark | steps;
        transition accept;
    }
}

// Looks at the next byte: error.TooBig when it is above limit, else error.NoMatch when it is odd.
parser Guard(packet_in packet, in bit<8> limit) {
    state start {
        bit<8> peek = packet.lookahead<bit<8>>();
        verify(peek <= limit, error.TooBig);
        transition select(peek[0:0]) {
            0: accept;
        }
    }
}

// Extracts o when want is 1; otherwise o is left unwritten, and so invalid.
parser Opt(packet_in packet, out opt_t o, in bit<8> want) {
    state start {
        transition select(want) {
            1: get;
            default: accept;
        }
    }

    state get {
        packet.extract(o);
        transition accept;
    }
}

parser TopParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    Tlv() tlv;
    Pair() pair;
    Guard() guard;
    Opt() opt;

    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.res);
        meta.count = hdr.res.count;
        transition select(hdr.ethernet.etherType) {
            0x0001: one;
            0x0002: one;
            0x0003: nested;
            0x0004: guarded;
            0x0005: options;
            default: accept;
        }
    }

    // EtherType 1: one Tlv; 2: this one, then a second from the state `second`.
    state one {
        tlv.apply(packet, hdr.t1, meta.count);
        transition select(hdr.ethernet.etherType) {
            0x0002: second;
            default: done;
        }
    }

    state second {
        tlv.apply(packet, hdr.t2, meta.count);
        transition done;
    }

    state nested {
        pair.apply(packet, hdr.t1, hdr.t2, meta.count);
        transition done;
    }

    // t1 is extracted only when Guard accepts.
    state guarded {
        guard.apply(packet, 0x80);
        packet.extract(hdr.t1);
        transition done;
    }

    // res.count bit 0: the first Opt extracts; bit 1: the second one does.
    state options {
        opt.apply(packet, hdr.opt, hdr.res.count & 1);
        opt.apply(packet, hdr.opt, (hdr.res.count >> 1) & 1);
        transition done;
    }

    state done {
        hdr.res.flags = hdr.res.flags | 0x80;
        transition accept;
    }
}

control TopVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control TopIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.NoError) {
            standard_metadata.egress_spec = 1;
            hdr.res.count = meta.count;
        } else if (standard_metadata.parser_error == error.NoMatch) {
            standard_metadata.egress_spec = 2;
        } else if (standard_metadata.parser_error == error.TooBig) {
            standard_metadata.egress_spec = 3;
        } else {
            standard_metadata.egress_spec = 4;
        }
        if (hdr.t1.isValid()) {
            hdr.res.flags = hdr.res.flags | 1;
        }
        if (hdr.t2.isValid()) {
            hdr.res.flags = hdr.res.flags | 2;
        }
        if (hdr.opt.isValid()) {
            hdr.res.flags = hdr.res.flags | 4;
        }
    }
}

control TopEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control TopComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control TopDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.res);
        packet.emit(hdr.t1);
        packet.emit(hdr.t2);
        packet.emit(hdr.opt);
    }
}

V1Switch(TopParser(), TopVerifyChecksum(), TopIngress(), TopEgress(),
         TopComputeChecksum(), TopDeparser()) main;
