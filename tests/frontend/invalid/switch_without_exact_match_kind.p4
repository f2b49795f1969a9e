// A switch on a value becomes a table with an exact key: without core.p4 there is no match_kind exact.
// expect error@5:9: a switch on a value needs match_kind exact; did you include
control c(in bit<4> v, out bit<4> w) {
    apply {
        switch (v) {
            4w1: { w = 1; }
            default: { w = 0; }
        }
    }
}
