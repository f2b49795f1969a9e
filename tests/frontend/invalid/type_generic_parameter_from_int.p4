// Inside a generic control, its type parameter is a type of its own: an int does not convert to it.
// expect error@6:18: initializer: cannot convert int to H
#include <core.p4>
control c<H>(inout H hdr) {
    apply {
        H copy = 0;
        hdr = copy;
    }
}
