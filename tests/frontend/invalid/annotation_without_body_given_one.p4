// @hidden takes no arguments (p4c: "should not have any arguments").
// expect error@8:5: @hidden: should not have any arguments

#include <core.p4>

control C(inout bit<8> x) {
    @hidden action a() { x = 1; }
    @hidden("yes") action b() { x = 2; }
    apply { a(); b(); }
}
control Proto(inout bit<8> x);
package Top(Proto p);
Top(C()) main;
