// @length of a varbit field sees only the fields declared before it.
// expect error@9:13: size_after: declaration not found

#include <core.p4>

header option_t {
    bit<8> size_before;
    @length((bit<32>)size_before * 8) varbit<256> first;
    @length(size_after) varbit<256> second;
    bit<32> size_after;
}
