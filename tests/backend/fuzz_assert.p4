/* fuzz_assert.p4 -- a program with a bug that one frame shows: p4odp fuzz with --asserts
 * must find it (tests/backend/test_datapath_fuzzer.py).
 *
 * A probe (etherType 0x88b5) carries a code; the program asserts that its code is never
 * 0x2a while it is received on port 1, which only that frame on that port breaks.  The
 * table `route` (exact on the ingress port) sends the frame on, as fuzz_assert.commands
 * says; a frame of another kind, or received on a port the table does not know, is
 * dropped.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header probe_t {
    bit<8>  code;
    bit<8>  ttl;
}

struct headers_t {
    ethernet_t ethernet;
    probe_t    probe;
}

struct metadata_t {
}

parser ProbeParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_probe;
            default: accept;
        }
    }

    state parse_probe {
        packet.extract(hdr.probe);
        transition accept;
    }
}

control ProbeVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ProbeIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    action send(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table route {
        key = { standard_metadata.ingress_port : exact; }
        actions = { send; drop; }
        default_action = drop();
    }

    apply {
        if (hdr.probe.isValid()) {
            assert(!(hdr.probe.code == 0x2a && standard_metadata.ingress_port == 1));
            hdr.probe.ttl = hdr.probe.ttl - 1;
        }
        route.apply();
    }
}

control ProbeEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control ProbeComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ProbeDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.probe);
    }
}

V1Switch(ProbeParser(), ProbeVerifyChecksum(), ProbeIngress(), ProbeEgress(), ProbeComputeChecksum(),
         ProbeDeparser()) main;
