// A generic struct given a specialization of itself through a typedef.
// expect error@6:9: Pair: contains itself as a type argument
#include <core.p4>
struct Pair<T> { T first; T second; }
typedef Pair<bit<8>> BytePair;
typedef Pair<BytePair> Nested;
