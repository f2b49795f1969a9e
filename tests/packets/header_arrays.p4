/* header_arrays.p4 -- arrays of bit<W> as header fields (`bit<8>[4] arr`): extracted
 * element by element, read and written with constant and run-time indexes, and written
 * back where the parser read them (the deparse-in-place pass).  Sub-byte elements
 * (bit<4>[2]) share a byte.  header_arrays_emit.p4 emits them into a new header.
 */
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<8>    op;
    bit<8>[4] arr;
    bit<4>[2] nib;
    bit<8>    idx;
}

struct headers_t {
    data_t data;
}

struct metadata_t { }

parser ArrParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.data);
        transition accept;
    }
}

control ArrVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ArrIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply {
        hdr.data.arr[0] = hdr.data.arr[3];
        hdr.data.arr[1] = hdr.data.arr[1] + 1;
        hdr.data.arr[hdr.data.idx & 3] = 0xee;
        hdr.data.nib[1] = hdr.data.nib[0];
        standard_metadata.egress_spec = 1;
    }
}

control ArrEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control ArrComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control ArrDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.data);
    }
}

V1Switch(ArrParser(), ArrVerifyChecksum(), ArrIngress(), ArrEgress(),
         ArrComputeChecksum(), ArrDeparser()) main;
