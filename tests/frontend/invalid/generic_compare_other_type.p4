// Inside its declaration a type parameter is only itself: T against bit<8> does not compare.
// expect error@5:14: ==: cannot be applied to expressions of types T and bit<8>

bool is_one<T>(in T x) {
    return x == 8w1;
}
control proto();
package top(proto _p);
control C() { apply { bool b = is_one(8w1); } }
top(C()) main;
