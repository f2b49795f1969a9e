/* table_key_widths.p4 -- table keys whose fields are not whole bytes.
 *
 * `vlans` matches exactly on the 9-bit ingress port, a 3-bit priority and
 * a 12-bit VLAN id; `frags` matches a 13-bit fragment offset and a 3-bit
 * flags field by ternary masks.  Each field must be matched on its own
 * bits only, whatever its neighbours in the packet hold.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vlan_t {
    bit<3>  pcp;
    bit<1>  cfi;
    bit<12> vid;
    bit<3>  flags;
    bit<13> frag;
    bit<8>  mark;
}

struct headers_t {
    ethernet_t ethernet;
    vlan_t     vlan;
}

struct metadata_t { }

parser WidthsParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.vlan);
        transition accept;
    }
}

control WidthsVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control WidthsIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    action send(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    action mark(bit<8> m) {
        hdr.vlan.mark = m;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table vlans {
        key = {
            standard_metadata.ingress_port : exact;
            hdr.vlan.pcp                   : exact;
            hdr.vlan.vid                   : exact;
        }
        actions = {
            send;
            drop;
        }
        default_action = drop();
    }

    table frags {
        key = {
            hdr.vlan.flags : ternary;
            hdr.vlan.frag  : ternary;
        }
        actions = {
            mark;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        vlans.apply();
        frags.apply();
    }
}

control WidthsEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply { }
}

control WidthsComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control WidthsDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.vlan);
    }
}

V1Switch(WidthsParser(), WidthsVerifyChecksum(), WidthsIngress(), WidthsEgress(),
         WidthsComputeChecksum(), WidthsDeparser()) main;
