// An argument bound in the actions list must be the same in every constant entry.
// expect error@11:23: set: the argument does not match the one in the actions list
#include <core.p4>
control c(inout bit<8> x) {
    action set(in bit<8> v) { x = v; }
    table t {
        key = { x: exact; }
        actions = { set(1); }
        const entries = {
            8w1 : set(1);
            8w2 : set(2);
        }
    }
    apply { t.apply(); }
}
