/* action_params.p4 -- action parameters of many widths, from table entries.
 *
 * One action takes parameters of 1, 7, 9, 16, 32, 48 and 128 bits and
 * writes each into a header field of the same width (the 9-bit one is the
 * output port).  Fields that share a byte (1 + 7 bits) must not disturb
 * each other.  A port of 511 is simple_switch's drop port.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header params_t {
    bit<8>   key;
    bit<1>   f1;
    bit<7>   f7;
    bit<16>  f16;
    bit<32>  f32;
    bit<48>  f48;
    bit<128> f128;
}

struct headers_t {
    ethernet_t ethernet;
    params_t   params;
}

struct metadata_t { }

parser ParamsParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.params);
        transition accept;
    }
}

control ParamsVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ParamsIngress(inout headers_t hdr, inout metadata_t meta,
                      inout standard_metadata_t standard_metadata) {
    action set_all(bit<1> f1, bit<7> f7, bit<9> port, bit<16> f16, bit<32> f32,
                   bit<48> f48, bit<128> f128) {
        hdr.params.f1 = f1;
        hdr.params.f7 = f7;
        standard_metadata.egress_spec = port;
        hdr.params.f16 = f16;
        hdr.params.f32 = f32;
        hdr.params.f48 = f48;
        hdr.params.f128 = f128;
    }

    action set_wide(bit<128> f128) {
        standard_metadata.egress_spec = 1;
        hdr.params.f128 = f128;
    }

    table params {
        key = {
            hdr.params.key : exact;
        }
        actions = {
            set_all;
            set_wide;
            NoAction;
        }
        default_action = NoAction();
    }

    apply {
        params.apply();
    }
}

control ParamsEgress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply { }
}

control ParamsComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ParamsDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.params);
    }
}

V1Switch(ParamsParser(), ParamsVerifyChecksum(), ParamsIngress(), ParamsEgress(),
         ParamsComputeChecksum(), ParamsDeparser()) main;
