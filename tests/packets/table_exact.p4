/* table_exact.p4 -- a table with a two-field exact key.
 *
 * The key is (op, id) of a header after Ethernet (EtherType 0x88b5).  An
 * entry forwards with a mark or drops; a miss runs the default action,
 * NoAction unless the control plane sets another, and NoAction leaves
 * egress_spec at 0, so the packet leaves by port 0.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header req_t {
    bit<8>  op;
    bit<32> id;
    bit<16> mark;
}

struct headers_t {
    ethernet_t ethernet;
    req_t      req;
}

struct metadata_t { }

parser ExactParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_req;
            default: accept;
        }
    }

    state parse_req {
        packet.extract(hdr.req);
        transition accept;
    }
}

control ExactVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ExactIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    action forward(bit<9> port, bit<16> mark) {
        standard_metadata.egress_spec = port;
        hdr.req.mark = mark;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table requests {
        key = {
            hdr.req.op : exact;
            hdr.req.id : exact;
        }
        actions = {
            forward;
            drop;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        if (hdr.req.isValid()) {
            requests.apply();
        } else {
            drop();
        }
    }
}

control ExactEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control ExactComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ExactDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.req);
    }
}

V1Switch(ExactParser(), ExactVerifyChecksum(), ExactIngress(), ExactEgress(),
         ExactComputeChecksum(), ExactDeparser()) main;
