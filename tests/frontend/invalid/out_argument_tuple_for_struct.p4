// A tuple variable is not a struct an out parameter writes into, though their fields match.
// expect error@9:11: f: argument sarg has type tuple<bit<8>>, expected struct s

struct s { bit<8> x; }
extern void f(out s sarg);
control c() {
    apply {
        tuple<bit<8>> b = { 0 };
        f(b);
    }
}
control proto();
package top(proto _p);
top(c()) main;
