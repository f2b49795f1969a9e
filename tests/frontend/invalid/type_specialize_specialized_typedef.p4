// A typedef of a specialized extern takes no more type arguments.
// expect error@7:5: extern Holder<bit<16>>: already specialized, it takes no mor
#include <core.p4>
extern Holder<T> { Holder(T init); T get(); }
typedef Holder<bit<16>> Holder16;
control c() {
    Holder16<bit<16>>(16w1) h;
    apply { }
}
