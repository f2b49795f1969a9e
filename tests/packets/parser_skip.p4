/* parser_skip.p4 -- skipping a header with extract<T>(_); lookahead of a struct.
 *
 * EtherType 0x88b5: packet.extract<skip_t>(_) skips a 4-byte header (the
 * don't-care argument: the bytes are read and thrown away), then data is
 * extracted from the byte after it.  The skipped bytes are consumed and
 * not emitted, so the packet leaves 4 bytes shorter.  A packet with fewer
 * than 4 bytes there fails the skip with error.PacketTooShort: nothing is
 * consumed.  With exactly 4 the skip succeeds and the extract of data
 * fails: BMv2 removes the bytes parsed before the error, so the 4 skipped
 * bytes are gone.
 *
 * EtherType 0x88b6: S s = packet.lookahead<S>() reads a struct
 * { kind, len } (3 bytes) without consuming it; its fields are copied into
 * the header info (made valid, emitted before the rest) and s.kind picks
 * the state: kind 1 extracts the same 3 bytes into tlv; kind 2 skips them
 * with extract<tlv_t>(_) and extracts data; any other kind consumes
 * nothing.  Fewer than 3 bytes: the lookahead fails with PacketTooShort
 * and info stays invalid.
 *
 * Ingress: port 1, 2 on PacketTooShort; data + 1.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header skip_t {
    bit<32> junk;
}

header tlv_t {
    bit<8>  kind;
    bit<16> len;
}

header data_t {
    bit<8> v;
}

struct S {
    bit<8>  kind;
    bit<16> len;
}

struct headers_t {
    ethernet_t ethernet;
    tlv_t      info;
    tlv_t      tlv;
    data_t     data;
}

struct metadata_t { }

parser SkipParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: skip;
            0x88b6: peek;
            default: accept;
        }
    }

    state skip {
        packet.extract<skip_t>(_);
        packet.extract(hdr.data);
        transition accept;
    }

    state peek {
        S s = packet.lookahead<S>();
        hdr.info.setValid();
        hdr.info.kind = s.kind;
        hdr.info.len = s.len;
        transition select(s.kind) {
            1: parse_tlv;
            2: skip_tlv;
            default: accept;
        }
    }

    state parse_tlv {
        packet.extract(hdr.tlv);
        transition accept;
    }

    state skip_tlv {
        packet.extract<tlv_t>(_);
        packet.extract(hdr.data);
        transition accept;
    }
}

control SkipVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SkipIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.parser_error == error.PacketTooShort) {
            standard_metadata.egress_spec = 2;
        } else {
            standard_metadata.egress_spec = 1;
        }
        if (hdr.data.isValid()) {
            hdr.data.v = hdr.data.v + 1;
        }
    }
}

control SkipEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) {
    apply { }
}

control SkipComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control SkipDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.info);
        packet.emit(hdr.tlv);
        packet.emit(hdr.data);
    }
}

V1Switch(SkipParser(), SkipVerifyChecksum(), SkipIngress(), SkipEgress(),
         SkipComputeChecksum(), SkipDeparser()) main;
