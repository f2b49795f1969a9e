// Two struct initializers compared: no declared type says what their == means.
// expect error@9:42: ==: cannot compare struct initializers of no declared type

struct S { bit<32> a; bit<32> b; }
control proto();
package top(proto _p);
control C() {
    apply {
        bool same = {a = 32w1, b = 32w2} == {a = 32w1, b = 32w2};
        S s = {a = 1, b = 2};
        bool fine = s == {a = 1, b = 2} && {1, 2} == {1, 2};
    }
}
top(C()) main;
