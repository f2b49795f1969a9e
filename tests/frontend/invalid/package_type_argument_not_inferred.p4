// A package whose type parameter only a default argument mentions, instantiated without arguments.
// expect error@13:7: Top: could not infer a type for H from the arguments

#include <core.p4>

struct meta_t { bit<8> f; }
control empty_ingress<H>(inout H hdr, inout meta_t meta) { apply { } }

control Ingress<H>(inout H hdr, inout meta_t meta);
package Top<H>(Ingress<H> ig = empty_ingress<H>());

struct headers_t { }
Top() main;
