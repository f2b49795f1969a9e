// A structured annotation's name cannot also be used by an unstructured annotation of the same declaration.
// expect error@5:1: @owner: duplicate structured annotation (its name is used tw
#include <core.p4>
@owner("routing")
@owner[team = "noc"]
const bit<8> hops = 4;
