// Inside control c<T>, its T is only itself: a call cannot bind it to match_kind.
// expect error@16:14: f: argument t: cannot convert match_kind to T

#include <core.p4>
extern register<T> {
    register(bit<32> size);
    void write(in bit<32> index, in T value);
}
void f<T>(register<T> r, in T t) {
    r.write(0, t);
}
control c<T>()() {
    register<T>(1) r;
    apply {
        T fine;
        f(r, exact);
        f(r, fine);
    }
}
control proto();
package top(proto _p);
top(c<bit<8>>()) main;
