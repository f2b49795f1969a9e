/* named_arguments.p4 -- extern calls with named arguments in another order than the parameters'.
 *
 * P4 lets a call name its arguments in any order; each still goes to the parameter it names:
 * hash() writes h.hv, register.write() stores h.b at index h.a (then read back into h.rv), and
 * update_checksum() writes the csum16 of a and b into h.ck.
 */

#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> a;
    bit<16> b;
    bit<16> ck;
    bit<16> hv;
    bit<16> rv;
}

struct headers_t {
    h_t h;
}

struct metadata_t { }

parser NamedParser(packet_in packet, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.h);
        transition accept;
    }
}

control Nop(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control NamedIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    register<bit<16>>(4) r;

    apply {
        sm.egress_spec = 1;
        hash(max = 32w65536, data = { hdr.h.a }, base = 16w0, algo = HashAlgorithm.identity, result = hdr.h.hv);
        r.write(value = hdr.h.b, index = (bit<32>)hdr.h.a);
        r.read(index = (bit<32>)hdr.h.a, result = hdr.h.rv);
    }
}

control NamedEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}

control NamedCompute(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(data = { hdr.h.a, hdr.h.b }, checksum = hdr.h.ck, condition = true,
                        algo = HashAlgorithm.csum16);
    }
}

control NamedDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.h);
    }
}

V1Switch(NamedParser(), Nop(), NamedIngress(), NamedEgress(), NamedCompute(), NamedDeparser()) main;
