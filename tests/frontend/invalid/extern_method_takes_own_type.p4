// An extern's method cannot take an instance of the extern itself: a type that refers to itself.
// expect error@5:10: other: self-referencing types are not supported
#include <core.p4>
extern Link {
    void join(Link other);
}
