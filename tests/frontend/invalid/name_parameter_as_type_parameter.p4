// A parameter cannot take the name of its function's type parameter.
// expect error@4:25: T: a parameter cannot have the name of a type parameter
#include <core.p4>
void check<T>(in bit<8> T) { }
