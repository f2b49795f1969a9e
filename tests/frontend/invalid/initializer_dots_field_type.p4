// A struct initializer with `...`: each field given must still convert to its field's type.
// expect error@9:25: field b: cannot convert int to varbit<32>

header H { varbit<32> b; bit<8> tag; }
control proto();
package top(proto _p);
control C() {
    apply {
        H h = (H) { b = 2, ... };
    }
}
top(C()) main;
