// A type parameter only in the return type: no argument says what it is.
// expect error@7:34: get: could not infer a type for T from the arguments; give the type argument

extern T get<T>();
control proto();
package top(proto _p);
control C() { apply { bit<8> x = get(); bit<8> y = get<bit<8>>(); } }
top(C()) main;
