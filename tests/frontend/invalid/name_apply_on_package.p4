// A package is not a parser or a control: it has no apply method.
// expect error@6:18: apply: type package Pipe has no member of this name
#include <core.p4>
package Pipe();
control c() {
    apply { Pipe.apply(); }
}
