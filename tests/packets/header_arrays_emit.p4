/* header_arrays_emit.p4 -- arrays in a header the deparser emits after one it adds, so the
 * packet is written out whole (no deparse in place): elements of 16 and of 12 bits, the
 * latter across byte boundaries, an array assigned whole from another header's.
 */
#include <core.p4>
#include <v1model.p4>

header words_t {
    bit<16>[3] w;
    bit<12>[2] t;
    bit<8>     tail;
}

header added_t {
    bit<12>[2] t;
    bit<8>     x;
    bit<16>    w2;
}

struct headers_t {
    words_t words;
    added_t added;
}

struct metadata_t { }

parser EmitParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.words);
        transition accept;
    }
}

control EmitVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control EmitIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        hdr.added.setValid();
        hdr.added.t = hdr.words.t;
        hdr.added.x = 0xf;
        hdr.added.w2 = hdr.words.w[2];
        hdr.words.w[0] = hdr.words.w[1] ^ 0xffff;
        standard_metadata.egress_spec = 2;
    }
}

control EmitEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control EmitComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control EmitDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.added);
        packet.emit(hdr.words);
    }
}

V1Switch(EmitParser(), EmitVerifyChecksum(), EmitIngress(), EmitEgress(),
         EmitComputeChecksum(), EmitDeparser()) main;
