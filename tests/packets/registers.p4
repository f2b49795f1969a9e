/* registers.p4 -- a register array read and written across packets.
 *
 * Each packet names a cell (idx), an operation and a value.  Ingress reads
 * the cell into `old` (written back into the packet), then op 1 adds the
 * value to the cell (bit<16>: it wraps), op 2 stores the value, op 0 only
 * reads.  Cells start at 0 and keep their values from packet to packet.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header reg_t {
    bit<8>  idx;
    bit<8>  op;
    bit<16> val;
    bit<16> old;
}

struct headers_t {
    ethernet_t ethernet;
    reg_t      reg;
}

struct metadata_t { }

parser RegParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.reg);
        transition accept;
    }
}

control RegVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control RegIngress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    register<bit<16>>(8) cells;

    action accumulate(bit<16> current) {
        cells.write((bit<32>)hdr.reg.idx, current + hdr.reg.val);
    }

    apply {
        standard_metadata.egress_spec = 1;
        bit<16> current;
        cells.read(current, (bit<32>)hdr.reg.idx);
        hdr.reg.old = current;
        if (hdr.reg.op == 1) {
            accumulate(current);
        } else if (hdr.reg.op == 2) {
            cells.write((bit<32>)hdr.reg.idx, hdr.reg.val);
        }
    }
}

control RegEgress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control RegComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control RegDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.reg);
    }
}

V1Switch(RegParser(), RegVerifyChecksum(), RegIngress(), RegEgress(),
         RegComputeChecksum(), RegDeparser()) main;
