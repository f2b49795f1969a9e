/* truncate.p4 -- truncate(): a copy leaves cut to the length asked for, as on BMv2.
 *
 * After Ethernet, a header t: `len` (bit<8>) and `how` (bit<8>).  Ingress
 * sends to port 1, or to multicast group 1 (ports 2 and 3) when how is 3:
 *   how 1: ingress cuts to len bytes;
 *   how 2: egress cuts to len bytes;
 *   how 3: ingress cuts to len bytes, then multicasts: the replicas leave whole
 *          (BMv2 makes them as new packets, without the cut);
 *   how 4: cut to len, then to len + 10: the smaller length wins;
 *   how 5: cut to 0 bytes: nothing leaves.
 * A length beyond the packet leaves it as it is.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header t_t {
    bit<8> len;
    bit<8> how;
}

struct headers_t {
    ethernet_t ethernet;
    t_t        t;
}

struct metadata_t { }

parser TruncParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.t);
        transition accept;
    }
}

control TruncVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control TruncIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        standard_metadata.egress_spec = 1;
        if (hdr.t.how == 1 || hdr.t.how == 3) {
            truncate((bit<32>)hdr.t.len);
        } else if (hdr.t.how == 4) {
            truncate((bit<32>)hdr.t.len);
            truncate((bit<32>)hdr.t.len + 10);
        } else if (hdr.t.how == 5) {
            truncate(0);
        }
        if (hdr.t.how == 3) {
            standard_metadata.mcast_grp = 1;
        }
    }
}

control TruncEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        if (hdr.t.how == 2) {
            truncate((bit<32>)hdr.t.len);
        }
    }
}

control TruncComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control TruncDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.t);
    }
}

V1Switch(TruncParser(), TruncVerifyChecksum(), TruncIngress(), TruncEgress(),
         TruncComputeChecksum(), TruncDeparser()) main;
