// A package instance given to a package that expects it with other type arguments.
// expect error@14:17: package Switch: argument ingress of type package Ingress<struct H> does not match the parameter type package Ingress<tuple<>>

#include <core.p4>

parser Parser<IH>(out IH parsedHeaders);
package Ingress<IH>(Parser<IH> p);
package Switch<IH>(Ingress<IH> ingress);

struct H { }
parser ing_parse(out H hdr) { state start { transition accept; } }

Ingress(ing_parse()) ig1;
Switch<tuple<>>(ig1) main;
