// Annotations without a body are checked wherever they stand: parameters, keys, action lists,
// blocks (p4c parses every annotation).
// expect error@8:11: @hidden: should not have any arguments
// expect error@10:27: @hidden: should not have any arguments
// expect error@11:21: @defaultonly: should not have any arguments
// expect error@14:9: @atomic: should not have any arguments
#include <core.p4>
control C(@hidden(1) inout bit<8> a) {
    table t {
        key = { a : exact @hidden(3); }
        actions = { @defaultonly(4) NoAction; }
    }
    apply {
        @atomic(6) { a = 1; }
        t.apply();
    }
}
control Proto(inout bit<8> a);
package Top(Proto p);
Top(C()) main;
