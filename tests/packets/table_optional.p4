/* table_optional.p4 -- the optional match kind.
 *
 * An optional key field either matches one value or, left out of the
 * entry, matches anything.  Entries have priorities, as ternary ones do.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header flow_t {
    bit<16> proto;
    bit<8>  port;
}

struct headers_t {
    ethernet_t ethernet;
    flow_t     flow;
}

struct metadata_t { }

parser OptionalParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.flow);
        transition accept;
    }
}

control OptionalVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control OptionalIngress(inout headers_t hdr, inout metadata_t meta,
                        inout standard_metadata_t standard_metadata) {
    action send(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table flows {
        key = {
            hdr.flow.proto : optional;
            hdr.flow.port  : optional;
        }
        actions = {
            send;
            drop;
        }
        default_action = drop();
    }

    apply {
        flows.apply();
    }
}

control OptionalEgress(inout headers_t hdr, inout metadata_t meta,
                       inout standard_metadata_t standard_metadata) {
    apply { }
}

control OptionalComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control OptionalDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.flow);
    }
}

V1Switch(OptionalParser(), OptionalVerifyChecksum(), OptionalIngress(), OptionalEgress(),
         OptionalComputeChecksum(), OptionalDeparser()) main;
