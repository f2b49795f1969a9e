/* Bundled ODP: CPUs, CPU masks and the cycle counter. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "odp_internal.h"

int odp_cpu_id(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : cpu;
}

int odp_cpumask_all_available(odp_cpumask_t *mask)
{
	cpu_set_t set;
	odp_cpumask_t tmp;

	if (!mask)
		mask = &tmp;
	odp_cpumask_zero(mask);
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		odp_cpumask_set(mask, 0);
		return 1;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE && cpu < ODP_CPUMASK_SIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			odp_cpumask_set(mask, cpu);
	return odp_cpumask_count(mask);
}

int odp_cpu_count(void)
{
	return odp_cpumask_all_available(NULL);
}

static char cpu_model[128];
static pthread_once_t cpu_model_once = PTHREAD_ONCE_INIT;

static void read_cpu_model(void)
{
	char line[256];
	FILE *f;

	snprintf(cpu_model, sizeof(cpu_model), "unknown");
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && strncmp(line, "model name", 10) == 0) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(cpu_model, sizeof(cpu_model), "%s", colon);
			break;
		}
	}
	fclose(f);
}

const char *odp_cpu_model_str(void)
{
	pthread_once(&cpu_model_once, read_cpu_model);
	return cpu_model;
}

uint64_t odp_cpu_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
	uint64_t cnt;

	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(cnt));
	return cnt;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * ODP_TIME_SEC_IN_NS + (uint64_t)ts.tv_nsec;
#endif
}

uint64_t odp_cpu_cycles_max(void)
{
	return UINT64_MAX;
}

uint64_t odp_cpu_cycles_diff(uint64_t c2, uint64_t c1)
{
	/* Unsigned arithmetic covers one wrap of a 64-bit counter. */
	return c2 - c1;
}

/* ---- CPU masks ---- */

void odp_cpumask_zero(odp_cpumask_t *mask)
{
	memset(mask->_u8, 0, sizeof(mask->_u8));
}

void odp_cpumask_set(odp_cpumask_t *mask, int cpu)
{
	if (cpu >= 0 && cpu < ODP_CPUMASK_SIZE)
		mask->_u8[cpu / 8] |= (uint8_t)(1u << (cpu % 8));
}

void odp_cpumask_setall(odp_cpumask_t *mask)
{
	memset(mask->_u8, 0xff, sizeof(mask->_u8));
}

void odp_cpumask_clr(odp_cpumask_t *mask, int cpu)
{
	if (cpu >= 0 && cpu < ODP_CPUMASK_SIZE)
		mask->_u8[cpu / 8] &= (uint8_t)~(1u << (cpu % 8));
}

int odp_cpumask_isset(const odp_cpumask_t *mask, int cpu)
{
	if (cpu < 0 || cpu >= ODP_CPUMASK_SIZE)
		return 0;
	return (mask->_u8[cpu / 8] >> (cpu % 8)) & 1;
}

int odp_cpumask_count(const odp_cpumask_t *mask)
{
	int n = 0;

	for (size_t i = 0; i < sizeof(mask->_u8); i++)
		n += __builtin_popcount(mask->_u8[i]);
	return n;
}

void odp_cpumask_and(odp_cpumask_t *dest, const odp_cpumask_t *src1, const odp_cpumask_t *src2)
{
	for (size_t i = 0; i < sizeof(dest->_u8); i++)
		dest->_u8[i] = src1->_u8[i] & src2->_u8[i];
}

void odp_cpumask_or(odp_cpumask_t *dest, const odp_cpumask_t *src1, const odp_cpumask_t *src2)
{
	for (size_t i = 0; i < sizeof(dest->_u8); i++)
		dest->_u8[i] = src1->_u8[i] | src2->_u8[i];
}

void odp_cpumask_xor(odp_cpumask_t *dest, const odp_cpumask_t *src1, const odp_cpumask_t *src2)
{
	for (size_t i = 0; i < sizeof(dest->_u8); i++)
		dest->_u8[i] = src1->_u8[i] ^ src2->_u8[i];
}

