/* dpdk/pna.p4 -- PNA as p4c's DPDK back end declares it: pna.p4 with more
 * hash algorithms, counter and meter overloads that take the packet length,
 * and the IPsec accelerator.  A program that includes two PNA files gets
 * the declarations of the first. */

#define __PNA_DPDK__
#include "../pna.p4"
