// A function is declared after its body: it cannot call itself.
// expect error@5:25: countdown: a function cannot call itself
#include <core.p4>
bit<8> countdown(in bit<8> n) {
    return n == 0 ? n : countdown(n - 1);
}
