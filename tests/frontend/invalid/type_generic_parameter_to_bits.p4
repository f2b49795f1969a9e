// Inside a generic control, a value of its type parameter is not a bit<32>.
// expect error@6:20: emit32: argument value: cannot convert T to bit<32>
#include <core.p4>
extern void emit32(in bit<32> value);
control c<T>(in T x) {
    apply { emit32(x); }
}
