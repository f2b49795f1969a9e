/* hit_miss.p4 -- table.apply().hit and .miss.
 *
 * A hit is a hit whatever the entry's action (NoAction too); a miss is a
 * miss even when the default action does something.  Two tables on the
 * same key: `first` tested with .hit, `second` with .miss.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header probe_t {
    bit<8> key;
    bit<8> mark;
    bit<8> r1;
    bit<8> r2;
}

struct headers_t {
    ethernet_t ethernet;
    probe_t    probe;
}

struct metadata_t { }

parser HitParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.probe);
        transition accept;
    }
}

control HitVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control HitIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    action set_mark(bit<8> m) {
        hdr.probe.mark = m;
    }

    table first {
        key = {
            hdr.probe.key : exact;
        }
        actions = {
            set_mark;
            NoAction;
        }
        default_action = NoAction();
    }

    table second {
        key = {
            hdr.probe.key : exact;
        }
        actions = {
            set_mark;
            NoAction;
        }
        default_action = set_mark(0xdf);
    }

    apply {
        standard_metadata.egress_spec = 1;
        if (first.apply().hit) {
            hdr.probe.r1 = 0x11;
        } else {
            hdr.probe.r1 = 0x22;
        }
        if (second.apply().miss) {
            hdr.probe.r2 = 0x33;
        } else {
            hdr.probe.r2 = 0x44;
        }
    }
}

control HitEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control HitComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control HitDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.probe);
    }
}

V1Switch(HitParser(), HitVerifyChecksum(), HitIngress(), HitEgress(),
         HitComputeChecksum(), HitDeparser()) main;
