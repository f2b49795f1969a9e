/* Bundled ODP: CPU masks (odp/api/cpumask.h). */
#ifndef ODP_BUNDLED_API_CPUMASK_H_
#define ODP_BUNDLED_API_CPUMASK_H_

#include <odp/api/std_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Number of CPUs a mask can hold (as glibc's cpu_set_t). */
#define ODP_CPUMASK_SIZE 1024

/** Buffer size that fits any mask printed by odp_cpumask_to_str(). */
#define ODP_CPUMASK_STR_SIZE ((ODP_CPUMASK_SIZE + 3) / 4 + 3)

typedef struct odp_cpumask_s odp_cpumask_t;

/** CPU mask: bit N of byte N / 8 is CPU N. Use the calls, not the bytes. */
struct ODP_ALIGNED(8) odp_cpumask_s {
	uint8_t _u8[ODP_CPUMASK_SIZE / 8];
};

/** Add the CPUs of a hex string ("0x5", "5", "0005") to the mask. */
void odp_cpumask_from_str(odp_cpumask_t *mask, const char *str);

/** Print the mask as "0x..." hex; returns chars written incl. NUL, <0 if too small. */
int32_t odp_cpumask_to_str(const odp_cpumask_t *mask, char *str, int32_t size);

void odp_cpumask_zero(odp_cpumask_t *mask);
void odp_cpumask_set(odp_cpumask_t *mask, int cpu);
void odp_cpumask_setall(odp_cpumask_t *mask);
void odp_cpumask_clr(odp_cpumask_t *mask, int cpu);
int odp_cpumask_isset(const odp_cpumask_t *mask, int cpu);
int odp_cpumask_count(const odp_cpumask_t *mask);
void odp_cpumask_and(odp_cpumask_t *dest, const odp_cpumask_t *src1,
		     const odp_cpumask_t *src2);
void odp_cpumask_or(odp_cpumask_t *dest, const odp_cpumask_t *src1,
		    const odp_cpumask_t *src2);
void odp_cpumask_xor(odp_cpumask_t *dest, const odp_cpumask_t *src1,
		     const odp_cpumask_t *src2);
int odp_cpumask_equal(const odp_cpumask_t *mask1, const odp_cpumask_t *mask2);
void odp_cpumask_copy(odp_cpumask_t *dest, const odp_cpumask_t *src);

/** First, last and next CPU set in the mask; <0 when there is none. */
int odp_cpumask_first(const odp_cpumask_t *mask);
int odp_cpumask_last(const odp_cpumask_t *mask);
int odp_cpumask_next(const odp_cpumask_t *mask, int cpu);

/**
 * Default CPUs for worker threads: the available CPUs except the first one
 * (left to control threads) when there are two or more, or the mask given in
 * odp_init_t.worker_cpus. At most 'num' CPUs (0: all). mask may be NULL.
 * Returns the number of CPUs selected.
 */
int odp_cpumask_default_worker(odp_cpumask_t *mask, int num);

/** Default CPUs for control threads: the first available CPU, or odp_init_t.control_cpus. */
int odp_cpumask_default_control(odp_cpumask_t *mask, int num);

/** All CPUs available to this process; returns their number. */
int odp_cpumask_all_available(odp_cpumask_t *mask);

#ifdef __cplusplus
}
#endif

#endif
