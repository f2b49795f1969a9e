/* Bundled ODP: CPU information, cycle counter, pause and prefetch (odp/api/cpu.h). */
#ifndef ODP_BUNDLED_API_CPU_H_
#define ODP_BUNDLED_API_CPU_H_

#include <odp/api/std_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** CPU the calling thread runs on now. */
int odp_cpu_id(void);

/** Number of CPUs this process may run on (its affinity mask). */
int odp_cpu_count(void);

/** CPU model name of the calling CPU, from /proc/cpuinfo when known. */
const char *odp_cpu_model_str(void);

/** CPU cycle (or time stamp) counter; see odp_cpu_cycles_max() for wrap. */
uint64_t odp_cpu_cycles(void);

/** Cycles from c1 to c2, allowing for one wrap of the counter. */
uint64_t odp_cpu_cycles_diff(uint64_t c2, uint64_t c1);

/** Largest value odp_cpu_cycles() returns before it wraps. */
uint64_t odp_cpu_cycles_max(void);

/** Short delay for spin loops; also a hint to the CPU that the thread spins. */
static inline void odp_cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("isb" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

/** Prefetch for reading into all cache levels. */
static inline void odp_prefetch(const void *addr)
{
	__builtin_prefetch(addr, 0, 3);
}

static inline void odp_prefetch_l1(const void *addr)
{
	__builtin_prefetch(addr, 0, 3);
}

static inline void odp_prefetch_l2(const void *addr)
{
	__builtin_prefetch(addr, 0, 2);
}

static inline void odp_prefetch_l3(const void *addr)
{
	__builtin_prefetch(addr, 0, 1);
}

/** Prefetch for writing. */
static inline void odp_prefetch_store(const void *addr)
{
	__builtin_prefetch(addr, 1, 3);
}

static inline void odp_prefetch_store_l1(const void *addr)
{
	__builtin_prefetch(addr, 1, 3);
}

static inline void odp_prefetch_store_l2(const void *addr)
{
	__builtin_prefetch(addr, 1, 2);
}

static inline void odp_prefetch_store_l3(const void *addr)
{
	__builtin_prefetch(addr, 1, 1);
}

#ifdef __cplusplus
}
#endif

#endif
