/* soak.p4 -- the program of bench/soak.py: two tables whose entries the
 * control plane rewrites all the time while the switch forwards, and whose
 * action data lets the data plane itself tell an entry read half-written.
 *
 * Flow k's frames go to 02:00:00:00:00:k and 10.0.k.1.  Table `by_mac`
 * (exact on the destination MAC: a cuckoo hash) and table `by_ip` (lpm on
 * the destination address: DIR-24-8) each hold an entry for every flow.
 * Each version v of an entry writes v into every byte of its parameters
 * a (48 bits), b (32) and c (64), 18 bytes over several machine words, and
 * k into `owner`; the two actions take them in different orders, so an entry
 * whose action and data came from different versions fails the check too.
 * (by_ip's routes, /32 and /24, lie under a /8 whose action is missed().)
 * The control plane deletes and adds again the entries of the even flows
 * only; it modifies those of the odd ones in place.  A packet leaves on
 * port 1 when every entry it used was whole and its own, port 2 when one was
 * not (a torn or misplaced entry: never), port 3 when a table had no entry
 * for an even flow (between a delete and the add after it), port 4 when it
 * had none for an odd flow (an entry lost while others moved: never).
 */

#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header ipv4_t {
    bit<8>  versionIhl;
    bit<8>  tos;
    bit<16> totalLen;
    bit<64> middle;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct metadata_t {
    bit<1> torn;
    bit<1> miss;
}

parser SoakParser(packet_in packet, out headers_t hdr, inout metadata_t meta,
                  inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        packet.extract(hdr.ipv4);
        transition accept;
    }
}

control SoakVerify(inout headers_t hdr, inout metadata_t meta) { apply { } }

control SoakIngress(inout headers_t hdr, inout metadata_t meta,
                    inout standard_metadata_t standard_metadata) {
    /* Whether the parameters are one version's, of this packet's flow. */
    action check(bit<48> a, bit<32> b, bit<64> c, bit<8> owner) {
        bit<8> v = c[7:0];
        if (a != (bit<48>)v * 0x010101010101 || b != (bit<32>)v * 0x01010101 ||
            c != (bit<64>)v * 0x0101010101010101 || owner != hdr.ethernet.dstAddr[7:0]) {
            meta.torn = 1;
        }
    }
    action version_a(bit<48> a, bit<32> b, bit<64> c, bit<8> owner) { check(a, b, c, owner); }
    action version_b(bit<64> c, bit<8> owner, bit<32> b, bit<48> a) { check(a, b, c, owner); }
    action missed() { meta.miss = 1; }

    /* 1,428 entries: the most that 256 cuckoo buckets of 7 slots are made for
     * (runtime/tables/table.c); the soak fills 76% of the slots, so that adds
     * move other entries between their buckets. */
    table by_mac {
        key = { hdr.ethernet.dstAddr: exact; }
        actions = { version_a; version_b; missed; }
        default_action = missed();
        size = 1428;
    }
    table by_ip {
        key = { hdr.ipv4.dstAddr: lpm; }
        actions = { version_a; version_b; missed; }
        default_action = missed();
        size = 1024;
    }

    apply {
        by_mac.apply();
        by_ip.apply();
        if (meta.torn == 1) {
            standard_metadata.egress_spec = 2;
        } else if (meta.miss == 1 && hdr.ethernet.dstAddr[0:0] == 0) {
            standard_metadata.egress_spec = 3;
        } else if (meta.miss == 1) {
            standard_metadata.egress_spec = 4;
        } else {
            standard_metadata.egress_spec = 1;
        }
    }
}

control SoakEgress(inout headers_t hdr, inout metadata_t meta,
                   inout standard_metadata_t standard_metadata) { apply { } }

control SoakCompute(inout headers_t hdr, inout metadata_t meta) { apply { } }

control SoakDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(SoakParser(), SoakVerify(), SoakIngress(), SoakEgress(), SoakCompute(), SoakDeparser()) main;
