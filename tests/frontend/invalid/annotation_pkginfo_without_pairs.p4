// @pkginfo's body is KEY = VALUE pairs (p4c parses it so, and rejects it without one).
// expect error@6:1: @pkginfo needs (KEY = VALUE, ...)

#include <core.p4>

@pkginfo
const bit<32> x = 0;
