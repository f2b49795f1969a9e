/* bmv2/psa.p4 -- PSA as BMv2's psa_switch implements it, the name p4c's
 * PSA programs include.  Its declarations are those of psa.p4. */

#include "../psa.p4"
