// @optional parameters belong to extern methods and functions, not to a control's constructor.
// expect error@4:44: step: an @optional parameter is not allowed here
#include <core.p4>
control c(inout bit<8> x)(@optional bit<8> step) {
    apply { x = x + 1; }
}
