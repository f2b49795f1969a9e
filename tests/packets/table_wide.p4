/* table_wide.p4 -- table keys wider than 32 bits: a 48-bit exact key and a 128-bit lpm key.
 *
 * `macs` matches the Ethernet destination exactly; `routes6` matches an
 * IPv6-sized 128-bit address by longest prefix, with prefixes that end in
 * the upper and in the lower 64 bits.  Both write a mark; a miss leaves
 * the mark alone.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header addr6_t {
    bit<128> dst;
    bit<8>   mac_mark;
    bit<8>   route_mark;
}

struct headers_t {
    ethernet_t ethernet;
    addr6_t    addr6;
}

struct metadata_t { }

parser WideParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.addr6);
        transition accept;
    }
}

control WideVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control WideIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    action mac_mark(bit<8> m) {
        hdr.addr6.mac_mark = m;
    }

    action route_mark(bit<8> m) {
        hdr.addr6.route_mark = m;
    }

    table macs {
        key = {
            hdr.ethernet.dstAddr : exact;
        }
        actions = {
            mac_mark;
            NoAction;
        }
        default_action = NoAction();
    }

    table routes6 {
        key = {
            hdr.addr6.dst : lpm;
        }
        actions = {
            route_mark;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;
        macs.apply();
        routes6.apply();
    }
}

control WideEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control WideComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control WideDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.addr6);
    }
}

V1Switch(WideParser(), WideVerifyChecksum(), WideIngress(), WideEgress(),
         WideComputeChecksum(), WideDeparser()) main;
