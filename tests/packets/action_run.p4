/* action_run.p4 -- switch on table.apply().action_run.
 *
 * The case taken is the action the table ran, its default action on a
 * miss.  Labels without a block fall through to the next block (a1 and a2
 * share one); a case may have an empty block; `default` takes the rest.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header sw_t {
    bit<8> key;
    bit<8> x;   // written by the action
    bit<8> y;   // written by the switch case
}

struct headers_t {
    ethernet_t ethernet;
    sw_t       sw;
}

struct metadata_t { }

parser RunParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.sw);
        transition accept;
    }
}

control RunVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control RunIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    action a1() { hdr.sw.x = 1; }
    action a2() { hdr.sw.x = 2; }
    action a3() { hdr.sw.x = 3; }
    action a4() { hdr.sw.x = 4; }

    table pick {
        key = {
            hdr.sw.key : exact;
        }
        actions = {
            a1;
            a2;
            a3;
            a4;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        standard_metadata.egress_spec = 1;
        switch (pick.apply().action_run) {
            a1:
            a2: {
                hdr.sw.y = 0x12;
            }
            a3: {
                hdr.sw.y = 0x33;
            }
            a4: { }
            default: {
                hdr.sw.y = 0xdd;
            }
        }
    }
}

control RunEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control RunComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control RunDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.sw);
    }
}

V1Switch(RunParser(), RunVerifyChecksum(), RunIngress(), RunEgress(),
         RunComputeChecksum(), RunDeparser()) main;
