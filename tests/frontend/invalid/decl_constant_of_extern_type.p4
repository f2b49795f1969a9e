// A constant holds a value; an extern instance is not one.
// expect error@5:17: hits: constants cannot have type extern Counter32
#include <core.p4>
extern Counter32 { Counter32(); void count(); }
const Counter32 hits = Counter32();
