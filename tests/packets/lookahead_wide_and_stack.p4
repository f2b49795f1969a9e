/* lookahead_wide_and_stack.p4 -- lookahead of a bit<W> wider than 64 bits and
 * of a struct holding a header stack (p4c's issue356-bmv2 and issue2465-bmv2).
 *
 * The parser looks 112 bits ahead and selects on their top 16 (res.kind 1
 * when bit 12 of them is set), copies the first 80 bits into res.wide, then
 * looks a struct of three one-byte headers ahead: res.count is the index of
 * the first of them that is 1 (3: none), res.next the stack's nextIndex.
 * Nothing is extracted: `res` is emitted before the input's 14 bytes.
 */

#include <core.p4>
#include <v1model.p4>

header b_t { bit<8> f; }
struct three_t { b_t[3] b; }
header out_t { bit<8> kind; bit<80> wide; bit<8> count; bit<8> next; }
struct headers_t { out_t res; }
struct metadata_t { }

parser P(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        hdr.res.setValid();
        hdr.res.kind = 0;
        hdr.res.wide = packet.lookahead<bit<112>>()[111:32];
        transition select(packet.lookahead<bit<112>>()[111:96]) {
            16w0x1000 &&& 16w0x1000: flagged;
            default: stack;
        }
    }
    state flagged {
        hdr.res.kind = 1;
        transition stack;
    }
    state stack {
        three_t t = packet.lookahead<three_t>();
        hdr.res.next = (bit<8>)t.b.nextIndex;
        transition select(t.b[0].f, t.b[1].f, t.b[2].f) {
            (1, _, _): zero;
            (_, 1, _): one;
            (_, _, 1): two;
            default: none;
        }
    }
    state zero { hdr.res.count = 0; transition accept; }
    state one { hdr.res.count = 1; transition accept; }
    state two { hdr.res.count = 2; transition accept; }
    state none { hdr.res.count = 3; transition accept; }
}
control VC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) {
    apply { standard_metadata.egress_spec = 1; }
}
control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t standard_metadata) { apply { } }
control CC(inout headers_t hdr, inout metadata_t meta) { apply { } }
control D(packet_out packet, in headers_t hdr) { apply { packet.emit(hdr.res); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
