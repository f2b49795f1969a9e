/* select_wide.p4 -- select on keys wider than 64 bits (an IPv6 address, a 72-bit
 * field with another key): values, masks and ranges compared as numbers.
 *
 * The parser extracts h, then sets h.x: 1 for the address 2001:db8::1, 2 for
 * the rest of 2001:db8::/32, 3 for the addresses from fe80:: to
 * fe80::ffff, 4 when (h.big, h.tag) is (0x1_0000_0000_0000_0001, 5), 0
 * otherwise.  Every packet leaves on port 1.
 */

#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<128> addr;
    bit<72>  big;
    bit<8>   tag;
    bit<8>   x;
}

struct headers_t { h_t h; }
struct meta_t { }

parser WideParser(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.addr) {
            128w0x20010db8000000000000000000000001: one;
            128w0x20010db8000000000000000000000000 &&& 128w0xffffffff000000000000000000000000: doc;
            128w0xfe800000000000000000000000000000 .. 128w0xfe80000000000000000000000000ffff: link;
            default: pair;
        }
    }
    state one { hdr.h.x = 1; transition accept; }
    state doc { hdr.h.x = 2; transition accept; }
    state link { hdr.h.x = 3; transition accept; }
    state pair {
        transition select(hdr.h.big, hdr.h.tag) {
            (72w0x010000000000000001, 5): big;
            default: accept;
        }
    }
    state big { hdr.h.x = 4; transition accept; }
}

control Nop(inout headers_t hdr, inout meta_t meta) { apply { } }
control WideIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 1; }
}
control WideEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) { apply { } }
control WideDeparser(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }

V1Switch(WideParser(), Nop(), WideIngress(), WideEgress(), Nop(), WideDeparser()) main;
