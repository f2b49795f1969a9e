// A struct initializer passed for a generic parameter has no struct type to be.
// expect error@7:20: record: cannot infer a struct type for the initializer passe
#include <core.p4>
extern void record<T>(in T data);
header h_t { bit<8> a; bit<8> b; }
control c(inout h_t h) {
    apply { record({ a = h.a, b = h.b }); }
}
