// A generic extern cannot be specialized with itself, even nested in another type argument.
// expect error@6:1: Fifo: contains itself as a type argument
#include <core.p4>
extern Fifo<T> { Fifo(); void push(in T value); }
extern Wrapper<T> { Wrapper(); }
Fifo<Wrapper<Fifo<bit<8>>>>() queues;
