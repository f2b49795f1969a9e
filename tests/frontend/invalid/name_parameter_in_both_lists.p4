// A control whose constructor parameter has the name of one of its apply parameters: both are in
// the control's scope, so the name would mean two things.
// expect error@7:41: duplicate parameter
#include <core.p4>
#include <v1model.p4>
struct meta_t { bit<8> x; }
control Count(inout meta_t meta)(bit<8> meta) {
    apply { }
}
