/* union.p4 -- header unions.
 *
 * After Ethernet comes an address header of one of two sizes, a member of
 * the union addr_u: short_t (EtherType 0x1234, 5 bytes) or long_t (0x5678,
 * 9 bytes).  At most one member is valid; the union is valid when one is.
 * Making one member valid makes the others invalid, so ingress can turn a
 * long address into a short one.  Emitting the union emits its valid member.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header short_t {
    bit<8>  kind;
    bit<32> addr;
}

header long_t {
    bit<8>  kind;
    bit<64> addr;
}

header_union addr_u {
    short_t short;
    long_t  long;
}

struct headers_t {
    ethernet_t ethernet;
    addr_u     addr;
}

struct metadata_t { }

parser UnionParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x1234: parse_short;
            0x5678: parse_long;
            default: accept;
        }
    }

    state parse_short {
        packet.extract(hdr.addr.short);
        transition accept;
    }

    state parse_long {
        packet.extract(hdr.addr.long);
        transition accept;
    }
}

control UnionVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control UnionIngress(inout headers_t hdr, inout metadata_t meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        if (!hdr.addr.isValid()) {
            standard_metadata.egress_spec = 3;
        } else if (hdr.addr.short.isValid()) {
            standard_metadata.egress_spec = 1;
            hdr.addr.short.addr = hdr.addr.short.addr + 1;
        } else if (hdr.addr.long.isValid()) {
            standard_metadata.egress_spec = 2;
            if (hdr.addr.long.kind == 0xff) {
                // Long to short: the long member becomes invalid.
                bit<32> low = hdr.addr.long.addr[31:0];
                hdr.addr.short.setValid();
                hdr.addr.short.kind = 4;
                hdr.addr.short.addr = low;
                hdr.ethernet.etherType = 0x1234;
            }
        }
        if (hdr.addr.long.isValid()) {
            hdr.addr.long.kind = 6;
        }
    }
}

control UnionEgress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control UnionComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control UnionDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.addr);
    }
}

V1Switch(UnionParser(), UnionVerifyChecksum(), UnionIngress(), UnionEgress(),
         UnionComputeChecksum(), UnionDeparser()) main;
