// A controller-side type of @p4runtime_translation is bit<W>, string or a width: not bool.
// expect error@4:1: expected a URI string and the controller's type
#include <core.p4>
@p4runtime_translation("example.org/PortId_t", bool)
type bit<9> PortId_t;
