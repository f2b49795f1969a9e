/* dpdk/psa.p4 -- PSA as p4c's DPDK back end declares it: psa.p4 plus the
 * counter and meter overloads that take the packet length.  A program that
 * includes two PSA files gets the declarations of the first. */

#define __PSA_DPDK__
#include "../psa.p4"
