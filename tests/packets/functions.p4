/* functions.p4 -- functions: return values, early returns, in/out/inout parameters.
 *
 * Arguments are passed copy-in/copy-out: an out or inout parameter is
 * written back to its argument when the function returns, from any of its
 * return statements.  Actions may call functions too.
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header fn_t {
    bit<8>  a;
    bit<8>  b;
    bit<16> c;
    bit<16> d;
    bit<8>  max;     // max8(a, b)
    bit<8>  clamped; // clamp(a, calls) + clamp(b, calls)
    bit<8>  calls;   // incremented by each clamp() call
    bit<8>  filled;  // fill(): an out parameter
    bit<8>  sign;    // sign_of(a - b)
}

struct headers_t {
    ethernet_t ethernet;
    fn_t       fn;
}

struct metadata_t { }

bit<8> max8(in bit<8> x, in bit<8> y) {
    if (x > y) {
        return x;
    }
    return y;
}

void swap16(inout bit<16> x, inout bit<16> y) {
    bit<16> t = x;
    x = y;
    y = t;
}

bit<8> clamp(in bit<8> v, inout bit<8> calls) {
    calls = calls + 1;
    if (v > 100) {
        return 100;
    }
    return v;
}

void fill(out bit<8> o, in bit<8> seed) {
    o = seed ^ 0x5a;
}

bit<8> sign_of(in int<8> v) {
    if (v < 0) {
        return 0xff;
    } else if (v == 0) {
        return 0;
    }
    return 1;
}

parser FnParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.fn);
        transition accept;
    }
}

control FnVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control FnIngress(inout headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    action compute_max() {
        hdr.fn.max = max8(hdr.fn.a, hdr.fn.b);
    }

    apply {
        standard_metadata.egress_spec = 1;
        compute_max();
        swap16(hdr.fn.c, hdr.fn.d);
        hdr.fn.clamped = clamp(hdr.fn.a, hdr.fn.calls) + clamp(hdr.fn.b, hdr.fn.calls);
        fill(hdr.fn.filled, hdr.fn.a);
        hdr.fn.sign = sign_of((int<8>)(hdr.fn.a - hdr.fn.b));
    }
}

control FnEgress(inout headers_t hdr, inout metadata_t meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control FnComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control FnDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.fn);
    }
}

V1Switch(FnParser(), FnVerifyChecksum(), FnIngress(), FnEgress(),
         FnComputeChecksum(), FnDeparser()) main;
