// Two methods of the same name and arity: a call with one positional argument fits both.
// expect error@11:17: write: ambiguous call, 2 overloads fit its arguments
#include <core.p4>
extern Log {
    Log();
    void write<T>(in T value);
    void write<T>(in T data);
}
control c() {
    Log() log;
    apply { log.write(8w1); }
}
