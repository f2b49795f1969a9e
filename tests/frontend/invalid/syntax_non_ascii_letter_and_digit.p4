// Letters and digits of other scripts where a name and a number go (text pasted from a document):
// each a positioned syntax error, as any stray character (the lexer once stopped on an assertion).
// expect error@7:24: unexpected 'é'
// expect error@8:18: unexpected '²'
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> café; }
const bit<8> K = ²;
