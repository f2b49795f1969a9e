/* A P4_14 learning switch, the L2 use case of the MACSAD paper: a source address the
 * `smac` table does not know is sent to the control plane (generate_digest, with the port
 * it came in on); `dmac` sends a frame to the port of a known destination, and one to an
 * unknown destination to the flood port, 3. */

header_type ethernet_t {
    fields {
        dstAddr : 48;
        srcAddr : 48;
        etherType : 16;
    }
}

header ethernet_t ethernet;

parser start {
    extract(ethernet);
    return ingress;
}

field_list mac_learn_digest {
    ethernet.srcAddr;
    standard_metadata.ingress_port;
}

action learn() {
    generate_digest(1024, mac_learn_digest);
}

action _nop() {
    no_op();
}

action forward(port) {
    modify_field(standard_metadata.egress_spec, port);
}

action flood() {
    modify_field(standard_metadata.egress_spec, 3);
}

table smac {
    reads {
        ethernet.srcAddr : exact;
    }
    actions {
        learn;
        _nop;
    }
    default_action : learn();
    size : 512;
}

table dmac {
    reads {
        ethernet.dstAddr : exact;
    }
    actions {
        forward;
        flood;
    }
    default_action : flood();
    size : 512;
}

control ingress {
    apply(smac);
    apply(dmac);
}

control egress {
}
