/* A P4_14 action used by a table of ingress and one of egress: the conversion declares it in
 * both controls, under one control-plane name, which P4Info and the switch's commands hold as one
 * action (as p4c's conversion and BMv2 do). */

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

action _nop() {
}

action forward(port) {
    modify_field(standard_metadata.egress_spec, port);
}

action mark(value) {
    modify_field(ethernet.etherType, value);
}

table route {
    reads {
        ethernet.dstAddr : exact;
    }
    actions {
        forward;
        _nop;
    }
}

table egress_mark {
    reads {
        standard_metadata.egress_port : exact;
    }
    actions {
        mark;
        _nop;
    }
}

control ingress {
    apply(route);
}

control egress {
    apply(egress_mark);
}
