// A cast to a `type` starts from its underlying type, not from a bit string of another width.
// expect error@6:12: cast from bit<16> to Port_t is not supported
#include <core.p4>
type bit<9> Port_t;
Port_t to_port(in bit<16> p) {
    return (Port_t)p;
}
