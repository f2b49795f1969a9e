/* A P4_14 IPv6 router: the destination looked up by longest prefix over 128 bits, the hop
 * limit decremented, the next hop's MAC written; IPv6 without a route is dropped. */

header_type ethernet_t {
    fields {
        dstAddr : 48;
        srcAddr : 48;
        etherType : 16;
    }
}

header_type ipv6_t {
    fields {
        version : 4;
        trafficClass : 8;
        flowLabel : 20;
        payloadLen : 16;
        nextHdr : 8;
        hopLimit : 8;
        srcAddr : 128;
        dstAddr : 128;
    }
}

header ethernet_t ethernet;
header ipv6_t ipv6;

parser start {
    extract(ethernet);
    return select(latest.etherType) {
        0x86dd : parse_ipv6;
        default : ingress;
    }
}

parser parse_ipv6 {
    extract(ipv6);
    return ingress;
}

action _drop() {
    drop();
}

action route(dmac, port) {
    modify_field(ethernet.dstAddr, dmac);
    modify_field(standard_metadata.egress_spec, port);
    subtract_from_field(ipv6.hopLimit, 1);
}

table ipv6_lpm {
    reads {
        ipv6.dstAddr : lpm;
    }
    actions {
        route;
        _drop;
    }
    default_action : _drop();
    size : 1024;
}

control ingress {
    if (valid(ipv6)) {
        apply(ipv6_lpm);
    }
}

control egress {
}