int odp_cpumask_equal(const odp_cpumask_t *mask1, const odp_cpumask_t *mask2)
{
	return memcmp(mask1->_u8, mask2->_u8, sizeof(mask1->_u8)) == 0;
}

void odp_cpumask_copy(odp_cpumask_t *dest, const odp_cpumask_t *src)
{
	memcpy(dest->_u8, src->_u8, sizeof(dest->_u8));
}

int odp_cpumask_next(const odp_cpumask_t *mask, int cpu)
{
	for (int c = cpu < 0 ? 0 : cpu + 1; c < ODP_CPUMASK_SIZE; c++)
		if (odp_cpumask_isset(mask, c))
			return c;
	return -1;
}

int odp_cpumask_first(const odp_cpumask_t *mask)
{
	return odp_cpumask_next(mask, -1);
}

int odp_cpumask_last(const odp_cpumask_t *mask)
{
	for (int c = ODP_CPUMASK_SIZE - 1; c >= 0; c--)
		if (odp_cpumask_isset(mask, c))
			return c;
	return -1;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void odp_cpumask_from_str(odp_cpumask_t *mask, const char *str)
{
	size_t len;
	int cpu = 0;

	if (str[0] == '0' && (str[1] == 'x' || str[1] == 'X'))
		str += 2;
	len = strlen(str);
	/* Least significant digit last: walk the string backwards. */
	for (size_t i = len; i > 0; i--, cpu += 4) {
		int v = hex_value(str[i - 1]);

		if (v < 0)
			return;
		for (int b = 0; b < 4; b++)
			if (v & (1 << b))
				odp_cpumask_set(mask, cpu + b);
	}
}

int32_t odp_cpumask_to_str(const odp_cpumask_t *mask, char *str, int32_t size)
{
	int last = odp_cpumask_last(mask);
	int digits = last < 0 ? 1 : last / 4 + 1;
	int32_t need = digits + 3;

	if (!str || size < need)
		return -1;
	str[0] = '0';
	str[1] = 'x';
	for (int d = 0; d < digits; d++) {
		int cpu = (digits - 1 - d) * 4;
		int v = 0;

		for (int b = 0; b < 4; b++)
			v |= odp_cpumask_isset(mask, cpu + b) << b;
		str[2 + d] = "0123456789abcdef"[v];
	}
	str[2 + digits] = '\0';
	return need;
}

static int take_first(odp_cpumask_t *out, const odp_cpumask_t *from, int num)
{
	int n = 0;

	odp_cpumask_zero(out);
	for (int cpu = odp_cpumask_first(from); cpu >= 0 && (num == 0 || n < num);
	     cpu = odp_cpumask_next(from, cpu)) {
		odp_cpumask_set(out, cpu);
		n++;
	}
	return n;
}

int odp_cpumask_default_worker(odp_cpumask_t *mask, int num)
{
	odp_cpumask_t avail;
	odp_cpumask_t out;
	int n;

	if (_odp_global.inited && _odp_global.worker_cpus_set) {
		odp_cpumask_copy(&avail, &_odp_global.worker_cpus);
	} else {
		n = odp_cpumask_all_available(&avail);
		/* Leave the first CPU to control threads when there is a choice. */
		if (n > 1)
			odp_cpumask_clr(&avail, odp_cpumask_first(&avail));
	}
	n = take_first(&out, &avail, num < 0 ? 0 : num);
	if (mask)
		odp_cpumask_copy(mask, &out);
	return n;
}

int odp_cpumask_default_control(odp_cpumask_t *mask, int num)
{
	odp_cpumask_t avail;
	odp_cpumask_t out;
	int n;

	if (_odp_global.inited && _odp_global.control_cpus_set) {
		odp_cpumask_copy(&avail, &_odp_global.control_cpus);
		n = take_first(&out, &avail, num < 0 ? 0 : num);
	} else {
		odp_cpumask_all_available(&avail);
		n = take_first(&out, &avail, 1);
	}
	if (mask)
		odp_cpumask_copy(mask, &out);
	return n;
}
