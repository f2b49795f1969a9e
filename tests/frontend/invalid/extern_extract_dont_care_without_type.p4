// extract(_) skips a header: which one must be given as the type argument.
// expect error@7:21: extract: could not infer a type for '_' (hdr); give the type
#include <core.p4>
header h_t { bit<8> f; }
parser p(packet_in pkt, out h_t h) {
    state start {
        pkt.extract(_);
        pkt.extract(h);
        transition accept;
    }
}
