// @match on a value set's struct field names a match kind.
// expect error@6:5: @match(2): the value must be a match_kind
#include <core.p4>
struct vs_key_t {
    @match(ternary) bit<16> proto;
    @match(2) bit<8> flags;
}
